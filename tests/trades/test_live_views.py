"""The Trade Lobby's ways in (rulebook, "Chat Window Commands": /trade; "User Lists": Trade,
only in the Trade Lobby) and the Trade Screen's pages and htmx actions ("Trade Screen")."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.cards.models import Card
from collection.services.wants import want_set
from collection.trades.models import TradeSession, TradeSessionStatus
from collection.trades.services import live as services
from collection.trades.services.live import live_trade_offer_change
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.registry import commands_in
from tcgsite.lobbies.services.chat import ChatError, chat_submit
from tests.factories import UserFactory
from tests.trades.live_helpers import (
    booster,
    cards,
    copies,
    give_cards,
    give_products,
    in_lobby,
    open_session,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(catalog):
    return UserFactory(username="Carol")


@pytest.fixture
def bob(catalog):
    return UserFactory(username="Bob")


def menu_labels(client, user, lobby, target):
    client.force_login(user)
    response = client.get(reverse("lobbies:user_menu", args=[lobby, target.username]))
    return response.content.decode()


def test_slash_trade_asks_the_named_player(carol, bob):
    in_lobby(carol)
    in_lobby(bob)

    lines = chat_submit(user=carol, lobby="trade", text="/trade bob")

    assert lines == ["You ask Bob to trade; waiting for their answer."]
    session = TradeSession.objects.get()
    assert (session.initiator, session.partner, session.status) == (
        carol,
        bob,
        TradeSessionStatus.REQUESTED,
    )


def test_slash_trade_works_only_in_the_trade_lobby_and_is_listed_there(carol, bob):
    in_lobby(carol, "casual")
    in_lobby(bob)
    with pytest.raises(ChatError, match="/trade can't be used in the Casual Lobby"):
        chat_submit(user=carol, lobby="casual", text="/trade Bob")
    assert "trade" in [command.name for command in commands_in("trade")]
    assert "trade" not in [command.name for command in commands_in("casual")]


def test_slash_trade_takes_a_player_still_trading_back_to_their_trade_screen(carol, bob):
    session = open_session(carol, bob)

    (line,) = chat_submit(user=carol, lobby="trade", text="/trade Dave")

    assert line.text == "You are trading with Bob: back to your Trade Screen."
    assert line.url == f"/trades/live/{session.pk}/"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("/trade", "Name a player after /trade"),
        ("/trade Nobody", "There is no player called Nobody"),
        ("/trade Carol", "can't trade with yourself"),
    ],
)
def test_slash_trade_refusals_are_clear(carol, bob, text, message):
    in_lobby(carol)
    with pytest.raises(Exception, match=message):
        chat_submit(user=carol, lobby="trade", text=text)


def test_the_trade_entry_is_only_in_the_trade_lobby(client, carol, bob):
    assert 'data-menu-entry="trade"' in menu_labels(client, carol, "trade", bob)
    assert 'data-menu-entry="trade"' not in menu_labels(client, carol, "casual", bob)
    assert 'data-menu-entry="trade"' not in menu_labels(client, carol, "trade", carol)


def test_the_trade_entry_is_not_offered_by_a_player_who_ignores_you(client, carol, bob):
    accounts.ignore_add(user=bob, other=carol)
    assert 'data-menu-entry="trade"' not in menu_labels(client, carol, "trade", bob)


def test_the_trade_entry_asks_and_answers_in_the_menu(client, carol, bob):
    in_lobby(carol)
    in_lobby(bob)
    client.force_login(carol)
    url = reverse("trades:live_request", args=["Bob"])

    asked = client.post(url, HTTP_HX_REQUEST="true")
    again = client.post(url, HTTP_HX_REQUEST="true")

    assert "You ask Bob to trade" in asked.content.decode()
    assert "list-change--failed" in again.content.decode()
    assert "asked Bob already" in again.content.decode()


def test_accepting_in_the_pop_up_leads_to_the_trade_screen(client, carol, bob):
    in_lobby(carol)
    in_lobby(bob)
    client.force_login(carol)
    client.post(reverse("trades:live_request", args=["Bob"]), HTTP_HX_REQUEST="true")
    session = TradeSession.objects.get()
    client.force_login(bob)

    response = client.post(
        reverse("trades:live_answer", args=[session.pk]),
        {"answer": "accept"},
        HTTP_HX_REQUEST="true",
    )

    assert response["HX-Redirect"] == f"/trades/live/{session.pk}/"
    session.refresh_from_db()
    assert session.status == TradeSessionStatus.OPEN


def test_accepting_a_request_withdrawn_a_moment_before_says_so_in_the_trade_lobby(
    client, carol, bob
):
    """The pop-up stayed on Bob's page after Carol returned to the lobby: Accept takes him
    to the Trade Lobby, which says she withdrew the request; no session opens."""
    in_lobby(carol)
    in_lobby(bob)
    session = services.live_trade_request(asker=carol, partner=bob)
    services.live_trade_leave(session_id=session.pk, player=carol)
    client.force_login(bob)

    response = client.post(
        reverse("trades:live_answer", args=[session.pk]),
        {"answer": "accept"},
        HTTP_HX_REQUEST="true",
    )

    assert response["HX-Redirect"] == "/lobbies/trade/"
    lobby = client.get(response["HX-Redirect"]).content.decode()
    assert "Carol withdrew the trade request." in lobby
    session.refresh_from_db()
    assert session.status == TradeSessionStatus.CLOSED


def test_the_trade_screen_shows_the_partners_tradeable_cards_and_products(client, carol, bob):
    """Trade Screen: the partner's collection first, only what they offer for trade; a tab
    shows your own."""
    wanted, offered = cards(2)
    give_cards(bob, {wanted: 1, offered: 2})
    want_set(owner=bob, card=wanted, want=1)
    give_products(bob, booster(), 1)
    mine = Card.objects.printed().order_by("-pk").first()
    give_cards(carol, {mine: 1})
    session = open_session(carol, bob)
    client.force_login(carol)

    page = client.get(reverse("trades:live_screen", args=[session.pk])).content.decode()
    own = client.get(reverse("trades:live_screen_mine", args=[session.pk])).content.decode()

    assert "Trading with Bob" in page and "Player Tips" in page
    assert f'data-card="{offered.pk}"' in page and f'data-card="{wanted.pk}"' not in page
    assert f'data-product="{booster().pk}"' in page
    assert f'ws-connect="/ws/trade/{session.pk}/"' in page
    assert 'id="card-filters"' in page
    assert f'data-card="{mine.pk}"' in own and f'data-card="{offered.pk}"' not in own


def test_the_binder_pages_and_searches_with_htmx(client, carol, bob):
    many = cards(12)
    give_cards(bob, dict.fromkeys(many, 1))
    session = open_session(carol, bob)
    client.force_login(carol)
    url = reverse("trades:live_screen", args=[session.pk])

    second = client.get(url, {"page": 2}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results")
    found = client.get(url, {"q": many[3].title}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results")

    assert "Page 2 of 2" in second.content.decode()
    assert f'data-card="{many[11].pk}"' in second.content.decode()
    assert f'data-card="{many[3].pk}"' in found.content.decode()
    assert f'data-card="{many[0].pk}"' not in found.content.decode()


def test_only_the_two_players_see_the_trade_screen(client, carol, bob):
    session = open_session(carol, bob)
    client.force_login(UserFactory())
    assert client.get(reverse("trades:live_screen", args=[session.pk])).status_code == 404


def test_htmx_actions_answer_with_the_offer_and_refusals_as_messages(client, carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    client.force_login(carol)
    url = reverse("trades:live_offer_change", args=[session.pk])
    change = {"giver": bob.pk, "card": card.pk, "delta": "1"}

    added = client.post(url, change, HTTP_HX_REQUEST="true").content.decode()
    refused = client.post(url, change, HTTP_HX_REQUEST="true").content.decode()
    unreadable = client.post(url, {"giver": "x"}, HTTP_HX_REQUEST="true").content.decode()

    assert 'id="trade-offer"' in added and 'hx-swap-oob="true"' in added
    assert f'data-card="{card.pk}"' in added
    assert "trade-offer__error" in refused and "Bob has 1 ×" in refused
    assert "could not be read" in unreadable


def test_a_whole_trade_through_the_pages(client, carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    players = {"carol": carol, "bob": bob}

    def post(who, name, data=None):
        client.force_login(players[who])
        return client.post(
            reverse(f"trades:{name}", args=[session.pk]), data or {}, HTTP_HX_REQUEST="true"
        ).content.decode()

    post("carol", "live_offer_change", {"giver": bob.pk, "card": card.pk, "delta": "1"})
    post("carol", "live_accept", {"offer_version": 1})
    dialog = post("bob", "live_accept", {"offer_version": 1})
    assert 'id="trade-confirm"' in dialog
    post("bob", "live_confirm", {"offer_version": 1})
    post("carol", "live_confirm", {"offer_version": 1})

    assert (copies(carol, card), copies(bob, card)) == (1, 0)
    client.force_login(bob)
    left = client.post(reverse("trades:live_leave", args=[session.pk]), HTTP_HX_REQUEST="true")
    assert left["HX-Redirect"] == "/lobbies/trade/"


def test_staff_see_sessions_and_their_swaps_in_the_admin(client, carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    listing = client.get(reverse("admin:trades_tradesession_changelist"))
    detail = client.get(reverse("admin:trades_tradesession_change", args=[session.pk]))

    assert listing.status_code == 200 and "Carol" in listing.content.decode()
    assert detail.status_code == 200


def test_the_trade_screen_reads_in_as_many_queries_however_full_the_binder(client, carol, bob):
    first = cards(10)
    give_cards(bob, {first[0]: 1})
    session = open_session(carol, bob)
    client.force_login(carol)
    url = reverse("trades:live_screen", args=[session.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    few = queries()
    give_cards(bob, dict.fromkeys(first[1:], 2))
    give_products(bob, booster(), 2)
    for card in first[1:4]:
        live_trade_offer_change(
            session_id=session.pk, player=carol, giver_id=bob.pk, delta=1, card_id=card.pk
        )

    assert queries() == few
