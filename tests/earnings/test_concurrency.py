"""Races against PostgreSQL (docs/design.md, "Things that are like money": a reward payout that
runs twice pays once). On SQLite select_for_update does nothing, so these run only in
production mode."""

from datetime import date

import pytest
from django.conf import settings

from collection.earnings.facts import GameFacts, MatchFacts, SeatFacts
from collection.earnings.models import Earning, EarningKind, MatchTally
from collection.earnings.rates import rates
from collection.earnings.services import match_earnings_pay
from collection.models import LedgerOperation
from collection.services.ledger import wallet_for
from tests.concurrency import race
from tests.factories import UserFactory

RACERS = 4

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="races need PostgreSQL; SQLite serialises writers instead",
    ),
    pytest.mark.django_db(transaction=True),
]


def won(number: int, winner, loser) -> MatchFacts:
    return MatchFacts(
        match_id=number,
        day=date(2026, 12, 7),
        mode="casual",
        games=(GameFacts(turns=14, decided_by_play=True),),
        seats=(
            SeatFacts(player_id=winner.pk, side=0, archetype="jedi", computer_level="", won=True),
            SeatFacts(player_id=loser.pk, side=1, archetype="sith", computer_level="", won=False),
        ),
    )


def test_finishing_tasks_racing_pay_the_same_win_once():
    carol, bob = UserFactory(), UserFactory()
    start = wallet_for(owner=carol).credits

    results = race(*[lambda: match_earnings_pay(match=won(7, carol, bob))] * RACERS)

    assert not [result for result in results if isinstance(result, Exception)], results
    assert sorted(len(result) for result in results) == [0] * (RACERS - 1) + [2]
    assert wallet_for(owner=carol).credits == start + rates().wins.credits
    assert LedgerOperation.objects.filter(reference=f"win:7:{carol.pk}").count() == 1
    assert MatchTally.objects.filter(match_number=7).count() == 2


def test_wins_finishing_at_once_never_pay_past_the_daily_cap():
    carol = UserFactory()
    cap = rates().wins.daily_cap
    for number in range(1, cap):
        match_earnings_pay(match=won(number, carol, UserFactory()))
    last_two = [won(100 + index, carol, UserFactory()) for index in range(2)]

    race(*[lambda facts=facts: match_earnings_pay(match=facts) for facts in last_two])

    assert Earning.objects.filter(player=carol, kind=EarningKind.WIN).count() == cap
    assert MatchTally.objects.filter(player=carol, won=True, win_paid=False).count() == 1
