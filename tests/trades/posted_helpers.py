"""Builders shared by the posted-trade tests: items given through the ledger, so the ledger's
entries always sum to the holdings."""

from collection.cards.models import Card
from collection.models import LedgerReason, Product, ProductKind
from collection.services.ledger import CardChange, ledger_operation
from collection.services.store import product_grant
from collection.trades.services.exchange import TradeItem


def cards(count: int) -> list[Card]:
    return list(Card.objects.printed().order_by("pk")[:count])


def booster() -> Product:
    return Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()


def give_cards(owner, counts: dict[int, int]) -> None:
    with ledger_operation(owners=[owner], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=owner, card_id=card_id, delta=n) for card_id, n in counts.items()
            ]
        )


def give_products(owner, product: Product, quantity: int) -> None:
    product_grant(owner=owner, product=product, quantity=quantity)


def card_item(card: Card, quantity: int) -> TradeItem:
    return TradeItem(quantity=quantity, card_id=card.pk)


def product_item(product: Product, quantity: int) -> TradeItem:
    return TradeItem(quantity=quantity, product_id=product.pk)
