"""Each starter deck of the first set is a legal deck (rulebook, "Deck Construction": "Announce
Deck Empire", "Using Major Empire Cards", "Using Minor Empire Cards", "Creating the Reserve
Fleet", "Reserve Fleet Restrictions"; docs/starholds/choices.md, "Decks"), counted here card by
card as the rulebook words it, and accepted by the engine's deck rules from two players up."""

from collections import Counter
from pathlib import Path

import pytest

from starholds.engine import api
from starholds.engine.decks import MAX_COPIES, MIN_DECK, deck_problems, decklist, identity
from starholds.engine.vocabulary import load_set

SET_FILE = Path(__file__).resolve().parents[3] / "starholds/sets/01_sundered-reach.json"
DATA = load_set(SET_FILE)
EMPIRES = {empire["slug"]: empire for empire in DATA["set"]["empires"]}
STARTERS = {starter["name"]: starter for starter in DATA["starter_decks"]}


def one_copy_only(card: dict) -> bool:
    """A unique card, or an entity (strength 10; docs/starholds/choices.md, "Decks")."""
    unique = any(entry["keyword"] == "unique" for entry in card["rules"].get("keywords", ()))
    return unique or card["strength"] == 10


@pytest.fixture(params=sorted(STARTERS))
def starter(request) -> dict:
    return decklist(DATA, STARTERS[request.param])


def test_the_deck_announces_a_major_empire_as_its_main_empire(starter):
    """Announce Deck Empire: one main empire, announced; each starter deck is a major one's."""
    assert EMPIRES[starter["empire"]]["major"]
    assert len(starter["deck"]) >= MIN_DECK


def test_major_empire_cards_are_of_the_main_empire_only(starter):
    """Using Major Empire Cards: a deck holds the cards of one major empire only."""
    majors = {card["empire"] for card in starter["deck"] + starter["reserve"]} & {
        slug for slug, empire in EMPIRES.items() if empire["major"]
    }
    assert majors == {starter["empire"]}


def test_minor_empire_cards_are_one_per_four_of_their_type(starter):
    """Using Minor Empire Cards: one minor empire card per four non-minor cards of the same
    type; dragons count as ships; generic ships do not support."""
    stocking = {"dragon": "ship"}
    minor, support = Counter(), Counter()
    for card in starter["deck"] + starter["reserve"]:
        card_type = stocking.get(card["type"], card["type"])
        if card["empire"] and not EMPIRES[card["empire"]]["major"]:
            minor[card_type] += 1
        elif card["empire"] or card_type != "ship":
            support[card_type] += 1
    assert minor, "each starter deck hires some of the mercenary empire"
    for card_type, count in minor.items():
        assert 4 * count <= support[card_type], card_type


def test_no_more_copies_than_the_deck_rules_allow(starter):
    """Deck Construction: at most three exactly identical cards; a unique card or an entity
    once."""
    everything = starter["deck"] + starter["reserve"]
    copies = Counter(identity(card) for card in everything)
    for card in everything:
        assert copies[identity(card)] <= (1 if one_copy_only(card) else MAX_COPIES), card["title"]


def test_the_reserve_fleet_is_legal_from_two_players_and_the_sector_hq_is_no_card(starter):
    """Creating the Reserve Fleet: at most one card per player, set aside from the deck;
    Reserve Fleet Restrictions: no card limited to one copy, none with "reserve" in its title.
    The Sector HQ is set aside from the deck: in Starholds it is no card at all."""
    reserve = starter["reserve"]
    assert 1 <= len(reserve) <= 2
    assert not any(one_copy_only(card) or "reserve" in card["title"].lower() for card in reserve)
    state = api.new_game([starter, starter], 1)
    for player in state.seats:
        held = player.deck + player.hand + player.discard + player.reserve
        assert len(held) == len(starter["deck"]) + len(reserve)
        assert player.hq_damage == 0


@pytest.mark.parametrize("players", [2, 3, 4, 6, 12])
def test_the_engine_accepts_every_starter_deck(starter, players):
    assert deck_problems(starter, players) == []


def test_the_engine_refuses_a_starter_deck_with_a_broken_rule():
    """The same deck rules, seen failing: a rival major empire's card, and a reserve fleet
    larger than the table."""
    aurelian, vhorsk = (decklist(DATA, starter) for starter in DATA["starter_decks"][:2])
    assert aurelian["empire"] != vhorsk["empire"]
    rival = next(card for card in vhorsk["deck"] if card["empire"] == vhorsk["empire"])
    problems = deck_problems({**aurelian, "deck": [*aurelian["deck"], rival]}, 4)
    assert f"{rival['title']!r} belongs to another major empire" in problems
    crowded = {**aurelian, "reserve": aurelian["reserve"] + aurelian["deck"][:3]}
    assert "the reserve fleet holds at most 4 cards (one per player)" in deck_problems(crowded, 4)
