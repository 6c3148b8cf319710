"""A socket opens while the consumers' database thread is busy: the handshake reads the user
on a thread of its own (tcgsite/socket_auth.py), and the consumers accept before their own
database work, so a crowd's queue on that thread never holds a handshake past daphne's 5 s."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from tcgsite.realtime import CLOSE_LOGIN_REQUIRED
from tcgsite.socket_auth import session_user
from tests.channel_layers import SITE_ORIGIN
from tests.lobbies.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# A bound for a busy machine: the sockets open at once, without the database thread.
OPEN_SECONDS = 20
PAGES = ("/ws/lobby/casual/", "/ws/lobby/trade/", "/ws/lobby/tournaments/")


@pytest.mark.asyncio
async def test_sockets_open_and_know_their_player_while_the_database_thread_is_busy(
    application, players
):
    cookies = {
        name: await database_sync_to_async(session_cookie)(user) for name, user in players.items()
    }
    release = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(release.wait)())
    try:
        communicators = [
            WebsocketCommunicator(application, path, headers=[SITE_ORIGIN, cookies[name]])
            for name in players
            for path in PAGES
        ]
        opened = await asyncio.gather(
            *(communicator.connect(timeout=OPEN_SECONDS) for communicator in communicators)
        )

        assert [connected for connected, _ in opened] == [True] * len(communicators)
        assert not busy.done()  # every handshake finished while the thread was still held
    finally:
        release.set()
        await busy
    # Each socket knew its player: an anonymous one is closed at once (4401), these go on to
    # send their page's state.
    for communicator in communicators:
        first = await communicator.receive_output(timeout=OPEN_SECONDS)
        assert first["type"] == "websocket.send", first
        await communicator.disconnect()


@pytest.mark.asyncio
async def test_a_socket_without_a_session_is_closed_as_anonymous(application):
    communicator = WebsocketCommunicator(application, "/ws/lobby/casual/", headers=[SITE_ORIGIN])
    connected, _ = await communicator.connect(timeout=OPEN_SECONDS)

    assert connected
    assert await communicator.receive_output(timeout=OPEN_SECONDS) == {
        "type": "websocket.close",
        "code": CLOSE_LOGIN_REQUIRED,
    }


def test_the_session_user_is_checked_as_django_checks_a_request(players):
    carol = players["Carol"]
    store = SessionStore()
    store.update(
        {SESSION_KEY: str(carol.pk), BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0]}
    )
    store[HASH_SESSION_KEY] = carol.get_session_auth_hash()
    store.save()

    assert session_user(SessionStore(store.session_key)) == carol
    carol.set_password("a new password, so old sessions end")
    carol.save()
    assert session_user(SessionStore(store.session_key)).is_anonymous
    assert session_user(SessionStore("no-such-session")).is_anonymous
