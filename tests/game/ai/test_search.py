"""The search agent (game.ai.search): legal, blind to hidden cards, deterministic per seed."""

import itertools
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.ai.agents import GreedyAgent, RandomAgent
from game.ai.search import LEVELS, SearchAgent, Settings
from game.engine import api
from game.engine.simulation import simulate
from tests.game.ai.conftest import (
    DECKS,
    ENCOUNTER_GAME,
    ENCOUNTER_PRIORS,
    MATCHUPS,
    TEAM_GAME,
    positions,
    side_positions,
    snapshot,
)
from tests.game.ai.hidden import hidden_pair, redealt

# Small budgets keep the tests quick; the levels differ only in their numbers.
QUICK = Settings(playouts=6, candidates=4, horizon=1)
DEEPER = Settings(playouts=12, candidates=6, horizon=2)


def searcher(seed: int, settings: Settings | str = QUICK) -> SearchAgent:
    return SearchAgent(seed, settings, priors=DECKS)


def test_the_search_agent_always_returns_a_legal_action():
    for game, (settings, opponent) in enumerate([(QUICK, RandomAgent(5)), ("easy", GreedyAgent())]):
        state = api.new_game(MATCHUPS[game * 5], seed=game)
        players = [searcher(game, settings), opponent]
        chosen = 0
        while state.winner is None:
            decision = api.legal_actions(state)
            action = players[decision.seat].choose(state, decision)
            assert action in decision.actions
            api.apply(state, action)
            chosen += decision.seat == 0
        assert chosen > 50


@pytest.mark.parametrize(
    ("own_deck_reordered", "decisions"), [(True, 2), (False, 8)], ids=["own-deck", "same-own-deck"]
)
def test_the_search_agent_decides_the_same_however_the_hidden_cards_lie(
    own_deck_reordered, decisions
):
    """Two positions alike in all the agent's seat sees, unlike in the opponent's hand,
    deck and quest pile, in the random numbers' seed and (the first case) in the order of
    the agent's own deck: every decision the agent makes is the same in both, for as long
    as the games look alike to it (its own deck's order shows in its next draw)."""
    one, other = hidden_pair(own_deck_reordered)
    assert one.seats[1].hand != other.seats[1].hand or one.definitions != other.definitions
    compared = 0
    while one.winner is None and api.view(one, 0) == api.view(other, 0):
        decision = api.legal_actions(one)
        if decision.seat == 0:
            mine = searcher(11, DEEPER).choose(one, decision)
            theirs = searcher(11, DEEPER).choose(other, api.legal_actions(other))
            assert mine == theirs
            compared += len(decision.actions) > 1
        else:  # the opponent's choices must not tell the two games apart: it passes
            mine = theirs = decision.actions[-1]
        api.apply(one, mine)
        api.apply(other, theirs)
    assert compared >= decisions


def test_the_search_agent_decides_the_same_when_hidden_cards_are_dealt_again():
    checked = 0
    for state, decision in positions(3, every=6, seed=20):
        other = redealt(state, decision.seat, random.Random(checked))
        assert api.view(other, decision.seat) == api.view(state, decision.seat)

        chosen = searcher(checked).choose(state, decision)

        assert searcher(checked).choose(other, api.legal_actions(other)) == chosen
        checked += 1
    assert checked > 30


@pytest.mark.parametrize(
    ("decklists", "priors"),
    [(TEAM_GAME, DECKS), (ENCOUNTER_GAME, ENCOUNTER_PRIORS)],
    ids=["2v2", "4v1"],
)
def test_in_a_game_with_sides_no_decision_changes_when_every_unseen_card_is_dealt_again(
    decklists, priors
):
    """Every hand, deck and quest pile the deciding seat cannot see, its teammates' as
    well as its opponents', is shuffled and dealt again, with another seed: the search
    agent of every seat, heroes and boss alike, decides the same."""
    checked, seats = 0, set()
    for state, decision in side_positions(decklists, 2, every=9, seed=30):
        other = redealt(state, decision.seat, random.Random(checked))
        assert api.view(other, decision.seat) == api.view(state, decision.seat)

        chosen = SearchAgent(checked, QUICK, priors=priors).choose(state, decision)

        again = SearchAgent(checked, QUICK, priors=priors).choose(other, api.legal_actions(other))
        assert again == chosen
        checked += 1
        seats.add(decision.seat)
    assert checked > 30 and seats == set(range(len(state.seats)))


def test_the_search_agent_is_deterministic_for_a_seed_and_replays_from_the_action_log():
    state = api.new_game(MATCHUPS[3], seed=8)
    agent, greedy = searcher(42, DEEPER), GreedyAgent()
    played = []
    while state.winner is None:
        decision = api.legal_actions(state)
        action = (agent if decision.seat == 0 else greedy).choose(state, decision)
        played.append(action)
        api.apply(state, action)

    # Replayed from the seed and the action log, a new agent at every decision (as the
    # match service makes them) chooses every action again.
    replay = api.new_game(MATCHUPS[3], seed=8)
    for action in played:
        decision = api.legal_actions(replay)
        if decision.seat == 0:
            assert searcher(42, DEEPER).choose(replay, decision) == action
        api.apply(replay, action)
    assert replay == state


GAME_IN_A_FRESH_INTERPRETER = """
import json
from game.ai.agents import GreedyAgent
from game.ai.search import SearchAgent, Settings
from game.engine import api
from tests.game.ai.conftest import DECKS, MATCHUPS
state = api.new_game(MATCHUPS[7], 5)
players = [GreedyAgent(), SearchAgent(9, Settings(playouts=6, candidates=4), priors=DECKS)]
played = []
while state.winner is None:
    decision = api.legal_actions(state)
    played.append(players[decision.seat].choose(state, decision))
    api.apply(state, played[-1])
print(json.dumps(played))
"""


def test_the_search_agent_decides_alike_in_processes_that_hash_strings_differently():
    """Several web processes may play one match in turn: nothing the agent decides may hang
    on the order of a set or on string hashes, which differ from one process to another."""
    root = Path(__file__).resolve().parents[3]
    logs = [
        subprocess.run(  # noqa: S603 (this interpreter, on this test's own code)
            [sys.executable, "-c", GAME_IN_A_FRESH_INTERPRETER],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in (1, 2)
    ]
    assert logs[0] == logs[1] and len(json.loads(logs[0])) > 50


def test_another_seed_may_decide_otherwise():
    differ = 0
    for state, decision in positions(2, every=4, seed=30):
        differ += searcher(1).choose(state, decision) != searcher(2).choose(state, decision)
    assert differ > 0


def test_agents_deciding_on_many_threads_decide_as_one_at_a_time():
    cases = [
        (snapshot(state), decision)
        for state, decision in itertools.islice(positions(1, every=8, seed=40), 12)
    ]
    alone = [
        searcher(index).choose(state, decision) for index, (state, decision) in enumerate(cases)
    ]
    together: list = [None] * len(cases)
    start = threading.Barrier(4)

    def decide(part: int) -> None:
        start.wait()
        for index in range(part, len(cases), 4):
            state, decision = cases[index]
            together[index] = searcher(index).choose(state, decision)

    threads = [threading.Thread(target=decide, args=(part,)) for part in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone


def test_the_levels_spend_more_playouts_from_easy_to_hard():
    assert list(LEVELS) == ["easy", "normal", "hard"]
    budgets = [LEVELS[level].playouts for level in LEVELS]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_each_level_decides_a_position(level):
    state, decision = next(positions(1, every=30, seed=50))

    assert searcher(1, level).choose(state, decision) in decision.actions


@pytest.mark.slow
def test_the_search_agent_beats_the_greedy_agent():
    report = simulate(
        6,
        seed=60,
        agents=[lambda seed: searcher(seed, DEEPER), lambda seed: GreedyAgent()],
        decklists=MATCHUPS[::2],
        swap_seats=True,
    )

    assert report.violations == []
    assert report.wins_by_agent[0] >= 4
