"""20,000 random and malformed messages to the match consumer, over a thousand of each of their
twelve shapes: each is answered with a clear error (or, for a well-formed legal decision,
played), nothing raises, the socket stays open, and the stored game stays what its log replays
to."""

import json
import random

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from game.engine import api as engine
from game.models import Game
from game.selectors import game_state
from tests.channel_layers import IN_MEMORY_LAYER
from tests.game.conftest import player_with_deck, start_match

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    # Half a minute of messages: run once per CI, in the embedded run; the socket's handling
    # of a message is the same in production mode.
    pytest.mark.skipif(bool(settings.REDIS_URL), reason="runs in the embedded run of CI"),
]


@pytest.fixture
def layer(settings):
    """The in-memory layer only: what a socket makes of a message does not depend on the
    layer, and the Redis layer's delivery has tests of its own."""
    settings.CHANNEL_LAYERS = IN_MEMORY_LAYER
    return IN_MEMORY_LAYER


MESSAGES = 20_000
KINDS = ["keep", "redraw", "play", "raid", "done", "pass", "exert", "choose", "attempt_quest"]


def malformed(chooser: random.Random, ply: int) -> str:
    """One message a broken or hostile page might send."""
    shape = chooser.randrange(12)
    if shape == 0:
        return "".join(chr(chooser.randrange(1, 0x2FFF)) for _ in range(chooser.randrange(1, 40)))
    if shape == 1:
        return json.dumps(chooser.choice([None, 7, "act", [], [1, 2], True, 1.5]))
    if shape == 2:
        return json.dumps({"type": chooser.choice(["", "ACT", "shuffle", 3, None, {}])})
    if shape == 3:
        return json.dumps({"type": "act", "ply": chooser.choice(["", "x", None, [], "1e9", -1])})
    if shape == 4:
        return json.dumps({"type": "act", "ply": str(ply), "action": "{not json"})
    if shape == 5:
        return json.dumps({"type": "act", "ply": str(ply), "action": json.dumps([1, {"kind": 2}])})
    if shape == 6:
        return json.dumps({"type": "chat", "text": chooser.choice([None, 5, [], {"a": 1}])})
    if shape == 7:
        return json.dumps(
            {"type": "act", "ply": str(ply + chooser.randrange(1, 9)), "action": "{}"}
        )
    if shape == 8:
        return '{"type": "act", "ply": "' + "9" * chooser.randrange(1, 400) + '"}'
    if shape == 9:
        return json.dumps({"type": "act", "ply": str(ply), "action": {"kind": "keep", "x": "y"}})
    # A well-formed decision of a random kind, naming cards no game has: never legal.
    action = {"kind": chooser.choice(KINDS), "card": chooser.randrange(1000, 2000)}
    if chooser.random() < 0.5:
        action["quest"] = chooser.randrange(-5, 0)
    return json.dumps({"type": "act", "ply": str(ply), "action": json.dumps(action)})


@pytest.mark.slow
async def test_random_and_malformed_messages_never_break_a_match(open_page):
    carol, bob = await database_sync_to_async(
        lambda: (player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith"))
    )()
    match = await database_sync_to_async(start_match)(carol, bob)
    pages = [
        await open_page(carol, f"/ws/match/{match.pk}/"),
        await open_page(bob, f"/ws/match/{match.pk}/"),
    ]
    for page in pages:
        await page.until('class="playmat"')
    chooser = random.Random(13)
    answered = 0

    for number in range(MESSAGES):
        page = pages[number % 2]
        await page.communicator.send_to(text_data=malformed(chooser, ply=number % 5))
        # The answer is an error; a stale ply may also bring the match as it stands.
        while True:
            answer = await page.communicator.receive_output(timeout=5)
            assert answer["type"] == "websocket.send", answer
            if 'role="alert"' in answer["text"] or "log-line--error" in answer["text"]:
                break
            assert 'id="match-screen"' in answer["text"], answer
        answered += 1

    assert answered == MESSAGES
    game = await database_sync_to_async(lambda: Game.objects.get(match=match))()
    log = await database_sync_to_async(
        lambda: list(game.actions.order_by("number").values_list("action", flat=True))
    )()
    stored = await database_sync_to_async(game_state)(game)
    assert engine.to_json(engine.replay(game.decklists, game.seed, log)) == engine.to_json(stored)
