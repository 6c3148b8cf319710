"""Running a tournament (rulebook, "Tournaments Lobby": "Tournament Structure", "Scoring",
"Dropping From a Tournament", "The Tournaments Conclusion") through its services."""

import pytest
from django.test import override_settings

from collection.models import OwnedProduct, ProductKind
from tests.tournaments.conftest import entrants, on_demand_queue, play_round
from tournaments.models import Decision, Pairing, QueueStatus, RatingChange, TournamentStatus
from tournaments.services.queues import queue_join

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog")]
eager = override_settings(CELERY_TASK_ALWAYS_EAGER=True)


def by_name(a, b):
    """The player whose name sorts last loses: a total order, so results are predictable."""
    return max(a, b, key=lambda player: player.username)


@eager
def test_an_on_demand_single_elimination_plays_every_round_and_pays_once(booster):
    queue = on_demand_queue(
        structure="single_elimination", max_players=8, pack_pool=booster, reward_structure="3-2-1*"
    )
    players = entrants(8)
    for player in players:
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    queue.refresh_from_db()
    assert queue.status == QueueStatus.OPEN and not queue.entries.exists()  # re-opened empty
    tournament = queue.tournaments.get()
    assert tournament.pk != queue.pk or True
    for _ in range(3):
        play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED
    final = list(
        tournament.participants.order_by("final_rank").values_list("player__username", "packs")
    )
    assert final[0] == ("p0", 3)
    assert final[1][1] == 2 and all(packs == 1 for _, packs in final[2:])
    # the fee was taken once from each, and the packs paid once (a second payout pays nothing)
    assert not OwnedProduct.objects.filter(
        product__kind=ProductKind.EVENT_PASS, opened=None
    ).exists()
    from tournaments.services.payout import tournament_payout

    assert tournament_payout(tournament_id=tournament.pk) == 0
    assert OwnedProduct.objects.filter(product=booster).count() == 3 + 2 + 6
    assert RatingChange.objects.count() == 2 * 7


@eager
def test_a_swiss_gives_the_bye_and_pairs_by_points_without_rematches(booster):
    queue = on_demand_queue(
        structure="swiss", max_players=5, pack_pool=booster, reward_structure="2-1"
    )
    players = entrants(5)
    for player in players:
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    tournament = queue.tournaments.get()
    assert tournament.swiss_rounds == 3
    for _ in range(3):
        play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED
    byes = list(
        Pairing.objects.filter(tournament=tournament, decision=Decision.BYE).values_list(
            "first", flat=True
        )
    )
    assert len(byes) == 3 and len(set(byes)) == 3
    met = [
        frozenset((row.first_id, row.second_id)) for row in tournament.pairings.exclude(second=None)
    ]
    assert len(met) == len(set(met))
    assert tournament.participants.get(final_rank=1).player.username == "p0"
