"""The card set files: valid by collection.cards.cardrules, and complete as the set design asks.

Plain pytest without a database: run with ``-p no:django``.
"""

import copy
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from collection.cards import cardrules
from game.encounters import ENCOUNTERS
from game.engine import vocabulary
from game.engine.vocabulary import KEYWORDS
from game.scenarios import SCENARIOS

ROOT = Path(__file__).resolve().parents[2]
SET_PATHS = sorted((ROOT / "collection" / "cards" / "sets").glob("*.json"))
DOCS = ROOT / "docs" / "card-rules.md"
ARCHETYPES = ("jedi", "rebel", "imperial", "sith")
TERMS_IN_TEXT = ("for each", "joins", "permanently", "search", "target", "link", "withdraw")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def first_set() -> dict:
    """Set 1, the base set, which carries the content requirements checked below."""
    sets = [load(path) for path in SET_PATHS]
    return next(data for data in sets if data["set"]["number"] == 1)


@pytest.fixture(scope="module")
def cards(first_set) -> list[dict]:
    return first_set["cards"]


def cards_of(cards, *, type_=None, archetype=None) -> list[dict]:
    return [
        card
        for card in cards
        if (type_ is None or card["type"] == type_)
        and (archetype is None or card["archetype"] == archetype)
    ]


def vocabulary_used(card: dict) -> set[tuple[str, str]]:
    """(table, name) of every keyword, cost, effect, modifier, event and condition on a card."""
    used: set[tuple[str, str]] = set()

    def effects(entries, table="effect"):
        for entry in entries:
            used.add((table, entry["primitive"]))
            if entry["primitive"] == "for_each":
                effects(entry["effect"], table)
            effects(entry.get("when_destroyed", []))
            effects(entry.get("while_targeted", []) + entry.get("while_linked", []), "modifier")

    def condition(entry):
        if entry is not None:
            used.add(("condition", entry["condition"]))

    rules = card["rules"]
    used.update(("keyword", entry["keyword"]) for entry in rules.get("keywords", []))
    for action in rules.get("actions", []):
        used.update(("cost", cost["primitive"]) for cost in action["cost"])
        effects(action["effect"])
    if "play" in rules:
        condition(rules["play"].get("condition"))
        effects(rules["play"]["effect"])
    for trigger in rules.get("triggers", []):
        used.add(("event", trigger["event"]))
        condition(trigger.get("condition"))
        effects(trigger["effect"])
    for static in rules.get("statics", []):
        condition(static.get("condition"))
        effects([static["effect"]], "modifier")
    return used


# The set files --------------------------------------------------------------------------


def test_there_is_a_set_file():
    assert SET_PATHS, "collection/cards/sets/ holds no set file"


@pytest.mark.parametrize("path", SET_PATHS, ids=lambda path: path.name)
def test_set_file_validates(path):
    assert cardrules.validate_set(load(path)) == []


@pytest.mark.parametrize("path", SET_PATHS, ids=lambda path: path.name)
def test_set_file_is_pretty_printed_utf8(path):
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2) + "\n"


def test_first_set_has_at_least_250_cards(cards):
    assert len(cards) >= 250


def test_cards_are_numbered_in_type_then_archetype_blocks_with_promos_last(cards):
    """Then the scenarios' reward cards, in the order of the scenarios (game/scenarios.py)."""
    archetype_order = (*ARCHETYPES, "")
    rewards = [scenario.reward for scenario in SCENARIOS]
    blocks = [
        (
            card["title"] in rewards,
            rewards.index(card["title"]) if card["title"] in rewards else 0,
            card["rarity"] == "P",
            vocabulary.CARD_TYPES.index(card["type"]),
            archetype_order.index(card["archetype"]),
        )
        for card in sorted(cards, key=lambda card: card["number"])
    ]
    assert blocks == sorted(blocks)


@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_every_archetype_has_three_avatars_with_species_and_career(cards, archetype):
    avatars = cards_of(cards, type_="avatar", archetype=archetype)
    assert len(avatars) >= 3
    assert all(len(avatar["traits"]) >= 2 for avatar in avatars)


@pytest.mark.parametrize("archetype", [*ARCHETYPES, ""])
def test_quests_of_every_level_for_every_archetype_and_generic(cards, archetype):
    levels = {quest["level"] for quest in cards_of(cards, type_="quest", archetype=archetype)}
    assert levels >= set(cardrules.QUEST_LEVELS)


def test_rarities_in_sensible_proportions(cards):
    rarities = Counter(card["rarity"] for card in cards)
    assert set(rarities) == set(vocabulary.RARITIES)
    assert 0.15 <= rarities["R"] / len(cards) <= 0.25
    assert 0.25 <= rarities["U"] / len(cards) <= 0.35
    assert 0.40 <= rarities["C"] / len(cards) <= 0.50
    assert 3 <= rarities["P"] <= 6


@pytest.mark.parametrize("keyword", sorted(KEYWORDS))
def test_every_keyword_is_carried_and_printed_by_two_cards(cards, keyword):
    carriers = [
        card
        for card in cards
        if keyword in [entry["keyword"] for entry in card["rules"].get("keywords", [])]
    ]
    assert len(carriers) >= 2
    assert all(keyword.capitalize() in card["text"] for card in carriers)


@pytest.mark.parametrize("term", TERMS_IN_TEXT)
def test_glossary_terms_appear_in_game_text(cards, term):
    assert any(term in card["text"].lower() for card in cards)


@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_every_archetype_has_a_full_card_pool(cards, archetype):
    pool = cards_of(cards, archetype=archetype)
    assert len(pool) >= 40
    assert len(cards_of(pool, type_="unit")) >= 12
    assert len(cards_of(pool, type_="tactic")) >= 6
    ability_levels = {card["level"] for card in cards_of(pool, type_="ability")}
    assert ability_levels >= {1, 2, 3, 4, None}
    restrictions = {card["restriction"] for card in cards_of(pool, type_="item")}
    assert restrictions >= {"weapon", "armor", "starship"}


def test_generic_pool_is_large(cards):
    assert len(cards_of(cards, archetype="")) >= 70


def test_attributes_are_in_balanced_ranges(cards):
    for avatar in cards_of(cards, type_="avatar"):
        assert 16 <= avatar["health"] <= 24, avatar["title"]
        assert 1 <= avatar["attack"] <= 3 and 1 <= avatar["defense"] <= 3, avatar["title"]
        assert 0 <= avatar["damage_bonus"] <= 2, avatar["title"]
    for unit in cards_of(cards, type_="unit"):
        assert 1 <= unit["attack"] <= 5 and 1 <= unit["defense"] <= 5, unit["title"]
        assert 1 <= unit["health"] <= 6, unit["title"]
    costs = [card["cost"] for card in cards if card["cost"] is not None]
    assert max(costs) <= 6


def test_every_vocabulary_entry_is_used_by_two_cards(cards):
    """A primitive earns its place in the vocabulary because at least two cards need it: the
    set's, or the heroic encounters' boss cards (game/encounters.py), which never reach a
    player's binder."""
    bosses = [
        card
        for encounter in ENCOUNTERS
        for card in (encounter.avatar, *(own for own, _ in encounter.own_cards))
    ]
    usage = Counter(entry for card in [*cards, *bosses] for entry in vocabulary_used(card))
    tables = {
        "keyword": KEYWORDS,
        "cost": vocabulary.COSTS,
        "effect": vocabulary.EFFECTS,
        "modifier": vocabulary.MODIFIERS,
        "event": vocabulary.EVENTS,
        "condition": vocabulary.CONDITIONS,
    }
    rarely_used = [
        f"{table} {name}: {usage[table, name]}"
        for table, names in tables.items()
        for name in names
        if usage[table, name] < 2
    ]
    assert rarely_used == []


# Starter decks --------------------------------------------------------------------------


@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_starter_deck_is_a_legal_58_card_play_deck(first_set, archetype):
    by_title = {card["title"]: card for card in first_set["cards"]}
    deck = first_set["starter_decks"][archetype]
    avatar = by_title[deck["avatar"]]
    quests = [by_title[title] for title in deck["quests"]]
    others = deck["deck"]
    assert avatar["type"] == "avatar" and avatar["archetype"] == archetype
    assert sorted(quest["level"] for quest in quests) == [2, 4, 5, 6]
    assert sum(others.values()) == 53
    assert 1 + len(quests) + sum(others.values()) == 58
    assert max(others.values()) <= 4
    assert all(by_title[title]["type"] in vocabulary.DECK_TYPES for title in others)
    assert {card["archetype"] for card in [*quests, *map(by_title.get, others)]} <= {archetype, ""}
    assert cardrules.validate_deck(deck, by_title, deck_size=53) == []


def test_validate_deck_rejects_a_fifth_copy_and_a_foreign_archetype(first_set):
    by_title = {card["title"]: card for card in first_set["cards"]}
    deck = copy.deepcopy(first_set["starter_decks"]["jedi"])
    title = next(iter(deck["deck"]))
    deck["deck"][title] = 5
    deck["deck"]["Vanish into Shadow"] = 1
    problems = cardrules.validate_deck(deck, by_title)
    assert any("5 copies" in problem for problem in problems)
    assert any("'Vanish into Shadow' is sith" in problem for problem in problems)


# The vocabulary -------------------------------------------------------------------------


def test_keyword_tables_cover_the_glossary():
    assert set(vocabulary.KEYWORD_CARD_TYPES) == set(KEYWORDS)
    assert set(vocabulary.KEYWORD_PARAMETERS) <= set(KEYWORDS)


def test_every_parameter_type_is_documented():
    tables = [
        vocabulary.COSTS,
        vocabulary.EFFECTS,
        vocabulary.MODIFIERS,
        vocabulary.EVENTS,
        vocabulary.CONDITIONS,
    ]
    used = {kind for table in tables for entry in table.values() for kind in entry.params.values()}
    used |= {kind for params in vocabulary.KEYWORD_PARAMETERS.values() for kind in params.values()}
    assert used == set(vocabulary.PARAMETER_TYPES)


def test_docs_name_every_vocabulary_entry():
    docs = DOCS.read_text(encoding="utf-8")
    names = [
        *KEYWORDS,
        *vocabulary.TIMINGS,
        *vocabulary.DURATIONS,
        *vocabulary.SELECTOR_FIELDS,
        *vocabulary.WHERE,
        *vocabulary.STATES,
        *vocabulary.COSTS,
        *vocabulary.EFFECTS,
        *vocabulary.MODIFIERS,
        *vocabulary.EVENTS,
        *vocabulary.CONDITIONS,
    ]
    assert [name for name in names if f"`{name}`" not in docs] == []


def test_docs_worked_examples_match_the_set(cards):
    """Each "### <title> (...)" example's rules block is that card's rules, verbatim."""
    by_title = {card["title"]: card for card in cards}
    examples = re.findall(
        r"^### ([^\n(]+) \([^\n]*\n.*?^```json\n(.*?)^```",
        DOCS.read_text(encoding="utf-8"),
        flags=re.MULTILINE | re.DOTALL,
    )
    assert len(examples) >= 2
    for title, block in examples:
        assert json.loads("{" + block + "}")["rules"] == by_title[title]["rules"], title


# validate_card itself ------------------------------------------------------------------


@pytest.fixture
def unit_card() -> dict:
    return {
        "number": 1,
        "rarity": "C",
        "title": "Test Trooper",
        "type": "unit",
        "archetype": "rebel",
        "traits": ["Human", "Trooper"],
        "restriction": "",
        "cost": 2,
        "attack": 2,
        "defense": 2,
        "damage_bonus": 0,
        "health": 2,
        "level": None,
        "text": "Sentry. {main} Exert this unit → Draw a card.",
        "lore": "A test.",
        "artist": "Nobody",
        "rules": {
            "keywords": [{"keyword": "sentry"}],
            "actions": [
                {
                    "timing": "main",
                    "cost": [{"primitive": "exert_self"}],
                    "effect": [{"primitive": "draw", "player": "you", "amount": 1}],
                }
            ],
        },
    }


def test_a_valid_card_has_no_problems(unit_card):
    assert cardrules.validate_card(unit_card) == []


def test_rejects_an_unknown_keyword(unit_card):
    unit_card["rules"]["keywords"] = [{"keyword": "teleport"}]
    problems = cardrules.validate_card(unit_card)
    assert problems == [
        f"Card #1 'Test Trooper': rules.keywords[0]: unknown keyword 'teleport'; keywords are "
        f"{', '.join(KEYWORDS)}."
    ]


def test_rejects_an_unknown_primitive(unit_card):
    unit_card["rules"]["actions"][0]["effect"] = [{"primitive": "teleport"}]
    [problem] = cardrules.validate_card(unit_card)
    assert "rules.actions[0].effect[0]: unknown effect primitive 'teleport'" in problem


def test_rejects_a_quest_with_a_cost(unit_card):
    quest = {
        **unit_card,
        "type": "quest",
        "traits": ["Quest"],
        "cost": 2,
        "attack": None,
        "defense": None,
        "damage_bonus": None,
        "health": None,
        "level": 4,
        "text": "",
        "rules": {},
    }
    assert cardrules.validate_card(quest) == [
        "Card #1 'Test Trooper': cost: a quest has no cost; use null."
    ]


def test_rejects_a_smuggle_keyword_naming_an_unknown_card(unit_card):
    ability = {
        **unit_card,
        "type": "ability",
        "attack": None,
        "damage_bonus": None,
        "health": None,
        "defense": 1,
        "level": 2,
        "text": "Smuggle: Moon Rocks.",
        "rules": {"keywords": [{"keyword": "smuggle", "card": "Moon Rocks"}]},
    }
    assert cardrules.validate_card(ability, known_titles={"Test Trooper"}) == [
        "Card #1 'Test Trooper': rules.keywords[0].card: 'Moon Rocks' is not the title of a "
        "card of the set."
    ]


def test_rejects_a_bad_rarity(unit_card):
    unit_card["rarity"] = "X"
    assert cardrules.validate_card(unit_card) == [
        "Card #1 'Test Trooper': rarity: 'X' is not one of R, U, C, F, P."
    ]


def test_rejects_an_unknown_event(unit_card):
    unit_card["rules"]["triggers"] = [{"event": "sneezes", "effect": []}]
    [problem] = cardrules.validate_card(unit_card)
    assert "rules.triggers[0]: unknown event 'sneezes'" in problem


def test_rejects_an_unknown_selector_field(unit_card):
    unit_card["rules"]["actions"][0]["effect"] = [
        {"primitive": "ready", "target": {"side": "friendly", "types": ["unit"], "colour": "red"}}
    ]
    [problem] = cardrules.validate_card(unit_card)
    assert "effect[0].target: unknown selector field 'colour'" in problem


def test_rejects_an_event_card_reference_outside_a_trigger(unit_card):
    unit_card["rules"]["actions"][0]["effect"] = [
        {"primitive": "ready", "target": {"event_card": True}}
    ]
    [problem] = cardrules.validate_card(unit_card)
    assert "event_card only means something in a trigger" in problem


def test_rejects_health_on_an_item_that_is_no_starship(unit_card):
    item = {
        **unit_card,
        "type": "item",
        "restriction": "weapon",
        "text": "",
        "rules": {},
        "defense": None,
    }
    assert (
        "health: an item has no health (only starships have health); use null."
        in (cardrules.validate_card(item)[0])
    )


def test_rejects_text_that_does_not_print_the_keywords(unit_card):
    unit_card["text"] = "{main} Exert this unit → Draw a card."
    [problem] = cardrules.validate_card(unit_card)
    assert "text: the text begins with the keywords 'Sentry.'" in problem


def test_rejects_a_tactic_without_play_block(unit_card):
    tactic = {
        **unit_card,
        "type": "tactic",
        "attack": None,
        "defense": None,
        "damage_bonus": None,
        "health": None,
        "text": "{attack} Draw a card.",
        "rules": {},
    }
    assert cardrules.validate_card(tactic) == [
        "Card #1 'Test Trooper': rules: a tactic needs a play block."
    ]


def test_validate_set_reports_duplicate_numbers_and_titles(first_set):
    data = copy.deepcopy(first_set)
    data["cards"].append(copy.deepcopy(data["cards"][0]))
    problems = cardrules.validate_set(data)
    assert "The card number 1 is used by 2 cards." in problems
    assert f"The title {data['cards'][0]['title']!r} is used by 2 cards." in problems


def test_a_starter_decks_plays_line_is_text_the_store_shows(first_set):
    """Each starter deck says how it plays, for the Store to show before it is bought."""
    assert all(isinstance(deck["plays"], str) for deck in first_set["starter_decks"].values())
    data = copy.deepcopy(first_set)
    data["starter_decks"]["jedi"]["plays"] = 5

    assert cardrules.validate_set(data) == [
        "Starter deck 'jedi': \"plays\" must be a line of text."
    ]
