"""Builders shared by the live-trade tests: players placed in the Trade Lobby, items given
through the ledger (so the ledger's entries always sum to the holdings), an open session, and
the ledger check run after every swap."""

from collections import Counter

from django.db.models import Sum

from collection.cards.models import Card
from collection.models import (
    CardOwnership,
    ItemEntry,
    LedgerReason,
    OwnedProduct,
    Product,
    ProductKind,
)
from collection.services.ledger import CardChange, ledger_operation
from collection.services.store import product_grant
from collection.trades.models import TradeSession
from collection.trades.services.live import live_trade_answer, live_trade_request
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.places import Lobby, Place


def in_lobby(user, lobby: str = Lobby.TRADE) -> None:
    Presence.objects.update_or_create(user=user, defaults={"room": lobby, "place": lobby})


def on_trade_screen(user) -> None:
    Presence.objects.update_or_create(
        user=user, defaults={"room": Lobby.TRADE, "place": Place.TRADING}
    )


def away_in(user, room: str) -> None:
    Presence.objects.update_or_create(user=user, defaults={"room": room, "place": Place.ELSEWHERE})


def cards(count: int) -> list[Card]:
    return list(Card.objects.printed().order_by("card_set__number", "number")[:count])


def booster() -> Product:
    return Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()


def give_cards(owner, counts: dict[Card, int]) -> None:
    with ledger_operation(owners=[owner], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=owner, card_id=card.pk, delta=n) for card, n in counts.items()
            ]
        )


def give_products(owner, product: Product, quantity: int) -> None:
    product_grant(owner=owner, product=product, quantity=quantity)


def open_session(asker, partner) -> TradeSession:
    in_lobby(asker)
    in_lobby(partner)
    session = live_trade_request(asker=asker, partner=partner)
    return live_trade_answer(session_id=session.pk, player=partner, accept=True)


def copies(owner, card: Card) -> int:
    row = CardOwnership.objects.filter(owner=owner, card=card).first()
    return row.quantity if row else 0


def unopened(owner, product: Product) -> int:
    return OwnedProduct.objects.filter(owner=owner, product=product, opened__isnull=True).count()


def holdings(*owners) -> Counter:
    """Every copy and unopened product the owners hold together, by card and product."""
    total: Counter = Counter()
    for row in CardOwnership.objects.filter(owner__in=owners):
        total[("card", row.card_id)] += row.quantity
    for row in OwnedProduct.objects.filter(owner__in=owners, opened__isnull=True):
        total[("product", row.product_id)] += 1
    return +total


def assert_ledger_matches_holdings(*owners) -> None:
    """The ledger's item entries sum, per owner and card, to the copies held, and per owner
    to the unopened products held."""
    for owner in owners:
        entries = (
            ItemEntry.objects.filter(owner=owner, card__isnull=False)
            .values("card")
            .annotate(total=Sum("delta"))
        )
        by_ledger = {row["card"]: row["total"] for row in entries if row["total"]}
        held = {
            row.card_id: row.quantity
            for row in CardOwnership.objects.filter(owner=owner)
            if row.quantity
        }
        assert by_ledger == held, (owner, by_ledger, held)
        product_entries = ItemEntry.objects.filter(owner=owner, owned_product__isnull=False)
        product_total = product_entries.aggregate(total=Sum("delta"))["total"] or 0
        assert (
            product_total == OwnedProduct.objects.filter(owner=owner, opened__isnull=True).count()
        )
