"""Quick Join (rulebook, Casual Lobby: "If a game in the lobby matches your settings, you'll
join that game; otherwise, a game will be created using your settings.")"""

import pytest
from django.urls import reverse

from game.models import Match, MatchStatus, QuickJoinSettings
from game.services.matches import (
    MatchError,
    MatchSettings,
    match_create,
    quick_join,
    quick_join_settings_save,
)
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_quick_join_joins_a_waiting_match_that_fits(carol, bob):
    waiting = match_create(host=carol, deck=carol.deck, settings=MatchSettings())

    joined = quick_join(player=bob)

    assert joined.pk == waiting.pk and joined.status == MatchStatus.LAUNCHING


def test_quick_join_passes_over_matches_that_do_not_fit_and_creates_one(carol, bob):
    match_create(host=carol, deck=carol.deck, settings=MatchSettings(structure=3))
    dave = player_with_deck("Dave", "rebel")
    match_create(host=dave, deck=dave.deck, settings=MatchSettings(password="Secret"))

    created = quick_join(player=bob)

    assert created.host == bob and created.status == MatchStatus.OPEN
    assert Match.objects.count() == 3


def test_quick_join_follows_the_saved_settings(carol, bob):
    quick_join_settings_save(player=bob, structure=3, time_limit=1800, deck=bob.deck)
    fitting = match_create(
        host=carol, deck=carol.deck, settings=MatchSettings(structure=3, time_limit=1800)
    )

    assert quick_join(player=bob).pk == fitting.pk


def test_quick_join_settings_are_checked(carol, bob):
    with pytest.raises(MatchError, match="time limit"):
        quick_join_settings_save(player=bob, structure=1, time_limit=77, deck=None)
    with pytest.raises(MatchError, match="your own"):
        quick_join_settings_save(player=bob, structure=1, time_limit=None, deck=carol.deck)
    assert not QuickJoinSettings.objects.exists()


def test_the_casual_lobby_offers_quick_join_and_its_settings(client, carol, bob):
    client.force_login(bob)
    lobby = client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()
    assert "Quick Join" in lobby and "data-quick-join-settings" in lobby

    saved = client.post(
        reverse("game:quick_join_settings"),
        {"structure": "3", "time_limit": "0", "deck": bob.deck.pk},
        **HTMX,
    )
    assert "Saved" in saved.content.decode()
    response = client.post(reverse("game:quick_join"), **HTMX)

    match = Match.objects.get()
    assert response.headers["HX-Redirect"] == reverse("game:match_page", args=[match.pk])
    assert (match.host, match.structure) == (bob, 3)


def test_quick_join_without_a_deck_says_so(client, catalog):
    client.force_login(UserFactory(username="Newcomer"))

    response = client.post(reverse("game:quick_join"), **HTMX)

    assert response.status_code == 409
    assert "needs a valid deck" in response.content.decode()
