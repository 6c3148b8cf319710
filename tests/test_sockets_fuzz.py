"""Every socket of the site, fed a few thousand odd frames from a seeded generator: binary and
empty frames, text that is not JSON, JSON of the wrong shapes, nesting thousands deep, NaN and
Infinity, numbers too big for any column, digits of other scripts, and each message a page
sends with its fields mutated. After each frame the socket has handled it and is still open:
no exception escaped its consumer (daphne would close it with 1011 and log a traceback), it
closed nothing, and nothing was logged as an error."""

import asyncio
import json
import logging
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tcgsite.lobbies.registry import commands_in
from tcgsite.routing import websocket_application, websocket_urlpatterns
from tests.channel_layers import IN_MEMORY_LAYER, SITE_ORIGIN
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match
from tests.lobbies.conftest import (  # noqa: F401
    _close_the_orm_threads_connections,
    _fresh_cache,
    session_cookie,
)
from tests.trades.live_helpers import open_session

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

FRAMES = 3_000
# The longest a socket may take to handle one frame, on a busy machine.
HANDLING_SECONDS = 10

# Superscripts and circled numbers are digits to str.isdigit() but not to int(); int() reads
# the other scripts' digits.
UNICODE_DIGITS = ["²", "①", "#①", "³⁴", "٣", "𝟗", "Ⅻ", "½", "१२"]
# JSON that Python's json module reads but no column or int() takes, or reads as infinite.
ODD_NUMBERS = [
    "Infinity",
    "-Infinity",
    "NaN",
    "1e400",
    "-1e400",
    "1e-400",
    "9" * 30,
    "-" + "9" * 30,
    "9" * 5_000,
    "1.5",
    "-0",
    "2147483648",
    "9223372036854775808",
]
DEPTHS = [30, 40, 200, 990, 1_000, 1_500, 20_000]
ACTION_KINDS = ["keep", "redraw", "play", "raid", "done", "pass", "exert", "choose"]


def garbage(rng: random.Random) -> str:
    # Lone surrogates excluded: a text frame is UTF-8, which cannot carry them.
    characters = [chr(rng.randrange(1, 0xD7FF)) for _ in range(rng.randrange(1, 40))]
    return "".join(characters)


def deep(rng: random.Random, inner: str = "1") -> str:
    depth = rng.choice(DEPTHS)
    if rng.random() < 0.5:
        text = "[" * depth + inner + "]" * depth
    else:
        text = '{"a":' * depth + inner + "}" * depth
    if rng.random() < 0.2:
        text = text[: len(text) - rng.randrange(1, depth)]  # unbalanced
    return text


def odd_value(rng: random.Random) -> str:
    """A JSON value (as text) that a field should never hold."""
    shape = rng.randrange(8)
    if shape == 0:
        return rng.choice(ODD_NUMBERS)
    if shape == 1:
        return deep(rng)
    if shape == 2:
        return json.dumps(rng.choice(UNICODE_DIGITS))
    if shape == 3:
        return json.dumps(rng.choice([None, True, False, [], {}, [1, 2], {"a": 1}, "", " "]))
    if shape == 4:
        return json.dumps(garbage(rng))
    if shape == 5:
        return json.dumps(rng.choice(ODD_NUMBERS))  # as a string
    if shape == 6:
        return str(rng.choice([-1, 0, 1, 2**31, 2**63, -(2**63) - 1, 10**100]))
    return json.dumps("x" * rng.choice([0, 1, 499, 500, 501, 60_000]))


def chat_line(rng: random.Random, lobby: str) -> str:
    """What a player might type: a command of this window with odd arguments, or words."""
    if rng.random() < 0.2:
        return garbage(rng)
    command = rng.choice([each.name for each in commands_in(lobby)] + ["nosuchcommand", ""])
    if rng.random() < 0.3:
        return f"/{command} {rng.choice(UNICODE_DIGITS)}"
    argument = rng.choice(
        [
            "9" * rng.choice([1, 12, 13, 40, 400]),
            "-1",
            "0",
            "#" + str(rng.randrange(1, 10**6)),
            garbage(rng),
            "Carol hello",
            "",
            "x" * 60_000,
        ]
    )
    return f"/{command} {argument}"


def action_text(rng: random.Random) -> str:
    """The ``action`` field of a decision: usually JSON in a string, as the page sends it."""
    shape = rng.randrange(6)
    action = {"kind": rng.choice(ACTION_KINDS), "card": rng.randrange(1, 2_000)}
    if shape == 0:
        return json.dumps(json.dumps(action))
    if shape == 1:
        return json.dumps('{"kind": "keep", "card": ' + rng.choice(ODD_NUMBERS) + "}")
    if shape == 2:
        return json.dumps(deep(rng, inner=json.dumps(action)))
    if shape == 3:
        return json.dumps(garbage(rng))
    if shape == 4:
        return json.dumps(action)  # an object, not a string
    return odd_value(rng)


def page_message(rng: random.Random, lobby: str) -> dict[str, str]:
    """One message a page of the site sends, field by field as JSON text."""
    kind = rng.randrange(4)
    if kind == 0:
        return {"text": json.dumps(chat_line(rng, lobby))}
    if kind == 1:
        return {"type": '"chat"', "text": json.dumps(chat_line(rng, lobby))}
    if kind == 2:
        return {"type": '"clock"'}
    ply = rng.choice([str(rng.randrange(0, 6)), rng.randrange(0, 6)])
    return {"type": '"act"', "ply": json.dumps(ply), "action": action_text(rng)}


def mutated(rng: random.Random, fields: dict[str, str]) -> str:
    fields = dict(fields)
    for key in list(fields):
        roll = rng.random()
        if roll < 0.15:
            del fields[key]
        elif roll < 0.45:
            fields[key] = odd_value(rng)
    if rng.random() < 0.5:
        fields["HEADERS"] = rng.choice(['{"HX-Request": "true"}', odd_value(rng)])
    if rng.random() < 0.1:
        fields[garbage(rng)] = odd_value(rng)
    body = "{" + ",".join(f"{json.dumps(key)}:{value}" for key, value in fields.items()) + "}"
    if rng.random() < 0.1:
        body = "[" + body + "]"
    return body


def frame(rng: random.Random, lobby: str) -> dict:
    """One websocket frame as daphne hands it to the application."""
    shape = rng.randrange(10)
    if shape == 0:
        return {"type": "websocket.receive", "bytes": rng.randbytes(rng.randrange(0, 64))}
    if shape == 1:
        text = json.dumps({"text": "hello"}) if rng.random() < 0.5 else ""
        return {"type": "websocket.receive", "bytes": text.encode()}
    if shape == 2:
        text = rng.choice(["", " ", garbage(rng), "{", '{"text": "unclosed'])
    elif shape == 3:
        text = rng.choice([deep(rng), odd_value(rng), rng.choice(ODD_NUMBERS)])
    else:
        text = mutated(rng, page_message(rng, lobby))
    return {"type": "websocket.receive", "text": text}


class Watched:
    """The site's socket application, counting each time a consumer asks for the next frame
    from its client: it asks once it has handled the one before."""

    def __init__(self, application):
        self.application = application
        self.asks: asyncio.Queue[None] = asyncio.Queue()

    async def __call__(self, scope, receive, send):
        async def next_frame():
            self.asks.put_nowait(None)
            return await receive()

        await self.application(scope, next_frame, send)


class ErrorRecords(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def error_records():
    handler = ErrorRecords()
    logging.getLogger().addHandler(handler)
    yield handler.records
    logging.getLogger().removeHandler(handler)


@pytest.fixture
def application(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY_LAYER
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.CSRF_TRUSTED_ORIGINS = []
    return Watched(websocket_application(websocket_urlpatterns))


def lobby_socket(lobby: str):
    def open_():
        return UserFactory(username="Carol"), f"/ws/lobby/{lobby}/"

    return open_


def presence_socket():
    return UserFactory(username="Carol"), "/ws/presence/elsewhere/"


def match_socket():
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    return carol, f"/ws/match/{start_match(carol, bob).pk}/"


def trade_socket():
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    return carol, f"/ws/trade/{open_session(carol, bob).pk}/"


SOCKETS = {
    "lobby": (lobby_socket("casual"), "casual"),
    "tournament": (lobby_socket("tournaments"), "tournaments"),
    "presence": (presence_socket, "main"),
    "match": (match_socket, "casual"),
    "trade": (trade_socket, "trade"),
}


async def until_handled(application: Watched, communicator: WebsocketCommunicator, sent: list):
    """Waits until the consumer asks for its next frame; fails if it ended instead."""
    asked = asyncio.ensure_future(application.asks.get())
    await asyncio.wait(
        {asked, communicator.future},
        timeout=HANDLING_SECONDS,
        return_when=asyncio.FIRST_COMPLETED,
    )
    if communicator.future.done():
        asked.cancel()
        raise AssertionError(
            f"the consumer ended after {str(sent[-1])[:300]}"
        ) from communicator.future.exception()
    assert asked.done(), f"the consumer took over {HANDLING_SECONDS} s on {str(sent[-1])[:300]}"


def closes_in(communicator: WebsocketCommunicator) -> list[dict]:
    """What the consumer sent since the last call that closes the socket."""
    closes = []
    while not communicator.output_queue.empty():
        output = communicator.output_queue.get_nowait()
        if output["type"] != "websocket.send":
            closes.append(output)
    return closes


@pytest.mark.slow
@pytest.mark.parametrize("kind", SOCKETS)
async def test_no_frame_whatsoever_breaks_a_socket(kind, application, error_records):
    open_socket, lobby = SOCKETS[kind]
    user, path = await database_sync_to_async(open_socket)()
    cookie = await database_sync_to_async(session_cookie)(user)
    communicator = WebsocketCommunicator(application, path, headers=[SITE_ORIGIN, cookie])
    connected, _ = await communicator.connect()
    assert connected
    sent = ["the connection"]
    # Its first ask was for the connection; its second comes once it has opened.
    for _ in range(2):
        await until_handled(application, communicator, sent)
    assert closes_in(communicator) == []
    rng = random.Random(f"sockets-{kind}")

    for _ in range(FRAMES):
        message = frame(rng, lobby)
        sent.append(message)
        await communicator.send_input(message)
        await until_handled(application, communicator, sent)
        assert closes_in(communicator) == [], message

    assert [record.getMessage() for record in error_records] == []
    await communicator.disconnect()
