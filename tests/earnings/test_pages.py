"""The Main Lobby's Daily quests panel (rulebook, "The Main Lobby") and what staff see of
earnings in the admin."""

from datetime import UTC, datetime
from unittest import mock

import pytest
from django.urls import reverse

from collection.earnings.facts import GameFacts, MatchFacts, SeatFacts
from collection.earnings.rates import rates
from collection.earnings.services import match_earnings_pay
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Noon on a day whose quests are "Win a Skirmish at Normal", "Play 20 units" and "Play a
# Skirmish at Hard" (the rotation of collection/earnings/quests.py).
NOON = datetime(2026, 12, 7, 12, tzinfo=UTC)


def units_played_in_a_won_casual_match(player, opponent, units: int) -> None:
    match_earnings_pay(
        match=MatchFacts(
            match_id=1,
            day=NOON.date(),
            mode="casual",
            games=(GameFacts(turns=14, decided_by_play=True),),
            seats=(
                SeatFacts(
                    player_id=player.pk,
                    side=0,
                    archetype="jedi",
                    computer_level="",
                    won=True,
                    units_played=units,
                ),
                SeatFacts(
                    player_id=opponent.pk, side=1, archetype="sith", computer_level="", won=False
                ),
            ),
        )
    )


def test_the_main_lobby_shows_the_days_three_quests_with_progress_and_wins_paid(client):
    carol = UserFactory(username="Carol")
    client.force_login(carol)
    with mock.patch("django.utils.timezone.now", return_value=NOON):
        units_played_in_a_won_casual_match(carol, UserFactory(), units=8)
        page = client.get(reverse("lobby")).content.decode()

    panel = page[page.index('id="daily-quests"') :]
    for title in ("Win a Skirmish at Normal", "Play 20 units", "Play a Skirmish at Hard"):
        assert title in panel
    assert 'max="20" value="8"' in panel
    assert "8 / 20" in panel
    wins = rates().wins
    assert f"Wins paid today: <strong>1 of {wins.daily_cap}</strong>" in panel
    assert f"Earned today: <strong>{wins.credits} credits</strong>" in panel
    assert "A quest is replaced in 12 h 00 min" in panel


def test_a_completed_quest_is_marked_paid(client):
    carol = UserFactory(username="Carol")
    client.force_login(carol)
    with mock.patch("django.utils.timezone.now", return_value=NOON):
        units_played_in_a_won_casual_match(carol, UserFactory(), units=21)
        page = client.get(reverse("lobby")).content.decode()

    assert "✓ Completed, credits paid" in page
    assert 'max="20" value="20"' in page
    both = rates().wins.credits + rates().quest("units-twenty").credits  # the win and the quest
    assert f"Earned today: <strong>{both} credits</strong>" in page


def test_staff_read_the_quests_and_the_income_records(admin_client):
    carol = UserFactory(username="Carol")
    units_played_in_a_won_casual_match(carol, UserFactory(), units=21)

    quests = admin_client.get(reverse("admin:earnings_questprogress_changelist"))
    earnings = admin_client.get(reverse("admin:earnings_earning_changelist"))
    tallies = admin_client.get(reverse("admin:earnings_matchtally_changelist"))

    assert quests.status_code == earnings.status_code == tallies.status_code == 200
    assert "Quest catalogue" in quests.text and "Raid 8 times" in quests.text
    assert "Won match 1" in earnings.text
    assert admin_client.get(reverse("admin:earnings_earning_add")).status_code == 403


def test_the_store_says_how_to_earn_and_lists_what_was_earned(client, catalog):
    carol = UserFactory(username="Carol")
    units_played_in_a_won_casual_match(carol, UserFactory(), units=3)
    client.force_login(carol)

    page = client.get(reverse("collection:store")).content.decode()

    assert "daily quests in the" in page and f'href="{reverse("lobby")}"' in page
    assert "Won match 1" in page  # the Store's Recent credits
