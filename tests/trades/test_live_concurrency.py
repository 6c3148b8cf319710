"""Live trades racing for real against PostgreSQL (docs/design.md, Things that are like money; the
rulebook's "Trade Screen": the swap happens once both confirm). On SQLite select_for_update
does nothing, so these run only in production mode."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from collection.models import LedgerOperation, LedgerReason
from collection.services.ledger import ledger_operation
from collection.trades.models import TradeSession, TradeSessionStatus, TradeSessionSwap
from collection.trades.selectors.live import live_offer
from collection.trades.services.live import (
    REQUEST_WAIT,
    Confirmed,
    LiveTradeError,
    live_trade_accept,
    live_trade_answer,
    live_trade_confirm,
    live_trade_offer_change,
    live_trade_request,
)
from tests.concurrency import race
from tests.factories import UserFactory
from tests.trades.live_helpers import (
    assert_ledger_matches_holdings,
    cards,
    copies,
    give_cards,
    holdings,
    in_lobby,
    open_session,
)

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="row locks need PostgreSQL; SQLite serialises writers instead",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def accepted_trade(catalog):
    """Carol gets one of Bob's two copies, Bob one of Carol's; both have accepted."""
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    card, other = cards(2)
    give_cards(bob, {card: 2})
    give_cards(carol, {other: 1})
    session = open_session(carol, bob)
    for giver, item in ((bob, card), (carol, other)):
        live_trade_offer_change(
            session_id=session.pk, player=carol, giver_id=giver.pk, delta=1, card_id=item.pk
        )
    session.refresh_from_db()
    version = session.offer_version
    for player in (carol, bob):
        live_trade_accept(session_id=session.pk, player=player, offer_version=version)
    return carol, bob, card, other, session, version


def test_both_confirming_at_the_same_instant_swap_once(accepted_trade):
    carol, bob, card, other, session, version = accepted_trade
    before = holdings(carol, bob)

    results = race(
        lambda: live_trade_confirm(session_id=session.pk, player=carol, offer_version=version),
        lambda: live_trade_confirm(session_id=session.pk, player=bob, offer_version=version),
    )

    assert all(isinstance(result, Confirmed) for result in results), results
    # One of the two confirmed first and waited; the other's confirmation made the swap.
    assert sorted(result.swap is not None for result in results) == [False, True]
    assert TradeSessionSwap.objects.filter(session=session).count() == 1
    assert LedgerOperation.objects.filter(reason=LedgerReason.TRADE).count() == 1
    assert (copies(carol, card), copies(bob, card)) == (1, 1)
    assert (copies(carol, other), copies(bob, other)) == (0, 1)
    assert holdings(carol, bob) == before
    assert_ledger_matches_holdings(carol, bob)


def test_a_double_submitted_confirmation_swaps_once(accepted_trade):
    carol, bob, card, other, session, version = accepted_trade
    live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)
    before = holdings(carol, bob)

    results = race(
        *[
            lambda: live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)
            for _ in range(3)
        ]
    )

    assert all(isinstance(result, Confirmed) for result in results), results
    assert sorted(result.again for result in results) == [False, True, True]
    assert {result.swap.pk for result in results} == {
        TradeSessionSwap.objects.get(session=session).pk
    }
    assert (copies(carol, card), copies(bob, card)) == (1, 1)
    assert holdings(carol, bob) == before
    assert_ledger_matches_holdings(carol, bob)


def test_a_trade_confirmed_while_the_cards_are_traded_away_elsewhere_moves_nothing(
    accepted_trade,
):
    """Bob's two copies leave in another trade at the moment Carol confirms: either that
    trade or the swap runs first, never both with the same copies."""
    carol, bob, card, other, session, version = accepted_trade
    dave = UserFactory(username="Dave")
    live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)
    before = holdings(carol, bob, dave)

    def elsewhere():
        with ledger_operation(
            owners=[bob, dave], reason=LedgerReason.TRADE, reference="trade:elsewhere"
        ) as ledger:
            ledger.cards_move(sender=bob, receiver=dave, counts={card.pk: 2})

    results = race(
        lambda: live_trade_confirm(session_id=session.pk, player=carol, offer_version=version),
        elsewhere,
    )

    confirmed, _ = results
    assert holdings(carol, bob, dave) == before
    assert_ledger_matches_holdings(carol, bob, dave)
    if isinstance(confirmed, LiveTradeError):
        # The other trade won: nothing of the swap moved, and the session is still usable.
        assert "Bob no longer has" in confirmed.message
        assert copies(dave, card) == 2 and copies(carol, card) == 0
        assert copies(carol, other) == 1
        offer = live_offer(session_id=session.pk, viewer=carol)
        assert offer.is_open and not offer.you_accepted and len(offer.you_get) == 1
        assert not TradeSessionSwap.objects.exists()
    else:
        # The swap won: the other trade found one copy and was refused whole.
        assert isinstance(results[1], Exception), results
        assert copies(carol, card) == 1 and copies(dave, card) == 0


def test_the_other_trade_first_then_the_confirmation_is_refused_and_the_session_goes_on(
    accepted_trade,
):
    carol, bob, card, other, session, version = accepted_trade
    dave = UserFactory(username="Dave")
    live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)
    with ledger_operation(owners=[bob, dave], reason=LedgerReason.TRADE) as ledger:
        ledger.cards_move(sender=bob, receiver=dave, counts={card.pk: 2})

    (refused,) = race(
        lambda: live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)
    )

    assert isinstance(refused, LiveTradeError) and "Bob no longer has" in refused.message
    assert copies(carol, other) == 1 and copies(carol, card) == 0
    # Still usable: take the card out, accept again and swap what is left.
    live_trade_offer_change(
        session_id=session.pk, player=carol, giver_id=bob.pk, delta=-1, card_id=card.pk
    )
    session.refresh_from_db()
    for player in (carol, bob):
        live_trade_accept(session_id=session.pk, player=player, offer_version=session.offer_version)
    for player in (carol, bob):
        live_trade_confirm(
            session_id=session.pk, player=player, offer_version=session.offer_version
        )
    assert copies(bob, other) == 1
    assert_ledger_matches_holdings(carol, bob, dave)


def test_a_request_asked_again_while_the_first_is_answered_leaves_one_outcome(catalog):
    """Carol asks Bob again just as Bob accepts her first request: one of the two wins, no
    deadlock, and never two sessions."""
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    in_lobby(carol)
    in_lobby(bob)
    first = live_trade_request(asker=carol, partner=bob)
    TradeSession.objects.filter(pk=first.pk).update(
        created_at=timezone.now() - REQUEST_WAIT - timedelta(seconds=1)
    )

    asked, answered = race(
        lambda: live_trade_request(asker=carol, partner=bob),
        lambda: live_trade_answer(session_id=first.pk, player=bob, accept=True),
    )

    assert all(isinstance(result, (TradeSession, LiveTradeError)) for result in (asked, answered))
    statuses = sorted(TradeSession.objects.values_list("status", flat=True))
    if isinstance(answered, TradeSession):
        assert "You are trading with Bob" in asked.message
        assert statuses == [TradeSessionStatus.OPEN]
    else:
        assert isinstance(asked, TradeSession)
        assert statuses == [TradeSessionStatus.DECLINED, TradeSessionStatus.REQUESTED]
