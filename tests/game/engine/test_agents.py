"""Computer opponents on the engine's contract, and whole simulated games."""

import itertools
from pathlib import Path

from game.ai.agents import GreedyAgent, RandomAgent
from game.engine import actions, api
from game.engine.decklists import starter_decklists
from game.engine.simulation import simulate
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    decklist,
    keep_hands,
    put_into_play,
    quest_at,
    start,
    unit,
)

SET_FILE = (
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
DECKS = starter_decklists(SET_FILE)
MATCHUPS = [[DECKS[a], DECKS[b]] for a, b in itertools.permutations(sorted(DECKS), 2)]

JASON = decklist(
    avatar("Jason"),
    ability("Insight", level=2),
    unit("Trooper", attack=2),
    unit("Scout", attack=1),
)
TYLER = decklist(avatar("Tyler", defense=1), unit("Guard", defense=3, health=3))


def greedy(_seed: int) -> GreedyAgent:
    return GreedyAgent()


def test_simulated_random_games_end_without_a_single_invariant_violation():
    report = simulate(6, seed=100, agents=[RandomAgent, RandomAgent], decklists=MATCHUPS)

    assert report.violations == []
    assert report.games == 6
    assert sum(report.win_reasons.values()) == 6
    assert 0 < report.mean_turns < 200
    assert report.games_per_second > 0
    assert "invariant violations: none" in report.summary()


def test_the_greedy_agent_beats_the_random_agent_most_of_the_time():
    report = simulate(12, seed=7, agents=[RandomAgent, greedy], decklists=MATCHUPS)

    assert report.violations == []
    assert report.wins_by_agent[1] >= 10


def test_greedy_agents_play_each_other_to_the_end():
    report = simulate(4, seed=3, agents=[greedy, greedy], decklists=MATCHUPS)

    assert report.violations == []
    assert report.games == 4


def test_the_greedy_agent_attempts_the_quest_it_can_complete_without_a_fight():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Insight")
    put_into_play(state, SECOND, "Guard", at=1)
    keep_hands(state)

    decision = api.legal_actions(state)

    assert GreedyAgent().choose(state, decision) == actions.attempt_quest(quest_at(state, 0))


def test_the_greedy_agent_raids_only_where_its_units_win():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Scout", at=0)  # 1 attack against the Guard's 3 defense
    put_into_play(state, FIRST, "Trooper", at=1)  # 2 attack against the avatar's 1 defense
    put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)  # a hand of bystanders, too costly to play

    chosen = GreedyAgent().choose(state, api.legal_actions(state))
    act(state, chosen)

    assert chosen == actions.raid(quest_at(state, 1))
    assert GreedyAgent().choose(state, api.legal_actions(state)) == actions.exert(
        state.quests[1].units[FIRST][0], "attack"
    )
