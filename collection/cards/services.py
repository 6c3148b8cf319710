"""Loading a card set's data file into the catalog (docs/design.md, "Cards are data"), and checking
a card edited in the admin against the rules vocabulary."""

import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from django.db import transaction

from collection.cards.cardrules import validate_card, validate_set
from collection.cards.models import Card, CardSet
from tcgsite.errors import UserError

SETS_DIR = Path(__file__).resolve().parent / "sets"

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


class CatalogError(UserError):
    """A set file that can't be loaded; nothing of it was written."""


@dataclass
class LoadReport:
    set_name: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    card_set: CardSet | None = None
    # The set file's starter decks, by archetype: the Store makes products of them.
    starter_decks: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return (
            f"{self.set_name}: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged"
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
            values = printed_values(card_data)
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
        report.card_set = card_set
        report.starter_decks = data.get("starter_decks", {})
    return report


_TEXT_FIELDS = {"archetype", "restriction", "game_text", "lore", "artist"}


def printed_values(card_data: dict) -> dict:
    """A card's fields as the Card model holds them, from the card as a set file prints it
    (also a card found in no set: a heroic encounter's boss's own, drawn as a face)."""
    return {
        model_field: _normalised(model_field, card_data.get(file_field))
        for file_field, model_field in _CARD_FIELDS.items()
    }


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
