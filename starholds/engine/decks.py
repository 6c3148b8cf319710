"""The deck rules (rulebook, "Deck Construction"; docs/starholds/choices.md, "Decks") and the
decklists the engine plays: ``{"empire": slug, "empires": [empire, ...], "deck": [card, ...],
"reserve": [card, ...]}``, each card a dict of printed fields (docs/starholds/vocabulary.md)."""

from collections import Counter
from collections.abc import Mapping

from starholds.engine.vocabulary import Empire, InvalidCardData, parse_empires, validate_card

MIN_DECK = 40
MAX_COPIES = 3
ENTITY_STRENGTH = 10


def identity(card: Mapping) -> tuple[str, int, str]:
    """Exactly identical cards share type, strength and title (rulebook glossary)."""
    return (card["type"], card["strength"], card["title"])


def _is_single(card: Mapping) -> bool:
    unique = any(entry["keyword"] == "unique" for entry in card["rules"].get("keywords", ()))
    return unique or card["strength"] == ENTITY_STRENGTH


def _stocking_type(card: Mapping) -> str:
    # Dragons count as ships for minor empire support (Using Minor Empire Cards).
    return "ship" if card["type"] == "dragon" else card["type"]


def deck_problems(decklist: Mapping, players: int) -> list[str]:
    """What makes a decklist illegal for a game of ``players``; [] if nothing."""
    try:
        empires = parse_empires({"empires": decklist.get("empires", [])})
    except InvalidCardData as error:
        return str(error).splitlines()
    main = decklist.get("empire")
    if main not in empires:
        return [f"the deck's main empire {main!r} is not among its empires"]
    deck, reserve = list(decklist.get("deck", [])), list(decklist.get("reserve", []))
    problems = [problem for card in deck + reserve for problem in validate_card(card, empires)]
    if problems:
        return problems
    if len(deck) < MIN_DECK:
        problems.append(f"a deck holds at least {MIN_DECK} cards besides the reserve fleet")
    everything = deck + reserve
    problems += _copy_problems(everything)
    problems += _empire_problems(everything, main, empires)
    if len(reserve) > players:
        problems.append(f"the reserve fleet holds at most {players} cards (one per player)")
    for card in reserve:
        if _is_single(card) or "reserve" in card["title"].lower():
            problems.append(f"{card['title']!r} may not start in the reserve fleet")
    return problems


def _copy_problems(cards: list[Mapping]) -> list[str]:
    counts = Counter(identity(card) for card in cards)
    problems = []
    for card in {identity(card): card for card in cards}.values():
        allowed = 1 if _is_single(card) else MAX_COPIES
        if counts[identity(card)] > allowed:
            problems.append(f"at most {allowed} of {card['title']!r} in a deck")
    return problems


def _empire_problems(cards: list[Mapping], main: str, empires: Mapping[str, Empire]) -> list[str]:
    problems = []
    minor: Counter[str] = Counter()
    support: Counter[str] = Counter()
    for card in cards:
        empire = card["empire"]
        if empire and empire != main and empires[empire].major:
            problems.append(f"{card['title']!r} belongs to another major empire")
        elif empire and empire != main:
            minor[_stocking_type(card)] += 1
        elif empire or card["type"] not in ("ship", "dragon"):
            # Generic ships and dragons do not support minor empire cards.
            support[_stocking_type(card)] += 1
    for card_type, count in sorted(minor.items()):
        if count > support[card_type] // 4:
            problems.append(
                f"{count} minor empire {card_type} cards need {4 * count} other {card_type} "
                f"cards (one per four), the deck has {support[card_type]}"
            )
    return problems


def decklist(set_data: Mapping, starter: Mapping) -> dict:
    """The engine's decklist for a set's starter deck (``{"empire", "cards": [{"number",
    "copies"}], "reserve": [number, ...]}``)."""
    by_number = {card["number"]: card for card in set_data["cards"]}
    deck = [
        by_number[entry["number"]] for entry in starter["cards"] for _ in range(entry["copies"])
    ]
    return {
        "empire": starter["empire"],
        "empires": list(set_data["set"]["empires"]),
        "deck": deck,
        "reserve": [by_number[number] for number in starter["reserve"]],
    }
