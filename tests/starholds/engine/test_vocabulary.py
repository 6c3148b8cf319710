"""The closed card vocabulary and its validator (docs/starholds/vocabulary.md): good data loads,
every broken field is named with its card."""

import copy
import json
from pathlib import Path

import pytest

from starholds.engine import vocabulary
from starholds.engine.vocabulary import InvalidCardData, load_set, validate_card, validate_set

EXAMPLE = Path(__file__).with_name("example_set.json")


def example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def card_problems(number: int, **changes) -> list[str]:
    data = example()
    card = next(card for card in data["cards"] if card["number"] == number)
    card.update(changes)
    return validate_card(card, vocabulary.parse_empires(data["set"]))


def test_the_example_set_loads():
    data = load_set(EXAMPLE)
    assert len(data["cards"]) == 9
    assert validate_set(data) == []


@pytest.mark.parametrize(
    ("number", "changes", "expected"),
    [
        (1, {"strength": 11}, "card 1 'Dustwell': field 'strength' must be a number from 1 to 10"),
        (1, {"type": "planet"}, "card 1 'Dustwell': field 'type' must be one of"),
        (1, {"output": {"gold": 1}}, "field 'output': unknown point type 'gold'"),
        (2, {"empire": "nowhere"}, "field 'empire': 'nowhere' is not an empire of the set"),
        (2, {"shields": 2}, "a unit with armor has no Shields"),
        (4, {"phasers": -1}, "field 'phasers' must be a number from 0 to 10"),
        (6, {"rules": {"keywords": [{"keyword": "teleport"}]}}, "unknown keyword 'teleport'"),
        (
            6,
            {"rules": {"effects": [{"when": "action", "effect": [{"primitive": "damage"}]}]}},
            "missing parameter 'amount'",
        ),
        (
            6,
            {"rules": {"effects": [{"when": "action", "effect": [{"primitive": "void"}]}]}},
            "void is a reaction effect",
        ),
        (8, {"reaction": False}, "only R/ cards (reaction: true) react"),
        (
            8,
            {
                "rules": {
                    "effects": [
                        {
                            "when": "reaction",
                            "reacts_to": "allocation",
                            "effect": [{"primitive": "reduce_volley", "amount": 1}],
                        }
                    ]
                }
            },
            "reduce_volley cannot react to allocation",
        ),
        (7, {"tech": "stolen"}, "field 'tech' must be '', 'exclusive' or 'foreign'"),
        (9, {"rules": {"keywords": []}}, "rules.agenda belongs on (and only on) agenda cards"),
        (
            4,
            {"rules": {"keywords": [{"keyword": "refit", "stat": "phasers", "value": 1}]}},
            "refit means nothing on a ship card",
        ),
    ],
)
def test_each_broken_field_is_named_with_its_card(number, changes, expected):
    problems = card_problems(number, **changes)
    assert any(expected in problem for problem in problems), problems


def test_loading_a_broken_set_raises_with_every_problem(tmp_path):
    data = example()
    data["cards"][0]["strength"] = 0
    data["cards"][1]["rarity"] = "X"
    data["cards"][2]["number"] = 1
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidCardData) as raised:
        load_set(path)
    message = str(raised.value)
    assert "card 0 'Dustwell'" not in message
    assert "card 1 'Dustwell': field 'strength'" in message
    assert "card 2 'Varn Picket': field 'rarity'" in message
    assert "card 1 'Keth Skiff': number used twice" in message


def test_a_major_empire_needs_its_heavy_weapon_and_system():
    data = example()
    broken = copy.deepcopy(data["set"])
    broken["empires"][0]["system"] = ""
    with pytest.raises(InvalidCardData, match="a major empire has a heavy weapon and a system"):
        vocabulary.parse_empires(broken)


def test_the_vocabulary_tables_cannot_change():
    with pytest.raises(TypeError):
        vocabulary.KEYWORDS["new"] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        vocabulary.EFFECTS["damage"].params["amount"] = "flag"  # type: ignore[index]


def test_the_engine_rules_on_every_name_of_the_vocabulary():
    """A closed vocabulary: every keyword, ship system and agenda condition is read somewhere in
    the engine (not only declared)."""
    engine = Path(vocabulary.__file__).parent
    code = "".join(
        path.read_text(encoding="utf-8")
        for path in engine.glob("*.py")
        if path.name not in ("vocabulary.py", "decks.py")
    )
    decks_code = (engine / "decks.py").read_text(encoding="utf-8")
    names = [*vocabulary.KEYWORDS, *vocabulary.SHIP_SYSTEMS, *vocabulary.CONDITION_KINDS]
    unread = [name for name in names if f'"{name}"' not in code + decks_code]
    assert unread == []
