"""Decklists: the plain structure ``new_game`` seats, built here from a set file's starter decks.

A decklist is ``{"avatar": card, "quests": [card, ...], "deck": [card, ...]}`` where each card
is a dict of its printed fields (``setup.DEFINITION_FIELDS``) and the deck repeats a card once
per copy. Pure: it reads the set file at the path it is given (docs/card-rules.md, "The set
file") and needs nothing else.
"""

import json
from pathlib import Path

from game.engine.setup import DEFINITION_FIELDS, created_titles


def load_set(path: str | Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def card_definition(card: dict) -> dict:
    """The printed fields of a set file's card that the engine reads."""
    return {key: card[key] for key in DEFINITION_FIELDS}


def starter_decklist(set_data: dict, archetype: str) -> dict:
    """The decklist of the set's starter deck for ``archetype`` (jedi, rebel, imperial, sith)."""
    by_title = {card["title"]: card for card in set_data["cards"]}
    starter = set_data["starter_decks"][archetype]
    deck = []
    for title, copies in starter["deck"].items():
        deck += [card_definition(by_title[title])] * copies
    avatar = card_definition(by_title[starter["avatar"]])
    quests = [card_definition(by_title[title]) for title in starter["quests"]]
    return {
        "avatar": avatar,
        "quests": quests,
        "deck": deck,
        "created": created_cards([avatar, *quests, *deck], by_title),
    }


def created_cards(cards: list[dict], by_title: dict[str, dict]) -> list[dict]:
    """The printed fields of every card that ``cards`` can create (smuggle, create_card),
    which a decklist brings along so that the engine knows them."""
    titles = set()
    for card in {id(card): card for card in cards}.values():
        titles |= created_titles(card)
    return [card_definition(by_title[title]) for title in sorted(titles)]


def starter_decklists(path: str | Path) -> dict[str, dict]:
    """Every starter deck of the set file at ``path``, by archetype."""
    set_data = load_set(path)
    return {
        archetype: starter_decklist(set_data, archetype) for archetype in set_data["starter_decks"]
    }
