"""The products a card set brings to the Store: its booster pack and its starter decks."""

from pathlib import Path

from django.db import transaction

from collection.cards.models import Archetype, CardSet
from collection.cards.services import LoadReport, catalog_load_set
from collection.models import Product, ProductKind, StarterDeckCard

STARTER_DECK_PRICE = 400
BOOSTER_PACK_PRICE = 150


def set_load(*, path: Path) -> tuple[LoadReport, int]:
    """Load a set file into the catalog and create its products once, in one transaction;
    returns the catalog's report and the number of products created."""
    with transaction.atomic():
        report = catalog_load_set(path=path)
        created = set_products_create(card_set=report.card_set, starter_decks=report.starter_decks)
    return report, created


def set_products_create(*, card_set: CardSet, starter_decks: dict) -> int:
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
                "description": deck.get("plays")
                or f"A ready-to-play {label} deck of 58 cards: avatar, four quests and 53 others.",
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
