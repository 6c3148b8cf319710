"""The reads of the Sprint Leaderboard (rulebook, "Sprint Tournaments": "Cumulative rankings
will be posted after each event on the Sprint Leaderboard")."""

from dataclasses import dataclass, field
from datetime import date, datetime

from django.db.models import Count
from django.utils import timezone

from tcgsite.accounts.models import User
from tournaments import sprints_calendar
from tournaments.models import (
    MedalColor,
    QueueStatus,
    SprintMedal,
    SprintScore,
    SprintSettings,
    TournamentQueue,
)

PAST_MONTHS_SHOWN = 12


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    player: User
    points: int
    events: int
    wins: int
    medal: str = ""  # the colour these points win (or would, were the medals given today)
    medal_counts: dict[str, int] = field(default_factory=dict)  # the medals won so far


@dataclass
class MedalMonth:
    month: date
    winners: dict[str, list[SprintMedal]] = field(default_factory=dict)


@dataclass(frozen=True)
class Leaderboard:
    month: date
    rules: SprintSettings
    rows: list[LeaderboardRow]
    medals_on: date
    resets_on: date
    medals_given: bool
    past: list[MedalMonth]


def sprint_leaderboard(*, today: date | None = None) -> Leaderboard:
    """The standings of the month the board shows on ``today`` (UTC), its rules and dates, and
    the Sprint Winner Medals of the months before, newest first. Four queries."""
    today = today or timezone.now().date()
    month = sprints_calendar.leaderboard_month(today)
    rules = SprintSettings.objects.order_by("pk").first() or SprintSettings()
    scores = list(
        SprintScore.objects.filter(month=month, events__gt=0)
        .select_related("player")
        .order_by("-points", "-wins", "player__username")
    )
    medals = list(
        SprintMedal.objects.filter(
            month__gte=_months_before(month, PAST_MONTHS_SHOWN), month__lte=month
        )
        .select_related("player")
        .order_by("-month", "-points", "player__username")
    )
    given = {medal.player_id: medal.color for medal in medals if medal.month == month}
    medals_given = bool(given)
    if not medals_given:
        given = sprints_calendar.medal_colors(
            [sprints_calendar.Standing(score.player_id, score.points) for score in scores],
            silver_level=rules.silver_level,
            bronze_level=rules.bronze_level,
        )
    won: dict[int, dict[str, int]] = {}
    for player_id, color, count in (
        SprintMedal.objects.filter(player_id__in=[score.player_id for score in scores])
        .values_list("player_id", "color")
        .annotate(count=Count("pk"))
        .order_by()
    ):
        won.setdefault(player_id, {})[color] = count
    ranks = sprints_calendar.ranked([score.points for score in scores])
    rows = [
        LeaderboardRow(
            rank=rank,
            player=score.player,
            points=score.points,
            events=score.events,
            wins=score.wins,
            medal=given.get(score.player_id, ""),
            medal_counts=won.get(score.player_id, {}),
        )
        for rank, score in zip(ranks, scores, strict=True)
    ]
    return Leaderboard(
        month=month,
        rules=rules,
        rows=rows,
        medals_on=sprints_calendar.last_weekday(month),
        resets_on=sprints_calendar.first_weekday(sprints_calendar.next_month(month)),
        medals_given=medals_given,
        past=_by_month([medal for medal in medals if medal.month != month]),
    )


def coming_sprint(*, now: datetime | None = None) -> TournamentQueue | None:
    """The next scheduled Sprint still to start, or None; one query."""
    return (
        TournamentQueue.objects.filter(
            sprint=True,
            on_demand=False,
            status=QueueStatus.OPEN,
            starts_at__gt=now or timezone.now(),
        )
        .select_related("pack_pool", "play_format")
        .order_by("starts_at", "pk")
        .first()
    )


def _by_month(medals: list[SprintMedal]) -> list[MedalMonth]:
    months: dict[date, MedalMonth] = {}
    for medal in medals:
        month = months.setdefault(medal.month, MedalMonth(medal.month))
        month.winners.setdefault(medal.color, []).append(medal)
    for month in months.values():
        month.winners = {
            color: month.winners[color] for color in MedalColor.values if color in month.winners
        }
    return list(months.values())


def _months_before(month: date, count: int) -> date:
    for _ in range(count):
        month = sprints_calendar.previous_month(month)
    return month
