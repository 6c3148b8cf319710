"""Owned items are like money (docs/design.md, Things that are like money): over any sequence of
Store purchases, staff grants, openings and Want edits (rulebook, COLLECTION MANAGER), every
card and product a player holds is accounted for by the item ledger, and every balance by the
credit ledger, no balance goes below zero, and an operation a service refuses changes
nothing."""

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from collection.cards.models import Card
from collection.models import (
    CardOwnership,
    CreditEntry,
    ItemEntry,
    OwnedProduct,
    Product,
    ProductKind,
    Wallet,
)
from collection.services.ledger import wallet_for
from collection.services.opening import OpeningError, products_open
from collection.services.store import StoreError, credits_grant, product_grant, product_purchase
from collection.services.wants import WantError, want_set
from tcgsite.accounts.models import User
from tests.factories import EventPassFactory

pytestmark = pytest.mark.django_db

PLAYERS = 2
player_index = st.integers(0, PLAYERS - 1)
product_index = st.integers(0, 2)  # booster, starter deck, event pass
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("buy"), player_index, product_index, st.integers(0, 4)),
        st.tuples(st.just("grant_credits"), player_index, st.integers(-1500, 1500)),
        st.tuples(st.just("grant_product"), player_index, product_index, st.integers(0, 3)),
        # How many of their unopened products to open, and whether to slip in another's.
        st.tuples(st.just("open"), player_index, st.integers(0, 3), st.booleans()),
        st.tuples(st.just("want"), player_index, st.integers(0, 300), st.integers(-2, 101)),
    ),
    max_size=10,
)


@pytest.fixture
def products(catalog):
    event_pass = EventPassFactory()
    return [
        Product.objects.get(kind=ProductKind.BOOSTER_PACK),
        Product.objects.filter(kind=ProductKind.STARTER_DECK).order_by("name").first(),
        event_pass,
    ]


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=OPERATIONS)
def test_ledgers_account_for_every_card_product_and_credit(products, operations):
    card_ids = list(Card.objects.order_by("pk").values_list("pk", flat=True))
    # Each example runs in a savepoint rolled back at its end, so examples don't add up.
    with transaction.atomic():
        # Plain rows: the factory's password hashing would take most of the time.
        players = [User.objects.create(username=f"collector{n}") for n in range(PLAYERS)]
        for player in players:
            wallet_for(owner=player)
        for operation in operations:
            before = holdings()
            if not apply(operation, players, products, card_ids):
                assert holdings() == before, f"refused {operation} changed something"
            assert_ledgers_balance()
        transaction.set_rollback(True)


def apply(operation, players, products, card_ids) -> bool:
    """Run one operation; False if the service refused it."""
    kind, player = operation[0], players[operation[1]]
    try:
        if kind == "buy":
            product_purchase(buyer=player, product=products[operation[2]], quantity=operation[3])
        elif kind == "grant_credits":
            credits_grant(owner=player, amount=operation[2])
        elif kind == "grant_product":
            product_grant(owner=player, product=products[operation[2]], quantity=operation[3])
        elif kind == "open":
            mine = OwnedProduct.objects.filter(owner=player, opened__isnull=True).order_by("pk")
            ids = list(mine.values_list("pk", flat=True)[: operation[2]])
            if operation[3]:
                theirs = OwnedProduct.objects.exclude(owner=player).values_list("pk", flat=True)
                ids += list(theirs[:1])
            products_open(owner=player, owned_product_ids=ids)
        else:
            card = Card.objects.get(pk=card_ids[operation[2] % len(card_ids)])
            want_set(owner=player, card=card, want=operation[3])
    except (StoreError, OpeningError, WantError):
        event(f"{kind} refused")  # events are shown by --hypothesis-show-statistics
        return False
    event(f"{kind} done")
    return True


def holdings() -> tuple:
    """Everything players hold, and every ledger row, in a form cheap to compare."""
    return (
        sorted(CardOwnership.objects.values_list("owner", "card", "quantity", "want")),
        sorted(OwnedProduct.objects.values_list("pk", "opened")),
        sorted(Wallet.objects.values_list("owner", "credits")),
        ItemEntry.objects.count(),
        CreditEntry.objects.count(),
    )


def assert_ledgers_balance() -> None:
    held = {
        (row["owner"], row["card"]): row["quantity"]
        for row in CardOwnership.objects.filter(quantity__gt=0).values("owner", "card", "quantity")
    }
    ledger = {
        (row["owner"], row["card"]): row["total"]
        for row in ItemEntry.objects.filter(card__isnull=False)
        .values("owner", "card")
        .annotate(total=Sum("delta"))
        .exclude(total=0)
    }
    assert held == ledger
    per_card_held: dict[int, int] = {}
    for (_owner, card), quantity in held.items():
        per_card_held[card] = per_card_held.get(card, 0) + quantity
    per_card_ledger = dict(
        ItemEntry.objects.filter(card__isnull=False)
        .values_list("card")
        .annotate(total=Sum("delta"))
        .exclude(total=0)
        .order_by()
    )
    assert per_card_held == per_card_ledger

    product_totals = dict(
        ItemEntry.objects.filter(owned_product__isnull=False)
        .values_list("owned_product")
        .annotate(total=Sum("delta"))
        .order_by()
    )
    for item_id, opened in OwnedProduct.objects.values_list("pk", "opened"):
        assert product_totals[item_id] == (0 if opened else 1), item_id

    credit_totals = dict(
        CreditEntry.objects.values_list("owner").annotate(total=Sum("delta")).order_by()
    )
    for wallet in Wallet.objects.all():
        assert wallet.credits >= 0
        assert credit_totals[wallet.owner_id] == wallet.credits
        latest = CreditEntry.objects.filter(owner_id=wallet.owner_id).first()
        assert latest.balance_after == wallet.credits
