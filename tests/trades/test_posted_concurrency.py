"""Real races for one posted trade against PostgreSQL (docs/design.md, Things that are like money:
"Two players accepting the same posted trade at once: exactly one succeeds"). On SQLite
select_for_update does nothing, so these run only in production mode."""

import pytest
from django.conf import settings
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from collection.models import CardOwnership, ItemEntry, LedgerOperation, OwnedProduct
from collection.trades.models import PostedTrade, PostedTradeStatus
from collection.trades.services.posted import (
    PostedTradeError,
    posted_trade_accept,
    posted_trade_create,
    posted_trade_withdraw,
)
from tests.concurrency import race
from tests.factories import UserFactory
from tests.trades.posted_helpers import (
    booster,
    card_item,
    cards,
    give_cards,
    give_products,
    product_item,
)

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="row locks need PostgreSQL; SQLite serialises writers instead",
    ),
    pytest.mark.django_db(transaction=True),
]


def assert_ledger_holds():
    """Every holding is the sum of its ledger entries, and the trade created nothing."""
    for row in CardOwnership.objects.all():
        entries = ItemEntry.objects.filter(owner=row.owner_id, card=row.card_id)
        assert entries.aggregate(total=Sum("delta"))["total"] == row.quantity
    for item in OwnedProduct.objects.filter(opened__isnull=True):
        entries = ItemEntry.objects.filter(owner=item.owner_id, owned_product=item)
        assert entries.aggregate(total=Sum("delta"))["total"] == 1


@pytest.fixture
def posted(catalog):
    """Han offers 2 copies and a booster for 1 copy that every taker holds."""
    han = UserFactory(username="Han")
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 2})
    give_products(han, booster(), 1)
    trade = posted_trade_create(
        poster=han,
        offer=[card_item(offered, 2), product_item(booster(), 1)],
        want=[card_item(wanted, 1)],
    )
    return han, offered, wanted, trade


def takers(wanted, count):
    players = [UserFactory() for _ in range(count)]
    for player in players:
        give_cards(player, {wanted.pk: 1})
    return players


@pytest.mark.parametrize("runners", [2, 5])
def test_players_accepting_one_trade_at_once_leave_exactly_one_winner(posted, runners):
    han, offered, wanted, trade = posted
    players = takers(wanted, runners)
    cards_before = CardOwnership.objects.aggregate(total=Sum("quantity"))["total"]

    results = race(
        *[
            lambda player=player: posted_trade_accept(trade_id=trade.pk, taker=player)
            for player in players
        ]
    )

    winners = [
        player
        for player, result in zip(players, results, strict=True)
        if not isinstance(result, Exception)
    ]
    losers = [result for result in results if isinstance(result, Exception)]
    assert len(winners) == 1, results
    assert all(isinstance(error, PostedTradeError) for error in losers), losers
    assert {error.message for error in losers} == {
        f"Posted trade {trade.pk} was just accepted by another player; nothing moved."
    }
    (winner,) = winners
    trade.refresh_from_db()
    assert trade.status == PostedTradeStatus.ACCEPTED and trade.accepted_by == winner
    assert CardOwnership.objects.get(owner=winner, card=offered).quantity == 2
    assert CardOwnership.objects.get(owner=han, card=wanted).quantity == 1
    assert OwnedProduct.objects.get(product=booster()).owner == winner
    assert CardOwnership.objects.aggregate(total=Sum("quantity"))["total"] == cards_before
    assert OwnedProduct.objects.count() == 1
    assert LedgerOperation.objects.filter(reference=f"ptrade:{trade.pk}").count() == 1
    assert_ledger_holds()


def test_an_acceptance_racing_a_withdrawal_does_one_or_the_other(posted):
    han, offered, wanted, trade = posted
    (leia,) = takers(wanted, 1)

    accepted, withdrawn = race(
        lambda: posted_trade_accept(trade_id=trade.pk, taker=leia),
        lambda: posted_trade_withdraw(trade_id=trade.pk, poster=han),
    )

    trade.refresh_from_db()
    if isinstance(accepted, Exception):
        assert accepted.message == (
            f"Posted trade {trade.pk} was just withdrawn by its poster; nothing moved."
        )
        assert trade.status == PostedTradeStatus.WITHDRAWN
        assert CardOwnership.objects.get(owner=han, card=offered).quantity == 2
        assert not LedgerOperation.objects.filter(reference=f"ptrade:{trade.pk}").exists()
    else:
        assert isinstance(withdrawn, PostedTradeError), withdrawn
        assert trade.status == PostedTradeStatus.ACCEPTED
        assert CardOwnership.objects.get(owner=leia, card=offered).quantity == 2
    assert_ledger_holds()


def test_an_acceptance_while_the_offer_is_traded_away_elsewhere_moves_nothing(posted):
    """The poster's offered cards leave in another trade at the same moment: exactly one of
    the two trades completes; the other moves nothing and says why."""
    han, offered, wanted, trade = posted
    elsewhere = posted_trade_create(
        poster=han, offer=[card_item(offered, 2)], want=[card_item(wanted, 1)]
    )
    leia, chewie = takers(wanted, 2)
    cards_before = CardOwnership.objects.aggregate(total=Sum("quantity"))["total"]

    first, second = race(
        lambda: posted_trade_accept(trade_id=trade.pk, taker=leia),
        lambda: posted_trade_accept(trade_id=elsewhere.pk, taker=chewie),
    )

    refused = [result for result in (first, second) if isinstance(result, Exception)]
    assert len(refused) == 1, (first, second)
    assert refused[0].message.startswith("Han no longer has everything offered")
    statuses = sorted(PostedTrade.objects.values_list("status", flat=True))
    assert statuses == [PostedTradeStatus.ACCEPTED, PostedTradeStatus.OPEN]
    winner = leia if refused[0] is second else chewie
    loser = chewie if winner is leia else leia
    assert CardOwnership.objects.get(owner=winner, card=offered).quantity == 2
    assert not CardOwnership.objects.filter(owner=loser, card=offered, quantity__gt=0).exists()
    assert CardOwnership.objects.get(owner=loser, card=wanted).quantity == 1
    assert CardOwnership.objects.aggregate(total=Sum("quantity"))["total"] == cards_before
    assert_ledger_holds()


def test_the_loser_of_a_race_through_the_pages_is_told_on_the_board(posted):
    """Two players press Accept at the same instant: the winner sees the delivery window, the
    loser the board with the message, and nothing of the loser's moves."""
    han, offered, wanted, trade = posted
    players = takers(wanted, 2)
    clients = [Client() for _ in players]
    for client, player in zip(clients, players, strict=True):
        client.force_login(player)
    accept = reverse("trades:posted_accept", args=[trade.pk])

    responses = race(*[lambda client=client: client.post(accept) for client in clients])

    assert [response.status_code for response in responses] == [302, 302]
    assert sorted(response["Location"] for response in responses) == [
        reverse("trades:posted_board"),
        reverse("trades:posted_delivery", args=[trade.pk]),
    ]
    ((loser_client, loser),) = [
        (client, player)
        for client, player, response in zip(clients, players, responses, strict=True)
        if response["Location"] == reverse("trades:posted_board")
    ]
    board = loser_client.get(reverse("trades:posted_board")).content.decode()
    assert f"Posted trade {trade.pk} was just accepted by another player; nothing moved." in board
    assert CardOwnership.objects.get(owner=loser, card=wanted).quantity == 1
    assert not CardOwnership.objects.filter(owner=loser, card=offered, quantity__gt=0).exists()
    assert_ledger_holds()
