"""Two players trade live, each in a browser context of their own (rulebook, Trade Lobby:
"Trading with Other Players", "Trade Screen"; "User Lists": Trade)."""

import pytest
from playwright.sync_api import expect

from collection.services.wants import want_set
from tests.browser.conftest import ACTION_TIMEOUT_MS, ARTIFACTS
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory
from tests.trades.live_helpers import booster, cards, copies, give_cards, give_products

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_as(browser, live_server, settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    contexts = []

    def open_(user):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 1366, "height": 768}
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        log_in(page, user.username)
        page.goto("/lobbies/trade/")
        expect(page.locator("#chat-status")).to_be_hidden()
        return page

    yield open_
    for context in contexts:
        context.close()


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_two_players_trade_by_the_user_list_and_see_their_deliveries(catalog, open_as):
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    bobs = cards(8)
    give_cards(bob, {card: 2 for card in bobs})
    want_set(owner=bob, card=bobs[0], want=2)  # all wanted: not shown to Carol
    carols = cards(12)[-3:]
    give_cards(carol, {card: 1 for card in carols})
    give_products(carol, booster(), 1)
    wanted_by_carol, wanted_by_bob = bobs[1], carols[0]

    carol_page, bob_page = open_as(carol), open_as(bob)

    # Carol asks Bob with the name's menu; Bob accepts in the pop-up.
    carol_page.locator('#user-list li[data-username="Bob"] button').click(button="right")
    carol_page.get_by_role("menuitem", name="Trade").click()
    expect(carol_page.locator("#user-menu")).to_contain_text("You ask Bob to trade")
    toast = bob_page.locator("#toasts").get_by_text("would like to trade")
    expect(toast).to_be_visible()
    shot(bob_page, "live-trade-request")
    bob_page.locator("#toasts").get_by_role("button", name="Accept").click()

    # Both are brought to the Trade Screen, each looking at the other's binder.
    expect(bob_page.get_by_role("heading", name="Trading with Carol")).to_be_visible()
    expect(carol_page.get_by_role("heading", name="Trading with Bob")).to_be_visible()
    expect(carol_page.locator(f'.trade-item[data-card="{bobs[0].pk}"]')).to_have_count(0)
    expect(carol_page.locator(".trade-item--card")).to_have_count(len(bobs) - 1)
    expect(bob_page.locator(".trade-item--product")).to_have_count(1)

    # Each adds a card by double-click; the other sees it at once.
    carol_page.locator(f'.trade-item[data-card="{wanted_by_carol.pk}"]').dblclick()
    expect(carol_page.locator(".trade-area--get")).to_contain_text(wanted_by_carol.title)
    expect(bob_page.locator(".trade-area--give")).to_contain_text(wanted_by_carol.title)
    bob_page.locator(f'.trade-item[data-card="{wanted_by_bob.pk}"]').dblclick()
    expect(bob_page.locator(".trade-area--get")).to_contain_text(wanted_by_bob.title)
    expect(carol_page.locator(".trade-area--give")).to_contain_text(wanted_by_bob.title)
    shot(carol_page, "live-trade-screen")

    # The menu adds 1 to 5 copies; a drag adds one; a double-click in the offer takes one out.
    extra = carol_page.locator(f'.trade-item[data-card="{bobs[2].pk}"]')
    extra.click(button="right")
    expect(carol_page.get_by_role("menuitem", name="Add 3 copies")).to_have_count(0)
    carol_page.get_by_role("menuitem", name="Add 2 copies").click()
    line = carol_page.locator(f'.trade-area--get .trade-line[data-card="{bobs[2].pk}"]')
    expect(line).to_contain_text("2 ×")
    expect(bob_page.locator(".trade-area--give")).to_contain_text(bobs[2].title)
    line.dblclick()
    expect(line).to_contain_text("1 ×")
    line.dblclick()
    expect(line).to_have_count(0)
    dragged = bob_page.locator(f'.trade-item[data-card="{carols[1].pk}"]')
    dragged.drag_to(bob_page.locator(".trade-area--get"))
    bob_line = bob_page.locator(f'.trade-area--get .trade-line[data-card="{carols[1].pk}"]')
    expect(bob_line).to_contain_text("1 ×")
    bob_line.dblclick()
    expect(bob_line).to_have_count(0)

    # Bob's own tab: what he offers, to give from.
    bob_page.get_by_role("link", name="Your collection").click()
    expect(bob_page.locator(".trade-results__count")).to_contain_text("You offer 7 cards")
    expect(bob_page.locator(f'.trade-item[data-giver="{bob.pk}"]')).to_have_count(7)
    shot(bob_page, "live-trade-own-tab")
    bob_page.get_by_role("link", name="Carol's binder").click()
    expect(bob_page.locator(".trade-item--product")).to_have_count(1)

    # Accept, then the confirmation dialog, by both.
    carol_page.locator("#trade-offer").get_by_role("button", name="Accept").click()
    expect(bob_page.locator(".trade-lights")).to_contain_text("Carol accepted")
    bob_page.locator("#trade-offer").get_by_role("button", name="Accept", exact=True).click()
    for page in (carol_page, bob_page):
        expect(page.locator("#trade-confirm")).to_be_visible()
    shot(bob_page, "live-trade-confirm")
    carol_page.locator("#trade-confirm").get_by_role("button", name="Accept").click()
    expect(bob_page.locator("#trade-confirm")).to_contain_text("Carol has confirmed")
    # Put aside, the dialog waits for Confirm… in the offer.
    bob_page.locator("#trade-confirm").get_by_role("button", name="Back to the offer").click()
    expect(bob_page.locator("#trade-confirm")).to_be_hidden()
    bob_page.locator("#trade-offer").get_by_role("button", name="Confirm…").click()
    bob_page.locator("#trade-confirm").get_by_role("button", name="Accept").click()

    # Each sees the delivery window with what arrived.
    expect(carol_page.locator("#trade-delivery")).to_be_visible()
    expect(carol_page.locator("#trade-delivery")).to_contain_text(wanted_by_carol.title)
    expect(bob_page.locator("#trade-delivery")).to_contain_text(wanted_by_bob.title)
    shot(carol_page, "live-trade-delivery")
    assert (copies(carol, wanted_by_carol), copies(bob, wanted_by_carol)) == (1, 1)
    assert (copies(bob, wanted_by_bob), copies(carol, wanted_by_bob)) == (1, 0)

    # The session goes on with an empty offer; Return to Lobby ends it for both.
    carol_page.locator("#trade-delivery").get_by_role("button", name="OK").click()
    expect(carol_page.locator(".trade-offer__note")).to_contain_text("continue to process more")
    carol_page.locator(".trade-head").click(button="right", position={"x": 700, "y": 10})
    carol_page.get_by_role("menuitem", name="Return to Lobby").click()
    expect(carol_page).to_have_url("/lobbies/trade/")
    bob_page.locator("#trade-delivery").get_by_role("button", name="OK").click()
    expect(bob_page.locator("#trade-offer")).to_contain_text("Carol returned to the lobby")
