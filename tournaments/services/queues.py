"""Tournament queues (rulebook, "Types of Tournament Queues", "Joining a Tournament Queue",
"Tournament Start Triggers"): joining and leaving, and the start of the tournament.

Nothing is taken from a player while they wait: the entry fee (event passes, and a Sealed
event's products) is taken when the event begins, in one ledger operation per player
(``entry:<tournament>:<player>``), after checking again that they hold it and that their deck
is still valid. A player who no longer qualifies is left out with a message, and pays nothing.
"""

import secrets
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from collection.decks.models import Deck
from collection.models import LedgerReason, ProductKind
from collection.services.ledger import ledger_operation, owners_lock
from game.selectors import deck_decklist
from tcgsite.accounts.models import User
from tcgsite.realtime import send_on_commit, user_group
from tournaments import fragments, pairing
from tournaments.models import (
    EventSchedule,
    Participant,
    QueueEntry,
    QueueStatus,
    Tournament,
    TournamentKind,
    TournamentQueue,
    TournamentStatus,
    TournamentStructure,
)
from tournaments.selectors import current_participation, queue_closed_reason
from tournaments.services import sealed
from tournaments.services.entry import EntryError, deck_problem, fee_problem, unopened
from tournaments.services.running import lobby_changed, round_begin
from tournaments.sprint_badges import names_refresh_after_commit

# Recurring schedules create their queues this far ahead: the Events Calendar shows the next
# two weeks.
SCHEDULE_AHEAD = timedelta(days=14)


def queue_join(*, queue_id: int, player: User, deck: Deck | None) -> QueueEntry:
    """Wait in a queue with ``deck`` (Constructed); an on-demand queue that this fills starts
    its tournament at once."""
    with transaction.atomic():
        User.objects.select_for_update().get(pk=player.pk)
        queue = TournamentQueue.objects.select_for_update().filter(pk=queue_id).first()
        if queue is None:
            raise EntryError("There is no such tournament queue.")
        if closed := queue_closed_reason(queue, timezone.now()):
            raise EntryError(closed)
        _refuse_if_entered(player)
        for problem in (fee_problem(queue, player), deck_problem(queue, player, deck)):
            if problem:
                raise EntryError(problem)
        entry = QueueEntry.objects.create(
            queue=queue,
            player=player,
            deck=deck if queue.kind == TournamentKind.CONSTRUCTED else None,
        )
        names_refresh_after_commit([player.pk])
        lobby_changed()
        if queue.on_demand and queue.entries.count() >= queue.max_players:
            tournament_start(queue)
    return entry


def queue_leave(*, player: User) -> TournamentQueue:
    """Leave the queue you wait in, before it starts: it costs nothing."""
    with transaction.atomic():
        # The queue's lock before the entry's, the order a tournament's start takes them in
        # (it holds the queue, then deletes the entries): the other order could deadlock.
        queue_id = QueueEntry.objects.filter(player=player).values_list("queue_id", flat=True)
        queue = TournamentQueue.objects.select_for_update().filter(pk__in=queue_id[:1]).first()
        entry = (
            # Unordered: the entries' default order joins their queue, which FOR UPDATE
            # would lock along with them, in whatever order the server reads the two.
            QueueEntry.objects.select_for_update()
            .filter(player=player, queue=queue)
            .order_by()
            .first()
            if queue is not None
            else None
        )
        if entry is None:
            playing = current_participation(player=player)
            if playing is not None:
                raise EntryError(
                    f"Your queue has started: you play in tournament {playing.tournament_id} "
                    "now. Drop from Tournament (the Tournament Timer's button) leaves it."
                )
            raise EntryError("You are not waiting in a tournament queue.")
        entry.delete()
        names_refresh_after_commit([player.pk])
        lobby_changed()
    return queue


def tournament_start(queue: TournamentQueue, *, simulated: bool = False) -> Tournament | None:
    """Begin a tournament with the players waiting in ``queue`` (the caller holds its lock):
    those who still qualify pay their entry and become its participants. An on-demand queue
    left short by players who no longer qualify goes on waiting. A scheduled one starts with
    however many there are (rulebook, "Tournament Start Triggers": "exactly on the date and
    time it is scheduled to start no matter how many players are currently in the queue"), a
    lone player winning by byes; only with nobody at all is it cancelled. A ``simulated``
    tournament opens no match: the computer decides its pairings
    (``running.simulated_round_record``)."""
    entries = list(queue.entries.select_related("player", "deck").order_by("joined", "pk"))
    # Held until the commit: what each player holds can't change between the check and the
    # taking of the fee.
    owners_lock(owners=[entry.player for entry in entries])
    qualified = []
    for entry in entries:
        problem = fee_problem(queue, entry.player) or deck_problem(queue, entry.player, entry.deck)
        if problem:
            entry.delete()
            names_refresh_after_commit([entry.player_id])
            _tell(entry.player, f"You left the queue of {queue.title}: {problem}")
        else:
            qualified.append(entry)
    needed = queue.max_players if queue.on_demand else 1
    if len(qualified) < needed:
        if not queue.on_demand:
            queue.status = QueueStatus.CANCELLED
            queue.end_reason = "Cancelled: nobody joined."
            queue.save(update_fields=["status", "end_reason"])
        lobby_changed()
        return None
    tournament = Tournament.objects.create(
        **queue.rules(),
        queue=queue,
        seed=secrets.randbits(63),
        status=TournamentStatus.PLAYING,
        simulated=simulated,
    )
    ranked = sorted(qualified, key=lambda entry: -entry.player.rating)
    for seed, entry in enumerate(ranked, start=1):
        participant = Participant(
            tournament=tournament,
            player=entry.player,
            seed=seed,
            rating_start=entry.player.rating,
        )
        if tournament.kind == TournamentKind.CONSTRUCTED:
            participant.deck = entry.deck
            participant.deck_name = entry.deck.name
            participant.decklist = deck_decklist(deck=entry.deck)
        participant.save()
        _entry_take(tournament, participant)
    QueueEntry.objects.filter(pk__in=[entry.pk for entry in qualified]).delete()
    if tournament.structure in (TournamentStructure.SWISS, TournamentStructure.CUT_TO_TOP_8):
        tournament.swiss_rounds = tournament.rounds or pairing.swiss_round_count(len(qualified))
    else:
        by_seed = list(tournament.participants.order_by("seed").values_list("pk", flat=True))
        tournament.bracket = list(pairing.seeded_bracket(by_seed))
        tournament.bracket_from_round = 1
    tournament.save(update_fields=["swiss_rounds", "bracket", "bracket_from_round"])
    if not queue.on_demand:
        queue.status = QueueStatus.STARTED
        queue.save(update_fields=["status"])
    # Nobody is told that it begins: each player is called to their match of round one (a
    # Sealed event's players to their pool's deck building) as it is paired.
    if tournament.kind == TournamentKind.SEALED:
        sealed.building_begin(tournament)
    else:
        round_begin(tournament)
    lobby_changed()
    return tournament


def scheduled_queues_start_sweep(now: datetime | None = None) -> int:
    """Start every scheduled queue whose time has come; how many. Safe to run twice."""
    now = now or timezone.now()
    due = TournamentQueue.objects.filter(
        on_demand=False, status=QueueStatus.OPEN, starts_at__lte=now
    ).values_list("pk", flat=True)
    started = 0
    for queue_id in due:
        with transaction.atomic():
            queue = TournamentQueue.objects.select_for_update().get(pk=queue_id)
            if queue.status == QueueStatus.OPEN:
                started += tournament_start(queue) is not None
    return started


def schedules_extend(now: datetime | None = None) -> int:
    """Create the scheduled queues of every active recurring schedule for the two weeks ahead;
    how many were new. Safe to run twice: a schedule makes one queue per start time."""
    now = now or timezone.now()
    created = 0
    for schedule in EventSchedule.objects.filter(active=True):
        days = {int(day) for day in schedule.weekdays.split(",") if day.strip().isdigit()}
        for offset in range(SCHEDULE_AHEAD.days + 1):
            date = (now + timedelta(days=offset)).date()
            starts_at = datetime.combine(date, schedule.start_time, tzinfo=UTC)
            if date.weekday() not in days or not now < starts_at <= now + SCHEDULE_AHEAD:
                continue
            _, new = TournamentQueue.objects.get_or_create(
                schedule=schedule,
                starts_at=starts_at,
                defaults={**schedule.rules(), "on_demand": False},
            )
            created += new
    return created


def _refuse_if_entered(player: User) -> None:
    waiting = QueueEntry.objects.filter(player=player).select_related("queue").first()
    if waiting is not None:
        raise EntryError(
            f"You are already waiting in the queue of {waiting.queue.title}: leave it first."
        )
    playing = current_participation(player=player)
    if playing is not None:
        raise EntryError(
            f"You are in tournament {playing.tournament_id}: one tournament at a time."
        )


def _entry_take(tournament: Tournament, participant: Participant) -> None:
    """Take the entry fee: the event passes (used up) and a Sealed event's products, opened
    into the player's pool."""
    player = participant.player
    with ledger_operation(
        owners=[player], reason=LedgerReason.ENTRY, reference=f"entry:{tournament.pk}:{player.pk}"
    ) as ledger:
        passes = list(unopened(player, ProductKind.EVENT_PASS)[: tournament.entry_passes])
        if len(passes) < tournament.entry_passes:
            raise EntryError(f"{player.username} no longer holds the event passes to enter.")
        if passes:
            ledger.products_consume(
                owner=player, owned_products=passes, note=f"Entry to tournament {tournament.pk}"
            )
        if tournament.kind == TournamentKind.SEALED:
            sealed.pool_open(tournament, participant, ledger)


def _tell(player: User, text: str) -> None:
    send_on_commit(
        group=user_group(player.pk),
        message_type="lobby.toast",
        payload={"sender_id": None, "html": fragments.notice_toast(text)},
    )
