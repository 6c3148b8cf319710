"""The invariants the arena and ``simulate`` check after every action each catch the broken
state they are there for (a check that passes everything would let a whole run pass)."""

import pytest

from starholds.engine import api, invariants
from tests.starholds.engine.builders import position, ship, terrain

ESCORT = ship("Escort", 3)


def table() -> api.State:
    """Seat 0 with a world carrying an escort and a ship in its fleet, cards in every list;
    seat 1 with a ship in play and a hand."""
    return position(
        [
            {
                "fleet": [
                    {"card": terrain("World", 4), "attached": [{"card": ESCORT}]},
                    {"card": ship("Frigate", 4)},
                ],
                "hand": [ship("Courier", 1), terrain("Moon", 2)],
                "deck": [ship("Picket", 2), terrain("Dustwell", 3)],
                "discard": [ship("Wreck", 2)],
                "reserve": [ship("Cutter", 2)],
            },
            {
                "fleet": [{"card": ship("Raider", 3)}],
                "hand": [ship("Lancer", 3)],
                "deck": [terrain("Ashfall", 3)],
            },
        ]
    )


def test_a_sound_table_keeps_every_invariant():
    assert invariants.invariant_violations(table(), []) == []


def found(state: api.State, events: list[dict] | None = None) -> str:
    problems = invariants.invariant_violations(state, events or [])
    assert problems, "the broken state passed every check"
    return "\n".join(problems)


def world_and_escort(state: api.State) -> tuple[int, int]:
    world = state.seats[0].fleet[0]
    return world, state.cards[world].attached[0]


def test_a_card_listed_twice_is_found():
    """Card conservation: each card in exactly one place."""
    state = table()
    state.seats[0].discard.append(state.seats[0].hand[0])
    assert "(hand) is found in ['hand', 'discard']" in found(state)


def test_a_card_lost_from_every_list_is_found():
    state = table()
    lost = state.seats[1].deck.pop()
    assert f"card {lost} (deck) is found in []" in found(state)


def test_a_card_listed_where_its_zone_does_not_say_is_found():
    state = table()
    card = state.seats[0].deck[0]
    state.cards[card].zone = "hand"
    assert f"card {card} (hand) is found in ['deck']" in found(state)


def test_two_cards_that_swapped_lists_but_not_zones_are_found():
    state = table()
    player = state.seats[0]
    player.deck[0], player.hand[0] = player.hand[0], player.deck[0]
    problems = found(state)
    assert f"card {player.deck[0]} (hand) is found in ['deck']" in problems
    assert f"card {player.hand[0]} (deck) is found in ['hand']" in problems


def test_a_card_in_another_players_list_is_found():
    state = table()
    card = state.seats[0].hand.pop()
    state.seats[1].hand.append(card)
    assert f"card {card} lies in the hand of seat 1" in found(state)


def test_a_stack_that_does_not_hold_together_is_found():
    state = table()
    world, escort = world_and_escort(state)
    state.cards[escort].on = None
    assert f"card {escort} is on {world} without pointing at it" in found(state)
    state = table()
    world, escort = world_and_escort(state)
    state.cards[world].on = escort
    assert f"card {world} heads a fleet it is not in" in found(state)


def test_a_fourth_card_play_is_found():
    """The Turn: at most three Card Plays a turn."""
    state = table()
    state.seats[0].plays = 4
    assert "seat 0 used 4 Card Plays" in found(state)


def test_points_spent_below_nothing_are_found():
    state = table()
    state.seats[0].spent = {"energy": -1}
    assert "seat 0 spent negative points" in found(state)


def test_a_unit_beyond_the_command_slots_is_found():
    """Command Limit: a unit entering play beyond the player's command slots."""
    state = table()
    frigate = state.seats[0].fleet[1]
    entered = [{"type": "entered", "card": frigate, "seat": 0}]
    assert invariants.limit_violations(state, entered) == []
    state.seats[0].command = 0
    assert "seat 0 played a unit beyond its command slots" in found(state, entered)


def test_a_player_on_with_a_destroyed_sector_hq_or_an_eliminated_one_with_cards_is_found():
    """Victory Conditions: the 25th point eliminates, and all of that player's cards leave."""
    state = table()
    state.seats[1].hq_damage = 25
    assert "seat 1 plays on with a destroyed Sector HQ" in found(state)
    state = table()
    state.seats[1].alive = False
    raider = state.seats[1].fleet[0]
    assert f"eliminated seat 1 still controls card {raider} in play" in found(state)


@pytest.mark.parametrize("field", ["damage", "shield_damage", "field_points", "armor_used"])
def test_negative_damage_shields_field_or_armor_are_found(field):
    """Combat and Damage: Shields and strength are never below nothing."""
    state = table()
    _, escort = world_and_escort(state)
    setattr(state.cards[escort], field, -1)
    assert f"card {escort} has negative damage, Shields or field" in found(state)


def test_a_card_left_in_play_without_strength_is_found():
    """Combat and Damage: a card at zero strength is discarded."""
    state = table()
    _, escort = world_and_escort(state)
    state.cards[escort].damage = 3
    assert f"card {escort} is in play with no strength left" in found(state)


def test_a_view_that_shows_a_card_of_a_deck_or_hand_is_found(monkeypatch):
    """Each view hides every deck and every other hand: a public part that draws one is found,
    however deep it lists it."""
    state = table()
    deck_card, hand_card = state.seats[1].deck[0], state.seats[1].hand[0]
    honest = invariants.public_view

    def leaking(state, deciding, shown):
        return {**honest(state, deciding, shown), "peek": [shown(state, deck_card, None)]}

    monkeypatch.setattr(invariants, "public_view", leaking)
    assert f"every view shows hidden cards [{deck_card}]" in found(state)

    def leaking_on_a_stack(state, deciding, shown):
        world, _ = world_and_escort(state)
        state.cards[world].attached.append(hand_card)
        try:
            return honest(state, deciding, shown)
        finally:
            state.cards[world].attached.pop()

    monkeypatch.setattr(invariants, "public_view", leaking_on_a_stack)
    assert f"every view shows hidden cards [{hand_card}]" in found(state)


def test_a_seat_shown_another_hand_or_not_its_own_is_found(monkeypatch):
    state = table()
    honest = invariants.private_view
    other_hand = state.seats[1].hand

    def leaking(state, seat):
        shown = honest(state, seat)
        if seat == 0:
            shown["hand"] += [{"id": card} for card in other_hand]
        if seat == 1:
            shown["hand"] = []
        return shown

    monkeypatch.setattr(invariants, "private_view", leaking)
    problems = found(state)
    assert f"the view of seat 0 shows {state.seats[0].hand + other_hand} as its hand" in problems
    assert "the view of seat 1 shows [] as its hand" in problems


def test_the_checked_views_are_the_views_the_seats_get():
    """views.view joins the public part every seat shares to the seat's own part: the two the
    invariants check."""
    state = table()
    for seat in (None, 0, 1):
        shown = api.view(state, seat)
        assert shown == {
            **invariants.public_view(state, 0),
            **invariants.private_view(state, seat),
        }
