"""Every read the tournament pages need."""

from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Window
from django.db.models.functions import Rank
from django.utils import timezone

from collection.decks.models import Deck
from tcgsite.accounts.models import User
from tournaments import event_info, pairing, rating_chart, rewards, standings
from tournaments.models import (
    EventRules,
    Pairing,
    Participant,
    QueueEntry,
    QueueStatus,
    RatingChange,
    Tournament,
    TournamentKind,
    TournamentQueue,
    TournamentStatus,
    TournamentStructure,
)
from tournaments.services.entry import deck_problem, fee_problem, play_format_of

RUNNING = (TournamentStatus.DECK_BUILDING, TournamentStatus.PLAYING)


def _still_playing(participants: QuerySet[Participant]) -> QuerySet[Participant]:
    """Places in a tournament still running that their player has not left (dropped, or
    knocked out of an elimination bracket)."""
    return participants.filter(tournament__status__in=RUNNING, dropped=None, eliminated_round=None)


def current_participation(*, player: User) -> Participant | None:
    """The player's place in a tournament still running that they have not left, if any."""
    return _still_playing(
        Participant.objects.select_related("tournament").filter(player=player)
    ).first()


def with_running_tournament(users: QuerySet[User]) -> QuerySet[User]:
    """The players, each with the running tournament they still play in (or None) as
    ``running_tournament_id``: joined to the load of the signed-in player (tournaments.apps),
    so that the Tournament Timer of a player in no tournament costs a page no query."""
    playing = _still_playing(Participant.objects.filter(player=OuterRef("pk")))
    return users.annotate(running_tournament_id=Subquery(playing.values("tournament_id")[:1]))


def known_not_playing(player: User) -> bool:
    """Whether the load of this request's player found them in no running tournament."""
    return getattr(player, "running_tournament_id", 0) is None


def queue_is_open(queue: TournamentQueue, now: datetime) -> bool:
    """Whether players may join ``queue`` now: an on-demand queue always, a scheduled one from
    30 minutes before its start until it starts."""
    if queue.status != QueueStatus.OPEN:
        return False
    if queue.on_demand:
        return True
    return queue.opens_at <= now < queue.starts_at


def queue_closed_reason(queue: TournamentQueue, now: datetime) -> str | None:
    """Why players can't join ``queue`` now (it started, was cancelled, or is not open yet):
    what a player is told whose window or request still named it. None while it is open."""
    if queue_is_open(queue, now):
        return None
    named = f"Queue {queue.pk}, {queue.title},"
    if queue.status == QueueStatus.STARTED or (
        queue.status == QueueStatus.OPEN and now >= queue.starts_at
    ):
        started = queue.tournaments.order_by("-pk").first()
        under_way = f": tournament {started.pk} is under way" if started else ""
        return f"{named} has started{under_way}; it takes no more players."
    if queue.status == QueueStatus.CANCELLED:
        return f"{named} was cancelled; it takes no players."
    if queue.status == QueueStatus.OPEN:
        return f"{named} opens at {queue.opens_at:%H:%M} UTC."
    return f"{named} is closed."


def queue_unavailable(*, queue_id: int) -> tuple[str, bool]:
    """Why the lobby does not list queue ``queue_id``, and whether there is such a queue."""
    queue = TournamentQueue.objects.filter(pk=queue_id).first()
    if queue is None:
        return "There is no such tournament queue.", False
    return queue_closed_reason(queue, timezone.now()) or "", True


def lobby_lists() -> dict:
    """The Tournaments Lobby's two lists: the queues waiting (scheduled ones from 30 minutes
    before their start) with who waits in each, and the tournaments under way with how many
    still play. Three queries, however many queues and tournaments."""
    now = timezone.now()
    waiting = Prefetch(
        "entries", queryset=QueueEntry.objects.select_related("player").order_by("joined", "pk")
    )
    queues = [
        queue
        for queue in TournamentQueue.objects.filter(status=QueueStatus.OPEN)
        .select_related("pack_pool", "play_format")
        .prefetch_related(waiting)
        if queue_is_open(queue, now)
    ]
    for queue in queues:
        queue.rounds_planned = rounds_planned(queue, queue.max_players)
    started = list(
        Tournament.objects.filter(status__in=RUNNING)
        .select_related("pack_pool", "play_format")
        .annotate(
            players=Count("participants"),
            playing=Count(
                "participants",
                filter=Q(participants__dropped=None, participants__eliminated_round=None),
            ),
        )
        .order_by("pk")
    )
    for tournament in started:
        tournament.status_label = tournament_status_label(tournament)
        tournament.rounds_planned = rounds_planned(tournament, tournament.players)
    return {"queues": queues, "started": started}


# The Tournaments Lobby's pages (rulebook, "Understanding the Tournament Information",
# "Tournament Information", "Joining a Tournament Queue", "Verifying You Are in the Tournament").

TIE_BREAKERS = (
    "tournament points",
    "opponents' points",
    "opponents' opponents' points",
    "rating at the start",
)
PLACE_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else PLACE_SUFFIXES.get(number % 10, "th")
    return f"{number}{suffix}"


@dataclass(frozen=True)
class RewardTier:
    """The packs one place, or a group of places, earns in a field of a given size."""

    places: str
    packs: int
    starred: bool


def reward_tiers(text: str, players: int) -> list[RewardTier]:
    """What ``text`` pays in a field of ``players``, place by place for the plain tiers and
    by group for the starred ones (``tournaments.rewards``: with two starred tiers the first
    pays the rest of the top half, the last the rest of all players); empty for no
    structure, or one staff mistyped."""
    try:
        structure = rewards.parse_reward_structure(text)
    except rewards.InvalidRewardStructure:
        return []
    plain = [tier for tier in structure.tiers if not tier.starred]
    starred = [tier for tier in structure.tiers if tier.starred]
    groups = [(place, place, tier) for place, tier in enumerate(plain[:players], start=1)]
    after = len(groups) + 1
    if len(starred) == rewards.MAX_STARRED_TIERS and after <= (players + 1) // 2:
        groups.append((after, (players + 1) // 2, starred[0]))
        after = (players + 1) // 2 + 1
    if starred and after <= players:
        groups.append((after, players, starred[-1]))
    return [
        RewardTier(
            places=ordinal(first) if first == last else f"{ordinal(first)}–{ordinal(last)}",
            packs=tier.packs,
            starred=tier.starred,
        )
        for first, last, tier in groups
        if tier.packs
    ]


def rounds_planned(rules: EventRules, players: int) -> int:
    """The rounds a field of ``players`` plays: the Swiss rounds set (or ceil(log2)), the
    bracket's rounds in single elimination, both for a Cut to Top 8."""
    swiss = rules.rounds or pairing.swiss_round_count(players)
    bracket = pairing.swiss_round_count(players)
    if rules.structure == TournamentStructure.SWISS:
        return swiss
    if rules.structure == TournamentStructure.SINGLE_ELIMINATION:
        return bracket
    return swiss + pairing.swiss_round_count(min(players, 8))


def tournament_status_label(tournament: Tournament) -> str:
    if tournament.status == TournamentStatus.DECK_BUILDING:
        return "Deck building"
    if tournament.status == TournamentStatus.PLAYING:
        return f"Round {tournament.round}"
    return tournament.get_status_display()


@dataclass
class TournamentLine:
    """A participant as Get Info and the standings page show them."""

    participant: Participant
    place: int | None = None
    wins: int = 0
    losses: int = 0
    byes: int = 0
    points: int | None = None
    opponents_points: int | None = None
    opponents_opponents_points: int | None = None
    opponent: str = ""
    note: str = ""


@dataclass
class TournamentInfo:
    tournament: Tournament
    lines: list[TournamentLine]
    swiss: bool
    tiers: list[RewardTier]
    rounds: int
    tie_breakers: tuple[str, ...] = TIE_BREAKERS
    status_label: str = ""

    @property
    def running(self) -> bool:
        return self.tournament.status in RUNNING

    @property
    def concluded(self) -> bool:
        return self.tournament.status == TournamentStatus.CONCLUDED


def tournament_info(*, tournament_id: int) -> TournamentInfo | None:
    """A started tournament's rules, its participants with their records and current
    opponents, and its standings: in Swiss order while its Swiss rounds run (the keys of
    ``tournaments.standings``), by how far each went in a bracket, by final place once it
    has concluded. Three queries, whatever the field."""
    tournament = (
        Tournament.objects.select_related("pack_pool", "play_format")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        return None
    participants = {
        each.pk: each for each in tournament.participants.select_related("player").order_by("seed")
    }
    rows = list(tournament.pairings.order_by("round", "table"))
    lines = {pk: TournamentLine(participant=each) for pk, each in participants.items()}
    swiss_rows = [
        row
        for row in rows
        if tournament.bracket_from_round is None or row.round < tournament.bracket_from_round
    ]
    for row in rows:
        if row.decided is None:
            continue
        if row.second_id is None:
            lines[row.first_id].byes += 1
            continue
        lines[row.winner_id].wins += 1
        lines[row.second_id if row.winner_id == row.first_id else row.first_id].losses += 1
    swiss = tournament.structure != TournamentStructure.SINGLE_ELIMINATION
    swiss_rank = {}
    if swiss:
        entrants = [
            standings.Entrant(player=pk, rating=each.rating_start)
            for pk, each in participants.items()
        ]
        results = [
            standings.Result(
                round=row.round,
                winner=row.winner_id,
                loser=row.second_id if row.winner_id == row.first_id else row.first_id,
            )
            for row in swiss_rows
            if row.decided is not None and row.second_id is not None
        ]
        byes = [
            standings.Bye(round=row.round, player=row.first_id)
            for row in swiss_rows
            if row.decided is not None and row.second_id is None
        ]
        for standing in standings.swiss_standings(entrants, results, byes):
            line = lines[standing.player]
            line.points = standing.points
            line.opponents_points = standing.opponents_points
            line.opponents_opponents_points = standing.opponents_opponents_points
            swiss_rank[standing.player] = standing.rank
    if tournament.status in RUNNING:
        for row in rows:
            if row.round != tournament.round:
                continue
            if row.second_id is None:
                lines[row.first_id].opponent = "Bye"
                continue
            for me, them in ((row.first_id, row.second_id), (row.second_id, row.first_id)):
                name = participants[them].player.username
                if row.decided is None:
                    lines[me].opponent = f"{name} (table {row.table})"
                else:
                    lines[me].opponent = f"{name}: {'won' if row.winner_id == me else 'lost'}"
    for line in lines.values():
        each = line.participant
        if each.dropped is not None:
            line.note = "Dropped"
        elif each.eliminated_round is not None:
            line.note = f"Out in round {each.eliminated_round}"
    if tournament.status == TournamentStatus.CONCLUDED:
        ordered = sorted(lines.values(), key=lambda line: line.participant.final_rank or 0)
        for line in ordered:
            line.place = line.participant.final_rank
    else:
        ordered = sorted(
            lines.values(),
            key=lambda line: (
                line.participant.eliminated_round is not None,
                -(line.participant.eliminated_round or 0),
                swiss_rank.get(line.participant.pk, line.participant.seed),
            ),
        )
        for place, line in enumerate(ordered, start=1):
            line.place = place
    return TournamentInfo(
        tournament=tournament,
        lines=ordered,
        swiss=swiss,
        tiers=reward_tiers(tournament.reward_structure, len(participants)),
        rounds=rounds_planned(tournament, len(participants)),
        status_label=tournament_status_label(tournament),
    )


def queue_info(*, queue_id: int) -> dict | None:
    """A queue listed in the lobby, with who waits in it and what its rewards mean for a full
    field; None for a queue the lobby does not list."""
    queue = (
        TournamentQueue.objects.select_related("pack_pool", "play_format")
        .filter(pk=queue_id)
        .first()
    )
    if queue is None or not queue_is_open(queue, timezone.now()):
        return None
    waiting = [entry.player.username for entry in queue.entries.select_related("player")]
    return {
        "queue": queue,
        "waiting": waiting,
        "tiers": reward_tiers(queue.reward_structure, queue.max_players),
        "rounds": rounds_planned(queue, queue.max_players),
    }


def queue_join_choices(*, queue_id: int, player: User) -> dict | None:
    """What the Join window shows: the queue's entry requirements, whether ``player`` meets
    them, and their decks, each valid or not in its format (rulebook, "Selecting Your
    Deck"); None for a queue that is not open."""
    found = queue_info(queue_id=queue_id)
    if found is None:
        return None
    queue = found["queue"]
    decks = []
    if queue.kind == TournamentKind.CONSTRUCTED:
        for deck in player.decks.order_by("name", "pk"):
            problem = deck_problem(queue, player, deck)
            decks.append({"deck": deck, "valid": problem is None, "problem": problem})
    play_format = play_format_of(queue) if queue.kind == TournamentKind.CONSTRUCTED else None
    return {
        **found,
        "fee_problem": fee_problem(queue, player),
        "decks": decks,
        "play_format": play_format,
        "waiting_in": QueueEntry.objects.filter(player=player).first(),
    }


def queue_waiting(*, player: User) -> dict | None:
    """The queue ``player`` waits in and everyone waiting in it, or None."""
    entry = QueueEntry.objects.filter(player=player).select_related("queue").first()
    if entry is None:
        return None
    names = list(
        QueueEntry.objects.filter(queue_id=entry.queue_id)
        .order_by("joined", "pk")
        .values_list("player__username", flat=True)
    )
    return {"queue": entry.queue, "names": names}


@dataclass(frozen=True)
class TournamentTimer:
    """The rulebook's Tournament Timer ("Between Rounds"): what is left of the round (or of
    Sealed deck building), its number and the tournament's."""

    tournament_id: int
    round: int
    label: str
    ends: datetime | None
    # The player's match of the round while it is being played; None between rounds.
    match_id: int | None = None
    building: bool = False

    @property
    def left_ms(self) -> int | None:
        if self.ends is None:
            return None
        return max(0, int((self.ends - timezone.now()).total_seconds() * 1000))

    @property
    def left_text(self) -> str:
        seconds = round((self.left_ms or 0) / 1000)
        return f"{seconds // 60}:{seconds % 60:02d}"


def tournament_timer(*, player: User) -> TournamentTimer | None:
    """The timer of a player still in a running tournament, or None: knocked out, dropped or
    concluded, the timer is gone (rulebook, "The Tournaments Conclusion")."""
    if known_not_playing(player):
        return None
    participant = current_participation(player=player)
    if participant is None:
        return None
    tournament = participant.tournament
    building = tournament.status == TournamentStatus.DECK_BUILDING
    match_id = (
        None
        if building
        else Pairing.objects.filter(
            Q(first=participant) | Q(second=participant),
            tournament=tournament,
            round=tournament.round,
            decided=None,
        )
        .exclude(match=None)
        .values_list("match_id", flat=True)
        .first()
    )
    return TournamentTimer(
        tournament_id=tournament.pk,
        round=tournament.round,
        label="Deck building" if building else f"Round {tournament.round}",
        ends=tournament.building_ends if building else tournament.round_ends,
        match_id=match_id,
        building=building,
    )


# The Events Calendar (rulebook, "Types of Tournament Queues": "You can find a list of upcoming
# scheduled tournaments in the Events Calendar").


@dataclass(frozen=True)
class CalendarEvent:
    """An upcoming scheduled event as the Events Calendar and its feed show it."""

    queue: TournamentQueue
    rounds: int
    ends_at: datetime
    facts: tuple[tuple[str, str], ...]
    tiers: list[RewardTier]
    open_now: bool

    @property
    def day(self) -> date:
        return self.queue.starts_at.astimezone(UTC).date()

    @property
    def description(self) -> str:
        return event_info.feed_description(self.queue, self.facts, self.tiers)


def calendar_events(*, now: datetime) -> list[CalendarEvent]:
    """The scheduled queues still to start, soonest first, with their facts; one query."""
    queues = (
        TournamentQueue.objects.filter(on_demand=False, status=QueueStatus.OPEN, starts_at__gt=now)
        .select_related("pack_pool", "play_format")
        .order_by("starts_at", "pk")
    )
    events = []
    for queue in queues:
        rounds = rounds_planned(queue, queue.max_players)
        ends_at = event_info.event_end(queue, rounds=rounds)
        events.append(
            CalendarEvent(
                queue=queue,
                rounds=rounds,
                ends_at=ends_at,
                facts=event_info.event_facts(queue, rounds=rounds, ends_at=ends_at),
                tiers=reward_tiers(queue.reward_structure, queue.max_players),
                open_now=queue_is_open(queue, now),
            )
        )
    return events


# Player Ratings (rulebook, "K": "the weight a tournament will have on your Player Rating"): the
# players who have played a rated match, and each one's rating history.

RATINGS_PER_PAGE = 50


@dataclass(frozen=True)
class Leaderboard:
    """A page of rated players (each annotated with ``place``, ``matches``, ``wins`` and
    ``losses``), and
    where the viewer stands if they are rated."""

    page: Page
    viewer_place: int | None
    viewer_page: int | None


def _rated_players():
    return User.objects.filter(Exists(RatingChange.objects.filter(player=OuterRef("pk"))))


def rating_leaderboard(*, viewer: User, page: str | None) -> Leaderboard:
    """Rated players by rating, best first (equal ratings share a place, in name order); three
    queries, whatever the page."""
    players = (
        _rated_players()
        .select_related("preferences")
        .annotate(
            place=Window(Rank(), order_by=F("rating").desc()),
            matches=Count("rating_changes"),
            wins=Count(
                "rating_changes",
                filter=Q(rating_changes__pairing__winner__player=F("pk")),
            ),
        )
        .annotate(losses=F("matches") - F("wins"))
        .order_by("-rating", "username")
    )
    shown = Paginator(players, RATINGS_PER_PAGE).get_page(page)
    rating, name = viewer.rating, viewer.username
    standing = _rated_players().aggregate(
        rated=Count("pk", filter=Q(pk=viewer.pk)),
        above=Count("pk", filter=Q(rating__gt=rating)),
        before=Count("pk", filter=Q(rating__gt=rating) | Q(rating=rating, username__lt=name)),
    )
    if not standing["rated"]:
        return Leaderboard(page=shown, viewer_place=None, viewer_page=None)
    return Leaderboard(
        page=shown,
        viewer_place=standing["above"] + 1,
        viewer_page=standing["before"] // RATINGS_PER_PAGE + 1,
    )


@dataclass(frozen=True)
class RatingLine:
    """A rated match in a rating history: the change, who it was against, and its result."""

    change: RatingChange
    opponent: User
    won: bool

    @property
    def difference(self) -> int:
        return self.change.after - self.change.before


@dataclass(frozen=True)
class RatingHistory:
    player: User
    page: Page
    lines: list[RatingLine]
    chart: rating_chart.Chart | None
    matches: int
    wins: int
    peak: int | None

    @property
    def losses(self) -> int:
        return self.matches - self.wins


def rating_history(*, player: User, page: str | None) -> RatingHistory:
    """``player``'s rated matches, newest first and a page at a time, with the chart of all of
    them and their record; three queries, however long the history."""
    points = list(
        RatingChange.objects.filter(player=player)
        .order_by("created", "pk")
        .values_list("created", "before", "after", "pairing__winner__player")
    )
    changes = (
        RatingChange.objects.filter(player=player)
        .select_related("pairing__first__player", "pairing__second__player")
        .order_by("-created", "-pk")
    )
    shown = Paginator(changes, RATINGS_PER_PAGE).get_page(page)
    lines = []
    for change in shown:
        row = change.pairing
        mine, theirs = (row.first, row.second)
        if mine.player_id != player.pk:
            mine, theirs = theirs, mine
        lines.append(
            RatingLine(change=change, opponent=theirs.player, won=row.winner_id == mine.pk)
        )
    ratings = [rating for _, before, after, _ in points for rating in (before, after)]
    return RatingHistory(
        player=player,
        page=shown,
        lines=lines,
        chart=rating_chart.rating_chart(
            [rating_chart.Point(when, before, after) for when, before, after, _ in points]
        ),
        matches=len(points),
        wins=sum(1 for *_, winner in points if winner == player.pk),
        peak=max(ratings, default=None),
    )


def deck_chosen(*, deck_id: int | None) -> Deck | None:
    """The deck a Join form names, whoever owns it: joining refuses another player's."""
    return None if deck_id is None else Deck.objects.filter(pk=deck_id).first()
