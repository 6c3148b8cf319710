"""Properties of Four-man Heroic Encounters (MULTIPLAYER GAMES, 4 versus 1) over random
seeds, random starter decks and random legal play, checked after every action: cards are
conserved, reach and the team bookkeeping hold (``invariants.team_violations``), no event
shows a seat another's hand (the boss's or a fellow hero's), the state survives JSON, every
game ends with one side standing, and replay is exact."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.agents import GreedyAgent
from game.engine import api
from game.engine.invariants import invariant_violations
from game.engine.state import in_game
from tests.game.engine.test_team_properties import (
    DECKS,
    NAMES,
    check_game_over,
    event_leaks,
    play_randomly,
    views_hide_what_they_must,
)

five_decks = st.lists(st.sampled_from(NAMES), min_size=5, max_size=5)


def encounter_of(names: list[str]) -> list[list[dict]]:
    """Four heroes' starter decks against a boss playing the fifth."""
    return [[DECKS[name] for name in names[:4]], [DECKS[names[4]]]]


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63), names=five_decks, play_seed=st.integers())
def test_random_encounters_keep_every_invariant_after_every_action(seed, names, play_seed):
    """Every action: cards conserved, reach and team bookkeeping, no hidden card in an event
    for any seat; whenever a player leaves and at the end, no hidden card in any view and the
    JSON round trip; and the game replays from its seed and actions."""
    encounter = encounter_of(names)
    state = api.new_game(encounter, seed)

    def after_each(action, events):
        problems = invariant_violations(state, events) + event_leaks(state, events)
        assert not problems, f"after {action}: {problems}"
        if any(event["type"] in ("player_lost", "deck_reshuffled") for event in events):
            views_hide_what_they_must(state)

    played = play_randomly(state, random.Random(play_seed), after_each)

    views_hide_what_they_must(state)
    check_game_over(state)
    assert api.to_json(api.replay(encounter, seed, played)) == api.to_json(state)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63), names=five_decks, play_seed=st.integers())
def test_random_encounters_end_with_one_side_standing(seed, names, play_seed):
    """The quick version of the property above, run with every test run."""
    state = api.new_game(encounter_of(names), seed)

    def after_each(action, events):
        problems = invariant_violations(state, events)
        assert not problems, f"after {action}: {problems}"

    play_randomly(state, random.Random(play_seed), after_each)

    check_game_over(state)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_computers_play_every_seat_of_an_encounter_from_their_own_views(seed):
    """The greedy agent, the computer of team games, reads only ``view(state, seat)`` and
    plays the heroes and the boss to the end."""
    state = api.new_game(encounter_of([NAMES[seed % len(NAMES)]] * 5), seed)
    computer = GreedyAgent()
    while state.winner is None:
        assert state.turn <= 400, "the game did not end"
        decision = api.legal_actions(state)
        assert in_game(state, decision.seat)
        api.apply(state, computer.choose(state, decision))

    check_game_over(state)
