"""Staff see every match in the admin and end a stuck one with a recorded reason."""

import pytest
from django.urls import reverse

from game.models import Match, MatchStatus
from game.services.matches import match_concede
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(username="Overseer", is_staff=True, is_superuser=True))
    return client


def test_staff_see_every_match_and_its_games(staff_client, carol, bob):
    match = start_match(carol, bob)

    listing = staff_client.get(reverse("admin:game_match_changelist")).content.decode()
    page = staff_client.get(reverse("admin:game_match_change", args=[match.pk])).content.decode()

    assert match.title in listing
    assert match.games.get().seed_hash in page
    assert 'name="password"' not in page


def test_ending_a_stuck_match_asks_for_a_reason_and_records_it(staff_client, carol, bob):
    match = start_match(carol, bob)
    url = reverse("admin:game_match_changelist")
    chosen = {"action": "end_matches", "_selected_action": [match.pk]}

    asked = staff_client.post(url, chosen)
    assert "reason" in asked.content.decode()
    assert Match.objects.get().status == MatchStatus.PLAYING

    staff_client.post(url, {**chosen, "reason": "stuck after a crash"})

    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.winner is None
    assert match.end_reason == "ended by staff (Overseer): stuck after a crash"
    assert match.games.get().ended is not None


def test_staff_open_a_matchs_replay_from_the_admin(staff_client, carol, bob):
    match = start_match(carol, bob)
    change = reverse("admin:game_match_change", args=[match.pk])
    assert reverse("game:match_page", args=[match.pk]) in staff_client.get(change).content.decode()

    match_concede(match_id=match.pk, player=bob)

    replay = reverse("game:match_replay", args=[match.pk])
    assert replay in staff_client.get(change).content.decode()
    assert staff_client.get(replay).status_code == 200
