"""Presence and the User Lists (rulebook, "User Lists"): who each lobby lists, in which colour,
and how players leave the lists when their pages close or their process dies."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from tcgsite.lobbies.models import Connection, Presence
from tcgsite.lobbies.places import Lobby, Place, Status, lobbies_showing
from tcgsite.lobbies.selectors import friends_page, lobby_users
from tcgsite.lobbies.services import presence
from tcgsite.lobbies.services.presence import (
    presence_close,
    presence_heartbeats,
    presence_open,
    presence_sweep,
    presence_sweep_if_due,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The lobby messages the presence service sends, as (group, payload)."""
    messages = []
    monkeypatch.setattr(
        presence,
        "send_on_commit",
        lambda *, group, message_type, payload: messages.append((group, payload)),
    )
    return messages


def listed(lobby):
    return {user.username: (status, place) for user, status, place in lobby_users(lobby=lobby)}


def test_statuses_follow_the_rulebooks_colours():
    """White in this lobby, green starting a game, red in a game, the Deck Builder or the
    Collection Manager, dark gray at the Main Lobby."""
    assert lobbies_showing(room=Lobby.CASUAL, place=Place.CASUAL) == {Lobby.CASUAL: Status.HERE}
    assert lobbies_showing(room=Lobby.CASUAL, place=Place.LAUNCH) == {Lobby.CASUAL: Status.STARTING}
    for busy in (Place.GAME, Place.DECK_BUILDER, Place.COLLECTION):
        assert lobbies_showing(room=Lobby.CASUAL, place=busy) == {Lobby.CASUAL: Status.BUSY}
    assert lobbies_showing(room=Lobby.CASUAL, place=Place.MAIN) == {
        Lobby.MAIN: Status.HERE,
        Lobby.CASUAL: Status.AWAY,
    }
    assert Status.HERE.label == "white" and Status.AWAY.label == "dark gray"


def test_entering_a_lobby_lists_the_player_there_and_tells_that_lobby(sent):
    carol = UserFactory(username="Carol")

    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)

    assert listed(Lobby.CASUAL) == {"Carol": (Status.HERE, Place.CASUAL)}
    assert listed(Lobby.TRADE) == {}
    ((group, payload),) = sent
    assert group == "lobby.casual"
    assert payload["arrived"] and not payload["left"] and "user-row--here" in payload["row"]


def test_opening_the_deck_builder_keeps_the_player_in_their_lobby_as_busy(sent):
    carol = UserFactory(username="Carol")
    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)
    presence_close(channel_name="c1")
    presence_open(user=carol, channel_name="c2", place=Place.DECK_BUILDER)

    assert listed(Lobby.CASUAL) == {"Carol": (Status.BUSY, Place.DECK_BUILDER)}
    group, payload = sent[-1]
    assert group == "lobby.casual" and not payload["arrived"] and "user-row--busy" in payload["row"]


def test_the_main_lobby_lists_its_visitors_and_their_lobby_shows_them_dark_gray():
    carol = UserFactory(username="Carol")
    presence_open(user=carol, channel_name="c1", place=Place.TRADE)
    presence_open(user=carol, channel_name="c2", place=Place.MAIN)

    assert listed(Lobby.MAIN) == {"Carol": (Status.HERE, Place.MAIN)}
    assert listed(Lobby.TRADE) == {"Carol": (Status.AWAY, Place.MAIN)}


def test_a_player_who_never_entered_a_lobby_is_listed_in_the_main_lobby():
    presence_open(user=UserFactory(username="Carol"), channel_name="c1", place=Place.COLLECTION)
    assert listed(Lobby.MAIN) == {"Carol": (Status.BUSY, Place.COLLECTION)}


def test_entering_another_lobby_moves_the_player(sent):
    carol = UserFactory(username="Carol")
    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)
    presence_open(user=carol, channel_name="c2", place=Place.TRADE)

    assert listed(Lobby.CASUAL) == {}
    assert listed(Lobby.TRADE) == {"Carol": (Status.HERE, Place.TRADE)}
    left = [payload for group, payload in sent if group == "lobby.casual" and payload["left"]]
    assert len(left) == 1


def test_closing_a_page_keeps_the_player_listed_for_the_grace_period_then_the_sweep_removes_them(
    sent, settings
):
    carol = UserFactory(username="Carol")
    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)
    presence_close(channel_name="c1")

    assert presence_sweep() == 0
    assert "Carol" in listed(Lobby.CASUAL)

    Connection.objects.update(
        closed_at=timezone.now() - timedelta(seconds=settings.LOBBY_PRESENCE_GRACE_SECONDS + 1)
    )
    assert presence_sweep() == 1
    assert listed(Lobby.CASUAL) == {}
    assert not Connection.objects.exists()
    group, payload = sent[-1]
    assert group == "lobby.casual" and payload["left"]
    assert presence_sweep() == 0  # safe to run twice


def test_the_connections_of_a_dead_process_expire(sent, settings):
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    presence_open(user=carol, channel_name="dead.1", place=Place.CASUAL)
    presence_open(user=bob, channel_name="alive.1", place=Place.CASUAL)
    silent_since = timezone.now() - timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS + 1)
    Connection.objects.filter(channel_name="dead.1").update(seen_at=silent_since)

    assert presence_sweep() == 1

    assert set(listed(Lobby.CASUAL)) == {"Bob"}


def test_a_second_tab_keeps_the_player_when_the_first_closes():
    carol = UserFactory(username="Carol")
    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)
    presence_open(user=carol, channel_name="c2", place=Place.DECK_BUILDER)
    presence_close(channel_name="c2")

    assert listed(Lobby.CASUAL) == {"Carol": (Status.HERE, Place.CASUAL)}


def test_the_heartbeat_reopens_a_connection_swept_while_its_process_stalled(settings):
    carol = UserFactory(username="Carol")
    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)
    Connection.objects.update(
        seen_at=timezone.now() - timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS + 1)
    )
    presence_sweep()
    assert not Presence.objects.exists()

    presence_heartbeats(sockets=[(carol, "c1", Place.CASUAL)])

    assert listed(Lobby.CASUAL) == {"Carol": (Status.HERE, Place.CASUAL)}


@pytest.mark.slow
def test_one_heartbeat_keeps_every_socket_of_a_process_fresh_in_a_few_queries(
    settings, django_assert_max_num_queries, monkeypatch
):
    # Batches of 20 instead of 500: 50 sockets make three batches, as 1,200 do with 500, and
    # a query per socket would still be 50 queries against the 6 allowed.
    monkeypatch.setattr(presence, "BEAT_BATCH", 20)
    players = [UserFactory(username=f"Player{index}") for index in range(50)]
    for index, player in enumerate(players):
        presence_open(user=player, channel_name=f"c{index}", place=Place.CASUAL)
    stale = timezone.now() - timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS - 1)
    Connection.objects.update(seen_at=stale)
    cache.add(presence.SWEEP_LOCK, 1)  # another process swept just now

    with django_assert_max_num_queries(6):
        presence_heartbeats(
            sockets=[(player, f"c{index}", Place.CASUAL) for index, player in enumerate(players)]
        )

    assert not Connection.objects.filter(seen_at=stale).exists()


def test_a_deleted_players_socket_does_not_stop_the_heartbeat_of_the_others(settings):
    carol, gone = UserFactory(username="Carol"), UserFactory(username="Gone")
    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)
    presence_open(user=gone, channel_name="c2", place=Place.CASUAL)
    Connection.objects.update(
        seen_at=timezone.now() - timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS + 1)
    )
    presence_sweep()
    gone.delete()

    presence_heartbeats(sockets=[(gone, "c2", Place.CASUAL), (carol, "c1", Place.CASUAL)])

    assert listed(Lobby.CASUAL) == {"Carol": (Status.HERE, Place.CASUAL)}


def test_the_heartbeats_sweep_runs_once_per_grace_period_across_processes():
    cache.delete(presence.SWEEP_LOCK)
    carol = UserFactory(username="Carol")
    presence_open(user=carol, channel_name="c1", place=Place.CASUAL)
    Connection.objects.update(closed_at=timezone.now() - timedelta(minutes=1))

    assert presence_sweep_if_due() == 1
    presence_open(user=carol, channel_name="c2", place=Place.CASUAL)
    Connection.objects.update(closed_at=timezone.now() - timedelta(minutes=1))
    assert presence_sweep_if_due() == 0  # another sweep ran within the grace period
    cache.delete(presence.SWEEP_LOCK)
    assert presence_sweep_if_due() == 1


def test_friends_page_lists_online_friends_first_with_where_they_are(django_assert_max_num_queries):
    me = UserFactory(username="Me")
    for name in ("Alda", "Brin", "Cato"):
        me.friends.add(UserFactory(username=name))
    presence_open(user=me.friends.get(username="Cato"), channel_name="c1", place=Place.CASUAL)
    presence_open(user=me.friends.get(username="Cato"), channel_name="c2", place=Place.DECK_BUILDER)
    me.ignored.add(UserFactory(username="Troll"))

    with django_assert_max_num_queries(4):
        page = friends_page(user=me)
        names = [(entry.user.username, entry.whereabouts.description) for entry in page["friends"]]
        ignored = [entry.user.username for entry in page["ignored"]]
        avatars = [entry.user.preferences.avatar_choice for entry in page["friends"]]

    assert names == [
        ("Cato", "In the Deck Builder, listed in the Casual Lobby"),
        ("Alda", "Offline"),
        ("Brin", "Offline"),
    ]
    assert ignored == ["Troll"] and len(avatars) == 3
