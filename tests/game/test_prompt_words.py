"""The Prompt's and the Chat Log's words (issue: a newcomer's first game): the Main Phase's
prompt names the button the player sees, copies of a card in the hand share one button per
choice (while each copy keeps its own for a double-click), and a hit is one line of the log."""

import pytest

from game.engine import api as engine
from game.engine.positions import Placed, Position, SeatSetup, build
from game.labels import FIXED_LABELS
from game.models import Game
from game.selectors import _board, _group_copies, game_state, match_screen
from game.services.matches import game_act
from tests.game.conftest import player_with_deck, start_match
from tests.game.engine.scenario import avatar, position, seat, unit

JASON, TYLER = avatar("Jason"), avatar("Tyler")
TROOPER = unit("Trooper", cost=1)
GUARD = unit("Guard", cost=1)


def board_of(state, seat_: int = 0) -> dict:
    return _board(state, seat_, ["Jason", "Tyler"], engine.card_titles(state), {})


def test_copies_in_the_hand_share_one_button_per_quest_and_keep_their_own_for_the_card():
    state = position(seat(JASON, hand=(TROOPER, TROOPER, GUARD), power=3), seat(TYLER))

    actions = board_of(state)["actions"]

    plays = [action for action in actions if action["kind"] == "play"]
    shown = [action for action in plays if not action["repeat"]]
    # Two quests: Trooper's two buttons stand for both copies, Guard's for its one.
    assert sorted((action["label"], action["copies"]) for action in shown) == sorted(
        [(label, 2) for label in {a["label"] for a in plays if "Trooper" in a["label"]}]
        + [(label, 1) for label in {a["label"] for a in plays if "Guard" in a["label"]}]
    )
    assert len(shown) == 4 and len(plays) == 6
    # Each copy still has its actions, for a double-click on that very card.
    troopers = {action["card"] for action in plays if "Trooper" in action["label"]}
    assert len(troopers) == 2


def test_copies_in_play_are_not_grouped_they_may_differ():
    """Two Veterans in play may differ (one damaged, one with a token): each keeps its button."""
    actions = [
        {"kind": "exert", "label": "Exert Veteran for attack", "card": card} for card in (5, 6)
    ]

    _group_copies(actions)

    assert [(action["copies"], action["repeat"]) for action in actions] == [(1, False)] * 2


def test_the_main_phase_prompt_names_the_button():
    state = position(seat(JASON, hand=(TROOPER,)), seat(TYLER))

    decision = engine.legal_actions(state)

    assert decision.prompt.count(FIXED_LABELS["done"]) == 1
    assert "click Done" not in decision.prompt


def test_a_hit_is_one_line_of_the_log():
    names, titles = ["Jason", "Tyler"], ["Jason", "Tyler", "Trooper"]
    dealt = {"type": "damage_dealt", "card": 2, "amount": 2, "by": []}
    taken = {"type": "damaged", "card": 2, "amount": 2}

    lines = [engine.render(event, 0, names, titles) for event in (dealt, taken)]

    assert lines == ["* Trooper is dealt 2 damage.", ""]


SABOTEUR = "Resistance Saboteur"


def saboteur_in_hand(match) -> None:
    """The match's first game set up, through the position builder: Carol (seat 0, the Rebel
    starter) in her Main Phase of turn 3 with Resistance Saboteur ("When this unit is played,
    you may destroy an opposing item that costs 1 or less") in her hand, and Bob (the Jedi
    starter) with a Training Lightsaber in play. (The game's log is emptied: not
    replayable.)"""
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]

    def seat_of(decklist, *, hand=(), items=()):
        deck = list(decklist["deck"])
        taken = [next(card for card in deck if card["title"] == title) for title in hand + items]
        for card in taken:
            deck.remove(card)
        return SeatSetup(
            avatar=decklist["avatar"],
            quests=decklist["quests"],
            hand=taken[: len(hand)],
            playmat=tuple(Placed(card) for card in taken[len(hand) :]),
            deck=deck,
            power=5 if hand else None,
        )

    state = build(
        Position(
            seats=(
                seat_of(decklists[0], hand=(SABOTEUR,)),
                seat_of(decklists[1], items=("Training Lightsaber",)),
            ),
            first=0,
            turn=3,
        )
    )
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])


@pytest.mark.django_db
def test_a_you_may_names_its_effect_and_its_buttons_say_use_it_or_not(catalog):
    """Glossary, game text: a "you may" is the player's choice; the Prompt says which effect
    it is ("Use this optional effect?" did not), and its buttons say what they do."""
    carol, bob = player_with_deck("Carol", "rebel"), player_with_deck("Bob", "jedi")
    match = start_match(carol, bob)
    saboteur_in_hand(match)
    game = Game.objects.filter(match=match).latest("number")
    play = next(
        action
        for action in engine.legal_actions(game_state(game)).actions
        if action["kind"] == "play"
    )
    game_act(match_id=match.pk, player=carol, ply=0, action=play)

    board = match_screen(match_id=match.pk, viewer=carol).board

    assert board["view"]["decision"]["prompt"] == (
        f"{SABOTEUR}: destroy an opposing item that costs 1 or less? (optional)"
    )
    assert [action["label"] for action in board["actions"]] == ["Use it", "Don't use it"]


def raiding_with(*troopers: Placed):
    """Jason's ``troopers`` at his quest raid it, where Tyler's Guard stands: his combat
    action, with a button to exert each (COMBAT, "Combat Actions")."""
    state = position(seat(JASON, playmat=troopers), seat(TYLER, playmat=(Placed(GUARD, quest=0),)))
    raid = next(
        action
        for action in engine.legal_actions(state).actions
        if action["kind"] == "raid" and action["quest"] == state.quests[0].card
    )
    engine.apply(state, raid)
    return state


def test_copies_in_play_get_buttons_that_say_which_copy_each_is_for():
    """Issue 45, point 14 (rulebook, "Prompt"): two Troopers gave two "Exert Trooper for
    attack" buttons; each now names what sets its copy apart, here its damage."""
    state = raiding_with(Placed(TROOPER, quest=0), Placed(TROOPER, quest=0, damage=1))

    labels = [action["label"] for action in board_of(state)["actions"]]

    assert labels == [
        "Exert Trooper for attack (undamaged)",
        "Exert Trooper for attack (with 1 damage)",
        "Pass",
    ]


def test_copies_alike_in_every_way_are_told_apart_by_their_place_from_the_left():
    state = raiding_with(Placed(TROOPER, quest=0), Placed(TROOPER, quest=0))

    labels = [action["label"] for action in board_of(state)["actions"]]

    assert labels == [
        "Exert Trooper for attack (1st from the left)",
        "Exert Trooper for attack (2nd from the left)",
        "Pass",
    ]
