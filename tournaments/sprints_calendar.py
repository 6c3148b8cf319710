"""The Sprint month as plain dates and numbers (rulebook, "Sprint Tournaments").

Weekdays are Monday to Friday. A Sprint tournament's points belong to the calendar month (UTC)
it concluded in. The medals of a month are given on its last weekday, on the standings of that
moment; a tournament that concludes later that month (late on the last weekday, or on the
weekend before the month ends) still adds to the month's points, but not to medals already
given. The leaderboard shows a month from its first weekday until the next month's first
weekday, when the points "reset": a tournament concluded on a weekend that opens a month counts
for the new month, whose standings appear on its first weekday.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

GOLD = "gold"
SILVER = "silver"
BRONZE = "bronze"
SATURDAY = 5


def month_of(day: date) -> date:
    """The month ``day`` falls in, as its first day."""
    return day.replace(day=1)


def month_concluded(moment: datetime) -> date:
    """The month (UTC) of a tournament that concluded at ``moment``."""
    return month_of(moment.astimezone(UTC).date())


def next_month(month: date) -> date:
    return (month.replace(day=28) + timedelta(days=4)).replace(day=1)


def previous_month(month: date) -> date:
    return month_of(month.replace(day=1) - timedelta(days=1))


def is_weekday(day: date) -> bool:
    return day.weekday() < SATURDAY


def first_weekday(month: date) -> date:
    """The first Monday-to-Friday day of ``month``: the day its points start to show."""
    day = month_of(month)
    while not is_weekday(day):
        day += timedelta(days=1)
    return day


def last_weekday(month: date) -> date:
    """The last Monday-to-Friday day of ``month``: the day its medals are given."""
    day = next_month(month) - timedelta(days=1)
    while not is_weekday(day):
        day -= timedelta(days=1)
    return day


def leaderboard_month(today: date) -> date:
    """The month the Sprint Leaderboard shows on ``today``: the month in progress, or the one
    before it until this month's first weekday resets the points."""
    month = month_of(today)
    return month if today >= first_weekday(month) else previous_month(month)


def medal_months_due(today: date) -> list[date]:
    """The months whose medals are due by ``today``: the previous month (were its last
    weekday's award missed), and this month from its last weekday on."""
    month = month_of(today)
    due = [previous_month(month)]
    if today >= last_weekday(month):
        due.append(month)
    return due


@dataclass(frozen=True)
class Standing:
    player_id: int
    points: int


def medal_colors(
    standings: list[Standing], *, silver_level: int, bronze_level: int
) -> dict[int, str]:
    """Each medal winner's colour. Gold goes to the player with the most points, and to every
    player tied with them (the rulebook names no tie-breaker, and a tie on the most points is
    a shared lead); Silver to every other player at or above the Silver level; Bronze to every
    other player at or above the Bronze level. Nobody wins a medal with no points."""
    scoring = [standing for standing in standings if standing.points > 0]
    if not scoring:
        return {}
    most = max(standing.points for standing in scoring)
    colors = {}
    for standing in scoring:
        if standing.points == most:
            colors[standing.player_id] = GOLD
        elif standing.points >= silver_level:
            colors[standing.player_id] = SILVER
        elif standing.points >= bronze_level:
            colors[standing.player_id] = BRONZE
    return colors


def sprint_points(*, wins: int, points_for_entry: int, points_per_win: int) -> int:
    """A player's Sprint points for one tournament: for taking part, and for each win."""
    return points_for_entry + points_per_win * wins


def ranked(points: list[int]) -> list[int]:
    """Each place's rank, for points in descending order: players tied share a rank (1, 2, 2,
    4)."""
    ranks = []
    for index, value in enumerate(points):
        ranks.append(ranks[-1] if index and value == points[index - 1] else index + 1)
    return ranks
