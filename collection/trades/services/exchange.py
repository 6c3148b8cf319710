"""What live and posted trades share: the items on one side of a trade, checking that a player
holds them, and moving them inside a ledger operation.

A trade line names copies of a card (its plain copies, or its foil copies: the two are
offered apart) or unopened products of one kind (a booster, a starter deck, an event pass),
never particular product rows: the giver's oldest unopened ones of that kind move when the
trade completes, so a line stays true while its giver buys or opens others.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from collection.cards.models import Card
from collection.models import CardOwnership, OwnedProduct, Product
from collection.services.ledger import Ledger, LedgerError
from tcgsite.accounts.models import User

# Rulebook, "Trade Screen": a card's menu adds 1 to 5 copies at a time.
MAX_COPIES_AT_ONCE = 5


@dataclass(frozen=True)
class TradeItem:
    """``quantity`` copies of a card (foil copies with ``foil``), or ``quantity`` unopened
    products of one kind."""

    quantity: int
    card_id: int | None = None
    product_id: int | None = None
    foil: bool = False

    def __post_init__(self):
        if (self.card_id is None) == (self.product_id is None):
            raise ValueError("A trade item is a card or a product, not both or neither.")
        if self.foil and self.card_id is None:
            raise ValueError("Only a card has foil copies.")


def items_merged(items: Iterable[TradeItem]) -> list[TradeItem]:
    """The items with repeats of one card (and finish) or product added together, cards
    first."""
    cards: dict[tuple[int, bool], int] = {}
    products: dict[int, int] = {}
    for item in items:
        if item.card_id is not None:
            key = (item.card_id, item.foil)
            cards[key] = cards.get(key, 0) + item.quantity
        else:
            products[item.product_id] = products.get(item.product_id, 0) + item.quantity
    return [
        TradeItem(quantity=n, card_id=card_id, foil=foil)
        for (card_id, foil), n in cards.items()
        if n > 0
    ] + [
        TradeItem(quantity=n, product_id=product_id) for product_id, n in products.items() if n > 0
    ]


def items_lacking(*, owner: User, items: Iterable[TradeItem]) -> list[str]:
    """What ``owner`` lacks of ``items``, as lines to show ("2 × Han Solo (you have 1)",
    "1 × Han Solo (foil) (has 0)"); empty when they hold everything. Plain and foil copies
    are counted apart. Two queries however many items."""
    items = items_merged(items)
    card_counts = {
        (item.card_id, item.foil): item.quantity for item in items if item.card_id is not None
    }
    product_counts = {
        item.product_id: item.quantity for item in items if item.product_id is not None
    }
    held_cards: dict[tuple[int, bool], int] = {}
    for card_id, quantity, foil in CardOwnership.objects.filter(
        owner=owner, card_id__in={card_id for card_id, _foil in card_counts}
    ).values_list("card_id", "quantity", "foil"):
        held_cards[card_id, False], held_cards[card_id, True] = quantity - foil, foil
    held_products: dict[int, int] = {}
    for product_id in OwnedProduct.objects.filter(
        owner=owner, product_id__in=product_counts, opened__isnull=True
    ).values_list("product_id", flat=True):
        held_products[product_id] = held_products.get(product_id, 0) + 1
    short_cards = {
        key: wanted for key, wanted in card_counts.items() if held_cards.get(key, 0) < wanted
    }
    short_products = {
        product_id: wanted
        for product_id, wanted in product_counts.items()
        if held_products.get(product_id, 0) < wanted
    }
    lines = []
    if short_cards:
        titles = dict(
            Card.objects.filter(pk__in={card_id for card_id, _ in short_cards}).values_list(
                "pk", "title"
            )
        )
        lines += [
            f"{wanted} × {titles[card_id]}{' (foil)' if foil else ''} "
            f"(has {held_cards.get((card_id, foil), 0)})"
            for (card_id, foil), wanted in short_cards.items()
        ]
    if short_products:
        names = dict(Product.objects.filter(pk__in=short_products).values_list("pk", "name"))
        lines += [
            f"{wanted} × {names[product_id]} (has {held_products.get(product_id, 0)} unopened)"
            for product_id, wanted in short_products.items()
        ]
    return lines


def items_move(
    *, ledger: Ledger, sender: User, receiver: User, items: Iterable[TradeItem], note: str
) -> None:
    """Move ``items`` from ``sender`` to ``receiver`` within ``ledger``'s operation, which has
    locked both. Raises ``LedgerError`` (and the operation writes nothing) if the sender
    lacks any of them."""
    items = items_merged(items)
    if lacking := items_lacking(owner=sender, items=items):
        raise LedgerError(f"{sender} no longer has {', '.join(lacking)}.")
    for foil in (False, True):
        card_counts = {
            item.card_id: item.quantity
            for item in items
            if item.card_id is not None and item.foil is foil
        }
        if card_counts:
            ledger.cards_move(
                sender=sender, receiver=receiver, counts=card_counts, note=note, foil=foil
            )
    for item in items:
        if item.product_id is None:
            continue
        # The sender's wallet lock, taken by the operation, keeps these rows as read.
        oldest = list(
            OwnedProduct.objects.filter(
                owner=sender, product_id=item.product_id, opened__isnull=True
            ).order_by("acquired", "pk")[: item.quantity]
        )
        ledger.products_move(sender=sender, receiver=receiver, owned_products=oldest, note=note)
