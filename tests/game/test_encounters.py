"""The heroic encounters (game/encounters.py; MULTIPLAYER GAMES, "Four-man Heroic Encounter";
glossary, "heroic encounter"; "Info Button"): their bosses are cards of their own with rules
in the card vocabulary, their decklists are what ``new_game`` seats against four heroes, and
each plays to its end under the engine's invariants, won only in the ways its Info button
tells."""

from pathlib import Path

import pytest

from collection.cards.cardrules import validate_card
from game.ai.agents import GreedyAgent
from game.ai.search import LEVELS
from game.encounters import (
    BOSS_SEAT,
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    ENCOUNTERS,
    difficulty_named,
    encounter_named,
)
from game.engine import api
from game.engine.decklists import card_definition, load_set, starter_decklists
from game.engine.invariants import invariant_violations

SET_FILE = (
    Path(__file__).resolve().parents[2] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
SET = load_set(SET_FILE)
CARDS = {card["title"]: card_definition(card) for card in SET["cards"]}
STARTERS = starter_decklists(SET_FILE)
HEROES = [STARTERS[name] for name in ("jedi", "rebel", "imperial", "sith")]
# Each encounter's ways to end, as its Info button tells them: (the winning side, reason).
ENDINGS = {
    "singing-mountain-rite": {
        ("heroes", "victory_condition"),
        ("heroes", "avatar_destroyed"),
        ("heroes", "quests_completed"),
        ("boss", "victory_condition"),
        ("boss", "avatar_destroyed"),
        ("boss", "quests_completed"),
        ("boss", "deck_empty"),
    },
    "kessel-hollow-station": {
        ("heroes", "victory_condition"),
        ("heroes", "avatar_destroyed"),
        ("heroes", "quests_completed"),
        ("boss", "victory_condition"),
        ("boss", "avatar_destroyed"),
        ("boss", "quests_completed"),
        ("boss", "deck_empty"),
    },
    "shadow-enclave": {
        ("heroes", "avatar_destroyed"),
        ("heroes", "quests_completed"),
        ("boss", "victory_condition"),
        ("boss", "avatar_destroyed"),
        ("boss", "quests_completed"),
        ("boss", "deck_empty"),
    },
}


def test_there_are_three_encounters_each_found_by_its_slug():
    assert len(ENCOUNTERS) >= 3
    assert sorted(encounter.slug for encounter in ENCOUNTERS) == sorted(ENDINGS)
    for encounter in ENCOUNTERS:
        assert encounter_named(encounter.slug) is encounter
        assert encounter.name and encounter.summary and encounter.victory


def test_each_difficulty_is_the_search_agent_at_a_level_harder_than_the_one_before():
    assert [difficulty.name for difficulty in DIFFICULTIES] == ["Normal", "Heroic"]
    budgets = [LEVELS[difficulty.boss_level].playouts for difficulty in DIFFICULTIES]
    assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets)
    assert difficulty_named(DEFAULT_DIFFICULTY) is DIFFICULTIES[0]
    with pytest.raises(KeyError, match="heroic"):
        difficulty_named("nightmare")


def test_an_unknown_encounter_names_the_known_ones():
    with pytest.raises(KeyError, match="shadow-enclave"):
        encounter_named("death-star")


@pytest.mark.parametrize("encounter", ENCOUNTERS, ids=lambda encounter: encounter.slug)
def test_the_boss_cards_are_our_own_and_valid_card_data(encounter):
    """A boss avatar is not in the catalog, so it never reaches a player's binder; its rules
    and printed text, and those of the boss's own cards, pass the set file's validation."""
    own = [encounter.avatar, *(card for card, _ in encounter.own_cards)]
    titles = set(CARDS) | {card["title"] for card in own}

    assert encounter.avatar["type"] == "avatar" and encounter.avatar["archetype"]
    for card in own:
        assert card["title"] not in CARDS
        assert validate_card(card, known_titles=titles) == []


@pytest.mark.parametrize("encounter", ENCOUNTERS, ids=lambda encounter: encounter.slug)
def test_the_boss_decklist_is_what_new_game_seats_against_four_heroes(encounter):
    boss = encounter.boss_decklist(CARDS)
    state = api.new_game([HEROES, [boss]], seed=1)

    assert state.teams.boss == BOSS_SEAT
    assert api.card_titles(state)[state.seats[BOSS_SEAT].avatar] == encounter.avatar["title"]
    assert sorted(quest["level"] for quest in boss["quests"]) == [2, 4, 5, 6]


def test_a_boss_decklist_names_the_catalog_cards_it_misses():
    cards = {title: card for title, card in CARDS.items() if title != "Tomb Initiate"}

    with pytest.raises(KeyError, match="Tomb Initiate"):
        encounter_named("singing-mountain-rite").boss_decklist(cards)


@pytest.mark.parametrize("encounter", ENCOUNTERS, ids=lambda encounter: encounter.slug)
def test_each_encounter_plays_to_its_end_under_the_invariants(encounter):
    """Computers play the four heroes and the boss, each from its own view; every dialog told
    is told in order and once, from the public view."""
    state = api.new_game([HEROES, [encounter.boss_decklist(CARDS)]], seed=7)
    computer = GreedyAgent()
    told = len(encounter.due_dialogs(api.view(state, None), 0))
    assert told >= 1  # the first dialog opens the encounter
    while state.winner is None:
        assert state.turn <= 200, "the encounter did not end"
        decision = api.legal_actions(state)
        events = api.apply(state, computer.choose(state, decision))
        assert invariant_violations(state, events) == []
        told += len(encounter.due_dialogs(api.view(state, None), told))

    side = "boss" if state.winner == BOSS_SEAT else "heroes"
    assert (side, state.win_reason) in ENDINGS[encounter.slug]
    assert told <= len(encounter.dialogs)


def test_a_dialog_waits_for_every_dialog_before_it():
    """Kessel Hollow's "Man down" comes only after "Halfway there", even once a hero left."""
    kessel = encounter_named("kessel-hollow-station")
    state = api.new_game([HEROES, [kessel.boss_decklist(CARDS)]], seed=2)
    api.apply(state, api.leave(0))

    due = kessel.due_dialogs(api.view(state, None), 1)

    assert due == []
    assert kessel.dialogs[2].due(api.view(state, None))
