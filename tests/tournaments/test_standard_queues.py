"""A fresh site lists the standard on-demand queues (rulebook, "On-Demand Queues will always
appear in the tournament queue area of the Tournaments Lobby") and a default schedule of
scheduled events on the Events Calendar ("Types of Tournament Queues"; "Sprint Tournaments are
held on weeknights"): created by `manage.py standard_queues`, which `make run`, `make start`
and `manage.py demo` run."""

import importlib
from datetime import time, timedelta

import pytest
from django.apps import apps as django_apps
from django.core.management import CommandError, call_command
from django.utils import timezone

from collection.models import Product, ProductKind
from game.models import MatchStructure
from tests.factories import UserFactory
from tests.tournaments.conftest import entrant
from tournaments.models import (
    EventSchedule,
    QueueStatus,
    TournamentKind,
    TournamentQueue,
    TournamentStructure,
)
from tournaments.services.defaults import DEFAULT_SCHEDULES, STANDARD_ON_DEMAND_QUEUES
from tournaments.services.queues import queue_join

pytestmark = pytest.mark.django_db

LOBBY = "/lobbies/tournaments/"


def test_a_fresh_site_opens_the_standard_queues_once_and_a_player_sees_them(client, catalog):
    call_command("standard_queues")
    call_command("standard_queues")  # every start runs it: nothing more

    queues = list(TournamentQueue.objects.filter(on_demand=True).order_by("position"))
    assert [queue.title for queue in queues] == [
        rules["title"] for rules in STANDARD_ON_DEMAND_QUEUES
    ]
    newest_booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).latest("pk")
    for queue in queues:
        assert queue.on_demand and queue.status == QueueStatus.OPEN
        assert queue.problems() == {}, queue.title  # what the admin's form would accept
        assert queue.pack_pool == newest_booster
    assert {queue.kind for queue in queues} == set(TournamentKind.values)
    assert {queue.structure for queue in queues} == set(TournamentStructure.values)
    assert MatchStructure.BEST_OF_FIVE in {queue.style for queue in queues}
    sealed = next(queue for queue in queues if queue.kind == TournamentKind.SEALED)
    assert sealed.sealed_minutes == 10  # "In most Sealed Tournaments, you will have 10 minutes"
    client.force_login(UserFactory(username="Newcomer"))
    lobby = client.get(LOBBY).content.decode()
    for queue in queues:
        assert queue.title in lobby
    assert "No queue is open" not in lobby


def test_a_queue_full_of_players_starts_and_the_site_keeps_it(catalog):
    """The Quick Four starts with its fourth player and waits again, empty: a restart does
    not open a second set."""
    call_command("standard_queues")
    quick = TournamentQueue.objects.get(title="Quick Four")
    for number in range(4):
        player = entrant(f"q{number}")
        queue_join(queue_id=quick.pk, player=player, deck=player.deck)

    call_command("standard_queues")

    assert quick.tournaments.count() == 1
    assert TournamentQueue.objects.filter(title="Quick Four").count() == 1


def test_staff_who_close_them_do_not_see_them_come_back(catalog):
    call_command("standard_queues")
    TournamentQueue.objects.update(status=QueueStatus.CLOSED)
    EventSchedule.objects.update(active=False)

    call_command("standard_queues")

    assert not TournamentQueue.objects.filter(status=QueueStatus.OPEN).exists()


def test_without_the_catalog_it_says_to_load_it_and_opens_nothing(empty_catalog):
    with pytest.raises(CommandError, match="load the catalog first"):
        call_command("standard_queues")
    assert not TournamentQueue.objects.exists()


def test_a_fresh_site_s_calendar_shows_the_next_two_weeks_and_the_leaderboard_its_sprint(
    client, catalog
):
    now = timezone.now()
    call_command("standard_queues")

    calendar = client.get("/events/").content.decode()
    for offset in range(1, 14):
        day = (now + timedelta(days=offset)).date()
        assert f"{day:%A} {day.day} {day:%B %Y}" in calendar  # each day's heading
        # every evening's Constructed event, weeknights' Sprint, weekends' Sealed event
        starts = set(
            TournamentQueue.objects.filter(
                on_demand=False, starts_at__date=day, status=QueueStatus.OPEN
            ).values_list("schedule__standard_key", flat=True)
        )
        assert "evening-constructed" in starts
        assert ("weeknight-sprint" in starts) == (day.weekday() < 5)
        assert ("weekend-sealed" in starts) == (day.weekday() >= 5)
    last_day = (now + timedelta(days=14)).date()
    assert not TournamentQueue.objects.filter(starts_at__date__gt=last_day).exists()
    assert "Sprint: entrants earn Sprint points" in calendar
    assert "Single Game, top 8 Match Play (2-3)" in calendar  # the Weekend Sealed's styles

    client.force_login(UserFactory(username="Newcomer"))
    leaderboard = client.get("/tournaments/sprint/").content.decode()
    sprint = (
        TournamentQueue.objects.filter(sprint=True, starts_at__gt=now).order_by("starts_at").first()
    )
    assert sprint.starts_at.weekday() < 5 and sprint.starts_at.time() == time(17, 0)
    assert "Next Sprint" in leaderboard and f"#queue-{sprint.pk}" in leaderboard
    assert f"{sprint.starts_at:%H:%M} UTC" in leaderboard


def test_the_default_schedule_is_created_once_and_staff_edits_are_kept(catalog):
    call_command("standard_queues")
    queues_before = TournamentQueue.objects.count()
    evening = EventSchedule.objects.get(standard_key="evening-constructed")
    evening.title = "Staff's Evening Event"
    evening.start_time = time(21, 30)
    evening.save()
    EventSchedule.objects.filter(standard_key="weekend-sealed").update(active=False)

    call_command("standard_queues")
    call_command("standard_queues")

    assert EventSchedule.objects.count() == len(DEFAULT_SCHEDULES)
    evening.refresh_from_db()
    assert (evening.title, evening.start_time) == ("Staff's Evening Event", time(21, 30))
    assert not EventSchedule.objects.get(standard_key="weekend-sealed").active
    assert TournamentQueue.objects.filter(on_demand=True).count() == len(STANDARD_ON_DEMAND_QUEUES)
    # the edited schedule adds its new start times; nothing is duplicated
    assert TournamentQueue.objects.count() >= queues_before
    assert not TournamentQueue.objects.filter(
        schedule=evening, starts_at__lte=timezone.now()
    ).exists()
    for schedule in EventSchedule.objects.all():
        assert schedule.problems() == {}, schedule.title


def test_a_site_that_opened_the_former_standard_queues_gets_only_the_new_ones(catalog):
    """The four queues a site opened before the defaults had keys get them from migration
    0005, so the new standard queues are added beside them, never a second set."""
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).latest("pk")
    former = ["Constructed Swiss", "Constructed Single Elimination", "Quick Four", "Sealed Swiss"]
    for title in former:
        TournamentQueue.objects.create(title=title, on_demand=True, pack_pool=booster)
    migration = importlib.import_module(
        "tournaments.migrations.0005_combined_styles_default_events_no_minimum"
    )

    migration.standard_queues_keyed(django_apps, None)
    call_command("standard_queues")

    titles = list(TournamentQueue.objects.filter(on_demand=True).values_list("title", flat=True))
    assert sorted(titles) == sorted(rules["title"] for rules in STANDARD_ON_DEMAND_QUEUES)
