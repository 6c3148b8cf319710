"""The Casual Lobby's matches in progress (rulebook, Casual Lobby: "An area showing matches in
progress", "Joining a Match": "Another number will appear below this if the match has
observers", "Observing Matches"): who sees which, with how many observers, and at what cost."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from game.models import MatchStatus
from game.selectors import running_matches
from game.services.attendance import (
    match_observers_sweep,
    match_socket_close,
    match_socket_open,
)
from game.services.matches import (
    MatchSettings,
    match_concede,
    match_create,
    match_join,
    match_ready,
)
from game.services.offers import match_offer, match_offer_answer
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.models import Connection
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match
from tests.game.test_guild_only_matches import guild_with

pytestmark = pytest.mark.django_db


def observe(match, viewer, socket: str) -> None:
    """``viewer`` opens the match's page in one more tab: its socket, as the consumer opens it
    (presence first, then the match's attendance)."""
    Connection.objects.create(channel_name=socket, user=viewer, place="game")
    match_socket_open(match_id=match.pk, player=viewer, channel_name=socket)


def listed(viewer) -> list[int]:
    return [match.pk for match in running_matches(viewer=viewer)]


def test_a_match_in_progress_is_listed_to_everyone_with_who_plays_whom(carol, bob):
    outsider = UserFactory(username="Mira")
    match = start_match(carol, bob, title="Duel of the Fates")

    [shown] = running_matches(viewer=outsider)

    assert shown.pk == match.pk and shown.observer_count == 0 and shown.game_number == 1
    assert [seat.player.username for seat in shown.seats.all()] == ["Carol", "Bob"]


def test_a_waiting_match_is_not_in_progress(carol):
    match_create(host=carol, deck=carol.deck, settings=MatchSettings())

    assert listed(UserFactory(username="Mira")) == []


def test_a_guild_only_match_in_progress_is_listed_to_its_guilds_members_alone(carol, bob):
    member, outsider = UserFactory(username="Mira"), UserFactory(username="Dave")
    guild_with(carol, bob, member)
    match = start_match(carol, bob, guild_only=True)

    assert listed(member) == [match.pk]
    assert listed(outsider) == []


def test_friends_only_and_a_password_keep_others_from_joining_not_from_watching(carol, bob):
    """Rulebook, Casual Lobby, "Friends Only": it prevents "anyone not on your Friends List from
    joining your match"; observing follows "Allow Observers" alone."""
    outsider = UserFactory(username="Mira")
    accounts.friend_add(user=carol, friend=bob)
    match = match_create(
        host=carol, deck=carol.deck, settings=MatchSettings(friends_only=True, password="hush")
    )
    match_join(match_id=match.pk, player=bob, deck=bob.deck, password="hush")
    match_ready(match_id=match.pk, player=carol)
    match_ready(match_id=match.pk, player=bob)

    assert listed(outsider) == [match.pk]


def test_a_match_that_allows_no_observers_is_listed_to_its_players_alone(carol, bob):
    match = start_match(carol, bob, allow_observers=False)

    assert listed(UserFactory(username="Mira")) == []
    assert listed(carol) == [match.pk] and listed(bob) == [match.pk]


def test_a_finished_match_and_an_adjourned_one_leave_the_list(carol, bob):
    viewer = UserFactory(username="Mira")
    finished = start_match(carol, bob)
    match_concede(match_id=finished.pk, player=bob)
    dave, erin = player_with_deck("Dave", "rebel"), player_with_deck("Erin", "imperial")
    adjourned = start_match(dave, erin)
    match_offer(match_id=adjourned.pk, player=dave, offer="adjourn")
    match_offer_answer(match_id=adjourned.pk, player=erin, accept=True)
    adjourned.refresh_from_db()

    assert adjourned.status == MatchStatus.ADJOURNED
    assert listed(viewer) == []


def test_observers_count_once_each_whatever_their_tabs_and_not_after_their_process_died(carol, bob):
    match = start_match(carol, bob)
    mira, dave = UserFactory(username="Mira"), UserFactory(username="Dave")
    observe(match, mira, "mira-tab-1")
    observe(match, mira, "mira-tab-2")
    observe(match, dave, "dave-tab")
    Connection.objects.create(channel_name="carol-tab", user=carol, place="game")
    match_socket_open(match_id=match.pk, player=carol, channel_name="carol-tab")

    assert running_matches(viewer=mira)[0].observer_count == 2
    match_socket_close(match_id=match.pk, player=mira, channel_name="mira-tab-1")
    assert running_matches(viewer=mira)[0].observer_count == 2
    silent = timezone.now() - timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS + 5)
    Connection.objects.filter(channel_name="dave-tab").update(seen_at=silent)
    assert running_matches(viewer=mira)[0].observer_count == 1
    assert match_observers_sweep() == 1
    assert match_observers_sweep() == 0  # safe to run twice
    assert match.observers.get().channel_name == "mira-tab-2"


def test_the_casual_lobby_shows_the_matches_in_progress_in_the_same_queries_however_many(
    client, carol, bob
):
    viewer = UserFactory(username="Mira")
    first = start_match(carol, bob, title="First duel")
    observe(first, UserFactory(username="Watcher"), "watcher-tab")
    client.force_login(viewer)
    casual = reverse("lobbies:lobby", args=["casual"])
    client.get(casual)
    with CaptureQueriesContext(connection) as few:
        client.get(casual)
    for number in range(3):
        host, guest = (
            player_with_deck(f"Host{number}", "jedi"),
            player_with_deck(f"Guest{number}", "sith"),
        )
        start_match(host, guest, title=f"More {number}", structure=3)
    with CaptureQueriesContext(connection) as many:
        page = client.get(casual).content.decode()

    assert page.count("medallion--running") == 4
    assert "Carol vs Bob" in page and "Observe Match" in page and "1 observer" in page
    assert "game 1 of 3" in page
    assert len(many) == len(few)


def test_a_player_of_the_match_is_offered_back_to_it_not_to_observe(client, carol, bob):
    start_match(carol, bob)
    client.force_login(carol)

    page = client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()

    assert "Back to the match" in page and "Observe Match" not in page
