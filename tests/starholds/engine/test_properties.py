"""Properties of the engine over many games (docs/design.md, "Tests"): determinism, the JSON
round trip, and views that do not change when the cards a seat cannot see change, for 2 to 6
seats."""

from hypothesis import given, settings
from hypothesis import strategies as st

from starholds.engine import api, effects, vocabulary
from starholds.engine.invariants import hidden_cards
from tests.starholds.engine.builders import play_randomly, simple_deck

SEATS = st.integers(min_value=2, max_value=6)
SEEDS = st.integers(min_value=0, max_value=2**32)
STEPS = st.integers(min_value=0, max_value=250)


def played(seats: int, seed: int, steps: int) -> tuple[api.State, list[dict]]:
    state = api.new_game([simple_deck() for _ in range(seats)], seed)
    return state, play_randomly(state, seed, limit=steps, check=False)


@settings(max_examples=12, deadline=None)
@given(SEATS, SEEDS, STEPS)
def test_a_seed_and_the_actions_replay_the_same_game(seats, seed, steps):
    state, actions = played(seats, seed, steps)
    again = api.replay([simple_deck() for _ in range(seats)], seed, actions)
    assert api.to_json(again) == api.to_json(state)


@settings(max_examples=12, deadline=None)
@given(SEATS, SEEDS, STEPS)
def test_the_state_round_trips_through_json(seats, seed, steps):
    state, _ = played(seats, seed, steps)
    copy = api.from_json(api.to_json(state))
    assert api.to_json(copy) == api.to_json(state)
    assert api.legal_actions(copy) == api.legal_actions(state)
    for seat in [None, *range(seats)]:
        assert api.view(copy, seat) == api.view(state, seat)


@settings(max_examples=12, deadline=None)
@given(SEATS, SEEDS, STEPS, st.randoms(use_true_random=False))
def test_a_view_does_not_change_when_hidden_cards_change(seats, seed, steps, shuffler):
    """What a seat cannot see (other hands, every deck) may be anything: its view stays."""
    state, _ = played(seats, seed, steps)
    for seat in [None, *range(seats)]:
        hidden = sorted(hidden_cards(state, seat))
        changed = api.from_json(api.to_json(state))
        faces = [changed.cards[card].definition for card in hidden]
        shuffler.shuffle(faces)
        for card, face in zip(hidden, faces, strict=True):
            changed.cards[card].definition = face
        assert api.view(changed, seat) == api.view(state, seat)


def test_every_effect_primitive_of_the_vocabulary_is_implemented():
    assert set(effects.PRIMITIVES) == set(vocabulary.EFFECTS)


def test_games_of_two_to_six_seats_keep_every_invariant():
    for seats in range(2, 7):
        state = api.new_game([simple_deck() for _ in range(seats)], seats)
        play_randomly(state, seats, limit=600)
