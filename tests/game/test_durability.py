"""A web process killed in the middle of a match loses nothing (docs/design.md, "Live play": a
match is its seed, decklists and action log): a real daphne serving two players' sockets is
killed with SIGKILL mid-match and another started; the players reconnect to the match as it
stood after every accepted decision and play on, and the log still replays the game."""

import asyncio
import json
import re
import signal

import pytest
from django.conf import settings

from game.engine import api as engine
from game.models import Game
from game.selectors import game_state
from tests.game.conftest import player_with_deck, start_match
from tests.lobbies.test_two_processes import Socket, free_port, session_cookie, start_daphne

pytestmark = [
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="a second process shares the match through PostgreSQL: production mode",
    ),
    pytest.mark.django_db(transaction=True),
]


def current(match) -> tuple[int, int, dict]:
    """The seat to decide, the ply and the first legal action, read from the database."""
    game = Game.objects.filter(match=match).latest("number")
    decision = engine.legal_actions(game_state(game))
    return decision.seat, game.applied, decision.actions[0]


async def connect(port: int, cookie: str, match) -> Socket:
    import websockets

    connection = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/match/{match.pk}/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=20,
    )
    return Socket(connection)


async def play(sockets, match, moves: int) -> int:
    """``moves`` decisions sent by whoever must decide; the ply reached."""
    for _ in range(moves):
        seat, ply, action = await asyncio.to_thread(current, match)
        await sockets[seat].connection.send(
            json.dumps({"type": "act", "ply": str(ply), "action": json.dumps(action)})
        )
        for socket in sockets:
            await socket.until(f'data-ply="{ply + 1}"', timeout=20)
    return ply + 1


def test_a_killed_process_loses_no_accepted_decision(transactional_db):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob)
    cookies = [session_cookie(carol), session_cookie(bob)]
    first_port = free_port()
    first = start_daphne(first_port)
    second = None
    try:

        async def before_the_kill() -> int:
            sockets = [await connect(first_port, cookie, match) for cookie in cookies]
            for socket in sockets:
                await socket.until('class="playmat"', timeout=20)
            reached = await play(sockets, match, 8)
            first.send_signal(signal.SIGKILL)
            return reached

        reached = asyncio.run(before_the_kill())
        first.wait(timeout=10)

        second_port = free_port()
        second = start_daphne(second_port)

        async def after_the_restart() -> int:
            sockets = [await connect(second_port, cookie, match) for cookie in cookies]
            for socket in sockets:
                screen = await socket.until('class="playmat"', timeout=20)
                assert re.search(f'data-ply="{reached}"', screen)
            return await play(sockets, match, 4)

        final = asyncio.run(after_the_restart())
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(timeout=10)

    game = Game.objects.get(match=match)
    log = list(game.actions.order_by("number").values_list("action", flat=True))
    assert game.applied == final == len(log) == reached + 4
    assert engine.to_json(engine.replay(game.decklists, game.seed, log)) == engine.to_json(
        game_state(game)
    )
