"""The Trade Screen's socket (rulebook, "Trade Screen": each side sees the other's changes, the
acceptances and the delivery at once) and the Trade Lobby's pop-ups ("Trading with Other
Players"). Driven with WebsocketCommunicator on the in-memory layer and, when REDIS_URL is
set, on Redis."""

import pytest
from channels.db import database_sync_to_async

from collection.trades.services.live import (
    live_trade_accept,
    live_trade_confirm,
    live_trade_leave,
    live_trade_offer_change,
    live_trade_request,
    session_group,
)
from tcgsite.accounts import services as accounts
from tcgsite.realtime import _next_version
from tests.factories import UserFactory
from tests.lobbies import conftest as lobby_sockets
from tests.trades.live_helpers import cards, give_cards, in_lobby, open_session

# The socket fixtures of the lobbies' tests: a Trade Screen's socket is driven the same way.
_close_the_orm_threads_connections = lobby_sockets._close_the_orm_threads_connections
_fresh_cache = lobby_sockets._fresh_cache
layer = lobby_sockets.layer
application = lobby_sockets.application
open_page = lobby_sockets.open_page

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def trading_pair():
    """Carol and Bob in an open session; Bob has two copies of a card to trade."""
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    (card,) = cards(1)
    give_cards(bob, {card: 2})
    return carol, bob, card, open_session(carol, bob)


def path(session) -> str:
    return f"/ws/trade/{session.pk}/"


async def screens(open_page, carol, bob, session):
    carol_page = await open_page(carol, path(session))
    bob_page = await open_page(bob, path(session))
    await carol_page.until('id="trade-offer"')
    await bob_page.until('id="trade-offer"')
    return carol_page, bob_page


async def test_only_the_sessions_two_players_are_admitted(open_page):
    carol, bob, _card, session = await trading_pair()
    dave = await database_sync_to_async(UserFactory)(username="Dave")

    page = await open_page(dave, path(session))

    closed = await page.communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": 4404}
    carol_page = await open_page(carol, path(session))
    state = await carol_page.until('id="trade-offer"')
    assert "You get" in state and "They get" in state


async def test_a_change_reaches_both_sides_each_from_their_own_side(open_page):
    carol, bob, card, session = await trading_pair()
    carol_page, bob_page = await screens(open_page, carol, bob, session)

    await database_sync_to_async(live_trade_offer_change)(
        session_id=session.pk, player=carol, giver_id=bob.pk, delta=2, card_id=card.pk
    )

    carols = await carol_page.until(f'data-card="{card.pk}"')
    bobs = await bob_page.until(f'data-card="{card.pk}"')
    # Carol gets it (her You get lists Bob as the giver); Bob gives it.
    assert f'data-giver="{bob.pk}" data-card="{card.pk}"' in carols
    assert carols.index(card.title) < carols.index("They get")
    assert bobs.index("They get") < bobs.index(card.title)


async def test_acceptances_the_confirmation_and_the_delivery_arrive_live(open_page):
    carol, bob, card, session = await trading_pair()
    carol_page, bob_page = await screens(open_page, carol, bob, session)
    await database_sync_to_async(live_trade_offer_change)(
        session_id=session.pk, player=carol, giver_id=bob.pk, delta=1, card_id=card.pk
    )
    await bob_page.until(f'data-card="{card.pk}"')

    await database_sync_to_async(live_trade_accept)(
        session_id=session.pk, player=carol, offer_version=1
    )
    await bob_page.until("Carol accepted")
    await database_sync_to_async(live_trade_accept)(
        session_id=session.pk, player=bob, offer_version=1
    )
    await carol_page.until('id="trade-confirm"')
    await database_sync_to_async(live_trade_confirm)(
        session_id=session.pk, player=bob, offer_version=1
    )
    await carol_page.until("Bob has confirmed")
    await database_sync_to_async(live_trade_confirm)(
        session_id=session.pk, player=carol, offer_version=1
    )

    delivered = await carol_page.until('id="trade-delivery"')
    assert "From Bob, now in your collection" in delivered and card.title in delivered
    bobs = await bob_page.until('id="trade-delivery"')
    assert "You received nothing" in bobs
    assert "You may continue to process more trades" in bobs


async def test_a_socket_that_missed_a_message_gets_the_whole_offer(open_page):
    carol, bob, card, session = await trading_pair()
    carol_page, _bob_page = await screens(open_page, carol, bob, session)
    # A message lost on its way: the group's counter moves on without the socket seeing it.
    await database_sync_to_async(_next_version)(session_group(session.pk))

    await database_sync_to_async(live_trade_offer_change)(
        session_id=session.pk, player=bob, giver_id=bob.pk, delta=1, card_id=card.pk
    )

    state = await carol_page.until(f'data-card="{card.pk}"')
    assert 'id="trade-offer"' in state


async def test_return_to_lobby_tells_the_partner(open_page):
    carol, bob, _card, session = await trading_pair()
    carol_page, _bob_page = await screens(open_page, carol, bob, session)

    await database_sync_to_async(live_trade_leave)(session_id=session.pk, player=bob)

    ended = await carol_page.until("The session has ended")
    assert "Bob returned to the lobby" in ended


async def test_a_request_pops_up_in_the_trade_lobby_unless_the_asker_is_ignored(open_page):
    carol, bob, dave = await database_sync_to_async(
        lambda: [UserFactory(username=name) for name in ("Carol", "Bob", "Dave")]
    )()
    await database_sync_to_async(accounts.ignore_add)(user=bob, other=dave)
    await database_sync_to_async(lambda: [in_lobby(player) for player in (carol, dave)])()
    bob_lobby = await open_page(bob, "/ws/lobby/trade/")
    await bob_lobby.until('id="user-list" class')

    await database_sync_to_async(live_trade_request)(asker=carol, partner=bob)

    toast = await bob_lobby.until("would like to trade")
    assert "Carol" in toast and "Accept" in toast and "Decline" in toast
    with pytest.raises(Exception, match="not taking trade requests"):
        await database_sync_to_async(live_trade_request)(asker=dave, partner=bob)
    # No request pops up from Dave (a presence notice about him may come: the sweep's own).
    await bob_lobby.nothing_matching("would like to trade")
