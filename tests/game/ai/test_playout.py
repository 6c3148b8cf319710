"""The look-ahead's moves and judgement (game.ai.playout), and the package's hygiene."""

import ast
from pathlib import Path

import pytest

from game.ai.agents import GreedyAgent
from game.ai.playout import evaluate, playout_action
from game.engine import api
from tests.game.ai.conftest import positions
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
