"""Real races against PostgreSQL (docs/design.md, Things that are like money: every change of
ownership is one transaction that locks what it reads). On SQLite select_for_update does
nothing, so these run only in production mode."""

import queue
import threading

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import Sum

from collection.models import (
    BoosterRecipe,
    CardOwnership,
    ItemEntry,
    Opening,
    OwnedProduct,
    Product,
    ProductKind,
    Wallet,
)
from collection.services.ledger import wallet_for
from collection.services.opening import products_open
from collection.services.store import StoreError, product_grant, product_purchase
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="row locks need PostgreSQL; SQLite serialises writers instead",
    ),
    pytest.mark.django_db(transaction=True),
]


def race(work, runners=2) -> list:
    """Run ``work`` in ``runners`` threads released together; each result or exception."""
    barrier = threading.Barrier(runners)
    results: list = [None] * runners

    def run(index):
        try:
            barrier.wait()
            results[index] = work()
        except Exception as error:  # the test inspects what each thread met
            results[index] = error
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(index,)) for index in range(runners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_two_requests_opening_the_same_pack_at_once_add_its_cards_once(catalog):
    """A double click that reaches two web processes opens the booster once; both requests
    reveal the same cards."""
    player = UserFactory()
    booster = Product.objects.get(kind=ProductKind.BOOSTER_PACK)
    (item,) = product_grant(owner=player, product=booster, quantity=1)

    results = race(lambda: products_open(owner=player, owned_product_ids=[item.pk]))

    assert all(isinstance(result, list) for result in results), results
    (first,), (second,) = results
    assert [card.pk for card in first.cards] == [card.pk for card in second.cards]
    assert sorted([first.already_opened, second.already_opened]) == [False, True]
    assert Opening.objects.filter(owned_product=item).count() == 1
    owned = CardOwnership.objects.filter(owner=player).aggregate(total=Sum("quantity"))
    assert owned["total"] == 15
    card_ledger = ItemEntry.objects.filter(owner=player, card__isnull=False)
    assert card_ledger.aggregate(total=Sum("delta"))["total"] == 15
    assert ItemEntry.objects.filter(owned_product=item, delta=-1).count() == 1


def test_two_purchases_racing_for_the_last_credits_leave_exactly_one_winner(catalog):
    player = UserFactory()
    starter = Product.objects.filter(kind=ProductKind.STARTER_DECK).first()
    wallet = wallet_for(owner=player)
    Wallet.objects.filter(pk=wallet.pk).update(credits=starter.price)

    results = race(lambda: product_purchase(buyer=player, product=starter))

    winners = [result for result in results if isinstance(result, list)]
    losers = [result for result in results if isinstance(result, StoreError)]
    assert (len(winners), len(losers)) == (1, 1), results
    wallet.refresh_from_db()
    assert wallet.credits == 0
    assert OwnedProduct.objects.filter(owner=player).count() == 1


def test_two_players_opening_the_first_boosters_at_once_share_one_recipe(catalog):
    """The recipe a pack is drawn from is written by the first opening that needs it; two
    openings in two transactions write it once and both point at it."""
    booster = Product.objects.get(kind=ProductKind.BOOSTER_PACK)
    players = [UserFactory(), UserFactory()]
    items = [product_grant(owner=player, product=booster, quantity=1)[0] for player in players]
    openers = queue.SimpleQueue()
    for player, item in zip(players, items, strict=True):
        openers.put(
            lambda player=player, item=item: products_open(
                owner=player, owned_product_ids=[item.pk]
            )
        )

    def work():
        return openers.get()()

    results = race(work)

    assert all(isinstance(result, list) for result in results), results
    assert BoosterRecipe.objects.count() == 1
    assert set(Opening.objects.values_list("drawn_from", flat=True)) == {
        BoosterRecipe.objects.get().pk
    }
