"""What matches add to a name's menu in a User List (rulebook, "User Lists"): Join hosted
game and Observe match, registered by the game app into the lobbies' menu."""

import pytest
from django.urls import reverse

from game.services.matches import MatchSettings, match_create
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db


def menu(client, lobby, name) -> str:
    return client.get(reverse("lobbies:user_menu", args=[lobby, name])).content.decode()


def test_join_hosted_game_opens_the_join_window_of_the_match_a_player_hosts(client, carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    client.force_login(bob)

    entries = menu(client, "casual", "Carol")

    assert "Join hosted game" in entries
    assert reverse("game:match_join", args=[match.pk]) in entries
    assert "Join hosted game" not in menu(client, "trade", "Carol")
    assert "Join hosted game" not in menu(client, "casual", "Bob")


def test_a_friends_only_match_is_offered_only_to_friends(client, carol, bob):
    match_create(host=carol, deck=carol.deck, settings=MatchSettings(friends_only=True))
    client.force_login(bob)

    assert "Join hosted game" not in menu(client, "casual", "Carol")


def test_observe_match_is_offered_while_a_player_plays_a_match_open_to_observers(
    client, carol, bob
):
    match = start_match(carol, bob)
    client.force_login(UserFactory(username="Dave"))

    entries = menu(client, "trade", "Bob")
    info = client.get(reverse("game:match_info", args=[match.pk])).content.decode()

    assert "Observe match" in entries
    assert reverse("game:match_page", args=[match.pk]) in info and "Observe Match" in info


def test_a_private_match_is_not_offered_to_observe(client, carol, bob):
    start_match(carol, bob, allow_observers=False)
    client.force_login(UserFactory(username="Dave"))

    assert "Observe match" not in menu(client, "casual", "Bob")
