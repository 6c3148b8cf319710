"""Practice Games (rulebook, Casual Lobby: "A Practice Game can be played by any two players,
even if there are no cards in their collections. Each player in a Practice Game uses a fixed
deck to play. The two decks are the same in each Practice Game, and are randomly assigned to
the two players.")"""

import pytest
from django.urls import reverse

from game.models import Match, MatchStatus
from game.selectors import PRACTICE_ARCHETYPES
from game.services.matches import MatchSettings, match_create, match_join, match_ready
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def practice(host, guest):
    match = match_create(host=host, deck=None, settings=MatchSettings(practice=True))
    match_join(match_id=match.pk, player=guest, deck=None)
    for player in (host, guest):
        match_ready(match_id=match.pk, player=player)
    match.refresh_from_db()
    return match


def test_two_players_with_no_cards_play_the_two_fixed_decks(catalog):
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    assert not carol.decks.exists() and not bob.decks.exists()

    match = practice(carol, bob)

    assert match.status == MatchStatus.PLAYING
    archetypes = sorted(match.seats.values_list("archetype", flat=True))
    assert archetypes == sorted(PRACTICE_ARCHETYPES)
    game = match.games.get()
    avatars = sorted(decklist["avatar"]["archetype"] for decklist in game.decklists)
    assert avatars == sorted(PRACTICE_ARCHETYPES)
    assert all(seat.faces for seat in match.seats.all())


def test_the_decks_are_dealt_at_random(catalog):
    dealt = set()
    for number in range(16):
        carol = UserFactory(username=f"Carol{number}")
        bob = UserFactory(username=f"Bob{number}")
        dealt.add(practice(carol, bob).seats.get(seat=0).archetype)
    assert dealt == set(PRACTICE_ARCHETYPES)  # fails by chance once in 2**15 runs


def test_the_casual_lobby_offers_practice_game_and_its_join_needs_no_deck(client, catalog):
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    client.force_login(carol)
    assert "Practice Game" in client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()

    created = client.post(reverse("game:practice_create"), **HTMX)

    match = Match.objects.get()
    assert created.headers["HX-Redirect"] == reverse("game:match_page", args=[match.pk])
    assert match.practice and match.title == "Practice Game"
    client.force_login(bob)
    form = client.get(reverse("game:match_join", args=[match.pk]), **HTMX).content.decode()
    assert "fixed practice decks" in form and 'name="deck"' not in form
    joined = client.post(reverse("game:match_join", args=[match.pk]), {}, **HTMX)
    assert joined.headers["HX-Redirect"] == reverse("game:match_page", args=[match.pk])
