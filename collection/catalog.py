"""Loading a card set's data file into the catalog (DESIGN.md, "Cards are data")."""

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from django.db import transaction

from collection.cardrules import validate_card, validate_set
from collection.models import Archetype, Card, CardSet, Product, ProductKind, StarterDeckCard

SETS_DIR = Path(__file__).resolve().parent / "sets"
STARTER_DECK_PRICE = 400
BOOSTER_PACK_PRICE = 150

# Set-file field → Card model field, for the fields copied as they are.
_CARD_FIELDS = {
    "rarity": "rarity",
    "title": "title",
    "type": "card_type",
    "archetype": "archetype",
    "traits": "traits",
    "restriction": "restriction",
    "cost": "cost",
    "attack": "attack",
    "defense": "defense",
    "damage_bonus": "damage_bonus",
    "health": "health",
    "level": "level",
    "text": "game_text",
    "lore": "lore",
    "artist": "artist",
    "rules": "rules",
}


class CatalogError(Exception):
    """A set file that can't be loaded; nothing of it was written."""


@dataclass
class LoadReport:
    set_name: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    products_created: int = 0

    def __str__(self) -> str:
        return (
            f"{self.set_name}: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged; {self.products_created} products created"
        )


def set_files() -> list[Path]:
    return sorted(SETS_DIR.glob("*.json"))


def catalog_load_set(*, path: Path) -> LoadReport:
    """Create or update one set and its cards from its file; idempotent.

    Cards are matched by (set, number), so editing a card's data and loading again updates
    that card in place: its primary key, and everything that points at it, stays.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise CatalogError(f"{path.name}: can't be read as JSON ({error}).") from error
    problems = validate_set(data)
    if problems:
        listed = "\n  ".join(problems[:20])
        raise CatalogError(f"{path.name} has {len(problems)} problem(s):\n  {listed}")

    set_data = data["set"]
    report = LoadReport(set_name=set_data["name"])
    with transaction.atomic():
        card_set, _ = CardSet.objects.update_or_create(
            number=set_data["number"],
            defaults={
                "code": set_data["code"],
                "name": set_data["name"],
                "released": date.fromisoformat(set_data["released"])
                if set_data.get("released")
                else None,
            },
        )
        existing = {card.number: card for card in card_set.cards.all()}
        for card_data in data["cards"]:
            values = {
                model_field: _normalised(model_field, card_data.get(file_field))
                for file_field, model_field in _CARD_FIELDS.items()
            }
            card = existing.get(card_data["number"])
            if card is None:
                Card(card_set=card_set, number=card_data["number"], **values).save()
                report.created += 1
            elif any(getattr(card, name) != value for name, value in values.items()):
                for name, value in values.items():
                    setattr(card, name, value)
                card.save()
                report.updated += 1
            else:
                report.unchanged += 1
        report.products_created = _create_set_products(card_set, data.get("starter_decks", {}))
    return report


def _create_set_products(card_set: CardSet, starter_decks: dict) -> int:
    """The set's booster pack and its starter decks, created once; staff own them afterwards
    (prices, contents, whether they are for sale), so loading again never overwrites them."""
    created = 0
    _booster, made = Product.objects.get_or_create(
        name=f"{card_set.name} Booster Pack",
        defaults={
            "kind": ProductKind.BOOSTER_PACK,
            "price": BOOSTER_PACK_PRICE,
            "card_set": card_set,
            "description": "15 cards: 1 rare, 3 uncommons and 11 commons, drawn at random.",
        },
    )
    created += made
    cards = {card.title: card for card in card_set.cards.all()}
    for archetype, deck in starter_decks.items():
        label = Archetype(archetype).label
        product, made = Product.objects.get_or_create(
            name=f"{card_set.name} Starter Deck: {label}",
            defaults={
                "kind": ProductKind.STARTER_DECK,
                "price": STARTER_DECK_PRICE,
                "card_set": card_set,
                "archetype": archetype,
                "description": (
                    f"A ready-to-play {label} deck of 58 cards: avatar, four quests and 53 others."
                ),
            },
        )
        if made:
            created += 1
            lines = {deck["avatar"]: 1, **dict.fromkeys(deck["quests"], 1), **deck["deck"]}
            StarterDeckCard.objects.bulk_create(
                StarterDeckCard(product=product, card=cards[title], quantity=copies)
                for title, copies in lines.items()
            )
    return created


_TEXT_FIELDS = {"archetype", "restriction", "game_text", "lore", "artist"}


def catalog_card_problems(card: Card) -> list[str]:
    """What the rules vocabulary finds wrong with a card edited outside its set file."""
    data = {file_field: getattr(card, field) for file_field, field in _CARD_FIELDS.items()}
    data["number"] = card.number
    known_titles = set(Card.objects.values_list("title", flat=True)) | {card.title}
    return validate_card(data, known_titles=known_titles)


def _normalised(model_field: str, value):
    """Text columns hold "" rather than NULL, as Django's convention for text asks."""
    if value is None and model_field in _TEXT_FIELDS:
        return ""
    if value is None and model_field in {"traits", "rules"}:
        return [] if model_field == "traits" else {}
    return value
