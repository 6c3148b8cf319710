"""The engine is reentrant: games played at the same time on many threads go exactly as they
go one at a time (docs/design.md, "How code is written": the engine runs on many threads at once).

Threads are switched as often as the interpreter allows, so that a cache one game left behind
would be seen by another. The games run on whichever build this interpreter imported (the
compiled one after ``make engine``) and, in a fresh interpreter, from the sources.
"""

import itertools
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.ai.agents import RandomAgent
from game.engine import api
from game.engine.decklists import starter_decklists

ROOT = Path(__file__).resolve().parents[3]
SET_FILE = ROOT / "collection/cards/sets/01_embers-of-the-outer-rim.json"
GAMES = 16
# The games are shared among this many threads, each playing its share one after another: four
# games at a time meet each other's leftovers as surely as sixteen, and with sixteen threads
# waiting for the interpreter at every switch, handing it over cost most of the test's time.
THREADS = 4
# Long enough for combats, triggers and lasting effects; short enough to stay quick.
ACTIONS_PER_GAME = 300

# One entry per action: the legal actions offered, the events of the action chosen, and the
# state's JSON after it.
Transcript = list[tuple[list[dict], list[dict], str]]


def play(decklists: list[dict], seed: int) -> Transcript:
    state = api.new_game(decklists, seed)
    agent = RandomAgent(seed)
    transcript: Transcript = []
    while state.winner is None and len(transcript) < ACTIONS_PER_GAME:
        decision = api.legal_actions(state)
        events = api.apply(state, agent.choose(state, decision))
        transcript.append((decision.actions, events, api.to_json(state)))
    return transcript


def first_difference(seen: Transcript, expected: Transcript) -> str | None:
    for number, (step, wanted) in enumerate(zip(seen, expected, strict=False)):
        for part, got, want in zip(("legal actions", "events", "state"), step, wanted, strict=True):
            if got != want:
                return f"action {number}: {part} differ"
    if len(seen) != len(expected):
        return f"{len(seen)} actions played instead of {len(expected)}"
    return None


def check_games_in_threads_play_as_one_at_a_time() -> None:
    decks = starter_decklists(SET_FILE)
    matchups = [[decks[a], decks[b]] for a, b in itertools.permutations(sorted(decks), 2)]
    games = [(matchups[seed % len(matchups)], seed) for seed in range(GAMES)]
    alone = [play(decklists, seed) for decklists, seed in games]

    together: list[Transcript | BaseException] = [[] for _ in games]
    start = threading.Barrier(THREADS)

    def play_in_thread(first: int) -> None:
        start.wait()
        for number in range(first, len(games), THREADS):
            try:
                together[number] = play(*games[number])
            except BaseException as error:  # noqa: BLE001 (reported below, beside the others)
                together[number] = error

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=play_in_thread, args=(n,)) for n in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)

    differences = {
        seed: repr(seen) if isinstance(seen, BaseException) else first_difference(seen, expected)
        for (_, seed), seen, expected in zip(games, together, alone, strict=True)
    }
    diverged = {seed: found for seed, found in differences.items() if found}
    assert not diverged, f"games that diverged, by seed: {diverged}"


def test_games_in_threads_play_as_they_do_one_at_a_time():
    check_games_in_threads_play_as_one_at_a_time()


@pytest.mark.slow
def test_games_in_threads_play_as_they_do_one_at_a_time_from_the_sources():
    result = subprocess.run(  # noqa: S603 (this interpreter, this module)
        [
            sys.executable,
            "-c",
            "from tests.game.engine import test_threads as t;"
            " t.check_games_in_threads_play_as_one_at_a_time()",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "ENGINE_SOURCES": "1"},
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 0, result.stderr[-3000:]
