"""Tournament queues (rulebook, "Tournaments Lobby": "Registering", "Event Passes",
"Joining a Tournament Queue", "Selecting Your Deck", "Tournament Start Triggers")."""

import re
from datetime import timedelta

import pytest
from django.test import TestCase, override_settings
from django.utils import timezone

from collection.models import LedgerOperation, OwnedProduct, ProductKind
from collection.services.store import product_grant
from tests.factories import UserFactory
from tests.tournaments.conftest import entrant, entrants, on_demand_queue, play_round
from tournaments.models import (
    Decision,
    QueueEntry,
    QueueStatus,
    TournamentQueue,
    TournamentStatus,
)
from tournaments.services.entry import EntryError
from tournaments.services.queues import (
    queue_join,
    queue_leave,
    scheduled_queues_start_sweep,
    schedules_extend,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog")]
eager = override_settings(CELERY_TASK_ALWAYS_EAGER=True)


def passes_held(player) -> int:
    return OwnedProduct.objects.filter(
        owner=player, product__kind=ProductKind.EVENT_PASS, opened=None
    ).count()


def test_an_unregistered_player_is_told_how_to_register():
    queue = on_demand_queue()
    player = entrant("Carol")
    player.registered_at = None
    player.save(update_fields=["registered_at"])
    with pytest.raises(EntryError, match="registered players"):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)


def test_joining_needs_the_event_passes_but_takes_none_until_the_start():
    queue = on_demand_queue(entry_passes=2)
    player = entrant("Carol", passes=1)
    with pytest.raises(EntryError, match="costs 2 event passes; you hold 1"):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    product_grant(
        owner=player,
        product=OwnedProduct.objects.filter(owner=player)
        .filter(product__kind=ProductKind.EVENT_PASS)
        .first()
        .product,
        quantity=1,
    )
    queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    assert passes_held(player) == 2
    queue_leave(player=player)  # leaving before the start costs nothing
    assert passes_held(player) == 2 and not queue.entries.exists()


def test_a_deck_must_be_the_players_own_and_valid():
    queue = on_demand_queue()
    carol, bob = entrant("Carol"), entrant("Bob", "sith")
    with pytest.raises(EntryError, match="your own decks"):
        queue_join(queue_id=queue.pk, player=carol, deck=bob.deck)
    with pytest.raises(EntryError, match="Select the deck"):
        queue_join(queue_id=queue.pk, player=carol, deck=None)
    carol.deck.entries.all().delete()
    with pytest.raises(EntryError, match="not a valid"):
        queue_join(queue_id=queue.pk, player=carol, deck=carol.deck)


def test_one_queue_or_tournament_at_a_time():
    first, second = on_demand_queue(title="First"), on_demand_queue(title="Second")
    player = entrant("Carol", passes=2)
    queue_join(queue_id=first.pk, player=player, deck=player.deck)
    with pytest.raises(EntryError, match="already waiting in the queue of First"):
        queue_join(queue_id=second.pk, player=player, deck=player.deck)


@eager
def test_a_deck_made_invalid_while_waiting_is_left_out_at_the_start_and_pays_nothing():
    queue = on_demand_queue(max_players=4)
    players = entrants(4)
    for player in players[:3]:
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    players[0].deck.entries.all().delete()
    queue_join(queue_id=queue.pk, player=players[3], deck=players[3].deck)
    # the cap was reached, but one entrant no longer qualifies: the queue goes on waiting
    assert not queue.tournaments.exists()
    assert set(queue.entries.values_list("player__username", flat=True)) == {"p1", "p2", "p3"}
    assert passes_held(players[0]) == 1 and passes_held(players[1]) == 1


@eager
def test_an_on_demand_queue_starts_at_its_cap_takes_each_fee_once_and_reopens_empty():
    queue = on_demand_queue(max_players=4)
    players = entrants(4)
    for player in players:
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    tournament = queue.tournaments.get()
    assert tournament.status == TournamentStatus.PLAYING and tournament.round == 1
    assert tournament.participants.count() == 4 and tournament.pairings.count() == 2
    assert all(passes_held(player) == 0 for player in players)
    assert (
        LedgerOperation.objects.filter(reference__startswith=f"entry:{tournament.pk}:").count() == 4
    )
    queue.refresh_from_db()
    assert queue.status == QueueStatus.OPEN and not queue.entries.exists()
    # the participants are busy now; a new player may join the re-opened queue
    with pytest.raises(EntryError, match=f"in tournament {tournament.pk}"):
        queue_join(queue_id=queue.pk, player=players[0], deck=players[0].deck)
    newcomer = entrant("Newcomer")
    queue_join(queue_id=queue.pk, player=newcomer, deck=newcomer.deck)


@eager
def test_the_locked_constructed_deck_is_the_one_played_whatever_changes_after_the_start():
    queue = on_demand_queue(max_players=2)
    carol, bob = entrant("Carol"), entrant("Bob", "sith")
    queue_join(queue_id=queue.pk, player=carol, deck=carol.deck)
    queue_join(queue_id=queue.pk, player=bob, deck=bob.deck)
    participant = queue.tournaments.get().participants.get(player=carol)
    frozen = participant.decklist
    carol.deck.entries.all().delete()
    participant.refresh_from_db()
    assert participant.decklist == frozen and frozen["deck"]
    match = queue.tournaments.get().pairings.get().match
    assert match.event and match.seats.get(player=carol).decklist == frozen


def scheduled(starts_in: timedelta, **rules) -> TournamentQueue:
    defaults = {"title": "Friday Night", "on_demand": False, "max_players": 8}
    return TournamentQueue.objects.create(
        **{**defaults, **rules}, starts_at=timezone.now() + starts_in
    )


def test_a_scheduled_queue_opens_thirty_minutes_before_its_start():
    queue = scheduled(timedelta(minutes=31))
    player = entrant("Carol")
    with pytest.raises(EntryError, match=f"Queue {queue.pk}, Friday Night, opens at"):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    queue.starts_at = timezone.now() + timedelta(minutes=29)
    queue.save(update_fields=["starts_at"])
    queue_join(queue_id=queue.pk, player=player, deck=player.deck)


@eager
def test_a_scheduled_tournament_starts_on_time_with_any_number_over_max():
    queue = scheduled(timedelta(minutes=10), max_players=2)
    players = entrants(5)
    for player in players:  # more than Max #: a scheduled event takes them all
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    assert scheduled_queues_start_sweep() == 0  # not yet
    assert scheduled_queues_start_sweep(now=queue.starts_at) == 1
    assert scheduled_queues_start_sweep(now=queue.starts_at) == 0  # safe to run again
    queue.refresh_from_db()
    assert queue.status == QueueStatus.STARTED
    tournament = queue.tournaments.get()
    assert tournament.participants.count() == 5 and tournament.pairings.count() == 3  # a bye


def packs_held(player, product) -> int:
    return OwnedProduct.objects.filter(owner=player, product=product, opened=None).count()


@eager
def test_a_scheduled_event_with_two_players_starts_on_time_and_pays_out(booster):
    """Tournament Start Triggers: "exactly on the date and time it is scheduled to start no
    matter how many players are currently in the queue"."""
    queue = scheduled(timedelta(minutes=10), pack_pool=booster, reward_structure="3-1")
    carol, dave = entrants(2)
    for player in (carol, dave):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)

    with TestCase.captureOnCommitCallbacks(execute=True):
        assert scheduled_queues_start_sweep(now=queue.starts_at) == 1
    tournament = queue.tournaments.get()
    assert tournament.pairings.get().match is not None  # the two play each other
    play_round(tournament, lambda a, b: dave)

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED and tournament.paid is not None
    assert (packs_held(carol, booster), packs_held(dave, booster)) == (3, 1)
    assert passes_held(carol) == passes_held(dave) == 0  # the entry fee was taken


@eager
@pytest.mark.parametrize("structure", ["swiss", "single_elimination", "cut_top8"])
def test_a_scheduled_event_with_one_player_starts_and_the_player_wins_by_byes(booster, structure):
    queue = scheduled(
        timedelta(minutes=10), structure=structure, pack_pool=booster, reward_structure="4-2-1"
    )
    carol = entrant("Carol")
    queue_join(queue_id=queue.pk, player=carol, deck=carol.deck)

    with TestCase.captureOnCommitCallbacks(execute=True):
        assert scheduled_queues_start_sweep(now=queue.starts_at) == 1

    tournament = queue.tournaments.get()
    assert tournament.status == TournamentStatus.CONCLUDED and tournament.paid is not None
    assert set(tournament.pairings.values_list("decision", flat=True)) == {Decision.BYE}
    assert tournament.pairings.filter(match__isnull=False).count() == 0
    participant = tournament.participants.get()
    assert participant.final_rank == 1 and participant.packs == 4
    assert packs_held(carol, booster) == 4 and passes_held(carol) == 0


def test_a_scheduled_event_nobody_joined_is_cancelled():
    queue = scheduled(timedelta(minutes=10))

    assert scheduled_queues_start_sweep(now=queue.starts_at) == 0

    queue.refresh_from_db()
    assert queue.status == QueueStatus.CANCELLED and queue.end_reason == "Cancelled: nobody joined."
    assert not queue.tournaments.exists()


def test_a_recurring_schedule_makes_its_queues_two_weeks_ahead_once():
    from datetime import time

    from tournaments.models import EventSchedule

    EventSchedule.objects.create(title="Weeknight Sprint", weekdays="0,2", start_time=time(19))
    monday = timezone.now().replace(year=2026, month=11, day=23, hour=12, minute=0, second=0)
    # Mondays and Wednesdays at 19:00; the Monday after next is more than two weeks ahead
    assert schedules_extend(now=monday) == 4
    assert schedules_extend(now=monday) == 0
    assert schedules_extend(now=monday + timedelta(hours=8)) == 1  # now that Monday's too
    starts = list(TournamentQueue.objects.order_by("starts_at").values_list("starts_at", flat=True))
    assert [start.day for start in starts] == [23, 25, 30, 2, 7]
    assert all(start.hour == 19 for start in starts)


def test_an_unknown_or_closed_queue_is_refused_with_a_message():
    player = entrant("Carol")
    with pytest.raises(EntryError, match="There is no such tournament queue"):
        queue_join(queue_id=987654, player=player, deck=player.deck)
    queue = on_demand_queue(status=QueueStatus.CLOSED)
    with pytest.raises(EntryError, match=f"Queue {queue.pk}, .*, is closed"):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    with pytest.raises(EntryError, match="not waiting"):
        queue_leave(player=UserFactory(username="Nobody"))


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (QueueStatus.OPEN, "has started; it takes no more players."),
        (QueueStatus.CANCELLED, "was cancelled; it takes no players."),
    ],
)
def test_joining_a_queue_that_started_or_was_cancelled_says_so(status, message):
    """The lobby listed the queue when the player chose it: its start time has come (before
    the sweep starts it), or it was cancelled."""
    queue = scheduled(timedelta(seconds=-1), status=status)
    player = entrant("Carol")

    with pytest.raises(EntryError, match=f"Queue {queue.pk}, Friday Night, {message}"):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    assert not QueueEntry.objects.exists()


def test_leaving_a_queue_that_started_says_the_tournament_has_begun():
    queue = on_demand_queue(max_players=2)
    carol, dave = entrant("Carol"), entrant("Dave")
    queue_join(queue_id=queue.pk, player=carol, deck=carol.deck)
    queue_join(queue_id=queue.pk, player=dave, deck=dave.deck)
    tournament = queue.tournaments.get()

    with pytest.raises(EntryError, match=f"you play in tournament {tournament.pk} now"):
        queue_leave(player=carol)
    assert tournament.participants.filter(player=carol).exists()


def test_leaving_locks_the_queue_before_the_entry_as_a_start_does():
    """A tournament's start holds its queue, then deletes the entries: leaving takes the two
    locks in the same order, so a leave racing a start waits for it instead of deadlocking."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if not connection.features.has_select_for_update:
        pytest.skip("row locks are PostgreSQL's")
    queue = on_demand_queue()
    player = entrant("Carol")
    queue_join(queue_id=queue.pk, player=player, deck=player.deck)

    with CaptureQueriesContext(connection) as queries:
        queue_leave(player=player)

    locking = [query["sql"] for query in queries.captured_queries if "FOR UPDATE" in query["sql"]]
    # Each statement locks the rows of the one table it reads (a join would lock both at once).
    outer_tables = [re.findall(r'FROM "(\w+)"', sql.split(" WHERE ")[0]) for sql in locking]
    assert outer_tables == [[TournamentQueue._meta.db_table], [QueueEntry._meta.db_table]]
    assert not any(" JOIN " in sql.split(" WHERE ")[0] for sql in locking)
