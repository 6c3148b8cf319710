"""Sprint points and Sprint Winner Medals (rulebook, "Sprint Tournaments"); the dates are in
tournaments/sprints_calendar.py.

Both writers are safe to run twice and at once: a tournament's points reach a player through
one ``SprintEntry`` row (unique per tournament and player), a month's medal through one
``SprintMedal`` row (unique per player and month). The database refuses the second row, and
the writer counts that player as already served.
"""

from datetime import date

from django.db import IntegrityError, transaction
from django.db.models import Count, F
from django.utils import timezone

from collection.earnings.services import sprint_medal_earnings_pay
from tcgsite.lobbies.services.presence import user_rows_refresh
from tournaments import sprints_calendar
from tournaments.models import (
    MedalColor,
    Pairing,
    SprintEntry,
    SprintMedal,
    SprintScore,
    SprintSettings,
    Tournament,
    TournamentStatus,
)


def sprint_settings_get() -> SprintSettings:
    """The one row of Sprint rules, made with its defaults the first time it is needed."""
    settings = SprintSettings.objects.order_by("pk").first()
    return settings if settings is not None else SprintSettings.objects.create()


def sprint_points_award(*, tournament_id: int) -> int:
    """Give each player of a concluded Sprint tournament their Sprint points, in the month
    (UTC) it concluded in: the points for taking part and for each match won. A bye counts as
    a win (rulebook, "Scoring": a bye "is considered a three point victory"). The number of
    players given points now; those given by an earlier run are skipped."""
    tournament = Tournament.objects.filter(
        pk=tournament_id, sprint=True, status=TournamentStatus.CONCLUDED
    ).first()
    if tournament is None:
        return 0
    rules = sprint_settings_get()
    month = sprints_calendar.month_concluded(tournament.concluded)
    wins = dict(
        Pairing.objects.filter(tournament=tournament, winner__isnull=False)
        .values_list("winner__player_id")
        .annotate(won=Count("pk"))
    )
    # In player order, so that two runs at once meet the same rows in the same order.
    players = tournament.participants.order_by("player_id").values_list("player_id", flat=True)
    given = 0
    with transaction.atomic():
        for player_id in players:
            won = wins.get(player_id, 0)
            points = sprints_calendar.sprint_points(
                wins=won,
                points_for_entry=rules.points_for_entry,
                points_per_win=rules.points_per_win,
            )
            try:
                with transaction.atomic():
                    SprintEntry.objects.create(
                        tournament=tournament, player_id=player_id, points=points
                    )
                    _score_add(player_id, month, points=points, wins=won)
            except IntegrityError:
                continue  # given by an earlier or a concurrent run
            given += 1
    return given


def _score_add(player_id: int, month: date, *, points: int, wins: int) -> None:
    score, _ = SprintScore.objects.get_or_create(player_id=player_id, month=month)
    SprintScore.objects.filter(pk=score.pk).update(
        points=F("points") + points, events=F("events") + 1, wins=F("wins") + wins
    )


def sprint_medals_award(*, month: date) -> int:
    """Give ``month``'s Sprint Winner Medals on its standings now (sprints_calendar.medal_colors
    says who wins which), unless they were given already, and pay each medal's reward (its
    credits and a promo card) that is still unpaid. The number of medals given now."""
    month = sprints_calendar.month_of(month)
    given = _medals_give(month)
    for medal in SprintMedal.objects.filter(month=month).select_related("player"):
        sprint_medal_earnings_pay(player=medal.player, month=month, color=medal.color)
    return given


def _medals_give(month: date) -> int:
    try:
        with transaction.atomic():
            rules = sprint_settings_get()
            # The settings row is the month's award lock: a second run waits here, then
            # finds the medals given.
            SprintSettings.objects.select_for_update().filter(pk=rules.pk).first()
            if SprintMedal.objects.filter(month=month).exists():
                return 0
            scores = {
                player_id: points
                for player_id, points in SprintScore.objects.filter(month=month).values_list(
                    "player_id", "points"
                )
            }
            colors = sprints_calendar.medal_colors(
                [sprints_calendar.Standing(player, points) for player, points in scores.items()],
                silver_level=rules.silver_level,
                bronze_level=rules.bronze_level,
            )
            SprintMedal.objects.bulk_create(
                SprintMedal(
                    player_id=player_id,
                    month=month,
                    color=MedalColor(color),
                    points=scores[player_id],
                )
                for player_id, color in sorted(colors.items())
            )
            # The winners' names carry their new medals in the lobbies at once.
            user_rows_refresh(user_ids=colors)
    except IntegrityError:
        return 0  # given by a concurrent run that the lock did not hold back (SQLite)
    return len(colors)


def sprint_calendar_run(*, today: date | None = None) -> int:
    """The daily Sprint step: give the medals of every month due by ``today`` (UTC) that has
    not had them. The number of medals given."""
    today = today or timezone.now().date()
    return sum(
        sprint_medals_award(month=month) for month in sprints_calendar.medal_months_due(today)
    )
