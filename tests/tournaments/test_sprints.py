"""Sprint tournaments (rulebook, "Sprint Tournaments"): points for taking part and for wins,
given once; the month's dates; the medals of the last weekday and their levels; the Sprint
Leaderboard."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_celery_beat.models import PeriodicTask

from tests.concurrency import race
from tests.factories import UserFactory
from tournaments import sprints_calendar
from tournaments.models import (
    Decision,
    Pairing,
    Participant,
    SprintEntry,
    SprintMedal,
    SprintScore,
    SprintSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.services.payout import tournament_payout
from tournaments.services.sprints import (
    sprint_calendar_run,
    sprint_medals_award,
    sprint_points_award,
)
from tournaments.sprint_badges import name_badges
from tournaments.sprints_calendar import Standing, medal_colors

JANUARY = date(2026, 1, 1)
FEBRUARY = date(2026, 2, 1)
ON_POSTGRESQL = "postgresql" in settings.DATABASES["default"]["ENGINE"]


# The month, as plain dates ------------------------------------------------------------------


def test_last_weekday_steps_back_over_a_weekend_that_ends_the_month():
    # 31 January 2026 is a Saturday.
    assert sprints_calendar.last_weekday(JANUARY) == date(2026, 1, 30)
    assert sprints_calendar.last_weekday(date(2026, 3, 17)) == date(2026, 3, 31)  # a Tuesday
    assert sprints_calendar.last_weekday(date(2024, 2, 1)) == date(2024, 2, 29)  # leap year
    assert sprints_calendar.last_weekday(date(2026, 12, 1)) == date(2026, 12, 31)


def test_first_weekday_steps_over_a_weekend_that_opens_the_month():
    # 1 August 2026 is a Saturday, 1 November 2026 a Sunday.
    assert sprints_calendar.first_weekday(date(2026, 8, 20)) == date(2026, 8, 3)
    assert sprints_calendar.first_weekday(date(2026, 11, 1)) == date(2026, 11, 2)
    assert sprints_calendar.first_weekday(JANUARY) == date(2026, 1, 1)  # a Thursday


def test_month_arithmetic_crosses_the_year():
    assert sprints_calendar.next_month(date(2026, 12, 1)) == date(2027, 1, 1)
    assert sprints_calendar.previous_month(date(2026, 1, 1)) == date(2025, 12, 1)
    assert sprints_calendar.month_of(date(2026, 1, 31)) == JANUARY


def test_a_tournament_belongs_to_the_month_it_concluded_in_utc():
    late_saturday = datetime(2026, 1, 31, 23, 59, tzinfo=UTC)
    assert sprints_calendar.month_concluded(late_saturday) == JANUARY
    # 1 February 01:30 in UTC+2 is still 31 January in UTC.
    east = timezone(timedelta(hours=2))
    assert sprints_calendar.month_concluded(datetime(2026, 2, 1, 1, 30, tzinfo=east)) == JANUARY


def test_the_leaderboard_resets_on_the_first_weekday_not_on_the_first_day():
    assert sprints_calendar.leaderboard_month(date(2026, 7, 31)) == date(2026, 7, 1)
    # 1 and 2 August 2026 are a weekend: July's standings stay up until Monday the 3rd.
    assert sprints_calendar.leaderboard_month(date(2026, 8, 1)) == date(2026, 7, 1)
    assert sprints_calendar.leaderboard_month(date(2026, 8, 2)) == date(2026, 7, 1)
    assert sprints_calendar.leaderboard_month(date(2026, 8, 3)) == date(2026, 8, 1)


def test_medals_fall_due_on_the_last_weekday_and_the_month_before_stays_due():
    assert sprints_calendar.medal_months_due(date(2026, 1, 29)) == [date(2025, 12, 1)]
    assert sprints_calendar.medal_months_due(date(2026, 1, 30)) == [date(2025, 12, 1), JANUARY]
    assert sprints_calendar.medal_months_due(date(2026, 1, 31)) == [date(2025, 12, 1), JANUARY]


def test_gold_to_the_leader_silver_and_bronze_to_the_others_at_their_levels():
    standings = [
        Standing(1, 90),
        Standing(2, 60),
        Standing(3, 59),
        Standing(4, 30),
        Standing(5, 29),
    ]
    assert medal_colors(standings, silver_level=60, bronze_level=30) == {
        1: "gold",
        2: "silver",
        3: "bronze",
        4: "bronze",
    }


def test_every_player_tied_on_the_most_points_wins_gold():
    standings = [Standing(1, 70), Standing(2, 70), Standing(3, 65)]
    assert medal_colors(standings, silver_level=60, bronze_level=30) == {
        1: "gold",
        2: "gold",
        3: "silver",
    }


def test_the_leader_wins_gold_below_every_level_but_nobody_wins_with_no_points():
    assert medal_colors([Standing(1, 3), Standing(2, 1)], silver_level=60, bronze_level=30) == {
        1: "gold"
    }
    assert medal_colors([Standing(1, 0)], silver_level=60, bronze_level=30) == {}
    assert medal_colors([], silver_level=60, bronze_level=30) == {}


def test_players_tied_share_a_rank():
    assert sprints_calendar.ranked([9, 7, 7, 3, 3, 3, 1]) == [1, 2, 2, 4, 4, 4, 7]


# Points -------------------------------------------------------------------------------------


def sprint_tournament(players, *, won=(), byes=(), concluded=None, sprint=True):
    """A concluded tournament of ``players``: each pair in ``won`` is a match its first
    player won over its second; each player in ``byes`` had a bye."""
    tournament = Tournament.objects.create(
        title="Weeknight Sprint",
        sprint=sprint,
        seed=1,
        status=TournamentStatus.CONCLUDED,
        concluded=concluded or datetime(2026, 1, 14, 21, 0, tzinfo=UTC),
    )
    seats = {
        player.pk: Participant.objects.create(
            tournament=tournament, player=player, seed=seed, rating_start=1600
        )
        for seed, player in enumerate(players, start=1)
    }
    table = 0
    for table, (winner, loser) in enumerate(won, start=1):
        Pairing.objects.create(
            tournament=tournament,
            round=1,
            table=table,
            first=seats[winner.pk],
            second=seats[loser.pk],
            winner=seats[winner.pk],
            decision=Decision.PLAYED,
        )
    for extra, player in enumerate(byes, start=table + 1):
        Pairing.objects.create(
            tournament=tournament,
            round=2,
            table=extra,
            first=seats[player.pk],
            winner=seats[player.pk],
            decision=Decision.BYE,
        )
    return tournament


@pytest.fixture
def rules(db):
    return SprintSettings.objects.create(
        points_for_entry=1, points_per_win=2, silver_level=6, bronze_level=3
    )


@pytest.fixture
def four(db):
    return [UserFactory(username=name) for name in ("Ann", "Ben", "Cal", "Dee")]


def score_of(player, month=JANUARY):
    return SprintScore.objects.filter(player=player, month=month).first()


def test_entrants_get_points_for_taking_part_and_for_each_win_a_bye_included(rules, four):
    ann, ben, cal, dee = four
    tournament = sprint_tournament(four, won=[(ann, ben), (cal, dee), (ann, cal)], byes=[ben])

    assert sprint_points_award(tournament_id=tournament.pk) == 4

    expected = {ann: (5, 2), ben: (3, 1), cal: (3, 1), dee: (1, 0)}
    for player, (points, wins) in expected.items():
        score = score_of(player)
        assert (score.points, score.events, score.wins) == (points, 1, wins), player
    assert SprintEntry.objects.get(tournament=tournament, player=ann).points == 5


def test_points_given_twice_count_once(rules, four):
    ann, ben, *_ = four
    tournament = sprint_tournament(four, won=[(ann, ben)])
    sprint_points_award(tournament_id=tournament.pk)

    assert sprint_points_award(tournament_id=tournament.pk) == 0

    assert (score_of(ann).points, score_of(ann).events) == (3, 1)
    assert SprintEntry.objects.filter(tournament=tournament).count() == 4


def test_each_event_of_the_month_adds_up(rules, four):
    ann, ben, *_ = four
    first = sprint_tournament(four, won=[(ann, ben)])
    second = sprint_tournament(four, won=[(ben, ann)])

    sprint_points_award(tournament_id=first.pk)
    sprint_points_award(tournament_id=second.pk)

    assert (score_of(ann).points, score_of(ann).events, score_of(ann).wins) == (4, 2, 1)
    assert (score_of(ben).points, score_of(ben).events, score_of(ben).wins) == (4, 2, 1)


def test_only_a_concluded_sprint_tournament_gives_points(rules, four):
    plain = sprint_tournament(four, sprint=False)
    running = sprint_tournament(four)
    Tournament.objects.filter(pk=running.pk).update(status=TournamentStatus.PLAYING)

    assert sprint_points_award(tournament_id=plain.pk) == 0
    assert sprint_points_award(tournament_id=running.pk) == 0
    assert not SprintScore.objects.exists()


def test_a_weekend_tournament_after_the_last_weekday_counts_for_its_own_month(rules, four):
    # Friday 30 January 2026 is January's last weekday; Saturday the 31st is still January,
    # Sunday 1 February is February.
    saturday = sprint_tournament(four, concluded=datetime(2026, 1, 31, 22, 0, tzinfo=UTC))
    sunday = sprint_tournament(four, concluded=datetime(2026, 2, 1, 22, 0, tzinfo=UTC))

    sprint_points_award(tournament_id=saturday.pk)
    sprint_points_award(tournament_id=sunday.pk)

    assert score_of(four[0], JANUARY).points == 1
    assert score_of(four[0], FEBRUARY).points == 1


def test_the_payout_gives_a_sprint_tournaments_points(rules, four):
    tournament = sprint_tournament(four, won=[(four[0], four[1])])

    tournament_payout(tournament_id=tournament.pk)
    tournament_payout(tournament_id=tournament.pk)

    assert score_of(four[0]).points == 3
    assert SprintEntry.objects.filter(tournament=tournament).count() == 4


def test_the_rules_row_is_made_with_its_defaults_when_missing(four):
    tournament = sprint_tournament(four, won=[(four[0], four[1])])

    sprint_points_award(tournament_id=tournament.pk)

    assert SprintSettings.objects.count() == 1
    assert score_of(four[0]).points == 1 + 2


@pytest.mark.skipif(not ON_POSTGRESQL, reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_awards_at_once_give_the_points_once():
    SprintSettings.objects.create(points_for_entry=1, points_per_win=2)
    players = [UserFactory(username=f"Racer{n}") for n in range(6)]
    tournament = sprint_tournament(players, won=[(players[0], players[1])])

    results = race(*[lambda: sprint_points_award(tournament_id=tournament.pk)] * 4)

    assert sorted(results) == [0, 0, 0, 6], results
    assert SprintScore.objects.get(player=players[0]).points == 3
    assert SprintScore.objects.get(player=players[0]).events == 1


@pytest.mark.skipif(not ON_POSTGRESQL, reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_tournaments_ending_at_once_both_count():
    """Both make the player's first score row of the month at once: one makes it, the other
    adds to it."""
    SprintSettings.objects.create(points_for_entry=1, points_per_win=2)
    players = [UserFactory(username=f"Racer{n}") for n in range(4)]
    tournaments = [sprint_tournament(players) for _ in range(4)]

    results = race(*[lambda t=t: sprint_points_award(tournament_id=t.pk) for t in tournaments])

    assert results == [4, 4, 4, 4], results
    assert SprintScore.objects.get(player=players[0]).events == 4
    assert SprintScore.objects.count() == 4


# Medals -------------------------------------------------------------------------------------


def scores(month, **points_by_name):
    players = {}
    for name, points in points_by_name.items():
        players[name] = UserFactory(username=name)
        SprintScore.objects.create(player=players[name], month=month, points=points, events=1)
    return players


def test_the_months_medals_are_given_once(rules):
    players = scores(JANUARY, Ann=9, Ben=9, Cal=6, Dee=3, Eve=2)

    assert sprint_medals_award(month=JANUARY) == 4
    assert sprint_medals_award(month=JANUARY) == 0

    given = dict(SprintMedal.objects.values_list("player__username", "color"))
    assert given == {"Ann": "gold", "Ben": "gold", "Cal": "silver", "Dee": "bronze"}
    assert SprintMedal.objects.get(player=players["Cal"]).points == 6


def test_each_medal_pays_its_credits_and_a_promo_card_once(rules, catalog):
    """Rulebook, "Sprint Tournaments": the month's medal winners are rewarded; awarding the
    month again (the daily task's next run) pays nobody twice."""
    from collection.earnings.models import Earning
    from collection.earnings.rates import rates

    scores(JANUARY, Ann=9, Cal=6, Dee=3, Eve=2)

    sprint_medals_award(month=JANUARY)
    sprint_medals_award(month=JANUARY)

    paid = {e.player.username: e for e in Earning.objects.select_related("player", "card")}
    assert set(paid) == {"Ann", "Cal", "Dee"}
    for name, color in (("Ann", "gold"), ("Cal", "silver"), ("Dee", "bronze")):
        assert paid[name].credits == rates().sprint_medals[color].credits
        assert paid[name].card.rarity == "P"
        assert paid[name].operation.reference.startswith("sprint-medal:")


def test_the_calendar_gives_medals_on_the_last_weekday_only(rules):
    scores(JANUARY, Ann=9, Ben=4)

    assert sprint_calendar_run(today=date(2026, 1, 29)) == 0
    assert not SprintMedal.objects.exists()
    assert sprint_calendar_run(today=date(2026, 1, 30)) == 2
    assert sprint_calendar_run(today=date(2026, 1, 31)) == 0


def test_points_won_after_the_award_stay_on_the_board_but_change_no_medal(rules, four):
    scores(JANUARY, Ann=9)
    sprint_calendar_run(today=date(2026, 1, 30))
    saturday = sprint_tournament(four, concluded=datetime(2026, 1, 31, 20, 0, tzinfo=UTC))

    sprint_points_award(tournament_id=saturday.pk)
    sprint_calendar_run(today=date(2026, 1, 31))

    assert score_of(four[1], JANUARY).points == 1
    assert list(SprintMedal.objects.values_list("player__username", flat=True)) == ["Ann"]


def test_a_missed_award_is_given_on_the_next_run(rules):
    scores(JANUARY, Ann=9)

    assert sprint_calendar_run(today=date(2026, 2, 2)) == 1
    assert SprintMedal.objects.get().month == JANUARY


def test_medals_are_kept_and_counted_by_colour(rules):
    ann = UserFactory(username="Ann")
    for month in (date(2025, 10, 1), date(2025, 11, 1), date(2025, 12, 1)):
        SprintScore.objects.create(player=ann, month=month, points=9, events=1)
        sprint_medals_award(month=month)
    SprintMedal.objects.create(player=ann, month=date(2025, 9, 1), color="bronze", points=3)

    badge = name_badges([ann.pk])[ann.pk]

    assert badge.html.count("<svg") == 2
    assert 'title="3 Gold Sprint Winner Medals"' in badge.html
    assert ">3</text>" in badge.html
    assert 'title="Bronze Sprint Winner Medal"' in badge.html
    assert badge.html.index("sprint-medal--gold") < badge.html.index("sprint-medal--bronze")
    assert "http" not in badge.html.replace("http://www.w3.org", "")  # drawn, not linked
    assert badge.classes == ()


def test_the_calendar_task_is_scheduled_daily_at_five_to_midnight_utc(db):
    task = PeriodicTask.objects.get(task="tournaments.sprint_calendar")
    assert (task.crontab.hour, task.crontab.minute, str(task.crontab.timezone)) == (
        "23",
        "55",
        "UTC",
    )
    assert task.crontab.day_of_week == "*"


# The Sprint Leaderboard ---------------------------------------------------------------------


def board_month_today() -> date:
    from django.utils import timezone as django_timezone

    return sprints_calendar.leaderboard_month(django_timezone.now().date())


def test_the_leaderboard_shows_standings_rules_and_past_medals(client, rules):
    month = board_month_today()
    last = sprints_calendar.previous_month(month)
    viewer = UserFactory(username="Viewer")
    players = scores(month, Ann=9, Ben=7, Cal=7, Dee=2)
    SprintScore.objects.filter(player=players["Ben"]).update(events=3, wins=2)
    SprintMedal.objects.create(player=players["Dee"], month=last, color="gold", points=40)
    SprintMedal.objects.create(player=players["Cal"], month=last, color="silver", points=12)
    client.force_login(viewer)

    response = client.get(reverse("tournaments:sprint_leaderboard"))

    assert response.status_code == 200
    html = response.content.decode()
    assert f"{month:%B %Y}" in html and f"{last:%B %Y}" in html
    assert html.index(">Ann<") < html.index(">Ben<") < html.index(">Cal<") < html.index(">Dee<")
    rows = [row.rank for row in response.context["board"].rows]
    assert rows == [1, 2, 2, 4]
    ben = response.context["board"].rows[1]
    assert (ben.points, ben.events, ben.wins) == (7, 3, 2)
    for rule in ("per tournament", "a bye counts as a win", "6</strong> points or more"):
        assert rule in html
    assert 'title="Gold Sprint Winner Medal"' in html
    assert reverse("tournaments:sprint_leaderboard") in html  # in the Navigator


def test_the_leaderboard_costs_the_same_queries_for_few_players_or_many(client, rules):
    month = board_month_today()
    client.force_login(UserFactory(username="Viewer"))
    scores(month, **{f"P{n}": n for n in range(3)})
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("tournaments:sprint_leaderboard"))
    more = scores(month, **{f"Q{n}": n for n in range(30)})
    for player in more.values():
        SprintMedal.objects.create(
            player=player, month=sprints_calendar.previous_month(month), color="bronze", points=3
        )

    with CaptureQueriesContext(connection) as many:
        response = client.get(reverse("tournaments:sprint_leaderboard"))

    assert len(response.context["board"].rows) == 33
    assert len(many) == len(few)


def test_the_leaderboard_asks_a_visitor_to_log_in(client, db):
    response = client.get(reverse("tournaments:sprint_leaderboard"))
    assert response.status_code == 302
