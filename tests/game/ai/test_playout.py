"""The look-ahead's moves and judgement (game.ai.playout), and the package's hygiene."""

import ast
from pathlib import Path

import pytest

from game.ai.agents import GreedyAgent
from game.ai.playout import GOAL_WEIGHT, evaluate, playout_action, side_score
from game.encounters import STANDING_STONES
from game.engine import api
from game.engine.positions import Position, SeatSetup, build
from tests.game.ai.conftest import BOSS, DECKS, positions
from tests.game.engine.test_module_state import mutable_state
from tests.python_source import parsed

PACKAGE = Path(__file__).resolve().parents[3] / "game" / "ai"
MODULES = sorted(PACKAGE.glob("*.py"))


def test_the_playout_moves_are_the_greedy_agents_choices():
    compared = 0
    for state, decision in positions(6):
        assert playout_action(state, decision) == GreedyAgent().choose(state, decision)
        compared += 1
    assert compared > 500


def test_a_won_game_is_judged_won_and_positions_in_between():
    for state, _ in positions(1, every=20):
        assert -1 < evaluate(state, 0) < 1
        assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))
    state, _ = next(positions(1, every=1))
    while state.winner is None:
        api.apply(state, playout_action(state, api.legal_actions(state)))
    assert evaluate(state, state.winner) == 1.0
    assert evaluate(state, 1 - state.winner) == -1.0


def _encounter(completed: int):
    """The Singing Mountain Rite (the heroes win once they complete 8 quests in all), each
    hero but the fourth (who has no quest of his own) with ``completed`` quests done."""
    heroes = [
        SeatSetup(
            avatar=DECKS[name]["avatar"],
            quests=DECKS[name]["quests"],
            deck=DECKS[name]["deck"][:10],
            completed=completed if seat < 3 else 0,
        )
        for seat, name in enumerate(sorted(DECKS))
    ]
    boss = SeatSetup(avatar=BOSS["avatar"], quests=BOSS["quests"], deck=BOSS["deck"][:10])
    return build(Position(seats=(*heroes, boss), first=0, turn=1, phase="main"))


def test_a_heroic_encounters_own_victory_condition_weighs_in_the_sides_judgement():
    """Three quests completed are worth three quests to the heroes, and as much again as
    the nearer they bring the boss's "opponents win once they have completed 8 quests in
    all"; to the boss, the same against him."""
    before, after = _encounter(0), _encounter(1)

    gained = side_score(after, 0) - side_score(before, 0)

    assert gained == pytest.approx(3 * 0.9 + GOAL_WEIGHT * (3 / STANDING_STONES) ** 2)
    assert side_score(after, 4) - side_score(before, 4) == pytest.approx(-gained)
    assert side_score(after, 2) == pytest.approx(side_score(after, 0))


@pytest.mark.parametrize("module", MODULES, ids=[module.stem for module in MODULES])
def test_a_computer_opponent_module_keeps_no_mutable_state_outside_the_game(module):
    assert mutable_state(module.read_text()) == []


@pytest.mark.parametrize("module", MODULES, ids=[module.stem for module in MODULES])
def test_a_computer_opponent_module_imports_nothing_from_django(module):
    imported = set()
    for node in ast.walk(parsed(module.read_text())):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assert not [name for name in imported if name.split(".")[0] in ("django", "tcgsite")]
