"""The card-rules vocabulary is defined once (game.engine.vocabulary) and the engine implements
exactly what it names: no entry a card may use without an implementation, no implementation of
something the vocabulary doesn't name."""

import ast
from pathlib import Path

from game.engine import effects, events, select, triggers, vocabulary
from tests.python_source import parsed

PACKAGE = Path(__file__).resolve().parents[3] / "game" / "engine"
# The engine's functions that ask about a keyword by name, with the position of that name.
KEYWORD_QUESTIONS = {
    "has_keyword": 2,
    "has_printed_keyword": 2,
    "has_keyword_unremoved": 2,
    "keyword_parameter": 2,
}


def engine_trees() -> list[ast.Module]:
    return [
        parsed(module.read_text())
        for module in PACKAGE.glob("*.py")
        if module.name != "vocabulary.py"
    ]


def test_every_effect_of_the_vocabulary_has_an_implementation_and_no_other():
    assert set(effects.EFFECTS) == set(vocabulary.EFFECTS)


def test_every_cost_of_the_vocabulary_has_an_implementation_and_no_other():
    assert set(effects.COSTS) == set(vocabulary.COSTS)


def test_every_trigger_event_of_the_vocabulary_is_read_from_the_engine_events_and_no_other():
    read = {name for names in triggers.TRIGGER_EVENTS.values() for name in names}

    assert read == set(vocabulary.EVENTS)


def test_every_condition_of_the_vocabulary_has_an_implementation_and_no_other():
    assert set(select.CONDITIONS) == set(vocabulary.CONDITIONS)


def test_durations_prohibitions_and_roles_are_the_vocabulary_s():
    assert set(events.DURATIONS) == set(vocabulary.DURATIONS)
    assert set(events.PROHIBITIONS) == set(vocabulary.PROHIBITIONS)
    assert set(select.ROLES) == set(vocabulary.ROLES)


def test_every_keyword_of_the_vocabulary_is_named_by_the_engine_and_no_other_is_asked_about():
    named = set()
    asked = set()
    for tree in engine_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                named.add(node.value)
            if isinstance(node, ast.Call):
                called = node.func
                name = getattr(called, "attr", getattr(called, "id", ""))
                position = KEYWORD_QUESTIONS.get(name)
                if position is not None and isinstance(node.args[position], ast.Constant):
                    asked.add(node.args[position].value)

    assert set(vocabulary.KEYWORDS) <= named
    assert asked
    assert asked <= set(vocabulary.KEYWORDS)


def test_the_vocabulary_cannot_be_changed_at_run_time():
    tables = [value for name, value in vars(vocabulary).items() if name.isupper()]

    assert all(isinstance(table, tuple | frozenset) or is_read_only(table) for table in tables)
    for primitives in (vocabulary.COSTS, vocabulary.EFFECTS, vocabulary.EVENTS):
        assert all(is_read_only(primitive.params) for primitive in primitives.values())


def is_read_only(table) -> bool:
    try:
        table["?"] = None
    except TypeError:
        return True
    return False
