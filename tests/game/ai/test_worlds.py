"""Possible worlds (game.ai.worlds): full states a seat cannot tell from the real one."""

import random

import pytest

from game.ai.worlds import CardPool, Sight, clone
from game.engine import api
from tests.game.ai.conftest import (
    DECKS,
    ENCOUNTER_GAME,
    ENCOUNTER_PRIORS,
    TEAM_GAME,
    positions,
    side_positions,
)
from tests.game.ai.hidden import redealt


def test_a_clone_equals_its_original_and_changes_apart_from_it():
    for state, decision in positions(2, every=25):
        copy = clone(state)
        assert copy == state
        assert api.to_json(copy) == api.to_json(state)

        before = api.to_json(state)
        api.apply(copy, decision.actions[-1])
        assert api.to_json(state) == before


def test_a_clone_of_a_team_game_keeps_its_sides_and_leavers_apart_from_the_original():
    """MULTIPLAYER GAMES: a clone without its teams was a two-player game, in which a player
    leaving at the start ended the game with every avatar destroyed at once."""
    state = api.new_game([[DECKS["jedi"], DECKS["rebel"]], [DECKS["sith"], DECKS["imperial"]]], 5)
    copy = clone(state)
    assert copy == state and copy.teams is not None
    assert api.to_json(copy) == api.to_json(state)

    before = api.to_json(state)
    api.apply(copy, api.leave(0))
    assert copy.winner is None and copy.teams.left == [0]
    assert api.to_json(state) == before


def test_a_possible_world_looks_to_the_seat_exactly_as_the_real_game():
    pool = CardPool(DECKS)
    checked = 0
    for state, decision in positions(4, every=3):
        seen = api.view(state, decision.seat)

        world = Sight(state, seen, pool).world(random.Random(checked))

        assert api.view(world, decision.seat) == seen
        assert api.legal_actions(world).actions == decision.actions
        checked += 1
    assert checked > 100


def test_a_possible_world_fills_what_the_seat_cannot_see_from_its_own_sample():
    pool = CardPool(DECKS)
    state, decision = next(positions(1, every=40))
    seen = api.view(state, decision.seat)
    sight = Sight(state, seen, pool)
    opponent = 1 - decision.seat

    worlds = [sight.world(random.Random(seed)) for seed in range(8)]

    hands = {
        tuple(api.card_titles(world)[card] for card in world.seats[opponent].hand)
        for world in worlds
    }
    assert len(hands) > 1  # sampled, not copied
    assert len({world.rng for world in worlds}) == len(worlds)
    for world in worlds:
        assert len(world.seats[opponent].hand) == len(state.seats[opponent].hand)
        assert len(world.seats[opponent].deck) == len(state.seats[opponent].deck)
        assert len(world.seats[decision.seat].deck) == len(state.seats[decision.seat].deck)
        own = sorted(api.card_titles(world)[card] for card in world.seats[decision.seat].deck)
        real = sorted(api.card_titles(state)[card] for card in state.seats[decision.seat].deck)
        assert own == real  # a player knows what is left in his own deck, not its order


def test_states_that_differ_only_in_hidden_cards_give_the_same_possible_worlds():
    pool = CardPool(DECKS)
    checked = 0
    for state, decision in positions(4, every=5, seed=3):
        other = redealt(state, decision.seat, random.Random(checked))
        seen = api.view(state, decision.seat)
        assert api.view(other, decision.seat) == seen

        world = Sight(state, seen, pool).world(random.Random(7))
        other_world = Sight(other, api.view(other, decision.seat), pool).world(random.Random(7))

        assert api.to_json(world) == api.to_json(other_world)
        checked += 1
    assert checked > 50


SIDES = pytest.mark.parametrize(
    ("decklists", "priors"),
    [(TEAM_GAME, DECKS), (ENCOUNTER_GAME, ENCOUNTER_PRIORS)],
    ids=["2v2", "4v1"],
)


@SIDES
def test_a_possible_world_of_a_game_with_sides_looks_to_the_seat_exactly_as_the_real_game(
    decklists, priors
):
    pool = CardPool(priors)
    seats = set()
    for checked, (state, decision) in enumerate(side_positions(decklists, 2, every=15)):
        seen = api.view(state, decision.seat)

        world = Sight(state, seen, pool).world(random.Random(checked))

        assert api.view(world, decision.seat) == seen
        assert api.legal_actions(world).actions == decision.actions
        seats.add(decision.seat)
    assert seats == set(range(len(state.seats)))


@SIDES
def test_a_possible_world_deals_every_hand_it_cannot_see_teammates_included(decklists, priors):
    pool = CardPool(priors)
    state, decision = next(side_positions(decklists, 1, every=30, seed=4))
    sight = Sight(state, api.view(state, decision.seat), pool)

    worlds = [sight.world(random.Random(seed)) for seed in range(6)]

    for other in range(len(state.seats)):
        if other == decision.seat or not state.seats[other].hand:
            continue
        hands = {
            tuple(api.card_titles(world)[card] for card in world.seats[other].hand)
            for world in worlds
        }
        assert len(hands) > 1, f"seat {other}'s hand is copied, not dealt"
        for world in worlds:
            assert len(world.seats[other].hand) == len(state.seats[other].hand)
            assert len(world.seats[other].deck) == len(state.seats[other].deck)
            assert len(world.seats[other].quest_pile) == len(state.seats[other].quest_pile)


@SIDES
def test_states_of_a_game_with_sides_that_differ_only_in_hidden_cards_give_the_same_worlds(
    decklists, priors
):
    pool = CardPool(priors)
    checked = 0
    for state, decision in side_positions(decklists, 2, every=12, seed=9):
        other = redealt(state, decision.seat, random.Random(checked))
        seen = api.view(state, decision.seat)
        assert api.view(other, decision.seat) == seen

        world = Sight(state, seen, pool).world(random.Random(7))
        other_world = Sight(other, api.view(other, decision.seat), pool).world(random.Random(7))

        assert api.to_json(world) == api.to_json(other_world)
        checked += 1
    assert checked > 30
