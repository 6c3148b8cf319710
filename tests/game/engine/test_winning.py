"""WINNING THE GAME: one way to win, two ways to lose, and both avatars destroyed at once."""

import pytest

from game.engine import actions, api
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    decklist,
    end_turn,
    item,
    keep_hands,
    position,
    put_in_hand,
    put_into_play,
    quest_at,
    seat,
    start,
    the,
    unit,
)

JASON = decklist(
    avatar("Jason", health=20),
    *[ability("Epiphany", cost=0, level=6)] * 4,
    item("Old Blaster", restriction="weapon"),
    item("New Blaster", restriction="weapon"),
)
TYLER = decklist(avatar("Tyler", health=20), unit("Raider", attack=3))


def test_winning_the_game_by_completing_the_fourth_quest():
    """Each quest Jason completes is replaced from his pile (levels 4, 5, 6); completing a
    quest with the pile empty wins."""
    state = start(JASON, TYLER)
    for _ in range(3):
        put_into_play(state, FIRST, "Epiphany")
    last_epiphany = put_in_hand(state, FIRST, "Epiphany")
    keep_hands(state)

    levels_completed = []
    while state.winner is None:
        decision = api.legal_actions(state)
        if decision.kind == "choose_quest":
            act(state, actions.attempt_quest(quest_at(state, 0)))
            level = state.definitions[state.cards[quest_at(state, 0)].definition]["level"]
            levels_completed.append(level)
            act(state, api.legal_actions(state).actions[0])
        elif actions.play(last_epiphany) in decision.actions:
            act(state, actions.play(last_epiphany))
        else:
            end_turn(state)

    assert levels_completed == [2, 4, 5, 6]
    assert (state.winner, state.win_reason) == (FIRST, "quests_completed")
    assert len(state.seats[FIRST].completed) == 3  # the fourth ended the game where it stood


def test_winning_the_game_when_the_opposing_avatar_is_destroyed():
    state = start(JASON, TYLER, first=SECOND)
    raider = put_into_play(state, SECOND, "Raider", at=0)
    state.cards[state.seats[FIRST].avatar].damage = 19
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(raider, "attack"))
    act(state, actions.pass_())  # Jason

    events = act(state, actions.pass_())  # Tyler wins, 3 to 0, and deals 1 damage

    assert (state.winner, state.win_reason) == (SECOND, "avatar_destroyed")
    assert events[-1] == {"type": "game_won", "seat": SECOND, "reason": "avatar_destroyed"}


def test_winning_the_game_when_the_opponent_must_draw_from_an_empty_deck_mid_turn():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Old Blaster")
    new_blaster = put_in_hand(state, FIRST, "New Blaster")
    keep_hands(state)
    jason = state.seats[FIRST]
    jason.discard += jason.deck
    jason.deck = []

    act(state, actions.play(new_blaster))  # the restriction makes him draw a card

    assert (state.winner, state.win_reason) == (SECOND, "deck_empty")


def test_winning_when_both_avatars_are_destroyed_at_once_the_player_taking_the_turn_wins():
    """A card effect sets Tyler's avatar against Jason's; a tie then deals each of them its
    last point of health in the same moment."""
    challenge = item(
        "Challenge",
        rules={
            "actions": [
                {
                    "timing": "main",
                    "cost": [{"primitive": "exert_self"}],
                    "effect": [
                        {
                            "primitive": "begin_avatar_combat",
                            "target": {"side": "any", "types": ["quest"]},
                        }
                    ],
                }
            ]
        },
    )
    state = position(
        seat(JASON["avatar"], avatar_damage=19),
        seat(TYLER["avatar"], avatar_damage=19, playmat=(challenge,)),
        first=SECOND,
    )
    act(state, actions.activate(the(state, SECOND, "Challenge"), 0))
    act(state, actions.choose(quest_at(state, 0)))
    for _ in range(4):  # both pass the combat actions, then add no damage bonus
        act(state, actions.pass_())

    assert (state.winner, state.win_reason) == (SECOND, "all_avatars_destroyed")


def test_winning_the_game_ends_it():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Old Blaster")
    new_blaster = put_in_hand(state, FIRST, "New Blaster")
    keep_hands(state)
    state.seats[FIRST].discard += state.seats[FIRST].deck
    state.seats[FIRST].deck = []
    act(state, actions.play(new_blaster))

    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind, decision.actions) == (None, "game_over", [])
    with pytest.raises(api.GameOver):
        api.apply(state, actions.done())
