"""Every core term of the closed vocabulary (docs/starholds/vocabulary.md) is printed on at least
two cards of the first set, so each rule the engine implements is played in real games."""

from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from starholds.engine import vocabulary
from starholds.engine.vocabulary import load_set

SET_FILE = Path(__file__).resolve().parents[3] / "starholds/sets/01_sundered-reach.json"
AT_LEAST = 2


def core_terms() -> set[str]:
    """The vocabulary's core terms, read from the vocabulary itself: a term added to it
    without cards that use it fails the coverage test."""
    return {
        *(f"type:{name}" for name in vocabulary.CARD_TYPES),
        *(f"point:{name}" for name in vocabulary.POINT_TYPES),
        *(f"weapon:{name}" for name in vocabulary.WEAPON_KINDS),
        *(f"system:{name}" for name in vocabulary.SHIP_SYSTEMS),
        *(f"keyword:{name}" for name in vocabulary.KEYWORDS),
        *(f"effect:{name}" for name in vocabulary.EFFECTS),
        *(f"timing:{name}" for name in vocabulary.TIMINGS),
        *(f"reacts_to:{name}" for name in vocabulary.REACTABLE_EVENTS),
        *(f"condition:{name}" for name in vocabulary.CONDITION_KINDS),
        *(f"agenda:{name}" for name in vocabulary.AGENDA_MODES),
        *(f"tech:{name}" for name in vocabulary.TECH_KINDS if name),
        "equipment:passive",
        "equipment:non-passive",
        "reaction card",
    }


def terms_of(card: Mapping) -> Iterator[str]:
    """The core terms one card uses."""
    yield f"type:{card['type']}"
    for point in {*card["cost"], *card["output"]}:
        yield f"point:{point}"
    if card["phasers"]:
        yield "weapon:phaser"
    if card["heavy"]:
        yield "weapon:heavy"
    if card["system"]:
        yield f"system:{card['system']['kind']}"
    if card["tech"]:
        yield f"tech:{card['tech']}"
    if card["passive"] is not None:
        yield "equipment:passive" if card["passive"] else "equipment:non-passive"
    if card["reaction"]:
        yield "reaction card"
    rules = card["rules"]
    for keyword in rules.get("keywords", ()):
        yield f"keyword:{keyword['keyword']}"
    for entry in rules.get("effects", ()):
        yield f"timing:{entry['when']}"
        if "reacts_to" in entry:
            yield f"reacts_to:{entry['reacts_to']}"
        for effect in entry["effect"]:
            yield f"effect:{effect['primitive']}"
    agenda = rules.get("agenda")
    if agenda:
        yield f"agenda:{agenda['mode']}"
        yield f"condition:{agenda['condition']['kind']}"
        for effect in agenda["benefit"]:
            yield f"effect:{effect['primitive']}"


def cards_per_term() -> Counter:
    counts: Counter = Counter()
    for card in load_set(SET_FILE)["cards"]:
        counts.update(set(terms_of(card)))
    return counts


@pytest.mark.parametrize("term", sorted(core_terms()))
def test_every_core_term_is_on_at_least_two_cards(term):
    assert cards_per_term()[term] >= AT_LEAST, f"{term} is on fewer than {AT_LEAST} cards"


def test_the_terms_read_from_cards_are_all_vocabulary_terms():
    """The coverage test reads every field it counts (no term on a card goes uncounted as a
    misspelling: the set would not load)."""
    assert set(cards_per_term()) <= core_terms()
