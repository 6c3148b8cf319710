"""The arena plays whole Starholds games between agents with every invariant checked after
every action, and reports how they went."""

import pytest

from starholds.ai.agents import GreedyAgent, RandomAgent
from starholds.ai.arena import (
    InvalidRun,
    Report,
    play_game,
    run,
    starter_decklists,
)
from starholds.engine import api

DECKS, PRINTED = starter_decklists()


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_greedy_game_plays_to_its_end_without_breaking_an_invariant(seats):
    """Victory Conditions: the game ends with one player left (or by the stall rule)."""
    agents = [GreedyAgent(PRINTED) for _ in range(seats)]
    game = play_game([DECKS[seat % len(DECKS)] for seat in range(seats)], 7, agents)

    assert game.violations == ()
    assert game.result != "unfinished"
    assert game.actions > 0


def test_the_agents_choose_only_legal_actions_and_the_same_ones_from_the_same_seed():
    chosen = []
    for _ in range(2):
        state = api.new_game([DECKS[0], DECKS[1], DECKS[2]], 11)
        agents = [RandomAgent(5), GreedyAgent(PRINTED), RandomAgent(6)]
        actions = []
        while (decision := api.legal_actions(state)).seat is not None and len(actions) < 400:
            action = agents[decision.seat].choose(state, decision)
            assert action in decision.actions
            api.apply(state, action)
            actions.append(action)
        chosen.append(actions)
    assert chosen[0] == chosen[1]


def test_a_run_seats_the_agents_in_rotation_and_counts_every_game_once():
    report = run(["greedy", "random"], 2, 4, 3)

    assert report.games == 4
    assert report.seats_by_agent == {0: 4, 1: 4}
    assert sum(report.wins_by_agent.values()) == 4
    assert sum(report.endings.values()) == 4
    assert report.violations == []
    lines = report.summary()
    assert lines[0].startswith("4 games of 2 players in ") and "games per second" in lines[0]
    assert (
        0 < report.cpu_seconds
        and f"({report.games_per_cpu_second:.2f} per second of CPU" in lines[0]
    )
    assert any(line.startswith("agent 0 (greedy, 50% of the seats): won ") for line in lines)
    assert lines[-1] == "invariant violations: none"


@pytest.mark.parametrize(
    ("names", "players", "message"),
    [(["cheater"], 4, "unknown agent"), (["random"], 1, "2 to 12 players")],
)
def test_a_run_refuses_unknown_agents_and_impossible_tables(names, players, message):
    with pytest.raises(InvalidRun, match=message):
        run(names, players, 1, 1)


def test_reports_of_several_processes_add_up():
    first, second = Report(agents=("random",), players=2), Report(agents=("random",), players=2)
    first.games, second.games = 2, 3
    first.rounds, second.rounds = [4, 5], [6, 7, 8]
    first.cpu_seconds, second.cpu_seconds = 1.5, 1.0
    first.merge(second)
    assert first.games == 5 and first.mean_rounds == 6.0
    assert first.games_per_cpu_second == 2.0
