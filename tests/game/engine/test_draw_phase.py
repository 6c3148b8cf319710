"""DRAW PHASE: power, then two cards; the first player's first turn draws none."""

from game.engine import actions, api
from tests.game.engine.scenario import (
    BYSTANDER,
    FIRST,
    SECOND,
    act,
    avatar,
    complete_quests,
    decklist,
    end_turn,
    keep_hands,
    start,
)

JASON = decklist(avatar("Jason"))
TYLER = decklist(avatar("Tyler"))


def test_draw_phase_first_player_skips_draw_on_first_turn():
    state = start(JASON, TYLER)

    events = keep_hands(state)

    assert state.active == FIRST
    assert len(state.seats[FIRST].hand) == 6
    assert not [event for event in events if event["type"] == "draw"]


def test_draw_phase_the_second_player_draws_two_cards_on_his_first_turn():
    state = start(JASON, TYLER)
    keep_hands(state)

    events = act(state, actions.done())

    assert state.active == SECOND
    assert len(state.seats[SECOND].hand) == 8
    draws = [event for event in events if event["type"] == "draw"]
    assert [event["seat"] for event in draws] == [SECOND, SECOND]


def test_draw_phase_unspent_power_is_lost_and_three_is_gained():
    state = start(JASON, TYLER)
    keep_hands(state)
    end_turn(state)  # Jason keeps his 3 power through Tyler's turn

    kept = state.seats[FIRST].power
    events = end_turn(state)

    assert kept == 3
    assert state.seats[FIRST].power == 3
    power_events = [event for event in events if event["type"].startswith("power")]
    assert power_events == [
        {"type": "power_lost", "seat": FIRST, "amount": 3},
        {"type": "power_gained", "seat": FIRST, "amount": 3},
    ]


def test_draw_phase_power_example_one_quest_and_two_opposing_quests_give_six_power():
    """Rulebook: "if you have completed 1 quest and your opponent has completed 2, you receive
    6 power (base of 3 + 1 for your quest +2 for your opponent's quests)"."""
    state = start(JASON, TYLER)
    complete_quests(state, FIRST, 1)
    complete_quests(state, SECOND, 2)

    keep_hands(state)

    assert state.seats[FIRST].power == 6


def test_draw_phase_a_player_who_must_draw_from_an_empty_deck_loses():
    short_deck = {**TYLER, "deck": [BYSTANDER] * 7}  # the opening hand leaves one card
    state = start(JASON, short_deck)
    keep_hands(state)

    events = act(state, actions.done())

    assert (state.winner, state.win_reason) == (FIRST, "deck_empty")
    assert events[-1] == {"type": "game_won", "seat": FIRST, "reason": "deck_empty"}
    assert api.legal_actions(state).actions == []
