"""The helpers live and posted trades share (collection/trades/services/exchange.py): trade
items, what a player lacks of them, and moving them inside one ledger operation."""

import pytest

from collection.models import CardOwnership, ItemEntry, LedgerReason, OwnedProduct
from collection.services.ledger import LedgerError, ledger_operation
from collection.services.opening import products_open
from collection.trades.services.exchange import TradeItem, items_lacking, items_merged, items_move
from tests.factories import UserFactory
from tests.trades.posted_helpers import booster, cards, give_cards, give_products


def test_a_trade_item_is_a_card_or_a_product_never_both_or_neither():
    assert TradeItem(quantity=1, card_id=3).product_id is None
    with pytest.raises(ValueError, match="card or a product"):
        TradeItem(quantity=1)
    with pytest.raises(ValueError, match="card or a product"):
        TradeItem(quantity=1, card_id=3, product_id=4)


def test_merging_adds_repeats_together_cards_first_and_drops_nothing_left():
    merged = items_merged(
        [
            TradeItem(quantity=1, product_id=9),
            TradeItem(quantity=2, card_id=5),
            TradeItem(quantity=1, card_id=5),
            TradeItem(quantity=2, product_id=9),
            TradeItem(quantity=0, card_id=7),
        ]
    )
    assert merged == [TradeItem(quantity=3, card_id=5), TradeItem(quantity=3, product_id=9)]


@pytest.mark.django_db
def test_lacking_names_each_short_item_with_what_the_owner_has(catalog):
    owner = UserFactory()
    first, second = cards(2)
    give_cards(owner, {first.pk: 2})
    give_products(owner, booster(), 1)
    (opened,) = give_products_and_open(owner)

    lacking = items_lacking(
        owner=owner,
        items=[
            TradeItem(quantity=2, card_id=first.pk),
            TradeItem(quantity=1, card_id=second.pk),
            TradeItem(quantity=2, product_id=booster().pk),
        ],
    )

    assert lacking == [
        f"1 × {second.title} (has 0)",
        f"2 × {booster().name} (has 1 unopened)",
    ]
    assert opened.opened is not None
    assert items_lacking(owner=owner, items=[TradeItem(quantity=2, card_id=first.pk)]) == []


def give_products_and_open(owner):
    """One more booster, opened: an opened product is no longer a tradeable one."""
    give_products(owner, booster(), 1)
    newest = OwnedProduct.objects.filter(owner=owner).order_by("-pk").first()
    products_open(owner=owner, owned_product_ids=[newest.pk])
    newest.refresh_from_db()
    return [newest]


@pytest.mark.django_db
def test_moving_sends_cards_and_the_oldest_unopened_products(catalog):
    sender, receiver = UserFactory(), UserFactory()
    (card,) = cards(1)
    give_cards(sender, {card.pk: 3})
    give_products(sender, booster(), 3)
    oldest = list(OwnedProduct.objects.filter(owner=sender).order_by("acquired", "pk"))[:2]

    with ledger_operation(owners=[sender, receiver], reason=LedgerReason.TRADE) as ledger:
        items_move(
            ledger=ledger,
            sender=sender,
            receiver=receiver,
            items=[
                TradeItem(quantity=2, card_id=card.pk),
                TradeItem(quantity=2, product_id=booster().pk),
            ],
            note="test",
        )

    assert CardOwnership.objects.get(owner=sender, card=card).quantity == 1
    assert CardOwnership.objects.get(owner=receiver, card=card).quantity == 2
    assert set(OwnedProduct.objects.filter(owner=receiver)) == set(oldest)
    # One entry per owner for the card's copies, one per owner and product row.
    assert ItemEntry.objects.filter(reason=LedgerReason.TRADE, note="test").count() == 6


@pytest.mark.django_db
def test_moving_what_the_sender_lacks_writes_nothing(catalog):
    sender, receiver = UserFactory(username="Han"), UserFactory()
    first, second = cards(2)
    give_cards(sender, {first.pk: 1})
    entries_before = ItemEntry.objects.count()

    with (
        pytest.raises(LedgerError, match=f"Han no longer has 1 × {second.title}"),
        ledger_operation(owners=[sender, receiver], reason=LedgerReason.TRADE) as ledger,
    ):
        items_move(
            ledger=ledger,
            sender=sender,
            receiver=receiver,
            items=[
                TradeItem(quantity=1, card_id=first.pk),
                TradeItem(quantity=1, card_id=second.pk),
            ],
            note="test",
        )

    assert CardOwnership.objects.get(owner=sender, card=first).quantity == 1
    assert not CardOwnership.objects.filter(owner=receiver).exists()
    assert ItemEntry.objects.count() == entries_before
