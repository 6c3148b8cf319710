"""A client that leaves while its socket is answering it (tcgsite/realtime.py, RealtimeConsumer):
daphne hands every send to autobahn, which refuses it from the start of the closing handshake
with ``Disconnected``. Here a server does the same once its client begins to leave; each kind of
socket drops what it can no longer send, goes on, and ends cleanly at the disconnect that
follows, where the exception used to end the socket ("Exception inside application")."""

import asyncio

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async

from tcgsite.lobbies.models import Connection
from tcgsite.lobbies.services.chat import chat_ping, chat_say
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match
from tests.lobbies import conftest as lobby_sockets
from tests.lobbies.conftest import Page, session_cookie
from tests.trades.live_helpers import in_lobby, open_session

_close_the_orm_threads_connections = lobby_sockets._close_the_orm_threads_connections
_fresh_cache = lobby_sockets._fresh_cache
layer = lobby_sockets.layer
application = lobby_sockets.application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# A bound for a busy machine, not a wait: each step below waits for a state.
BOUND_SECONDS = 10


class LeavingClient:
    """The site's sockets served to a client that begins to close its socket once it has been
    accepted (``once_accepted``) or once ``leave()`` is called: from then on the server
    refuses every send as autobahn does during the closing handshake."""

    def __init__(self, application, *, once_accepted: bool):
        self.application = application
        self.once_accepted = once_accepted
        self.leaving = False
        self.refused: list[dict] = []
        self.refusal = asyncio.Event()

    def leave(self) -> None:
        self.leaving = True

    async def __call__(self, scope, receive, send):
        async def server_send(message):
            if self.leaving:
                self.refused.append(message)
                self.refusal.set()
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)
            if self.once_accepted and message["type"] == "websocket.accept":
                self.leaving = True

        await self.application(scope, receive, server_send)


async def open_leaving(application, user, path, *, once_accepted: bool):
    server = LeavingClient(application, once_accepted=once_accepted)
    cookie = await database_sync_to_async(session_cookie)(user)
    page = await Page(server, user, path, cookie).open()
    return server, page


async def refused(server: LeavingClient, text: str) -> dict:
    """The first frame the server refused that holds ``text``, once refused."""
    async with asyncio.timeout(BOUND_SECONDS):
        while True:
            for message in server.refused:
                if text in message.get("text", ""):
                    return message
            server.refusal.clear()
            await server.refusal.wait()


async def ends_cleanly(page: Page) -> None:
    """The client's disconnect arrives; the socket ends without an exception (the
    communicator raises the one its consumer ended with)."""
    page.closed = True
    await page.communicator.disconnect(code=1001, timeout=BOUND_SECONDS)
    assert page.communicator.future.exception() is None


def lobby_page():
    """A lobby page's socket, and what its state holds."""
    return UserFactory(username="Carol"), "/ws/lobby/casual/", 'id="chat-log"'


def match_page():
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    return carol, f"/ws/match/{start_match(carol, bob).pk}/", 'id="match-screen"'


def trade_screen():
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    return carol, f"/ws/trade/{open_session(carol, bob).pk}/", 'id="trade-offer"'


@pytest.mark.parametrize(
    "socket_of", [lobby_page, match_page, trade_screen], ids=lambda f: f.__name__
)
async def test_a_socket_whose_client_left_as_it_opened_drops_its_state_and_ends_cleanly(
    application, socket_of
):
    user, path, state = await database_sync_to_async(socket_of)()

    server, page = await open_leaving(application, user, path, once_accepted=True)

    await refused(server, state)
    await ends_cleanly(page)
    # It went on opening after its state was dropped (its player present), and its
    # disconnect closed what it opened.
    closed = await database_sync_to_async(
        lambda: list(Connection.objects.filter(user=user).values_list("closed_at", flat=True))
    )()
    assert len(closed) == 1 and closed[0] is not None


async def test_a_refused_chat_line_whose_sender_left_at_once_is_dropped(application):
    carol = await database_sync_to_async(UserFactory)(username="Carol")
    server, page = await open_leaving(application, carol, "/ws/lobby/casual/", once_accepted=False)
    await page.until(f"lobby-user-{carol.pk}")

    server.leave()
    await page.say("x" * 501)

    await refused(server, "at most 500")
    await ends_cleanly(page)


async def test_a_line_said_to_a_lobby_while_a_listener_leaves_is_dropped_for_it(application):
    carol = await database_sync_to_async(UserFactory)(username="Carol")
    bob = await database_sync_to_async(UserFactory)(username="Bob")
    server, page = await open_leaving(application, carol, "/ws/lobby/casual/", once_accepted=False)
    await page.until(f"lobby-user-{carol.pk}")

    server.leave()
    await database_sync_to_async(chat_say)(user=bob, lobby="casual", text="anyone trading?")

    await refused(server, "anyone trading?")
    await ends_cleanly(page)


async def until_present(user) -> None:
    """Until ``user``'s socket has opened their presence (a presence page sends nothing)."""
    opened = Connection.objects.filter(user=user, closed_at=None).exists
    async with asyncio.timeout(BOUND_SECONDS):
        while not await database_sync_to_async(opened)():
            await asyncio.sleep(0.02)


async def test_a_ping_to_a_page_whose_client_is_leaving_is_dropped(application):
    carol = await database_sync_to_async(UserFactory)(username="Carol")
    bob = await database_sync_to_async(UserFactory)(username="Bob")
    await database_sync_to_async(in_lobby)(bob, "casual")
    server, page = await open_leaving(
        application, bob, "/ws/presence/elsewhere/", once_accepted=False
    )
    await until_present(bob)

    server.leave()
    await database_sync_to_async(chat_ping)(user=carol, lobby="casual", name="Bob")

    await refused(server, "Carol pings you.")
    await ends_cleanly(page)
