"""The posted trades pages (rulebook, "Trade Lobby": "Posted Trades", "Guild-Only Trades"):
the board with its Search and "Only show trades I can accept", a listing with Accept and
Close, the delivery window, My Trades, the Create screen, /ptrade and the Trade Lobby's
Posted Trades button."""

from urllib.parse import quote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.models import CardOwnership, LedgerOperation
from collection.trades.models import PostedTrade, PostedTradeStatus
from collection.trades.services.posted import (
    posted_trade_accept,
    posted_trade_create,
    posted_trade_withdraw,
)
from guilds.models import Guild, GuildMembership
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import OpenPage
from tcgsite.lobbies.services.chat import ChatError, chat_submit
from tests.factories import UserFactory
from tests.trades.posted_helpers import (
    booster,
    card_item,
    cards,
    give_cards,
    give_products,
    product_item,
)

pytestmark = pytest.mark.django_db

BOARD = reverse("trades:posted_board")


def post(poster, offer_card, want_card, *, want=1, guild_only=False, products=0):
    give_cards(poster, {offer_card.pk: 1})
    offer = [card_item(offer_card, 1)]
    if products:
        give_products(poster, booster(), products)
        offer.append(product_item(booster(), products))
    return posted_trade_create(
        poster=poster, offer=offer, want=[card_item(want_card, want)], guild_only=guild_only
    )


def rows(response) -> list[int]:
    return [trade.pk for trade in response.context["page"].object_list]


@pytest.fixture
def viewer(client, catalog):
    player = UserFactory(username="Viewer")
    client.force_login(player)
    return player


def test_the_board_lists_other_players_open_trades_and_what_they_want_and_offer(client, viewer):
    """Posted Trades: "you'll see a window displaying all trades currently being offered by
    other players"."""
    a, b, c = cards(3)
    han = UserFactory(username="Han")
    shown = post(han, a, b)
    withdrawn = post(han, a, c)
    withdrawn.status = PostedTradeStatus.WITHDRAWN
    withdrawn.save()
    own = post(viewer, a, b)

    response = client.get(BOARD)

    assert rows(response) == [shown.pk]
    assert own.pk not in rows(response)
    html = response.content.decode()
    assert a.title in html and b.title in html and "Han" in html
    assert reverse("trades:posted_create") in html  # the Create button


def test_search_keeps_trades_naming_a_card_title_or_product_name(client, viewer):
    """Posted Trades: "You can use the Search field to look for trades involving specific
    items. The trade list updates immediately, as you type." (htmx swaps the results)."""
    a, b, c = cards(3)
    han = UserFactory()
    with_a = post(han, a, b)
    with_c = post(han, c, b, products=1)

    response = client.get(
        BOARD, {"q": a.title[:6]}, headers={"HX-Request": "true", "HX-Target": "posted-results"}
    )
    assert with_a.pk in rows(response) and with_c.pk not in rows(response)
    assert "<html" not in response.content.decode()  # only the results are swapped in

    by_product = client.get(BOARD, {"q": booster().name})
    assert rows(by_product) == [with_c.pk]


def test_only_show_trades_i_can_accept_hides_what_the_viewer_cannot_pay(client, viewer):
    """Posted Trades: "Click the box at the lower left to 'Only show trades I can accept.'"""
    a, b, c = cards(3)
    han = UserFactory()
    payable = post(han, a, b, want=2)
    too_many = post(han, a, c, want=3)
    give_cards(viewer, {b.pk: 2, c.pk: 2})
    products = posted_trade_create(
        poster=han, offer=[card_item(a, 1)], want=[product_item(booster(), 1)]
    )

    assert set(rows(client.get(BOARD))) == {payable.pk, too_many.pk, products.pk}
    assert rows(client.get(BOARD, {"can": "1"})) == [payable.pk]
    give_products(viewer, booster(), 1)
    assert set(rows(client.get(BOARD, {"can": "1"}))) == {payable.pk, products.pk}


def test_the_board_pages_to_older_trades(client, viewer, monkeypatch):
    monkeypatch.setattr("collection.trades.views.posted.BOARD_PAGE_SIZE", 2)
    a, b = cards(2)
    han = UserFactory()
    newest_first = [post(han, a, b).pk for _ in range(5)][::-1]

    first = client.get(BOARD)
    assert rows(first) == newest_first[:2]
    older = first.context["page"].older_than
    assert f"before={older}" in first.content.decode()
    second = client.get(BOARD, {"before": older})
    assert rows(second) == newest_first[2:4]
    last = client.get(BOARD, {"before": second.context["page"].older_than})
    assert rows(last) == newest_first[4:]
    assert last.context["page"].older_than is None


def test_the_boards_addresses_built_from_prefixes_are_the_routes_own(client, viewer, monkeypatch):
    """The board's rows build a listing's address from a prefix instead of reversing it once
    per trade (collection/trades/templatetags/posted_board.py), and the pager its links from
    the board's address: they are the addresses ``reverse`` gives."""
    monkeypatch.setattr("collection.trades.views.posted.BOARD_PAGE_SIZE", 1)
    a, b = cards(2)
    han = UserFactory()
    older, newest = post(han, a, b), post(han, a, b)
    assert older.pk < newest.pk

    page = client.get(BOARD, {"q": a.title}).content.decode()
    detail = reverse("trades:posted_detail", args=[newest.pk])
    assert f'data-posted-open="{detail}"' in page and f'href="{detail}"' in page
    query = f"?q={quote(a.title)}&amp;before={newest.pk}"
    assert f'hx-get="{BOARD}{query}"' in page and f'href="{query}"' in page


def test_guild_only_trades_are_seen_by_the_posters_guild_alone(client, viewer):
    """Guild-Only Trades: "A Guild-Only trade can only be viewed by members in your Guild"."""
    a, b = cards(2)
    han = UserFactory()
    guild = Guild.objects.create(name="Rebels", leader=han)
    GuildMembership.objects.create(guild=guild, user=han)
    secret = post(han, a, b, guild_only=True)

    assert rows(client.get(BOARD)) == []
    assert client.get(reverse("trades:posted_detail", args=[secret.pk])).status_code == 404
    GuildMembership.objects.create(guild=guild, user=viewer)
    assert rows(client.get(BOARD)) == [secret.pk]


def test_trades_of_ignored_players_are_left_off_the_board(client, viewer):
    a, b = cards(2)
    han, lando = UserFactory(), UserFactory()
    post(han, a, b)
    post(lando, a, b)
    viewer.ignored.add(han)
    lando.ignored.add(viewer)
    assert rows(client.get(BOARD)) == []


@pytest.mark.parametrize("only_acceptable", [False, True])
def test_the_board_takes_the_same_queries_however_many_trades_and_lines(
    client, viewer, only_acceptable
):
    """A constant number of queries whatever the number of trades and lines, with "Only show
    trades I can accept" on and off."""
    deck = cards(6)
    give_cards(viewer, {card.pk: 4 for card in deck})
    params = {"can": "1"} if only_acceptable else {}

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(BOARD, params)
        assert response.status_code == 200
        return len(captured)

    han = UserFactory()
    post(han, deck[0], deck[1])
    few = queries()
    for index in range(8):
        poster = UserFactory()
        give_cards(poster, {card.pk: 1 for card in deck})
        posted_trade_create(
            poster=poster,
            offer=[card_item(card, 1) for card in deck[:3]] + [],
            want=[card_item(card, 1) for card in deck[3 : 3 + index % 3 + 1]],
        )
    post(UserFactory(), deck[2], deck[3], products=2)
    assert len(rows(client.get(BOARD, params))) == 10
    assert queries() == few


def test_a_listing_shows_its_items_with_accept_and_close(client, viewer):
    """Posted Trades: "You'll be shown a detailed listing of the items involved, and be given
    the choice to Accept or Close the trade"."""
    a, b = cards(2)
    trade = post(UserFactory(username="Han"), a, b, products=1)
    html = client.get(reverse("trades:posted_detail", args=[trade.pk])).content.decode()
    assert a.title in html and b.title in html and booster().name in html
    assert reverse("trades:posted_accept", args=[trade.pk]) in html
    assert ">Close<" in html


def test_accepting_shows_the_delivery_window(client, viewer):
    a, b = cards(2)
    han = UserFactory(username="Han")
    trade = post(han, a, b)
    give_cards(viewer, {b.pk: 1})

    response = client.post(reverse("trades:posted_accept", args=[trade.pk]), follow=True)

    assert response.redirect_chain == [(reverse("trades:posted_delivery", args=[trade.pk]), 302)]
    html = response.content.decode()
    assert "Delivery" in html and a.title in html
    assert PostedTrade.objects.get(pk=trade.pk).accepted_by == viewer
    client.force_login(han)
    assert client.get(reverse("trades:posted_delivery", args=[trade.pk])).status_code == 404


def test_a_refused_acceptance_shows_its_message_on_the_listing(client, viewer):
    a, b = cards(2)
    trade = post(UserFactory(), a, b)

    response = client.post(reverse("trades:posted_accept", args=[trade.pk]))

    assert response.status_code == 409
    assert "You don&#x27;t have what the trade asks" in response.content.decode()


def close(trade, how: str):
    """The trade leaves the board: another player accepts it, or its poster withdraws it."""
    if how == "accepted":
        leia = UserFactory(username="Leia")
        give_cards(leia, {trade.wanted_lines()[0].card_id: 1})
        posted_trade_accept(trade_id=trade.pk, taker=leia)
    else:
        posted_trade_withdraw(trade_id=trade.pk, poster=trade.poster)


def holdings() -> list[tuple[int, int, int]]:
    return sorted(CardOwnership.objects.values_list("owner_id", "card_id", "quantity"))


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("accepted", "was just accepted by another player; nothing moved."),
        ("withdrawn", "was just withdrawn by its poster; nothing moved."),
    ],
)
def test_accepting_a_trade_that_left_the_board_a_moment_before_says_so_on_the_board(
    client, viewer, how, message
):
    """Posted Trades: a player who loses the race, or whose trade was withdrawn meanwhile,
    is told so on the board (the listing is no longer theirs to see) and nothing moves."""
    a, b = cards(2)
    trade = post(UserFactory(username="Han"), a, b)
    give_cards(viewer, {b.pk: 1})
    close(trade, how)
    before = holdings(), LedgerOperation.objects.count()

    response = client.post(reverse("trades:posted_accept", args=[trade.pk]))

    assert response.status_code == 302 and response["Location"] == BOARD
    board = client.get(BOARD)
    assert [str(line) for line in board.context["messages"]] == [
        f"Posted trade {trade.pk} {message}"
    ]
    assert f"Posted trade {trade.pk} {message}" in board.content.decode()
    assert (holdings(), LedgerOperation.objects.count()) == before


@pytest.mark.parametrize("how", ["accepted", "withdrawn"])
def test_opening_a_listing_that_left_the_board_says_why_on_the_board(client, viewer, how):
    """A listing opened from a board shown before the trade was accepted or withdrawn."""
    a, b = cards(2)
    trade = post(UserFactory(username="Han"), a, b)
    close(trade, how)

    response = client.get(reverse("trades:posted_detail", args=[trade.pk]), follow=True)

    assert response.redirect_chain == [(BOARD, 302)]
    assert f"Posted trade {trade.pk} was just {how}" in response.content.decode()


def test_a_closed_guild_only_trade_stays_unknown_outside_the_guild(client, viewer):
    a, b = cards(2)
    han = UserFactory()
    guild = Guild.objects.create(name="Rebels", leader=han)
    GuildMembership.objects.create(guild=guild, user=han)
    trade = post(han, a, b, guild_only=True)
    close(trade, "withdrawn")

    assert client.get(reverse("trades:posted_detail", args=[trade.pk])).status_code == 404


def test_withdrawing_a_trade_accepted_a_moment_before_says_who_accepted_it(client, viewer):
    a, b = cards(2)
    trade = post(viewer, a, b)
    close(trade, "accepted")

    response = client.post(reverse("trades:posted_withdraw", args=[trade.pk]), follow=True)

    assert response.redirect_chain == [(reverse("trades:posted_mine"), 302)]
    assert f"Leia accepted posted trade {trade.pk} before you withdrew it." in (
        response.content.decode()
    )
    assert PostedTrade.objects.get(pk=trade.pk).status == PostedTradeStatus.ACCEPTED


def test_my_trades_lists_what_i_posted_accepted_and_withdrew(client, viewer):
    """A history for both players: posted, accepted, withdrawn, with the other party."""
    a, b, c = cards(3)
    han = UserFactory(username="Han")
    accepted = post(han, a, b)
    give_cards(viewer, {b.pk: 1})
    client.post(reverse("trades:posted_accept", args=[accepted.pk]))
    mine = post(viewer, c, a)
    withdrawn = post(viewer, c, b)
    client.post(reverse("trades:posted_withdraw", args=[withdrawn.pk]))

    html = client.get(reverse("trades:posted_mine")).content.decode()

    assert {accepted.pk, mine.pk, withdrawn.pk} == {
        trade.pk for trade in client.get(reverse("trades:posted_mine")).context["page"]
    }
    assert "Posted, withdrawn" in html and "Posted, waiting" in html and "Han" in html
    assert PostedTrade.objects.get(pk=withdrawn.pk).status == PostedTradeStatus.WITHDRAWN
    client.force_login(han)
    assert "Posted, accepted" in client.get(reverse("trades:posted_mine")).content.decode()


def test_the_create_screen_posts_the_proposal(client, viewer):
    """Create: the special Trade Screen; Their tab shows 4 copies of every card, Your tab
    the player's collection; Accept posts what You get and They get show."""
    a, b = cards(2)
    give_cards(viewer, {a.pk: 2})
    give_products(viewer, booster(), 1)
    screen = client.get(reverse("trades:posted_create"))
    assert screen.status_code == 200
    assert all(card.owned == 4 for card in screen.context["page"].object_list)
    your_tab = client.get(reverse("trades:posted_binder"), {"tab": "your"})
    assert [card.pk for card in your_tab.context["page"].object_list] == [a.pk]
    assert (booster(), 1) in your_tab.context["products"]

    response = client.post(
        reverse("trades:posted_create"),
        {"offer": [f"card:{a.pk}:2", f"product:{booster().pk}:1"], "want": [f"card:{b.pk}:3"]},
    )

    trade = PostedTrade.objects.get(poster=viewer)
    assert response.status_code == 302
    assert response["Location"] == reverse("trades:posted_detail", args=[trade.pk])
    assert [(line.card_id, line.quantity) for line in trade.wanted_lines()] == [(b.pk, 3)]


def test_a_guild_member_posts_a_guild_only_trade_from_the_create_screen(client, viewer):
    """Guild-Only Trades: the Create screen offers Guild-Only to a guild's members only."""
    a, b = cards(2)
    give_cards(viewer, {a.pk: 1})
    assert "Guild-Only" not in client.get(reverse("trades:posted_create")).content.decode()
    guild = Guild.objects.create(name="Rebels", leader=viewer)
    GuildMembership.objects.create(guild=guild, user=viewer)
    assert "Guild-Only" in client.get(reverse("trades:posted_create")).content.decode()

    client.post(
        reverse("trades:posted_create"),
        {"offer": [f"card:{a.pk}:1"], "want": [f"card:{b.pk}:1"], "guild_only": "1"},
    )

    assert PostedTrade.objects.get(poster=viewer).guild == guild


def test_the_create_screen_keeps_the_proposal_and_says_what_is_wrong(client, viewer):
    a, b = cards(2)
    response = client.post(
        reverse("trades:posted_create"), {"offer": [f"card:{a.pk}:2"], "want": [f"card:{b.pk}:1"]}
    )
    html = response.content.decode()
    assert "You don&#x27;t have everything you offer" in html
    assert f'value="card:{a.pk}:2"' in html and f'value="card:{b.pk}:1"' in html
    bad = client.post(reverse("trades:posted_create"), {"offer": ["card:x:2"]})
    assert "could not be read" in bad.content.decode()
    assert not PostedTrade.objects.exists()


def test_ptrade_opens_the_posted_trades_window_in_the_trade_lobby(viewer):
    """Posted Trades: "Type /ptrade into the chat"."""
    (line,) = chat_submit(user=viewer, lobby=Lobby.TRADE, text="/ptrade")
    assert line == OpenPage("Opening the posted trades.", BOARD, window=True)
    with pytest.raises(ChatError, match="can't be used in the Casual Lobby"):
        chat_submit(user=viewer, lobby=Lobby.CASUAL, text="/ptrade")


def test_the_trade_lobby_shows_a_posted_trades_button(client, viewer):
    """Posted Trades: "Click the Posted Trades button in the Trade Lobby"."""
    html = client.get(reverse("lobbies:lobby", args=["trade"])).content.decode()
    assert f'href="{BOARD}"' in html
    casual = client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()
    assert f'href="{BOARD}"' not in casual


def test_staff_look_into_posted_trades_in_the_admin(client, catalog):
    a, b = cards(2)
    trade = post(UserFactory(), a, b)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get(reverse("admin:trades_postedtrade_changelist")).status_code == 200
    page = client.get(reverse("admin:trades_postedtrade_change", args=[trade.pk]))
    assert page.status_code == 200 and a.title in page.content.decode()
