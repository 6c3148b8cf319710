"""The engine's seeded shuffle, and the engine's independence from Django."""

import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from game.engine.shuffle import shuffled

ROOT = Path(__file__).resolve().parents[2]


@given(st.lists(st.integers(), max_size=60), st.integers(min_value=0, max_value=2**48))
def test_the_same_seed_gives_the_same_order(items, seed):
    assert shuffled(items, seed) == shuffled(list(items), seed)


@given(st.lists(st.integers(), max_size=60), st.integers(min_value=0, max_value=2**48))
def test_a_shuffle_keeps_every_card(items, seed):
    assert sorted(shuffled(items, seed)) == sorted(items)


def test_a_shuffle_returns_a_new_list_and_leaves_the_input_alone():
    deck = list(range(53))
    order = shuffled(deck, 7)
    assert deck == list(range(53))
    assert order is not deck


def test_different_seeds_give_different_orders():
    deck = list(range(53))
    assert len({tuple(shuffled(deck, seed)) for seed in range(20)}) == 20


def test_importing_the_engine_loads_no_django():
    """docs/design.md: game/engine imports nothing from Django (checked in a fresh interpreter)."""
    script = (
        "import sys, game.engine, game.engine.shuffle; "
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'django'))"
    )
    result = subprocess.run(  # noqa: S603 - a fixed command line, no user input
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
