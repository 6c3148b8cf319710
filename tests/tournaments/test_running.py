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
    # p0 wins every match it plays; another player who never met it may tie on points, and
    # the tie-breakers order the two
    from tournaments.services.running import swiss_order

    order = swiss_order(tournament)
    assert (
        list(tournament.participants.order_by("final_rank").values_list("pk", flat=True)) == order
    )
    points = {each.player: each.points for each in _standings(tournament)}
    assert points[tournament.participants.get(player__username="p0").pk] == 9
    assert points[order[0]] == 9


def start(count: int, **rules):
    queue = on_demand_queue(max_players=count, **rules)
    for player in entrants(count):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    return queue.tournaments.get()


@eager
def test_a_dropped_player_loses_the_match_in_play_is_never_paired_again_and_keeps_the_reward(
    booster,
):
    from django.test import TestCase

    from tournaments.services.running import tournament_drop

    tournament = start(4, structure="swiss", pack_pool=booster, reward_structure="1*")
    row = tournament.pairings.select_related("first__player", "second__player").first()
    quitter, opponent = row.first, row.second
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_drop(player=quitter.player)
    row.refresh_from_db()
    assert row.winner_id == opponent.pk and row.decision == Decision.DROPPED
    assert row.match.status == "finished" and row.match.winner == opponent.player
    for _ in range(2):
        play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED
    later = tournament.pairings.filter(round__gt=1)
    assert not later.filter(first=quitter).exists() and not later.filter(second=quitter).exists()
    quitter.refresh_from_db()
    assert quitter.final_rank is not None and quitter.packs == 1
    assert OwnedProduct.objects.filter(owner=quitter.player, product=booster).count() == 1


@eager
def test_at_the_end_of_the_round_time_an_unfinished_match_goes_to_the_player_with_more_clock(
    settings,
):
    from datetime import timedelta

    from django.test import TestCase
    from django.utils import timezone

    from game.models import MatchSeat
    from tournaments.services.running import rounds_due_sweep

    tournament = start(2, structure="swiss", rounds=1)
    row = tournament.pairings.select_related("first__player", "second__player").get()
    MatchSeat.objects.filter(match=row.match, player=row.first.player).update(clock_left_ms=1000)
    MatchSeat.objects.filter(match=row.match, player=row.second.player).update(clock_left_ms=5000)
    assert rounds_due_sweep() == 0  # the round has time left
    type(tournament).objects.filter(pk=tournament.pk).update(
        round_ends=timezone.now() - timedelta(seconds=1)
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert rounds_due_sweep() == 1
        assert rounds_due_sweep() == 0
    row.refresh_from_db()
    # the clock running is the first player's: both had plenty, the second more at the end
    assert row.decision == Decision.TIME and row.winner_id == row.second_id
    assert row.match.status == "finished"
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED


@eager
def test_a_cut_to_top_8_plays_its_swiss_rounds_then_a_seeded_bracket_of_the_top_eight(booster):
    tournament = start(
        10, structure="cut_top8", rounds=2, pack_pool=booster, reward_structure="4-2"
    )
    for _ in range(2):
        play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.round == 3 and tournament.bracket_from_round == 3
    bracket_players = {
        pk for row in tournament.pairings.filter(round=3) for pk in (row.first_id, row.second_id)
    }
    from tournaments.services.running import swiss_order

    assert bracket_players == set(swiss_order(tournament)[:8])
    for _ in range(3):
        play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED
    ranked = list(tournament.participants.order_by("final_rank"))
    assert ranked[0].player.username == "p0" and ranked[0].packs == 4 and ranked[1].packs == 2
    # the two left out of the cut finish ninth and tenth, in their Swiss order
    assert {each.pk for each in ranked[8:]} == set(swiss_order(tournament)[8:])


def _standings(tournament):
    from tournaments.models import Participant
    from tournaments.services.running import _swiss_history
    from tournaments.standings import swiss_standings

    participants = {each.pk: each for each in Participant.objects.filter(tournament=tournament)}
    return swiss_standings(*_swiss_history(tournament, participants))


@eager
def test_a_simulated_tournament_opens_no_match_and_takes_the_computers_results_a_round_at_once(
    booster,
):
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from game.models import Match
    from tournaments.models import TournamentQueue
    from tournaments.services.queues import tournament_start
    from tournaments.services.running import TournamentError, simulated_round_record

    queue = on_demand_queue(
        on_demand=False,
        starts_at=timezone.now() + timedelta(minutes=10),
        pack_pool=booster,
        reward_structure="2-1*",
    )
    players = entrants(8)
    for player in players:
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    with transaction.atomic():
        tournament = tournament_start(
            TournamentQueue.objects.select_for_update().get(pk=queue.pk), simulated=True
        )
    assert tournament.simulated and not Match.objects.exists()
    with pytest.raises(TournamentError, match="each undecided pairing"):
        simulated_round_record(tournament_id=tournament.pk, winners={})
    from django.test import TestCase

    while tournament.status == TournamentStatus.PLAYING:
        rows = tournament.pairings.filter(round=tournament.round, decided=None)
        with TestCase.captureOnCommitCallbacks(execute=True):  # the payout, after the last
            simulated_round_record(
                tournament_id=tournament.pk, winners={row.pk: row.first_id for row in rows}
            )
        tournament.refresh_from_db()
    assert tournament.round == 3 and tournament.paid is not None
    assert not Match.objects.exists()
    assert RatingChange.objects.count() == 2 * 12
    assert sum(change.after - change.before for change in RatingChange.objects.all()) == 0
    assert OwnedProduct.objects.filter(product=booster).count() == 2 + 7


@eager
def test_only_a_simulated_tournament_takes_the_computers_results():
    from tournaments.services.running import TournamentError, simulated_round_record

    tournament = start(2, structure="swiss", rounds=1)
    row = tournament.pairings.get()
    with pytest.raises(TournamentError, match="simulated"):
        simulated_round_record(tournament_id=tournament.pk, winners={row.pk: row.first_id})


@eager
def test_a_player_with_a_bye_is_told_so():
    """A bye has no match to call its player to: they are told instead."""
    from django.test import TestCase

    from tcgsite.realtime import user_group

    queue = on_demand_queue(max_players=3)
    players = entrants(3)
    with TestCase.captureOnCommitCallbacks() as callbacks:
        for player in players:
            queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    tournament = queue.tournaments.get()
    bye = tournament.pairings.get(second=None).first.player
    told = [
        callback.args[2]["html"]
        for callback in callbacks
        if getattr(callback, "args", ()) and callback.args[0] == user_group(bye.pk)
    ]
    assert any(
        "round 1: you have a bye, counted as a win." in html and "data-lobby-return" in html
        for html in told
    )


@eager
def test_combined_styles_play_the_swiss_at_single_game_and_the_top_8_best_of_three(booster):
    """Tournament Style: "Single Game, Match Play, or a combination of the two": the cut's
    matches are played at the cut's style, with its game clock and its round time."""
    from datetime import timedelta

    from django.utils import timezone

    tournament = start(4, structure="cut_top8", rounds=1, style=1, cut_style=3)
    swiss_match = tournament.pairings.get(round=1, table=1).match
    assert (swiss_match.structure, swiss_match.time_limit) == (1, 30 * 60)
    assert tournament.round_ends - timezone.now() <= timedelta(minutes=40)

    play_round(tournament, by_name)

    tournament.refresh_from_db()
    assert tournament.round == 2 and tournament.bracket_from_round == 2
    cut_matches = [row.match for row in tournament.pairings.filter(round=2)]
    assert [(match.structure, match.time_limit) for match in cut_matches] == [(3, 60 * 60)] * 2
    assert tournament.round_ends - timezone.now() > timedelta(minutes=69)
    for _ in range(2):
        play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED
    final = tournament.pairings.get(round=3).match
    assert final.structure == 3 and final.games.exclude(winner_seat=None).count() == 2
    assert tournament.full_title.endswith(
        "(Standard Constructed, Cut to Top 8, Single Game, top 8 Match Play (2-3))"
    )
