"""A fresh site lists the standard on-demand queues (rulebook, "On-Demand Queues will always
appear in the tournament queue area of the Tournaments Lobby"): opened by `manage.py
standard_queues`, which `make run`, `make start` and `manage.py demo` run."""

import pytest
from django.core.management import CommandError, call_command

from collection.models import Product, ProductKind
from tests.factories import UserFactory
from tests.tournaments.conftest import entrant
from tournaments.models import QueueStatus, TournamentKind, TournamentQueue
from tournaments.services.queues import STANDARD_ON_DEMAND_QUEUES, queue_join

pytestmark = pytest.mark.django_db

LOBBY = "/lobbies/tournaments/"


def test_a_fresh_site_opens_the_standard_queues_once_and_a_player_sees_them(client, catalog):
    call_command("standard_queues")
    call_command("standard_queues")  # every start runs it: nothing more

    queues = list(TournamentQueue.objects.order_by("position"))
    assert [queue.title for queue in queues] == [
        rules["title"] for rules in STANDARD_ON_DEMAND_QUEUES
    ]
    newest_booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).latest("pk")
    for queue in queues:
        assert queue.on_demand and queue.status == QueueStatus.OPEN
        assert queue.problems() == {}, queue.title  # what the admin's form would accept
        assert queue.pack_pool == newest_booster
    assert {queue.kind for queue in queues} == set(TournamentKind.values)
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

    call_command("standard_queues")

    assert not TournamentQueue.objects.filter(status=QueueStatus.OPEN).exists()


def test_without_the_catalog_it_says_to_load_it_and_opens_nothing(empty_catalog):
    with pytest.raises(CommandError, match="load the catalog first"):
        call_command("standard_queues")
    assert not TournamentQueue.objects.exists()
