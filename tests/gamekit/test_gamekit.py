"""The helpers both games share (gamekit/): the SplitMix64 generator gives the reference
sequence, so a seed replays the same game in either engine; the Wilson interval its known
values; and the package stays pure (nothing of Django's, no app, no module state)."""

from types import SimpleNamespace

import pytest

from gamekit.splitmix import MASK_64, below, next_u64, seed_state
from gamekit.winrates import wilson_interval
from tests.pure_libraries import PROJECT_APPS, apps_imported, modules_of, mutable_module_state


def test_splitmix64_gives_the_reference_sequence():
    # The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
    holder = SimpleNamespace(rng=seed_state(0))
    assert [next_u64(holder) for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_a_seed_is_any_integer_and_below_stays_in_its_bound():
    assert seed_state(-1) == MASK_64 and seed_state(2**64 + 5) == 5
    holder = SimpleNamespace(rng=seed_state(7))
    drawn = [below(holder, 6) for _ in range(600)]
    assert set(drawn) == set(range(6))


def test_a_win_rate_comes_with_its_wilson_interval():
    # Known values of the Wilson score interval at 95%.
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(400, 408) == pytest.approx((0.9618, 0.9900), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_gamekit_imports_nothing_of_django_nor_of_any_app_nor_of_either_game():
    assert modules_of("gamekit")
    assert apps_imported("gamekit", (*PROJECT_APPS, "starholds")) == []


def test_no_module_keeps_mutable_state():
    assert mutable_module_state("gamekit") == []
