"""The demo world: a handful of players, the standard on-demand tournament queues, and a
staff account on the embedded default only."""

import pytest
from django.conf import settings
from django.core.management import call_command

from tcgsite.accounts.models import User
from tournaments.models import TournamentQueue
from tournaments.services.defaults import STANDARD_ON_DEMAND_QUEUES

pytestmark = pytest.mark.django_db


def test_demo_world_is_created_once_and_players_can_log_in(client, catalog):
    call_command("demo")
    call_command("demo")

    # The demo players, beside the computer opponents of Skirmish that the migrations create.
    assert User.objects.filter(is_staff=False, computer_opponent=None).count() == 5
    shochu = User.objects.get(username="Shochu")
    assert shochu.is_registered
    assert list(shochu.decks.values_list("name", flat=True)) == ["Rebel Starter Deck"]
    assert sum(shochu.decks.get().entries.values_list("quantity", flat=True)) == 58
    assert shochu.owned_products.filter(opened__isnull=True).count() == 2
    assert client.login(username="shochu", password=settings.DEMO_PLAYER_PASSWORD)
    assert User.objects.get(username="Shochu").preferences.avatar_choice == "smuggler"
    assert TournamentQueue.objects.filter(on_demand=True).count() == len(STANDARD_ON_DEMAND_QUEUES)


def test_staff_account_only_on_the_embedded_default(client, settings, catalog):
    settings.EMBEDDED = False
    call_command("demo")
    assert not User.objects.filter(is_staff=True).exists()

    settings.EMBEDDED = True
    call_command("demo")
    staff = User.objects.get(username=settings.DEMO_STAFF_USERNAME)
    assert staff.is_staff and staff.is_superuser
    assert client.login(username="staff", password=settings.DEMO_STAFF_PASSWORD)
