"""Opening starter decks and booster packs: the only writer of cards entering a collection."""

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from collection.boosters import booster_contents
from collection.cards.models import Card, Rarity
from collection.models import (
    CardOwnership,
    ItemEntry,
    LedgerReason,
    Opening,
    OwnedProduct,
    ProductKind,
)
from collection.services.locks import lock_wallets
from collection.services.store import wallet_for
from tcgsite.accounts.models import User
from tcgsite.errors import UserError

MAX_OPEN_AT_ONCE = 24


class OpeningError(UserError):
    """Products that can't be opened; the message is shown to the player."""


@dataclass(frozen=True)
class Reveal:
    """One opened product: its cards in reveal order, and which of them are new."""

    owned_product: OwnedProduct
    cards: list[Card]
    new_card_ids: frozenset[int]
    already_opened: bool


def products_open(*, owner: User, owned_product_ids: list[int]) -> list[Reveal]:
    """Open one or several of the player's unopened products in one transaction.

    Each product is opened exactly once, however often this is called: a product already
    opened (a double click, a replayed request) reveals what its opening revealed and adds
    nothing.
    """
    ids = sorted(set(owned_product_ids))
    if not ids:
        raise OpeningError("Choose at least one starter deck or booster pack to open.")
    if len(ids) > MAX_OPEN_AT_ONCE:
        raise OpeningError(f"Open at most {MAX_OPEN_AT_ONCE} products at once.")
    wallet_for(owner=owner)
    with transaction.atomic():
        lock_wallets([owner])
        items = list(
            OwnedProduct.objects.select_for_update(of=("self",))
            .select_related("product__card_set")
            .filter(owner=owner, pk__in=ids)
            .order_by("pk")
        )
        if len(items) != len(ids):
            raise OpeningError("Some of those products are not in your collection.")
        unopenable = [item.product.name for item in items if not item.product.opens]
        if unopenable:
            raise OpeningError(f"{unopenable[0]} can't be opened: it is a ticket, not a pack.")
        opened_before = {item.pk for item in items if item.opened}
        owned_before = dict(
            CardOwnership.objects.filter(owner=owner).values_list("card_id", "quantity")
        )
        openings = [
            item.opening if item.opened else _open(owner, item, owned_before) for item in items
        ]
    cards = Card.objects.select_related("card_set").in_bulk(
        {card_id for opening in openings for card_id in opening.card_ids}
    )
    return [
        Reveal(
            owned_product=item,
            cards=[cards[card_id] for card_id in opening.card_ids],
            new_card_ids=frozenset(opening.new_card_ids),
            already_opened=item.pk in opened_before,
        )
        for item, opening in zip(items, openings, strict=True)
    ]


def _open(owner: User, item: OwnedProduct, owned_before: dict[int, int]) -> Opening:
    seed = None
    if item.product.kind == ProductKind.STARTER_DECK:
        card_ids = [
            line.card_id
            for line in item.product.starter_cards.order_by("card__number")
            for _ in range(line.quantity)
        ]
    else:
        seed = secrets.randbits(62)
        card_ids = booster_contents(
            booster_pool(item.product.card_set_id), item.product.booster_slots, seed
        )
    if not card_ids:
        raise OpeningError(f"{item.product.name} has no cards to reveal; please tell staff.")
    new_card_ids = []
    for card_id in card_ids:
        if owned_before.get(card_id, 0) == 0 and card_id not in new_card_ids:
            new_card_ids.append(card_id)
    _add_cards(owner, card_ids, f"opened {item.product.name} #{item.pk}")
    for card_id in card_ids:
        owned_before[card_id] = owned_before.get(card_id, 0) + 1
    item.opened = timezone.now()
    item.save(update_fields=["opened"])
    ItemEntry.objects.create(owner=owner, owned_product=item, delta=-1, reason=LedgerReason.OPENING)
    return Opening.objects.create(
        owned_product=item, seed=seed, card_ids=card_ids, new_card_ids=new_card_ids
    )


def booster_pool(card_set_id: int) -> dict[str, list[int]]:
    """The set's cards by rarity, in card-number order (the order seeds are replayed on)."""
    pool: dict[str, list[int]] = {}
    cards = Card.objects.filter(card_set_id=card_set_id).exclude(
        rarity__in=[Rarity.STARTER_OR_REWARD, Rarity.PROMO]
    )
    for card_id, rarity in cards.order_by("number").values_list("pk", "rarity"):
        pool.setdefault(rarity, []).append(card_id)
    return pool


def opening_audit(*, opening: Opening) -> bool:
    """Whether a booster opening's recorded cards are what its seed draws."""
    product = opening.owned_product.product
    drawn = booster_contents(booster_pool(product.card_set_id), product.booster_slots, opening.seed)
    return drawn == opening.card_ids


def _add_cards(owner: User, card_ids: list[int], note: str) -> None:
    """Add cards to a collection whose owner's wallet the caller has locked."""
    counts: dict[int, int] = {}
    for card_id in card_ids:
        counts[card_id] = counts.get(card_id, 0) + 1
    existing = {
        row.card_id: row for row in CardOwnership.objects.filter(owner=owner, card_id__in=counts)
    }
    for card_id, count in counts.items():
        row = existing.get(card_id)
        if row is None:
            CardOwnership.objects.create(owner=owner, card_id=card_id, quantity=count)
        else:
            row.quantity += count
            row.save(update_fields=["quantity"])
    ItemEntry.objects.bulk_create(
        ItemEntry(owner=owner, card_id=card_id, delta=count, reason=LedgerReason.OPENING, note=note)
        for card_id, count in counts.items()
    )
