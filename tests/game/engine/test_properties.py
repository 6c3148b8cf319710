"""Properties over random seeds and random legal play, checked after every action: cards are
conserved, power never goes negative, hands meet the limit at the end of a turn, the state
survives JSON, no view or event shows a hidden card, every game ends, and replay is exact."""

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import api
from game.engine.decklists import starter_decklists
from game.engine.events import redact
from game.engine.invariants import invariant_violations
from game.engine.simulation import (
    TURN_CAP,
    hidden_cards,
    round_trip_violations,
    shown_cards,
    view_violations,
)

SET_FILE = (
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
DECKS = starter_decklists(SET_FILE)
MATCHUPS = [[DECKS[a], DECKS[b]] for a, b in itertools.permutations(sorted(DECKS), 2)]
WHOLE_GAMES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def event_leaks(state: api.State, events: list[dict]) -> list[str]:
    problems = []
    for viewer in (None, *range(len(state.seats))):
        hidden = hidden_cards(state, viewer)
        for event in events:
            leaked = shown_cards(redact(event, viewer)) & hidden
            if leaked:
                problems.append(f"{event} shows {viewer} the hidden cards {leaked}")
    return problems


@pytest.mark.slow
@WHOLE_GAMES
@given(seed=st.integers(0, 2**63), matchup=st.sampled_from(MATCHUPS), play_seed=st.integers())
def test_random_legal_play_keeps_every_invariant_after_every_action(seed, matchup, play_seed):
    state = api.new_game(matchup, seed)
    chooser = random.Random(play_seed)
    played = []
    while state.winner is None:
        assert state.turn <= TURN_CAP, "the game did not end"
        decision = api.legal_actions(state)
        assert decision.actions and decision.seat == state.deciding
        action = chooser.choice(decision.actions)
        events = api.apply(state, action)
        played.append(action)

        problems = (
            invariant_violations(state, events)
            + round_trip_violations(state)
            + view_violations(state)
            + event_leaks(state, events)
        )
        assert not problems, f"after action {len(played)} {action}: {problems}"

    assert api.to_json(api.replay(matchup, seed, played)) == api.to_json(state)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**63),
    matchup=st.sampled_from(MATCHUPS),
    play_seed=st.integers(),
    moves=st.integers(0, 400),
    card=st.integers(-5, 200),
)
def test_an_illegal_action_anywhere_in_a_game_changes_nothing(
    seed, matchup, play_seed, moves, card
):
    state = api.new_game(matchup, seed)
    chooser = random.Random(play_seed)
    for _ in range(moves):
        if state.winner is not None:
            break
        api.apply(state, chooser.choice(api.legal_actions(state).actions))
    legal = api.legal_actions(state).actions
    candidates = [{**action, "card": card} for action in legal if "card" in action] + [
        {"kind": "play", "card": card},
        {"kind": "raid", "quest": card},
        {"kind": "redraw"},
    ]
    illegal = [action for action in candidates if action not in legal]
    before = api.to_json(state)

    for action in illegal:
        try:
            api.apply(state, action)
        except api.IllegalAction:
            pass
        else:
            raise AssertionError(f"{action} was accepted but is not legal")
        assert api.to_json(state) == before
