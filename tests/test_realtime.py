"""Messages to websocket groups go out after commit, versioned, through a thin consumer."""

import asyncio
import gc
import logging
import operator
import threading
import uuid
import weakref

import channels.consumer
import pytest
import pytest_asyncio
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache
from django.db import connections, transaction
from django.test import Client
from django.urls import path

from tcgsite import realtime
from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tcgsite.realtime import (
    CLOSE_LOGIN_REQUIRED,
    RealtimeConsumer,
    group_version,
    send_on_commit,
)
from tcgsite.routing import websocket_application
from tests.channel_layers import BOTH_LAYERS, IN_MEMORY_LAYER, REDIS_LAYER, SITE_ORIGIN
from tests.factories import UserFactory


@pytest_asyncio.fixture(autouse=True)
async def _close_the_orm_threads_connections(django_db_blocker):
    """The ORM's thread outlives a test and would keep PostgreSQL's test database open. It is
    closed even after a test without the database: a connection some earlier test left open
    there must not make that test fail."""
    yield
    with django_db_blocker.unblock():
        await database_sync_to_async(connections.close_all)()


class Rollback(Exception):
    pass


def unique_group() -> str:
    # Other test runs may share the Redis server.
    return f"test-{uuid.uuid4().hex}"


async def listen(group: str) -> str:
    """A channel of the layer in force that has joined ``group``."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def received(channel: str, timeout: float = 2) -> dict | None:
    """The next message on ``channel``, or None if none comes within ``timeout`` seconds."""
    try:
        return await asyncio.wait_for(get_channel_layer().receive(channel), timeout)
    except TimeoutError:
        return None


def announce(group: str, **payload) -> None:
    with transaction.atomic():
        send_on_commit(group=group, message_type="table.announced", payload=payload)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_nothing_is_sent_when_the_transaction_rolls_back():
    group = unique_group()
    channel = await listen(group)
    start = await database_sync_to_async(group_version)(group)

    def announce_then_fail():
        with transaction.atomic():
            UserFactory(username="rolled-back")
            send_on_commit(group=group, message_type="table.announced", payload={})
            raise Rollback

    with pytest.raises(Rollback):
        await database_sync_to_async(announce_then_fail)()

    assert await received(channel, timeout=0.2) is None
    assert await database_sync_to_async(group_version)(group) == start


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_message_is_sent_after_commit_not_before():
    group = unique_group()
    # The Redis pub/sub layer drops a channel whose receive was cancelled (its consumer has
    # gone, it assumes), so the look before the commit has a channel of its own.
    looked_at_before_commit, channel = await listen(group), await listen(group)
    start = await database_sync_to_async(group_version)(group)

    def announce_and_look_before_commit():
        with transaction.atomic():
            send_on_commit(group=group, message_type="table.announced", payload={"seat": 1})
            return async_to_sync(received)(looked_at_before_commit, 0.2), group_version(group)

    before_commit = await database_sync_to_async(announce_and_look_before_commit)()

    assert before_commit == (None, start)
    assert await received(channel) == {
        "type": "realtime.relay",
        "message": {"type": "table.announced", "group": group, "version": start + 1, "seat": 1},
    }


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_without_a_transaction_the_message_is_sent_at_once():
    group = unique_group()
    channel = await listen(group)
    start = await database_sync_to_async(group_version)(group)

    await database_sync_to_async(send_on_commit)(
        group=group, message_type="table.announced", payload={}
    )

    assert (await received(channel))["message"]["version"] == start + 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_versions_rise_by_one_per_message_in_each_group_separately():
    table, other_table = unique_group(), unique_group()
    table_channel, other_channel = await listen(table), await listen(other_table)

    for group in (table, table, other_table, table):
        await database_sync_to_async(announce)(group)

    table_versions = [(await received(table_channel))["message"]["version"] for _ in range(3)]
    other_version = (await received(other_channel))["message"]["version"]
    assert table_versions == [table_versions[0] + step for step in range(3)]
    assert await database_sync_to_async(group_version)(table) == table_versions[-1]
    assert await database_sync_to_async(group_version)(other_table) == other_version


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_vanished_counter_starts_again_above_every_version_it_gave():
    group = unique_group()
    channel = await listen(group)
    await database_sync_to_async(announce)(group)
    before = (await received(channel))["message"]["version"]

    await database_sync_to_async(cache.delete)(f"realtime:version:{group}")
    await database_sync_to_async(announce)(group)

    # Above the last seen and not the next: a socket takes it for a gap and asks for the state.
    assert (await received(channel))["message"]["version"] > before + 1


@pytest.mark.django_db(transaction=True)
def test_a_failed_send_is_logged_and_the_data_stays_committed(settings, caplog):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # Nothing listens on port 1.
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }

    with caplog.at_level(logging.ERROR, logger="tcgsite.realtime"), transaction.atomic():
        UserFactory(username="committed")
        send_on_commit(group=unique_group(), message_type="table.announced", payload={})

    assert User.objects.filter(username="committed").exists()
    assert "Could not send table.announced" in caplog.text


def test_a_group_name_channels_would_refuse_is_refused_on_every_layer():
    # The Redis pub/sub layer would publish to it; the consumers could never have joined it.
    with pytest.raises(ValueError, match="invalid group name"):
        send_on_commit(group="lobby casual!", message_type="table.announced", payload={})


def test_payload_may_not_overwrite_what_send_on_commit_sets():
    with pytest.raises(ValueError, match="version"):
        send_on_commit(group=unique_group(), message_type="table.announced", payload={"version": 9})


class TableConsumer(RealtimeConsumer):
    """A consumer as the apps will write them: join a group, call a service, relay."""

    async def connect(self):
        group = self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups.append(group)
        await self.accept()
        await self.send_json({"type": "welcome", "user": self.scope["user"].pk})

    async def receive_json(self, content, **kwargs):
        if content["type"] == "play":
            await database_sync_to_async(refuse_to_play)()
        if content["type"] == "announce":
            for seat in content["seats"]:
                await database_sync_to_async(announce)(content["group"], seat=seat)
        await self.send_json({"type": "pong"})


def refuse_to_play():
    raise UserError("It is not your turn.")


@pytest.fixture
def application(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.CSRF_TRUSTED_ORIGINS = []
    return websocket_application([path("ws/table/<str:group>/", TableConsumer.as_asgi())])


@pytest.fixture
def player(transactional_db):
    return UserFactory(username="Shochu")


@pytest.fixture
def session_cookie(player):
    client = Client()
    client.force_login(player)
    session_id = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_id}".encode())


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_anonymous_socket_is_closed_with_login_required(application):
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{unique_group()}/", headers=[SITE_ORIGIN]
    )

    connected, _ = await communicator.connect()

    assert connected
    closing = await communicator.receive_output()
    assert closing["type"] == "websocket.close"
    assert closing["code"] == CLOSE_LOGIN_REQUIRED
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_logged_in_player_is_the_sockets_user(application, player, session_cookie):
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{unique_group()}/", headers=[SITE_ORIGIN, session_cookie]
    )

    connected, _ = await communicator.connect()

    assert connected
    assert await communicator.receive_json_from() == {"type": "welcome", "user": player.pk}
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_socket_from_another_sites_page_is_refused(application, session_cookie):
    communicator = WebsocketCommunicator(
        application,
        f"/ws/table/{unique_group()}/",
        headers=[(b"origin", b"https://evil.example.net"), session_cookie],
    )

    connected, _ = await communicator.connect()

    assert not connected
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_user_error_goes_back_to_its_player_and_the_socket_stays_open(
    application, session_cookie
):
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{unique_group()}/", headers=[SITE_ORIGIN, session_cookie]
    )
    await communicator.connect()
    await communicator.receive_json_from()

    await communicator.send_json_to({"type": "play"})

    assert await communicator.receive_json_from() == {
        "type": "error",
        "message": "It is not your turn.",
    }
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from() == {"type": "pong"}
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "frame",
    [
        {"bytes": b'{"type": "ping"}'},
        {"text": ""},
        {"text": '{"type": "ping", "seats": [Infinity]}'},
        {"text": '{"type": "ping", "seats": [NaN, 1e400]}'},
        {"text": "[" * 1_000 + "]" * 1_000},
        {"text": '{"type": ' * 50 + '"ping"' + "}" * 50},
    ],
    ids=["binary", "empty", "infinity", "nan", "nested-1000-deep", "nested-50-deep"],
)
async def test_a_frame_that_is_not_plain_json_text_is_refused_and_the_socket_stays_open(
    application, session_cookie, frame
):
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{unique_group()}/", headers=[SITE_ORIGIN, session_cookie]
    )
    await communicator.connect()
    await communicator.receive_json_from()

    await communicator.send_input({"type": "websocket.receive", **frame})

    assert await communicator.receive_json_from() == {
        "type": "error",
        "message": "That message could not be read.",
    }
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from() == {"type": "pong"}
    await communicator.disconnect()


async def table_page(application, session_cookie) -> tuple[str, WebsocketCommunicator, int]:
    """A new group, a logged-in socket that joined it and was welcomed, and the group's
    version then."""
    group = unique_group()
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{group}/", headers=[SITE_ORIGIN, session_cookie]
    )
    await communicator.connect()
    await communicator.receive_json_from()
    return group, communicator, await database_sync_to_async(group_version)(group)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("channel_layers", BOTH_LAYERS)
async def test_group_message_reaches_the_connected_client_with_its_version(
    application, session_cookie, settings, channel_layers
):
    settings.CHANNEL_LAYERS = channel_layers
    group, communicator, start = await table_page(application, session_cookie)

    await database_sync_to_async(announce)(group, seat=2)
    await database_sync_to_async(announce)(group, seat=1)

    assert await communicator.receive_json_from(timeout=2) == {
        "type": "table.announced",
        "group": group,
        "version": start + 1,
        "seat": 2,
    }
    assert (await communicator.receive_json_from(timeout=2))["version"] == start + 2
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_message_goes_to_its_handler_without_a_turn_on_the_database_thread_first(
    application, session_cookie, monkeypatch
):
    """Channels' dispatch sends each message to the database thread to close stale
    connections before handling it; database_sync_to_async closes them around every call
    anyway, so the site's consumers skip that turn, which made every delivery wait for the
    process's one database thread twice."""
    turns = []

    async def closing_turn():
        turns.append("closed")

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", closing_turn)
    group = unique_group()
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{group}/", headers=[SITE_ORIGIN, session_cookie]
    )
    await communicator.connect()
    await communicator.receive_json_from()
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from() == {"type": "pong"}
    await database_sync_to_async(announce)(group, seat=1)
    assert (await communicator.receive_json_from(timeout=2))["seat"] == 1

    assert turns == []
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("channel_layers", BOTH_LAYERS)
async def test_a_consumers_database_work_does_not_wait_for_its_messages_to_be_sent(
    application, session_cookie, settings, channel_layers, monkeypatch
):
    """The database thread hands a committed message to the consumers' event loop and goes
    on; the loop sends the messages one after the other, in the order of their versions,
    however long the channel layer takes over each. On Redis, the database thread does not
    even count the versions: Redis stamps each as it publishes it."""
    settings.CHANNEL_LAYERS = channel_layers
    group, communicator, start = await table_page(application, session_cookie)
    layer_free = asyncio.Event()
    on_redis = channel_layers == REDIS_LAYER
    if on_redis:
        send, sender = realtime._stamp_and_publish_async, "_stamp_and_publish_async"
        seat_of = operator.itemgetter("seat")

        def counted_in_the_database_thread(group):
            raise AssertionError("Redis stamps the versions")

        monkeypatch.setattr(realtime, "_next_version", counted_in_the_database_thread)
    else:
        send, sender = get_channel_layer().group_send, "group_send"

        def seat_of(relayed):
            return relayed["message"]["seat"]

    async def slow_send(group, message):
        if seat_of(message) == 1:
            await layer_free.wait()
        await send(group, message)

    monkeypatch.setattr(realtime if on_redis else get_channel_layer(), sender, slow_send)

    try:
        await communicator.send_json_to({"type": "announce", "group": group, "seats": [1, 2, 3]})

        assert await communicator.receive_json_from(timeout=2) == {"type": "pong"}
        assert await communicator.receive_nothing(timeout=0.2)
    finally:
        layer_free.set()
    arrived = [await communicator.receive_json_from(timeout=2) for _ in range(3)]
    assert [(each["seat"], each["version"]) for each in arrived] == [
        (1, start + 1),
        (2, start + 2),
        (3, start + 3),
    ]
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_message_sent_from_a_thread_of_the_process_wakes_the_loop_serving_its_sockets(
    application, session_cookie, settings
):
    """The embedded default's background threads send through the loop that serves the sockets.
    Sent on a loop of the thread's own, the in-memory layer queued the message for the socket
    without waking the serving loop, which slept on until its next timer (in daphne, its check
    of the applications, once a second): here, the test's wait would run out first."""
    settings.CHANNEL_LAYERS = IN_MEMORY_LAYER
    group, communicator, start = await table_page(application, session_cookie)

    def thinking_thread():
        try:
            with realtime.sends_through_serving_loop():
                announce(group, seat=1)
        finally:
            connections.close_all()

    # A plain thread, not one the loop awaits: its end must not wake the loop.
    threading.Thread(target=thinking_thread).start()

    arrived = await communicator.receive_json_from(timeout=10)
    assert (arrived["seat"], arrived["version"]) == (1, start + 1)
    await communicator.disconnect()


@pytest.mark.skipif(not settings.REDIS_URL, reason="Redis stamps the versions in production mode")
def test_the_redis_clients_of_closed_event_loops_do_not_keep_the_loops_alive():
    """Each event loop has its own client to have the versions stamped; a client's connections
    refer to their loop. The tests run one loop after another: none may outlive its test."""
    finished = []
    for _ in range(3):
        loop = asyncio.new_event_loop()
        loop.run_until_complete(
            realtime._stamp_and_publish_async(unique_group(), {"type": "table.announced"})
        )
        loop.close()
        finished.append(weakref.ref(loop))
    del loop
    gc.collect()

    assert [each() for each in finished[:-1]] == [None, None]
