"""A "you may" names what it would do (issue: a newcomer's first game, "Use this optional
effect?" did not say which effect): the words of card effects, from their structured rules."""

import json
from pathlib import Path

import pytest

from game.engine import vocabulary, wording

SET_FILE = (
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)


def test_every_effect_primitive_of_the_vocabulary_has_words():
    assert set(wording.PHRASES) == set(vocabulary.EFFECTS)


@pytest.mark.parametrize(
    ("effects", "words"),
    [
        ([{"primitive": "draw", "player": "you", "amount": 1}], "draw a card"),
        (
            [{"primitive": "discard", "player": "opponent", "amount": 2}],
            "have your opponent discard 2 cards",
        ),
        (
            [
                {
                    "primitive": "destroy",
                    "target": {"side": "opposing", "types": ["item"], "max_cost": 1},
                }
            ],
            "destroy an opposing item that costs 1 or less",
        ),
        (
            [{"primitive": "heal", "target": {"event_card": True}, "amount": 1}],
            "heal 1 damage from that card",
        ),
        (
            [
                {
                    "primitive": "heal",
                    "target": {"side": "friendly", "types": ["avatar"]},
                    "amount": 2,
                },
                {"primitive": "ready", "target": {"side": "friendly", "types": ["unit"]}},
                {
                    "primitive": "ready",
                    "target": {"side": "friendly", "types": ["unit"], "other": True},
                },
            ],
            "heal 2 damage from your avatar, then ready a friendly unit, then ready another "
            "friendly unit",
        ),
        (
            [
                {
                    "primitive": "modify",
                    "target": {"side": "friendly", "types": ["unit"], "count": "all"},
                    "stat": "attack",
                    "amount": 2,
                    "duration": "combat",
                },
                {"primitive": "gain_power", "amount": 1},
            ],
            "give each friendly unit +2 attack until end of combat, then gain 1 power",
        ),
        (
            [
                {
                    "primitive": "exert",
                    "target": {"side": "opposing", "types": ["unit", "ability"], "count": 2},
                }
            ],
            "exert 2 opposing units or abilities",
        ),
        (
            [
                {
                    "primitive": "for_each",
                    "counted": {"side": "friendly", "types": ["unit"], "trait": "Trooper"},
                    "effect": [{"primitive": "gain_power", "amount": 1}],
                }
            ],
            "gain 1 power for each friendly Trooper unit",
        ),
    ],
)
def test_effects_in_words(effects, words):
    assert wording.effects_phrase(effects) == words


def test_every_optional_trigger_of_the_set_has_words():
    """The set's "you may" cards: each prompt reads like the card's own text."""
    cards = json.loads(SET_FILE.read_text(encoding="utf-8"))["cards"]
    optional = {
        card["title"]: wording.effects_phrase(trigger["effect"])
        for card in cards
        for trigger in card["rules"].get("triggers") or ()
        if trigger.get("optional")
    }

    assert optional
    for title, words in optional.items():
        card_text = next(card["text"] for card in cards if card["title"] == title)
        # The printed text says "you may <words>", give or take how it names the card.
        assert words.split()[0] in card_text.split("you may ")[1], (title, words)
