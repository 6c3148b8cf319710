"""The first set, The Sundered Reach (starholds/sets/01_sundered-reach.json): it loads under the
vocabulary, and it holds what the set promises (rulebook, "Using Major Empire Cards", "Using
Minor Empire Cards", "Ship Cards")."""

from collections import Counter
from pathlib import Path

from starholds.engine.vocabulary import CARD_TYPES, POINT_TYPES, load_set, validate_set

SET_FILE = Path(__file__).resolve().parents[3] / "starholds/sets/01_sundered-reach.json"


def test_the_set_loads_without_a_problem():
    data = load_set(SET_FILE)
    assert validate_set(data) == []
    assert [card["number"] for card in data["cards"]] == list(range(1, len(data["cards"]) + 1))


def test_no_two_cards_are_exactly_identical():
    """Exactly identical cards share type, strength and title (rulebook glossary); each card of
    the set is a card of its own."""
    cards = load_set(SET_FILE)["cards"]
    identities = Counter((card["type"], card["strength"], card["title"]) for card in cards)
    assert [identity for identity, count in identities.items() if count > 1] == []
    assert len({card["title"] for card in cards}) == len(cards)


def test_four_major_empires_each_with_a_heavy_weapon_and_a_signature_system_of_its_own():
    data = load_set(SET_FILE)
    majors = [empire for empire in data["set"]["empires"] if empire["major"]]
    assert len(majors) == 4
    assert len({empire["heavy_weapon"] for empire in majors}) == 4
    assert len({empire["system"] for empire in majors}) == 4
    for empire in majors:
        own = [card for card in data["cards"] if card["empire"] == empire["slug"]]
        ships = [card for card in own if card["type"] == "ship"]
        assert len(own) >= 18, empire["slug"]
        assert sum(card["heavy"] > 0 for card in ships) >= 4, empire["slug"]
        assert sum(card["system"] is not None for card in ships) >= 6, empire["slug"]


def test_a_minor_mercenary_empire_that_adapts_technology():
    data = load_set(SET_FILE)
    minors = [empire for empire in data["set"]["empires"] if not empire["major"]]
    assert [empire["adapts"] for empire in minors] == [True]
    slug = minors[0]["slug"]
    assert sum(card["empire"] == slug and card["type"] == "ship" for card in data["cards"]) >= 4


def test_the_neutral_cards_cover_every_card_type_and_terrain_every_point_type():
    data = load_set(SET_FILE)
    neutral = [card for card in data["cards"] if not card["empire"]]
    assert len(neutral) >= 70
    assert {card["type"] for card in neutral} == set(CARD_TYPES)
    terrain = [card for card in neutral if card["type"] == "terrain"]
    assert {point for card in terrain for point in card["output"]} == set(POINT_TYPES)


def test_one_starter_deck_per_major_empire():
    data = load_set(SET_FILE)
    majors = {empire["slug"] for empire in data["set"]["empires"] if empire["major"]}
    assert sorted(deck["empire"] for deck in data["starter_decks"]) == sorted(majors)
