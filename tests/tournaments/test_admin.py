"""Staff in the admin for the tournaments: schedules and queues whose rules are checked when
saved (EventRules.clean), read-only records of what the services wrote, the payout action that
pays once, and special rewards given through the service (rulebook, "The Tournaments
Conclusion": "can be given up to 48 hours after the conclusion of the tournament")."""

from datetime import timedelta

import pytest
from django.contrib.admin import site
from django.urls import reverse
from django.utils import timezone

from collection.models import LedgerOperation, OwnedProduct
from tests.factories import BoosterPackFactory, UserFactory
from tournaments.models import (
    EventSchedule,
    Participant,
    SpecialReward,
    SprintSettings,
    Tournament,
    TournamentQueue,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(username="Overseer", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def booster():
    return BoosterPackFactory(name="Premiere Booster")


def concluded_tournament(pool, *players, hours_ago: float = 1, packs: int = 0) -> Tournament:
    tournament = Tournament.objects.create(
        title="Friday Night",
        seed=1,
        status=TournamentStatus.CONCLUDED,
        concluded=timezone.now() - timedelta(hours=hours_ago),
        pack_pool=pool,
        reward_structure="2-1",
    )
    for seed, player in enumerate(players, start=1):
        Participant.objects.create(
            tournament=tournament,
            player=player,
            seed=seed,
            rating_start=1500,
            final_rank=seed,
            packs=packs,
        )
    return tournament


def queue_form(**changes) -> dict:
    """The add form of a tournament queue as a browser sends it, with ``changes``."""
    data = {
        "on_demand": "on",
        "starts_at_0": "",
        "starts_at_1": "",
        "status": "open",
        "position": "0",
        "title": "Daily",
        "kind": "constructed",
        "structure": "swiss",
        "style": "1",
        "max_players": "8",
        "rounds": "",
        "round_minutes": "",
        "entry_passes": "1",
        "k": "16",
        "pack_pool": "",
        "reward_structure": "",
        "sealed_starters": "0",
        "sealed_boosters": "0",
        "sealed_minutes": "10",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
    }
    data.update(changes)
    if data.get("on_demand") is None:
        del data["on_demand"]
    return data


def schedule_form(**changes) -> dict:
    data = queue_form(weekdays="0,1,2,3,4", start_time="19:00", active="on")
    for field in ("on_demand", "starts_at_0", "starts_at_1", "status", "position"):
        del data[field]
    for field in ("entries-TOTAL_FORMS", "entries-INITIAL_FORMS"):
        del data[field]
    data.update(changes)
    return data


def test_every_page_of_the_tournaments_admin_loads_and_only_staffs_own_records_are_added(
    staff_client, booster
):
    player = UserFactory()
    tournament = concluded_tournament(booster, player, UserFactory())
    EventSchedule.objects.create(title="Weekly", start_time="19:00")
    TournamentQueue.objects.create(title="Daily")
    SpecialReward.objects.create(tournament=tournament, player=player, product=booster)
    addable = {EventSchedule, TournamentQueue, SpecialReward, SprintSettings}

    answers = {}
    for model in (model for model in site._registry if model._meta.app_label == "tournaments"):
        name = f"admin:tournaments_{model._meta.model_name}"
        answers[f"{name}_changelist"] = staff_client.get(reverse(f"{name}_changelist"))
        answers[f"{name}_add"] = staff_client.get(reverse(f"{name}_add"))
        first = model.objects.first()
        if first is not None:
            url = reverse(f"{name}_change", args=[first.pk])
            answers[f"{name}_change"] = staff_client.get(url)

    expected = {
        name: 403
        if name.endswith("_add")
        and name.split("_")[1] not in {model._meta.model_name for model in addable}
        else 200
        for name in answers
    }
    assert {name: answer.status_code for name, answer in answers.items()} == expected
    assert len(answers) >= 3 * 5


def test_the_queue_list_shows_kind_start_status_and_who_waits(staff_client):
    TournamentQueue.objects.create(title="Always on")
    TournamentQueue.objects.create(
        title="Weekly", on_demand=False, starts_at=timezone.now() + timedelta(days=1)
    )

    page = staff_client.get(reverse("admin:tournaments_tournamentqueue_changelist")).content
    page = page.decode()

    assert "On demand" in page and "Scheduled" in page and "Waiting" in page


@pytest.mark.parametrize(
    ("structure", "message"),
    [
        ("5-4-x", "Tier 3 of &#x27;5-4-x&#x27; is &#x27;x&#x27;"),
        ("1-2", "Tier 2 of &#x27;1-2&#x27; pays more than tier 1"),
        ("3*-2", "a starred tier comes before a plain one"),
    ],
)
def test_a_reward_structure_is_checked_when_a_queue_or_a_schedule_is_saved(
    staff_client, booster, structure, message
):
    changes = {"reward_structure": structure, "pack_pool": str(booster.pk)}

    for url, form in (
        ("admin:tournaments_tournamentqueue_add", queue_form(**changes)),
        ("admin:tournaments_eventschedule_add", schedule_form(**changes)),
    ):
        response = staff_client.post(reverse(url), form)
        assert response.status_code == 200
        assert message in response.content.decode()
    assert not TournamentQueue.objects.exists() and not EventSchedule.objects.exists()


def test_a_valid_queue_is_saved_and_a_schedule_creates_two_weeks_of_queues(staff_client, booster):
    changes = {"reward_structure": "5-4-3-2-1*", "pack_pool": str(booster.pk)}

    staff_client.post(reverse("admin:tournaments_tournamentqueue_add"), queue_form(**changes))
    staff_client.post(
        reverse("admin:tournaments_eventschedule_add"),
        schedule_form(**changes, weekdays="0,1,2,3,4,5,6"),
    )

    assert TournamentQueue.objects.filter(on_demand=True, reward_structure="5-4-3-2-1*").exists()
    schedule = EventSchedule.objects.get()
    assert schedule.queues.count() == 14


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"reward_structure": "3-2-1*"}, "pack_pool", "pays booster packs of the Pack Pool"),
        (
            {"kind": "sealed", "sealed_boosters": "3"},
            "pack_pool",
            "asks each player for booster packs of the Pack Pool",
        ),
        ({"max_players": "1"}, "max_players", "two players at least"),
        ({"structure": "single_elimination", "max_players": "0"}, "max_players", "two players"),
        ({"on_demand": None}, "starts_at", "needs its start time"),
        ({"cut_style": "3"}, "cut_style", "Only a Cut to Top 8"),
        (
            {"starts_at_0": "2099-03-06", "starts_at_1": "19:00:00"},
            "starts_at",
            "leave the start time empty",
        ),
    ],
)
def test_a_queue_with_rules_that_cannot_work_is_refused_with_the_reason(
    staff_client, changes, field, message
):
    response = staff_client.post(
        reverse("admin:tournaments_tournamentqueue_add"), queue_form(**changes)
    )

    errors = response.context["adminform"].form.errors
    assert any(message in error for error in errors[field]), errors
    assert not TournamentQueue.objects.exists()


def test_a_schedules_days_are_numbers_0_to_6_each_once(staff_client):
    for weekdays in ("mon,tue", "0,7", "1,1"):
        response = staff_client.post(
            reverse("admin:tournaments_eventschedule_add"), schedule_form(weekdays=weekdays)
        )
        assert "Write the days as numbers from 0 (Monday) to 6" in response.content.decode()
    assert not EventSchedule.objects.exists()


def test_pay_rewards_pays_each_player_once_however_often_staff_run_it(staff_client, booster):
    winner, runner_up = UserFactory(), UserFactory()
    tournament = concluded_tournament(booster, winner, runner_up, packs=2)
    running = Tournament.objects.create(title="Still on", seed=2, status=TournamentStatus.PLAYING)
    url = reverse("admin:tournaments_tournament_changelist")
    chosen = {"action": "pay_rewards", "_selected_action": [tournament.pk, running.pk]}

    first = staff_client.post(url, chosen, follow=True).content.decode()
    staff_client.post(url, chosen)

    assert f"Tournament {tournament.pk}: 2 player(s) paid now" in first
    assert f"Tournament {running.pk} has not concluded" in first
    assert OwnedProduct.objects.filter(product=booster).count() == 4
    tournament.refresh_from_db()
    assert tournament.paid is not None


def special_reward_form(tournament, player, product, quantity="2") -> dict:
    return {
        "tournament": str(tournament.pk),
        "player": str(player.pk),
        "product": str(product.pk),
        "quantity": quantity,
        "note": "Best sportsmanship",
        "giving": "6a1f0b0e-3c1d-4f6e-9a43-2b7c6d5e4f10",
    }


def test_a_special_reward_is_given_once_through_the_ledger(staff_client, booster):
    player = UserFactory()
    tournament = concluded_tournament(booster, player, UserFactory(), hours_ago=47)

    response = staff_client.post(
        reverse("admin:tournaments_specialreward_add"),
        special_reward_form(tournament, player, booster),
    )

    assert response.status_code == 302
    # the same form sent again (a double click) gives nothing more
    staff_client.post(
        reverse("admin:tournaments_specialreward_add"),
        special_reward_form(tournament, player, booster),
    )
    reward = SpecialReward.objects.get()
    assert reward.awarded_by.username == "Overseer" and reward.quantity == 2
    assert LedgerOperation.objects.filter(reference=f"special:{reward.token}").count() == 1
    assert OwnedProduct.objects.filter(owner=player, product=booster).count() == 2
    # Once given, it is in the player's collection: staff can't edit or delete it.
    change = staff_client.get(reverse("admin:tournaments_specialreward_change", args=[reward.pk]))
    assert 'name="quantity"' not in change.content.decode()
    delete = reverse("admin:tournaments_specialreward_delete", args=[reward.pk])
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    assert SpecialReward.objects.count() == 1


@pytest.mark.parametrize(
    ("hours_ago", "plays", "message"),
    [
        (49, True, "within 48 hours of the tournament&#x27;s conclusion"),
        (1, False, "did not play in tournament"),
    ],
)
def test_a_special_reward_the_service_refuses_shows_its_reason_and_gives_nothing(
    staff_client, booster, hours_ago, plays, message
):
    player = UserFactory()
    entrants = (player, UserFactory()) if plays else (UserFactory(), UserFactory())
    tournament = concluded_tournament(booster, *entrants, hours_ago=hours_ago)

    response = staff_client.post(
        reverse("admin:tournaments_specialreward_add"),
        special_reward_form(tournament, player, booster),
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not SpecialReward.objects.exists()
    assert not OwnedProduct.objects.filter(product=booster).exists()
