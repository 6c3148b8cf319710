"""Two players and a posted trade, each in a browser context of their own (rulebook, "Trade
Lobby": "Posted Trades", "Trade Screen"): one creates it on the Create screen, the other
accepts it from the board, and each sees the result."""

import pytest
from playwright.sync_api import expect

from collection.cards.filters import CardFilters
from collection.models import CardOwnership
from collection.trades.models import PostedTrade, PostedTradeStatus
from collection.trades.selectors.posted import their_binder_cards
from collection.trades.services.posted import posted_trade_create
from tests.browser.conftest import ACTION_TIMEOUT_MS, ARTIFACTS
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory
from tests.trades.posted_helpers import card_item, cards, give_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_as(browser, live_server, settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    contexts = []

    def open_(player):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 1366, "height": 768}
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        log_in(page, player.username)
        return page

    yield open_
    for context in contexts:
        context.close()


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_a_trade_posted_on_the_create_screen_is_accepted_from_the_board(open_as):
    wanted = their_binder_cards(filters=CardFilters()).first()
    offered = their_binder_cards(filters=CardFilters()).exclude(pk=wanted.pk).last()
    han, leia = UserFactory(username="Han"), UserFactory(username="Leia")
    give_cards(han, {offered.pk: 3})
    give_cards(leia, {wanted.pk: 1})

    # Han goes from the Trade Lobby's Posted Trades button to Create.
    han_page = open_as(han)
    han_page.goto("/lobbies/trade/")
    shot(han_page, "posted-trades-lobby")
    han_page.locator("#posted-trades-panel").get_by_role("link", name="Posted Trades").click()
    expect(han_page.get_by_role("heading", name="Posted Trades")).to_be_visible()
    han_page.get_by_role("link", name="Create").click()

    # Their tab: 4 copies of every card; a double-click adds one to You get.
    binder = han_page.locator("#posted-binder")
    expect(binder.locator(".tabs a[aria-current]")).to_have_text("Their")
    # The binder's search narrows the cards as Han types.
    binder.get_by_label("Search titles").fill(wanted.title)
    expect(han_page.locator("#posted-binder .trade-binder__cards > li")).to_have_count(1)
    expect(han_page.locator("#posted-binder .trade-binder__cards > li")).to_have_attribute(
        "data-item", f"card:{wanted.pk}"
    )
    binder.locator(f'[data-item="card:{wanted.pk}"]').dblclick()
    expect(han_page.locator("#you-get")).to_contain_text(f"1× {wanted.title}")
    shot(han_page, "posted-trades-create-their")
    # Your tab: the right-click menu adds 2 copies to They get.
    binder.get_by_role("link", name="Your").click()
    expect(han_page.locator("#posted-binder .tabs a[aria-current]")).to_have_text("Your")
    tile = han_page.locator(f'#posted-binder [data-item="card:{offered.pk}"]')
    tile.click(button="right")
    han_page.locator("#copies-menu").get_by_role("menuitem", name="Add 2").click()
    expect(han_page.locator("#they-get")).to_contain_text(f"2× {offered.title}")
    expect(tile.locator(".trade-tile__in")).to_have_text("2 in trade")
    shot(han_page, "posted-trades-create")
    han_page.locator("#posted-proposal").get_by_role("button", name="Accept").click()
    expect(han_page.get_by_text("Your trade is posted")).to_be_visible()
    trade = PostedTrade.objects.get(poster=han)

    # Leia types /ptrade in the Trade Lobby's chat: the posted trades window opens. She finds
    # the trade among those she can accept, and opens it.
    leia_page = open_as(leia)
    leia_page.goto("/lobbies/trade/")
    expect(leia_page.locator("#chat-status")).to_be_hidden()
    leia_page.locator("#chat-input").fill("/ptrade")
    leia_page.locator("#chat-input").press("Enter")
    expect(leia_page.locator("#match-dialog .posted-window")).to_be_visible()
    leia_page.get_by_label("Only show trades I can accept").check()
    row = leia_page.locator(f'#posted-results [data-posted-open$="/{trade.pk}/"]')
    expect(row).to_contain_text("Han")
    leia_page.get_by_label("Search").fill("no such card anywhere")
    expect(row).to_be_hidden()
    leia_page.get_by_label("Search").fill(offered.title[:5])
    expect(row).to_be_visible()
    shot(leia_page, "posted-trades-window")
    row.dblclick()
    expect(leia_page.get_by_role("heading", name=f"Posted trade {trade.pk}")).to_be_visible()
    shot(leia_page, "posted-trades-listing")
    leia_page.get_by_role("button", name="Accept").click()

    # Each sees the result: Leia's delivery window, Han's pop-up and his My Trades.
    expect(leia_page.get_by_role("heading", name="Delivery")).to_be_visible()
    expect(leia_page.locator(".posted-delivery")).to_contain_text(f"2× {offered.title}")
    shot(leia_page, "posted-trades-delivery")
    expect(han_page.locator("#toasts")).to_contain_text("Leia accepted your posted trade")
    han_page.goto("/trades/posted/mine/")
    expect(han_page.locator(".posted-history")).to_contain_text("Posted, accepted")
    expect(han_page.locator(".posted-history")).to_contain_text("Leia")
    shot(han_page, "posted-trades-mine")
    assert PostedTrade.objects.get(pk=trade.pk).status == PostedTradeStatus.ACCEPTED
    assert CardOwnership.objects.get(owner=leia, card=offered).quantity == 2
    assert CardOwnership.objects.get(owner=han, card=wanted).quantity == 1


def test_the_player_who_accepts_second_is_told_on_the_board(open_as):
    """Leia and Lando both have Han's listing open; Leia accepts first. Lando's Accept brings
    him back to the board, which says the trade was just accepted, and nothing of his moved."""
    wanted, offered = cards(2)
    han, leia, lando = (UserFactory(username=name) for name in ("Han", "Leia", "Lando"))
    give_cards(han, {offered.pk: 1})
    give_cards(leia, {wanted.pk: 1})
    give_cards(lando, {wanted.pk: 1})
    trade = posted_trade_create(
        poster=han, offer=[card_item(offered, 1)], want=[card_item(wanted, 1)]
    )
    listing = f"/trades/posted/{trade.pk}/"
    leia_page, lando_page = open_as(leia), open_as(lando)
    for page in (leia_page, lando_page):
        page.goto(listing)
        expect(page.get_by_role("heading", name=f"Posted trade {trade.pk}")).to_be_visible()

    leia_page.get_by_role("button", name="Accept").click()
    expect(leia_page.get_by_role("heading", name="Delivery")).to_be_visible()
    lando_page.get_by_role("button", name="Accept").click()

    expect(lando_page.get_by_role("heading", name="Posted Trades")).to_be_visible()
    expect(lando_page.locator(".messages")).to_contain_text(
        f"Posted trade {trade.pk} was just accepted by another player; nothing moved."
    )
    expect(lando_page.locator(f'[data-posted-open$="/{trade.pk}/"]')).to_have_count(0)
    shot(lando_page, "posted-trades-accepted-first-by-another")
    assert CardOwnership.objects.get(owner=lando, card=wanted).quantity == 1
    assert not CardOwnership.objects.filter(owner=lando, card=offered).exists()
