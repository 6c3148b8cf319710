"""The ledger writers (docs/design.md, Things that are like money): every change of credits, cards
and products writes its ledger rows under one operation, refuses what would leave an owner
below zero, and an operation with a reference that runs twice writes once."""

import threading

import pytest
from django.conf import settings
from django.db.models import Sum
from django.urls import reverse

from collection.cards.models import Card
from collection.models import (
    CardOwnership,
    CreditEntry,
    ItemEntry,
    LedgerOperation,
    LedgerReason,
    OwnedProduct,
    Wallet,
)
from collection.services.ledger import (
    CardChange,
    LedgerError,
    LedgerOperationDone,
    ledger_operation,
    wallet_for,
)
from collection.services.store import credits_grant, product_grant
from tests.collection.test_concurrency import race
from tests.factories import UserFactory

STARTING = settings.STARTING_CREDITS

postgresql_only = pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="row locks need PostgreSQL; SQLite serialises writers instead",
)


def balance(owner) -> int:
    return Wallet.objects.get(owner=owner).credits


def copies(owner, card) -> int:
    row = CardOwnership.objects.filter(owner=owner, card=card).first()
    return row.quantity if row else 0


def ledger_rows() -> tuple[int, int, int]:
    return (
        LedgerOperation.objects.count(),
        CreditEntry.objects.count(),
        ItemEntry.objects.count(),
    )


@pytest.fixture
def cards(catalog) -> list[Card]:
    return list(Card.objects.order_by("pk")[:3])


# --- Locking owners ------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_owner_without_a_wallet_gets_one_with_the_starting_balance_and_its_row():
    player = UserFactory()

    with ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger:
        ledger.credits_change(owner=player, delta=5)

    assert balance(player) == STARTING + 5
    start = CreditEntry.objects.get(owner=player, reason=LedgerReason.STARTING_BALANCE)
    assert (start.delta, start.balance_after) == (STARTING, STARTING)
    assert start.operation.reason == LedgerReason.STARTING_BALANCE


@pytest.mark.django_db
def test_a_refused_operation_keeps_the_wallet_it_opened():
    player = UserFactory()

    with (
        pytest.raises(LedgerError),
        ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger,
    ):
        ledger.credits_change(owner=player, delta=-(STARTING + 1))

    assert balance(player) == STARTING
    assert CreditEntry.objects.filter(owner=player).count() == 1


@pytest.mark.django_db
def test_writing_for_an_owner_the_operation_did_not_lock_is_a_programming_error():
    player, stranger = UserFactory(), UserFactory()

    with (
        pytest.raises(RuntimeError, match="not locked"),
        ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger,
    ):
        ledger.credits_change(owner=stranger, delta=5)


@pytest.mark.django_db
def test_a_ledger_can_not_write_after_its_operation_ended():
    player = UserFactory()
    with ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger:
        pass

    with pytest.raises(RuntimeError, match="ended"):
        ledger.credits_change(owner=player, delta=5)


# --- Credits -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_credits_move_between_owners_with_a_row_each_under_one_operation():
    buyer, seller = UserFactory(), UserFactory()

    with ledger_operation(owners=[seller, buyer], reason=LedgerReason.TRADE) as ledger:
        ledger.credits_move(sender=buyer, receiver=seller, amount=300, note="trade")

    assert (balance(buyer), balance(seller)) == (STARTING - 300, STARTING + 300)
    rows = CreditEntry.objects.filter(reason=LedgerReason.TRADE)
    assert sorted(rows.values_list("owner", "delta", "balance_after")) == sorted(
        [(buyer.pk, -300, STARTING - 300), (seller.pk, 300, STARTING + 300)]
    )
    assert len({row.operation_id for row in rows}) == 1


@pytest.mark.django_db
def test_credits_that_would_go_below_zero_are_refused_and_nothing_is_written():
    buyer, seller = UserFactory(), UserFactory()
    wallet_for(owner=buyer)
    wallet_for(owner=seller)
    before = ledger_rows()

    with (
        pytest.raises(LedgerError, match=f"has {STARTING} credits"),
        ledger_operation(owners=[buyer, seller], reason=LedgerReason.TRADE) as ledger,
    ):
        ledger.credits_move(sender=buyer, receiver=seller, amount=STARTING + 1)

    assert (balance(buyer), balance(seller)) == (STARTING, STARTING)
    assert ledger_rows() == before


# --- Cards ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_cards_are_added_and_removed_with_one_row_per_owner_card_and_note(cards):
    player = UserFactory()
    first, second, _ = cards

    with ledger_operation(owners=[player], reason=LedgerReason.REWARD) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=player, card_id=first.pk, delta=1, note="round 1"),
                CardChange(owner=player, card_id=first.pk, delta=1, note="round 1"),
                CardChange(owner=player, card_id=second.pk, delta=3, note="round 2"),
            ]
        )
    with ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(changes=[CardChange(owner=player, card_id=second.pk, delta=-1)])

    assert (copies(player, first), copies(player, second)) == (2, 2)
    rows = ItemEntry.objects.filter(owner=player).values_list("card", "delta", "note", "reason")
    assert sorted(rows) == sorted(
        [
            (first.pk, 2, "round 1", LedgerReason.REWARD),
            (second.pk, 3, "round 2", LedgerReason.REWARD),
            (second.pk, -1, "", LedgerReason.GRANT),
        ]
    )


@pytest.mark.django_db
def test_cards_move_between_owners_with_rows_for_both(cards):
    giver, taker = UserFactory(), UserFactory()
    first, second, _ = cards
    with ledger_operation(owners=[giver], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=giver, card_id=first.pk, delta=2),
                CardChange(owner=giver, card_id=second.pk, delta=1),
            ]
        )

    with ledger_operation(owners=[giver, taker], reason=LedgerReason.TRADE) as ledger:
        ledger.cards_move(sender=giver, receiver=taker, counts={first.pk: 2, second.pk: 1})

    assert [copies(giver, first), copies(giver, second)] == [0, 0]
    assert [copies(taker, first), copies(taker, second)] == [2, 1]
    trade = ItemEntry.objects.filter(reason=LedgerReason.TRADE)
    assert sorted(trade.values_list("owner", "card", "delta")) == sorted(
        [
            (giver.pk, first.pk, -2),
            (taker.pk, first.pk, 2),
            (giver.pk, second.pk, -1),
            (taker.pk, second.pk, 1),
        ]
    )


@pytest.mark.django_db
def test_removing_more_copies_than_owned_is_refused_and_nothing_is_written(cards):
    giver, taker = UserFactory(), UserFactory()
    first, second, _ = cards
    with ledger_operation(owners=[giver], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(changes=[CardChange(owner=giver, card_id=first.pk, delta=1)])
    wallet_for(owner=taker)
    before = ledger_rows()

    with (
        pytest.raises(LedgerError, match=f"does not have 1 × {second.title}"),
        ledger_operation(owners=[giver, taker], reason=LedgerReason.TRADE) as ledger,
    ):
        ledger.cards_move(sender=giver, receiver=taker, counts={first.pk: 1, second.pk: 1})

    assert (copies(giver, first), copies(taker, first), copies(taker, second)) == (1, 0, 0)
    assert ledger_rows() == before


# --- Products ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_products_move_between_owners_with_rows_for_both(event_pass):
    entrant, organiser = UserFactory(), UserFactory()
    with ledger_operation(owners=[entrant], reason=LedgerReason.GRANT) as ledger:
        passes = ledger.products_add(owner=entrant, product=event_pass, quantity=2)

    with ledger_operation(owners=[entrant, organiser], reason=LedgerReason.ENTRY) as ledger:
        ledger.products_move(sender=entrant, receiver=organiser, owned_products=passes[:1])

    moved, kept = (OwnedProduct.objects.get(pk=item.pk) for item in passes)
    assert (moved.owner, kept.owner) == (organiser, entrant)
    entry = ItemEntry.objects.filter(owned_product=moved, reason=LedgerReason.ENTRY)
    assert sorted(entry.values_list("owner", "delta")) == sorted(
        [(entrant.pk, -1), (organiser.pk, 1)]
    )
    assert ItemEntry.objects.filter(owned_product=moved).aggregate(Sum("delta")) == {
        "delta__sum": 1
    }


@pytest.mark.django_db
def test_moving_a_product_the_owner_does_not_hold_or_opened_is_refused(booster):
    owner, other, taker = UserFactory(), UserFactory(), UserFactory()
    (theirs,) = product_grant(owner=other, product=booster, quantity=1)
    mine, opened = product_grant(owner=owner, product=booster, quantity=2)
    with ledger_operation(owners=[owner], reason=LedgerReason.OPENING) as ledger:
        ledger.products_consume(owner=owner, owned_products=[opened])
    wallet_for(owner=taker)
    before = ledger_rows()

    for refused in ([mine, theirs], [mine, opened]):
        with (
            pytest.raises(LedgerError, match="does not hold those products unopened"),
            ledger_operation(owners=[owner, taker], reason=LedgerReason.TRADE) as ledger,
        ):
            ledger.products_move(sender=owner, receiver=taker, owned_products=refused)

    assert not OwnedProduct.objects.filter(owner=taker).exists()
    assert ledger_rows() == before


@pytest.mark.django_db
def test_consuming_products_marks_them_opened_with_a_row_each(booster):
    player = UserFactory()
    items = product_grant(owner=player, product=booster, quantity=2)

    with ledger_operation(owners=[player], reason=LedgerReason.OPENING) as ledger:
        ledger.products_consume(owner=player, owned_products=items)

    assert not OwnedProduct.objects.filter(owner=player, opened__isnull=True).exists()
    rows = ItemEntry.objects.filter(owned_product__in=items, reason=LedgerReason.OPENING)
    assert sorted(rows.values_list("owned_product", "delta")) == [
        (items[0].pk, -1),
        (items[1].pk, -1),
    ]


# --- References: an operation that runs twice writes once ----------------------------------


@pytest.mark.django_db
def test_the_same_grant_run_twice_writes_once(booster):
    player = UserFactory()

    credits_grant(owner=player, amount=250, reference="grant:test:credits")
    product_grant(owner=player, product=booster, quantity=2, reference="grant:test:products")
    before = ledger_rows()
    with pytest.raises(LedgerOperationDone) as done:
        credits_grant(owner=player, amount=250, reference="grant:test:credits")
    with pytest.raises(LedgerOperationDone):
        product_grant(owner=player, product=booster, quantity=2, reference="grant:test:products")

    assert balance(player) == STARTING + 250
    assert OwnedProduct.objects.filter(owner=player).count() == 2
    assert ledger_rows() == before
    assert done.value.operation.credit_entries.get().delta == 250
    assert "grant:test:credits was already done" in str(done.value)


@pytest.mark.django_db
def test_an_operation_without_a_reference_that_writes_nothing_leaves_no_operation():
    player = UserFactory()
    wallet_for(owner=player)

    with ledger_operation(owners=[player], reason=LedgerReason.GRANT):
        pass

    assert not LedgerOperation.objects.exclude(reason=LedgerReason.STARTING_BALANCE).exists()


@pytest.mark.django_db
def test_a_double_submitted_admin_grant_form_grants_once(admin_client, booster):
    player = UserFactory()
    form = admin_client.get(reverse("admin:collection_wallet_grant")).context["form"]
    data = {
        "players": [player.pk],
        "credits": 100,
        "product": booster.pk,
        "quantity": 1,
        "reference": form["reference"].value(),
    }

    admin_client.post(reverse("admin:collection_wallet_grant"), data, follow=True)
    second = admin_client.post(reverse("admin:collection_wallet_grant"), data, follow=True)

    assert balance(player) == STARTING + 100
    assert OwnedProduct.objects.filter(owner=player).count() == 1
    shown = [str(message) for message in second.context["messages"]]
    assert shown == [f"This form was already sent for {player.username}: nothing granted again."]


# --- Real races on PostgreSQL --------------------------------------------------------------


@postgresql_only
@pytest.mark.parametrize("runners", [2, 4])
@pytest.mark.django_db(transaction=True)
def test_the_same_grant_run_concurrently_writes_once(runners):
    player = UserFactory()

    results = race(lambda: credits_grant(owner=player, amount=100, reference="grant:race"), runners)

    done = [result for result in results if isinstance(result, LedgerOperationDone)]
    assert len(done) == runners - 1, results
    assert balance(player) == STARTING + 100
    assert CreditEntry.objects.filter(owner=player, reason=LedgerReason.GRANT).count() == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_owner_operations_in_both_argument_orders_do_not_deadlock():
    # No wallets yet: the racers also open them, in the same order as they lock them.
    alice, bob = UserFactory(), UserFactory()
    runners = 6
    turn = threading.Lock()
    orders = iter([(alice, bob), (bob, alice)] * runners)

    def swap():
        with turn:
            sender, receiver = next(orders)
        for _ in range(5):
            with ledger_operation(owners=[sender, receiver], reason=LedgerReason.TRADE) as ledger:
                ledger.credits_move(sender=sender, receiver=receiver, amount=1)
        return "done"

    results = race(swap, runners)

    assert results == ["done"] * runners
    assert (balance(alice), balance(bob)) == (STARTING, STARTING)
    assert CreditEntry.objects.filter(reason=LedgerReason.TRADE).count() == 2 * 5 * runners
