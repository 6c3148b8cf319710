"""Reads of players' collections."""

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, F, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce, Greatest

from collection.cards.filters import CardFilters
from collection.cards.models import Card
from collection.cards.selectors import cards_narrowed
from collection.models import (
    CardOwnership,
    CreditEntry,
    Opening,
    OwnedProduct,
    Product,
    ProductKind,
    StarterDeckCard,
    Wallet,
)
from game.engine.vocabulary import DECK_TYPES

TYPE_PLURALS = {"unit": "Units", "ability": "Abilities", "item": "Items", "tactic": "Tactics"}
# The rulebook's order: "starter decks, booster packs, event passes".
SHELF_ORDER = (ProductKind.STARTER_DECK, ProductKind.BOOSTER_PACK, ProductKind.EVENT_PASS)


def collection_cards(*, owner, filters: CardFilters, only_owned: bool) -> QuerySet[Card]:
    """Cards with the player's numbers: ``owned``, ``want``, ``trade`` and ``need``
    (rulebook, COLLECTION MANAGER), and ``foils`` (how many of the owned copies are foils),
    narrowed and ordered by the filters, which may use those numbers too. Includes the
    avatars the player made; ``only_owned`` leaves out cards of which the player has no
    copy."""
    ownership = CardOwnership.objects.filter(owner=owner, card=OuterRef("pk"))
    cards = (
        Card.objects.collectable_by(owner)
        .annotate(
            owned=Coalesce(Subquery(ownership.values("quantity")[:1]), 0),
            foils=Coalesce(Subquery(ownership.values("foil")[:1]), 0),
            want=Coalesce(Subquery(ownership.values("want")[:1]), 0),
        )
        .annotate(
            trade=Greatest(F("owned") - F("want"), 0),
            need=Greatest(F("want") - F("owned"), 0),
        )
    )
    if only_owned:
        cards = cards.filter(owned__gt=0)
    return cards_narrowed(cards, filters)


def collection_card(*, owner, card_id: int) -> Card | None:
    """One card the player may collect, with their numbers (see ``collection_cards``)."""
    return (
        collection_cards(owner=owner, filters=CardFilters(), only_owned=False)
        .filter(pk=card_id)
        .first()
    )


def collection_totals(*, owner) -> dict:
    """How many copies and how many titles the player owns."""
    return CardOwnership.objects.filter(owner=owner, quantity__gt=0).aggregate(
        copies=Sum("quantity"), titles=Count("pk")
    )


def credits_balance(*, owner) -> int:
    """The player's credits; a player whose wallet is not open yet has the starting balance
    it will open with."""
    wallet = Wallet.objects.filter(owner=owner).first()
    return wallet.credits if wallet is not None else settings.STARTING_CREDITS


def header_credits(*, player) -> int:
    """The credits the page header shows: the wallet joined to the player when the request
    loaded them (``collection.apps``), read now if it was not."""
    try:
        return player.wallet.credits
    except Wallet.DoesNotExist:
        return settings.STARTING_CREDITS


def recent_credit_entries(*, owner, count: int) -> list[CreditEntry]:
    return list(CreditEntry.objects.filter(owner=owner)[:count])


@dataclass(frozen=True)
class ShelfItem:
    product: Product
    unopened: int  # how many of it the player holds unopened


def store_shelf(*, owner) -> list[ShelfItem]:
    """The products for sale in the rulebook's shelf order, each with how many of it the
    player holds unopened."""
    unopened = dict(
        OwnedProduct.objects.filter(owner=owner, opened__isnull=True)
        .values_list("product")
        .annotate(count=Count("pk"))
        .order_by()
    )
    for_sale = Product.objects.filter(for_sale=True).select_related("card_set")
    return [
        ShelfItem(product, unopened.get(product.pk, 0))
        for product in sorted(for_sale, key=lambda product: SHELF_ORDER.index(product.kind))
    ]


def store_product(*, product_id: int) -> Product | None:
    """A product for sale, for its page in the Store."""
    return Product.objects.filter(pk=product_id, for_sale=True).select_related("card_set").first()


@dataclass(frozen=True)
class StarterContents:
    """A starter deck's fixed contents as the rulebook's DECK BUILDING parts: the avatar, the
    quest pile and the deck, by card type."""

    avatar: StarterDeckCard | None
    quests: list[StarterDeckCard]
    deck_by_type: list[tuple[str, list[StarterDeckCard]]]

    @property
    def card_count(self) -> int:
        lines = [*self.quests, *(line for _, lines in self.deck_by_type for line in lines)]
        return sum(line.quantity for line in lines) + (1 if self.avatar else 0)


def starter_contents(*, product: Product) -> StarterContents:
    lines = list(
        product.starter_cards.select_related("card__card_set").order_by(
            "card__level", "card__cost", "card__title"
        )
    )
    deck_by_type = []
    for card_type in DECK_TYPES:
        of_type = [line for line in lines if line.card.card_type == card_type]
        if of_type:
            deck_by_type.append((TYPE_PLURALS[card_type], of_type))
    return StarterContents(
        avatar=next((line for line in lines if line.card.card_type == "avatar"), None),
        quests=[line for line in lines if line.card.card_type == "quest"],
        deck_by_type=deck_by_type,
    )


def unopened_products(*, owner) -> list[OwnedProduct]:
    """The player's unopened products, by product name, oldest first."""
    return list(
        OwnedProduct.objects.filter(owner=owner, opened__isnull=True)
        .select_related("product")
        .order_by("product__name", "acquired", "pk")
    )


def owner_openings(*, owner, owned_product_ids: list[int], limit: int) -> list[Opening]:
    """What opening these products of the player revealed, at most ``limit`` of them."""
    return list(
        Opening.objects.filter(owned_product__owner=owner, owned_product_id__in=owned_product_ids)
        .select_related("owned_product__product")
        .order_by("owned_product_id")[:limit]
    )


def owner_opening_history(*, owner) -> QuerySet[Opening]:
    """Every opening of the player's own products, newest first, with what it was drawn from."""
    return (
        Opening.objects.filter(owned_product__owner=owner)
        .select_related("owned_product__product", "drawn_from")
        .order_by("-created", "-pk")
    )


def owner_opening(*, owner, opening_id: int) -> Opening | None:
    """One opening of the player's own products, or None (also for another player's)."""
    return owner_opening_history(owner=owner).filter(pk=opening_id).first()
