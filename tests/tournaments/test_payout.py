"""Paying a concluded tournament (docs/design.md, "Things that are like money": "A reward payout
that runs twice pays once"): once however often it runs, once after a worker died half way,
once when two run at the same instant, and never an item made or lost on the way."""

import pytest
from django.conf import settings
from django.db.models import Sum

from collection.models import (
    CreditEntry,
    ItemEntry,
    LedgerOperation,
    LedgerReason,
    OwnedProduct,
    Product,
    ProductKind,
)
from collection.services.ledger import ledger_operation
from tests.concurrency import race
from tests.factories import UserFactory
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.services.payout import tournament_payout

# A concluded eight-player tournament paying 5-4-3-2-1*: every place earns packs.
PACKS_BY_PLACE = (5, 4, 3, 2, 1, 1, 1, 1)


def concluded_tournament() -> Tournament:
    """A tournament as its conclusion leaves it: places and packs set, nothing paid yet."""
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
    tournament = Tournament.objects.create(
        title="Daily",
        structure="single_elimination",
        max_players=8,
        pack_pool=booster,
        reward_structure="5-4-3-2-1*",
        seed=7,
        status=TournamentStatus.CONCLUDED,
    )
    for place, packs in enumerate(PACKS_BY_PLACE, start=1):
        Participant.objects.create(
            tournament=tournament,
            player=UserFactory(),
            seed=place,
            rating_start=1500,
            final_rank=place,
            packs=packs,
        )
    return tournament


def packs_held(tournament: Tournament) -> dict[int, int]:
    return {
        participant.player_id: OwnedProduct.objects.filter(
            owner_id=participant.player_id, product=tournament.pack_pool
        ).count()
        for participant in tournament.participants.all()
    }


def assert_paid_once(tournament: Tournament) -> None:
    """Each player holds exactly their place's packs, paid by one operation of theirs, and
    the ledger accounts for every pack: one entry per pack, all from payouts."""
    participants = list(tournament.participants.order_by("final_rank"))
    assert list(packs_held(tournament).values()) == list(PACKS_BY_PLACE)
    for participant in participants:
        reference = f"payout:{tournament.pk}:{participant.player_id}"
        (operation,) = LedgerOperation.objects.filter(reference=reference)
        entries = ItemEntry.objects.filter(operation=operation)
        assert entries.count() == participant.packs
        assert {entry.owner_id for entry in entries} == {participant.player_id}
    rewards = ItemEntry.objects.filter(
        reason=LedgerReason.REWARD, owned_product__product=tournament.pack_pool
    )
    made = OwnedProduct.objects.filter(product=tournament.pack_pool).count()
    assert rewards.aggregate(total=Sum("delta"))["total"] == made == sum(PACKS_BY_PLACE)
    assert rewards.values("owned_product").distinct().count() == made
    tournament.refresh_from_db()
    assert tournament.paid is not None


@pytest.mark.django_db
def test_a_payout_run_twice_pays_once(catalog):
    tournament = concluded_tournament()

    assert tournament_payout(tournament_id=tournament.pk) == 8
    assert tournament_payout(tournament_id=tournament.pk) == 0

    assert_paid_once(tournament)


@pytest.mark.django_db
def test_a_payout_whose_worker_died_half_way_pays_the_rest_once(catalog):
    tournament = concluded_tournament()
    # The first three players were paid, each in their own committed operation, when the
    # worker died: the ledger holds exactly what such a run leaves, and the tournament is
    # not marked paid.
    for participant in tournament.participants.filter(final_rank__lte=3).select_related("player"):
        with ledger_operation(
            owners=[participant.player],
            reason=LedgerReason.REWARD,
            reference=f"payout:{tournament.pk}:{participant.player_id}",
        ) as ledger:
            ledger.products_add(
                owner=participant.player, product=tournament.pack_pool, quantity=participant.packs
            )
    tournament.refresh_from_db()
    assert tournament.paid is None

    assert tournament_payout(tournament_id=tournament.pk) == 5

    assert_paid_once(tournament)


@pytest.mark.django_db
def test_a_tournament_not_concluded_pays_nothing(catalog):
    tournament = concluded_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.PLAYING)

    assert tournament_payout(tournament_id=tournament.pk) == 0

    assert not OwnedProduct.objects.filter(product=tournament.pack_pool).exists()
    assert not LedgerOperation.objects.filter(reference__startswith="payout:").exists()


@pytest.mark.skipif(settings.EMBEDDED, reason="row locks race only on PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_payouts_at_the_same_instant_pay_once():
    tournament = concluded_tournament()

    results = race(
        lambda: tournament_payout(tournament_id=tournament.pk),
        lambda: tournament_payout(tournament_id=tournament.pk),
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    assert sum(results) == 8  # each player paid by one of the two, never by both
    assert_paid_once(tournament)


def test_the_payout_pays_credits_by_place_once_besides_the_packs(catalog):
    """Rulebook, "The Tournaments Conclusion": rewards by performance; the credits by place
    come from the earnings' rates table, each player's once however often the payout runs."""
    from collection.earnings.models import Earning

    tournament = concluded_tournament()
    places = {p.player_id: p.final_rank for p in tournament.participants.all()}

    tournament_payout(tournament_id=tournament.pk)
    tournament_payout(tournament_id=tournament.pk)

    by_place = {
        places[e.player_id]: e.credits for e in Earning.objects.filter(note__contains="tournament")
    }
    assert by_place == {1: 100, 2: 60, 3: 40, 4: 40}  # the top half of eight
    assert not Earning.objects.exclude(card=None).exists()  # a field of eight: no promo
    winner = next(player_id for player_id, place in places.items() if place == 1)
    assert CreditEntry.objects.filter(owner_id=winner, reason="reward").count() == 1
