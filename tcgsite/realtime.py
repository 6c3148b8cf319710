"""Messages to websocket groups, sent only once what they announce is committed.

A service queues a message inside its transaction with ``send_on_commit``; every socket in the
group receives it after the commit (at once when no transaction is open), and never if the
transaction rolls back. Each message carries the group's next version, counted in the cache,
which is Redis in production, so all web processes and workers count on one counter. A client
that receives any version other than the one after the last it saw has missed a message and
asks for the full state; the consumer answers with ``group_version`` read *before* the state,
so the state includes every message up to it.

On Redis (production), the version is stamped by Redis itself as it publishes the message: one
script counts on and publishes, one round trip for both, and the process that sends waits for
neither (a consumer's database thread hands the message to its event loop, which sends it).
Versions then rise in the order Redis publishes, whichever process sends. Elsewhere (the
embedded default: locmem and the in-memory layer) the version is counted in the cache as the
message is handed over, and the layer sends it.

A counter may vanish: it expires a day after it was made (so the groups of finished matches
leave nothing behind), and Redis may restart or be flushed. A new counter therefore starts
from the clock, in microseconds, not from 0: its versions are above every version the old
one gave (no group sends a million messages a second), so sockets that saw the old ones take
the jump for a gap and ask for the state, rather than dropping every message as already seen.

Consumers derive from ``RealtimeConsumer``, which relays these messages to its client.
docs/architecture.md ("Realtime") shows the whole pattern.
"""

import asyncio
import contextlib
import functools
import logging
import re
import time
import weakref
from collections import deque
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, transaction

from tcgsite.database import BUSY_MESSAGE, is_pool_timeout
from tcgsite.errors import UserError
from tcgsite.inputs import json_value

logger = logging.getLogger(__name__)

# The channel-layer type of every message sent by send_on_commit, handled by
# RealtimeConsumer.realtime_relay.
RELAY = "realtime.relay"
RESERVED_KEYS = frozenset({"type", "group", "version"})
# Channels' rule for group names; the Redis pub/sub layer does not check it itself.
GROUP_NAME = re.compile(r"[a-zA-Z\d\-_.]{1,99}")

# Sockets opened without a logged-in session are accepted and closed at once with this
# application code: a refused handshake reaches the page as 1006, which htmx's ws extension
# retries forever, while 4401 tells the page that the player must log in again.
CLOSE_LOGIN_REQUIRED = 4401

VERSION_COUNTER_SECONDS = 24 * 60 * 60

UNREADABLE = "That message could not be read."

# What a server raises for a send to a socket whose client has gone: daphne hands the send to
# autobahn, which refuses it from the start of the closing handshake (daphne itself skips a
# send only once the connection is fully gone; channels issue 1820); the ASGI specification
# asks servers for a subclass of OSError.
CLIENT_GONE = (Disconnected, OSError)


def send_on_commit(*, group: str, message_type: str, payload: dict[str, Any]) -> None:
    """Send ``{"type": message_type, "group": group, "version": n, **payload}`` to ``group``.

    The message leaves after the current transaction commits and its version ``n`` is taken
    then, so versions rise in the order messages are sent. ``payload`` must be JSON-like, bytes
    allowed (the Redis layer serialises it with msgpack), and must not use the keys ``type``,
    ``group`` or ``version``. A failure to send is logged and never undoes the committed
    transaction: the clients see the gap at the next message.
    """
    if not GROUP_NAME.fullmatch(group):
        raise ValueError(f"invalid group name {group!r}")
    if clash := RESERVED_KEYS & payload.keys():
        raise ValueError(f"payload may not set {sorted(clash)}: send_on_commit sets them")
    transaction.on_commit(functools.partial(_send_now, group, message_type, payload))


def user_group(user_id: int) -> str:
    """The group of every socket one player has open, on any page."""
    return f"user.{user_id}"


def group_version(group: str) -> int:
    """The version of the last message sent to ``group``."""
    key = _version_key(group)
    _start_counter(key)
    return cache.get(key, 0)


def _send_now(group: str, message_type: str, payload: dict[str, Any]) -> None:
    try:
        message = {"type": message_type, "group": group, **payload}
        stamped = _redis_stamps()
        if not stamped:
            message["version"] = _next_version(group)
        if (loop := consumers_loop.get()) is not None:
            loop.call_soon_threadsafe(_outbox_post, group, message)
        elif stamped:
            _stamp_and_publish(group, message)
        else:
            async_to_sync(get_channel_layer().group_send)(group, _relayed(message))
    except Exception:
        logger.exception("Could not send %s to group %s", message_type, group)


def _relayed(message: dict) -> dict:
    return {"type": RELAY, "message": message}


# The event loop of the consumer whose database work is running, in its database thread:
# a message committed there is handed to the loop to send, and the thread goes on at once
# (before, it waited for the loop to take its turn and for the channel layer).
consumers_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar(
    "consumers_loop", default=None
)
# The event loop that serves this process's sockets, as the latest consumer to start found
# it: what a thread of the process's own work sends through (``sends_through_serving_loop``).
_serving_loop: asyncio.AbstractEventLoop | None = None


@contextmanager
def sends_through_serving_loop():
    """Within it, the messages this thread sends are handed to the event loop that serves
    this process's sockets, as a consumer's database work hands them to its own: for the web
    process's own threads of work (the embedded default's background threads). Sent on a loop
    of the thread's own, the in-memory layer put them in the queues of sockets served by
    another loop without waking it: they saw them only once something else woke it, daphne's
    check of its applications, once a second."""
    loop = _serving_loop
    token = consumers_loop.set(loop if loop is not None and loop.is_running() else None)
    try:
        yield
    finally:
        consumers_loop.reset(token)


class Outbox:
    """The messages an event loop sends for its consumers' database work, one after the
    other in the order handed over: versioned already (counted in the cache as they were
    handed over; a socket would take a later version arriving first for a missed message),
    or to be stamped by Redis as it publishes them."""

    def __init__(self):
        self.waiting: deque[tuple[str, dict]] = deque()
        self.sending: asyncio.Task | None = None

    def post(self, group: str, message: dict) -> None:
        self.waiting.append((group, message))
        if self.sending is None:
            self.sending = asyncio.get_running_loop().create_task(self.send_all())

    async def send_all(self) -> None:
        try:
            while self.waiting:
                group, message = self.waiting.popleft()
                try:
                    if "version" in message:
                        await get_channel_layer().group_send(group, _relayed(message))
                    else:
                        await _stamp_and_publish_async(group, message)
                except Exception:
                    logger.exception("Could not send %s to group %s", message["type"], group)
        finally:
            self.sending = None


# One outbox per event loop, used only on that loop's thread; a loop that ends takes its
# outbox with it (tests run one loop after another).
_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Outbox] = (
    weakref.WeakKeyDictionary()
)


def _outbox_post(group: str, message: dict) -> None:
    loop = asyncio.get_running_loop()
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = Outbox()
    outbox.post(group, message)


# On Redis, a counter is made if missing and counted on in one atomic step, one round trip:
# Django's cache.incr() asks whether the key exists first, a second round trip on every
# message.
COUNT_ON = """
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
local version = redis.call('INCR', KEYS[1])
"""
NEXT_VERSION_SCRIPT = COUNT_ON + "return version\n"
# The same, then the message published to the group's channel of the Redis pub/sub layer,
# with that version: the message comes serialised by the layer (msgpack) and ends with its
# "version", None (msgpack's one byte 0xc0), which the script replaces with the version.
STAMP_AND_PUBLISH_SCRIPT = (
    COUNT_ON
    + """\
redis.call('PUBLISH', ARGV[3], string.sub(ARGV[4], 1, -2) .. cmsgpack.pack(version))
return version
"""
)
PUBSUB_LAYER = "channels_redis.pubsub.RedisPubSubChannelLayer"


@functools.cache
def _redis_next_version():
    """The next-version script on the cache's Redis, None when the cache is not Redis."""
    configured = settings.CACHES["default"]
    if configured["BACKEND"] != "django.core.cache.backends.redis.RedisCache":
        return None
    return redis.Redis.from_url(configured["LOCATION"]).register_script(NEXT_VERSION_SCRIPT)


def _redis_stamps() -> bool:
    """Whether Redis stamps the versions as it publishes: the channel layer is the Redis
    pub/sub layer, unencrypted, on the one Redis that holds the cache's version counters."""
    cache_location = settings.CACHES["default"].get("LOCATION")
    layer = settings.CHANNEL_LAYERS["default"]
    config = layer.get("CONFIG", {})
    hosts = config.get("hosts", [])
    return (
        layer["BACKEND"] == PUBSUB_LAYER
        and settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
        and not config.get("symmetric_encryption_keys")
        and config.get("serializer_format", "msgpack") == "msgpack"
        and len(hosts) == 1
        and (hosts[0]["address"] if isinstance(hosts[0], dict) else hosts[0]) == cache_location
    )


def _stamp_arguments(group: str, message: dict) -> tuple[list, list]:
    layer = get_channel_layer()
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "asgi")
    # The layer's name for the group's channel (RedisPubSubLoopLayer._get_group_channel_name).
    channel = f"{prefix}__group__{group}"
    body = layer.serialize(_relayed({**message, "version": None}))
    start = time.time_ns() // 1000
    key = cache.make_and_validate_key(_version_key(group))
    return [key], [start, VERSION_COUNTER_SECONDS, channel, body]


@functools.cache
def _redis_stamp_and_publish():
    location = settings.CACHES["default"]["LOCATION"]
    return redis.Redis.from_url(location).register_script(STAMP_AND_PUBLISH_SCRIPT)


def _stamp_and_publish(group: str, message: dict) -> int:
    keys, args = _stamp_arguments(group, message)
    return _redis_stamp_and_publish()(keys=keys, args=args)


# One client per event loop (redis-py's asyncio clients belong to the loop they were made on).
# Not weakly keyed: a client's connections refer to their loop, which would keep every loop
# and its client alive. The clients of closed loops (one loop after another in the tests) are
# dropped instead, when another loop wants one.
_async_stampers: dict[asyncio.AbstractEventLoop, Any] = {}


async def _stamp_and_publish_async(group: str, message: dict) -> int:
    loop = asyncio.get_running_loop()
    script = _async_stampers.get(loop)
    if script is None:
        for closed in [each for each in _async_stampers if each.is_closed()]:
            del _async_stampers[closed]
        client = redis.asyncio.Redis.from_url(settings.CACHES["default"]["LOCATION"])
        script = _async_stampers[loop] = client.register_script(STAMP_AND_PUBLISH_SCRIPT)
    keys, args = _stamp_arguments(group, message)
    return await script(keys=keys, args=args)


def _next_version(group: str) -> int:
    key = _version_key(group)
    if (script := _redis_next_version()) is not None:
        start = time.time_ns() // 1000
        return script(
            keys=[cache.make_and_validate_key(key)], args=[start, VERSION_COUNTER_SECONDS]
        )
    # incr() is atomic (a lock in locmem), so no two senders in any thread ever take the
    # same version. Only a missing counter (new, or expired) is made first, by add(), which
    # creates it only where none exists. A counter that expires between the two is made
    # again.
    for _ in range(3):
        try:
            return cache.incr(key)
        except ValueError:
            _start_counter(key)
    raise RuntimeError(f"the version counter {key} keeps vanishing")


def _start_counter(key: str) -> None:
    cache.add(key, time.time_ns() // 1000, timeout=VERSION_COUNTER_SECONDS)


def _version_key(group: str) -> str:
    return f"realtime:version:{group}"


class RealtimeConsumer(AsyncJsonWebsocketConsumer):
    """The base of the site's consumers.

    It closes a socket without a logged-in user before anything else runs (code
    ``CLOSE_LOGIN_REQUIRED``), so a subclass's ``connect`` always has ``scope["user"]``; it
    reads a client's frame strictly (``decode_json``: a frame it can't read is a UserError),
    sends a ``UserError`` raised while reading or handling it back to that client as
    ``{"type": "error", "message": ...}`` and keeps the socket open; it relays every
    message ``send_on_commit`` sends to a group the socket has joined; and it drops whatever
    it sends once its client has begun to leave.
    """

    async def __call__(self, scope, receive, send):
        global _serving_loop
        _serving_loop = asyncio.get_running_loop()
        consumers_loop.set(_serving_loop)

        async def send_unless_gone(message):
            # A client may leave while its socket is answering it (a state, a refusal, a
            # group's message): there is no one left to tell, and its disconnect follows.
            with contextlib.suppress(*CLIENT_GONE):
                await send(message)

        await super().__call__(scope, receive, send_unless_gone)

    async def dispatch(self, message):
        # Channels' dispatch first sends every message, a client's or a group's, to the
        # database thread to close stale connections: database_sync_to_async does that around
        # each call it makes anyway, and the extra turn made each message wait for the one
        # database thread of its process twice.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_connect(self, message):
        if not self.scope["user"].is_authenticated:
            await self.accept()
            await self.close(code=CLOSE_LOGIN_REQUIRED)
            return
        await super().websocket_connect(message)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        try:
            await self.receive_json(await self.decode_json(text_data), **kwargs)
        except UserError as error:
            await self.send_user_error(error.message)
        except DatabaseError as error:
            # Refused before anything was written: the client may send it again.
            if not is_pool_timeout(error):
                raise
            await self.send_user_error(BUSY_MESSAGE)

    @classmethod
    async def decode_json(cls, text_data):
        """The client's frame as JSON (tcgsite.inputs.json_value); a binary or empty frame, or
        any text that is not such JSON, is a UserError."""
        try:
            return json_value(text_data)
        except ValueError as error:
            raise UserError(UNREADABLE) from error

    async def send_user_error(self, message: str):
        """Tell this socket's client, and no one else, why its request was refused."""
        await self.send_json({"type": "error", "message": message})

    async def realtime_relay(self, event):
        await self.send_json(event["message"])
