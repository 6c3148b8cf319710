"""The Prompt's and the Chat Log's words (issue: a newcomer's first game): the Main Phase's
prompt names the button the player sees, copies of a card in the hand share one button per
choice (while each copy keeps its own for a double-click), and a hit is one line of the log."""

from game.engine import api as engine
from game.labels import FIXED_LABELS
from game.selectors import _board, _group_copies
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
