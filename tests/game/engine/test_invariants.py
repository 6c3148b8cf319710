"""The engine's invariants (game.engine.invariants), each broken on purpose: a position is
built, then one thing is put wrong by hand, and the check must say what."""

from game.engine.invariants import invariant_violations
from game.engine.phases import HAND_LIMIT
from tests.game.engine.scenario import (
    BYSTANDER,
    FIRST,
    SECOND,
    at,
    avatar,
    position,
    seat,
    the,
    unit,
)

JASON = avatar("Jason")
TYLER = avatar("Tyler")
TROOPER = unit("Trooper")
GUARD = unit("Guard")


def game():
    return position(
        seat(JASON, hand=(TROOPER,), playmat=(at(GUARD, 0),)),
        seat(TYLER, hand=(BYSTANDER,) * (HAND_LIMIT + 1)),
    )


def test_a_position_as_built_breaks_no_invariant():
    assert invariant_violations(game(), []) == []


def test_a_card_in_two_zones_is_reported():
    state = game()
    trooper = the(state, FIRST, "Trooper")

    state.seats[FIRST].discard.append(trooper)

    assert invariant_violations(state, []) == [f"cards not in exactly one zone: [{trooper}]"]


def test_a_card_in_no_zone_is_reported():
    state = game()
    lost = state.seats[SECOND].deck.pop()

    assert invariant_violations(state, []) == [f"cards not in exactly one zone: [{lost}]"]


def test_a_unit_at_a_quest_that_is_also_in_hand_is_reported():
    state = game()
    guard = the(state, FIRST, "Guard")

    state.seats[FIRST].hand.append(guard)

    assert invariant_violations(state, []) == [f"cards not in exactly one zone: [{guard}]"]


def test_a_quest_card_also_in_its_quest_pile_is_reported():
    state = game()
    on_the_playmat = state.quests[0].card

    state.seats[state.cards[on_the_playmat].owner].quest_pile.append(on_the_playmat)

    assert invariant_violations(state, []) == [f"cards not in exactly one zone: [{on_the_playmat}]"]


def test_ids_that_are_no_cards_are_reported_without_failing():
    state = game()
    beyond = len(state.cards)

    state.seats[FIRST].hand += [beyond, -1]

    assert invariant_violations(state, []) == [f"ids in a zone that are no card's: [{beyond}, -1]"]


def test_a_seat_with_less_than_no_power_is_reported():
    """Power cost: a card is played only with enough available power."""
    state = game()

    state.seats[SECOND].power = -2

    assert invariant_violations(state, []) == ["seat 1 has -2 power"]


def test_a_hand_above_the_limit_at_the_end_of_a_turn_is_reported():
    """Ending Your Main Phase: more than seven cards in hand are discarded down to seven."""
    state = game()
    ended = [{"type": "turn_ended", "seat": SECOND, "turn": state.turn}]

    assert invariant_violations(state, ended) == [
        f"seat 1 ended a turn with {HAND_LIMIT + 1} cards in hand"
    ]


def test_a_hand_above_the_limit_is_allowed_while_the_turn_goes_on():
    state = game()

    assert len(state.seats[SECOND].hand) > HAND_LIMIT
    assert invariant_violations(state, [{"type": "card_drawn", "seat": SECOND}]) == []


def test_every_broken_invariant_is_reported_at_once():
    state = game()
    trooper = the(state, FIRST, "Trooper")
    state.seats[FIRST].hand.remove(trooper)
    state.seats[FIRST].power = -1
    ended = [{"type": "turn_ended", "seat": SECOND, "turn": state.turn}]

    assert invariant_violations(state, ended) == [
        f"cards not in exactly one zone: [{trooper}]",
        "seat 0 has -1 power",
        f"seat 1 ended a turn with {HAND_LIMIT + 1} cards in hand",
    ]
