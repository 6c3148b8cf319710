"""The Casual Lobby's matches area, the Create and Join windows, Match Info and the match
page (rulebook, Casual Lobby)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.decks.models import DeckCard
from collection.decks.services.avatar_creation import avatar_create
from game.models import Match, MatchStatus
from game.services.matches import (
    MatchSettings,
    match_concede,
    match_create,
    match_join,
    match_leave,
    match_ready,
)
from tcgsite.accounts import services as accounts
from tests.decks.test_avatar_creation import CHOICES
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_casual_lobby_shows_create_and_the_medallions_a_player_may_join(
    client, carol, bob, django_assert_max_num_queries
):
    match_create(host=carol, deck=carol.deck, settings=MatchSettings(title="Open duel"))
    dave = player_with_deck("Dave", "rebel")
    match_create(host=dave, deck=dave.deck, settings=MatchSettings(friends_only=True))
    client.force_login(bob)

    with django_assert_max_num_queries(30):
        page = client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()

    assert "Create" in page and "Open duel" in page and "Join Match" in page
    assert "Dave" not in page  # friends only, and Bob is not Dave's friend
    accounts.friend_add(user=dave, friend=bob)
    assert "Dave" in client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()


def test_the_trade_lobby_shows_the_matches_too_and_the_tournaments_lobby_does_not(
    client, carol, bob
):
    """Rulebook, Guilds, "Guild-Only Matches": matches are made "in the Casual Lobby and in
    the Trade Lobby"."""
    match_create(host=carol, deck=carol.deck, settings=MatchSettings(title="Open duel"))
    client.force_login(bob)

    trade = client.get(reverse("lobbies:lobby", args=["trade"])).content.decode()
    tournaments = client.get(reverse("lobbies:lobby", args=["tournaments"])).content.decode()

    assert "casual-matches" in trade and "Open duel" in trade
    assert "casual-matches" not in tournaments


def test_the_medallions_addresses_built_from_a_prefix_are_the_routes_own(client, carol, bob):
    """The medallions build Join Match and Match Info from a prefix instead of reversing them
    once per match (game.fragments.medallions): they are the addresses ``reverse`` gives."""
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(title="Open duel"))
    client.force_login(bob)

    page = client.get(reverse("lobbies:lobby", args=["trade"])).content.decode()

    assert f'hx-get="{reverse("game:match_join", args=[match.pk])}"' in page
    assert f'hx-get="{reverse("game:match_info", args=[match.pk])}"' in page


def test_the_trade_lobby_takes_the_same_queries_however_many_matches_wait(client, carol, bob):
    """The Trade Lobby's page (its medallions, the Posted Trades button) reads a constant
    number of queries whatever the number of waiting matches."""
    match_create(host=carol, deck=carol.deck, settings=MatchSettings(title="First"))
    client.force_login(bob)
    trade_lobby = reverse("lobbies:lobby", args=["trade"])
    client.get(trade_lobby)
    with CaptureQueriesContext(connection) as few:
        client.get(trade_lobby)
    for number in range(4):
        host = player_with_deck(f"Host{number}", "sith")
        match_create(host=host, deck=host.deck, settings=MatchSettings(title=f"More {number}"))
    with CaptureQueriesContext(connection) as many:
        page = client.get(trade_lobby).content.decode()

    assert page.count('class="medallion"') == 5
    assert len(many) == len(few)


def test_create_takes_the_player_to_the_match_launch_screen(client, carol):
    client.force_login(carol)
    form = client.get(reverse("game:match_create"), **HTMX).content.decode()
    assert f"✓ {carol.deck.name}" in form

    response = client.post(
        reverse("game:match_create"),
        {"title": "Duel", "structure": "3", "deck": carol.deck.pk, "allow_observers": "on"},
        **HTMX,
    )

    match = Match.objects.get()
    assert response.headers["HX-Redirect"] == reverse("game:match_page", args=[match.pk])
    assert (match.title, match.structure, match.allow_observers) == ("Duel", 3, True)
    page = client.get(response.headers["HX-Redirect"]).content.decode()
    assert "Ready to go" in page and "Waiting for an opponent" in page


@pytest.mark.parametrize(
    "form, message",
    [
        ({"structure": "1"}, "Choose one of your decks."),
        ({"structure": "2", "deck": "DECK"}, "Single Game, Best of Three or Best of Five"),
        ({"structure": "1", "deck": "999999"}, "Choose one of your decks."),
        ({"structure": "1", "deck": "x"}, "Choose one of your decks."),
        ({"structure": "1", "deck": "DECK", "time_limit": "77"}, "time limit from the list"),
        ({"structure": "1", "deck": "DECK", "time_limit": "soon"}, "time limit from the list"),
    ],
)
def test_a_refused_create_says_why_and_creates_nothing(client, carol, form, message):
    client.force_login(carol)
    form = {key: (carol.deck.pk if value == "DECK" else value) for key, value in form.items()}

    response = client.post(reverse("game:match_create"), form, **HTMX)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_joining_asks_for_the_password_and_refuses_a_wrong_one(client, carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(password="Secret"))
    client.force_login(bob)
    url = reverse("game:match_join", args=[match.pk])
    assert 'name="password"' in client.get(url, **HTMX).content.decode()

    refused = client.post(url, {"deck": bob.deck.pk, "password": "secret"}, **HTMX)
    assert "case-sensitive" in refused.content.decode()
    joined = client.post(url, {"deck": bob.deck.pk, "password": "Secret"}, **HTMX)

    assert joined.headers["HX-Redirect"] == reverse("game:match_page", args=[match.pk])
    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING


@pytest.mark.parametrize("htmx", [True, False])
def test_joining_a_match_another_player_took_a_moment_before_says_it_is_full(
    client, carol, bob, htmx
):
    """The medallion was still shown when Dave pressed Join Match: the window (or its page,
    409) says the match is full, and Dave takes no seat."""
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    dave = player_with_deck("Dave", "rebel")
    client.force_login(dave)
    url = reverse("game:match_join", args=[match.pk])
    headers = HTMX if htmx else {}
    match_join(match_id=match.pk, player=bob, deck=bob.deck)

    opened = client.get(url, **headers)
    joined = client.post(url, {"deck": dave.deck.pk}, **headers)

    full = f"Match {match.pk} is full: another player took its seat a moment before you."
    for response in (opened, joined):
        assert response.status_code == (200 if htmx else 409)
        assert full in response.content.decode()
        assert ">Join</button>" not in response.content.decode()
    assert sorted(match.seats.values_list("player__username", flat=True)) == ["Bob", "Carol"]


def test_accepting_a_challenge_its_host_cancelled_says_so(client, carol, bob):
    challenge = match_create(host=carol, deck=carol.deck, settings=MatchSettings(challenged=bob))
    match_leave(match_id=challenge.pk, player=carol)
    client.force_login(bob)

    response = client.post(reverse("game:match_join", args=[challenge.pk]), {"deck": bob.deck.pk})

    assert response.status_code == 409
    assert f"Match {challenge.pk} was cancelled: Carol cancelled the match." in (
        response.content.decode()
    )
    assert not challenge.seats.filter(player=bob).exists()


def test_match_info_shows_the_setup_and_the_players(client, carol, bob):
    match = start_match(carol, bob, light_vs_dark=True)
    client.force_login(bob)

    info = client.get(reverse("game:match_info", args=[match.pk]), **HTMX).content.decode()

    assert "Light vs. Dark</dt><dd>Yes" in info
    assert "Carol" in info and "(host)" in info and "Bob" in info


def info_answer(client, viewer, match):
    client.force_login(viewer)
    return client.get(reverse("game:match_info", args=[match.pk]), **HTMX)


def test_match_info_of_a_match_without_observers_is_for_its_players_and_staff(client, carol, bob):
    """Match numbers are sequential: Match Info follows the one rule that decides watching
    and replays, or any player could read who plays every private game with which deck."""
    match = start_match(carol, bob, allow_observers=False)
    stranger = player_with_deck("Dave", "rebel")

    refused = info_answer(client, stranger, match)

    assert refused.status_code == 403
    assert refused.content.decode() == "This match does not allow observers."
    assert info_answer(client, bob, match).status_code == 200
    assert (
        info_answer(client, UserFactory(username="Steward", is_staff=True), match).status_code
        == 200
    )


def test_match_info_of_a_waiting_match_is_for_those_its_medallion_shows_to(client, carol, bob):
    friends_only = match_create(
        host=carol, deck=carol.deck, settings=MatchSettings(friends_only=True)
    )

    refused = info_answer(client, bob, friends_only)

    assert refused.status_code == 403
    assert refused.content.decode() == "Only Carol's friends may join this match."
    accounts.friend_add(user=carol, friend=bob)
    assert "Friends Only</dt><dd>Yes" in info_answer(client, bob, friends_only).content.decode()


def test_a_match_not_begun_is_not_shown_to_others(client, carol, catalog):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    client.force_login(player_with_deck("Dave", "rebel"))

    response = client.get(reverse("game:match_page", args=[match.pk]))

    assert response.status_code == 403
    assert "join it from the Casual Lobby" in response.content.decode()


def test_a_player_sees_the_playmat_with_their_hand_and_the_prompt(client, carol, bob):
    match = start_match(carol, bob)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert 'class="playmat"' in page and "Your hand" in page and "Phase Meter" in page
    assert "Seed hash" in page and match.games.get().seed_hash[:12] in page


def test_the_buttons_of_the_match_page_say_why_they_are_refused(client, carol, bob):
    match = start_match(carol, bob)
    client.force_login(carol)

    response = client.post(reverse("game:match_leave", args=[match.pk]), **HTMX)

    assert response.status_code == 409
    assert "concede" in response.content.decode()


def test_a_timed_match_shows_its_clock_in_the_lobby_and_on_the_playmat(client, carol, bob):
    client.force_login(carol)
    client.post(
        reverse("game:match_create"),
        {"structure": "1", "deck": carol.deck.pk, "time_limit": "1800"},
        **HTMX,
    )
    match = Match.objects.get()
    assert match.time_limit == 1800
    client.force_login(bob)
    assert "30 min" in client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    for player in (carol, bob):
        match_ready(match_id=match.pk, player=player)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert page.count('data-clock-ms="') == 2 and page.count("data-clock-running") == 1
    assert "15:00" in page or "14:59" in page


def test_a_player_made_avatar_in_play_shows_its_face_to_everyone_who_sees_the_match(
    client, dave, bob
):
    """A card in play is public: the opponent, an observer and every replay see the face of
    an avatar made with Create Avatar, which outside the match is its creator's alone."""
    made = avatar_create(owner=dave, choices=CHOICES, name="Kell Dorran")
    DeckCard.objects.filter(deck=dave.deck, card__card_type="avatar").update(card=made)
    public = start_match(dave, bob)
    face = reverse("game:match_card_face", args=[public.pk, made.number])

    for player in (bob, dave):
        client.force_login(player)
        assert face in client.get(reverse("game:match_page", args=[public.pk])).content.decode()
    for viewer in (bob, UserFactory(username="Watcher")):
        client.force_login(viewer)
        answer = client.get(face + "?size=large")
        assert answer.status_code == 200 and "Kell Dorran" in answer.content.decode()
        assert answer["Cache-Control"].startswith("private")
    assert client.get(reverse("cards:card_face", args=[0, made.number])).status_code == 404
    match_concede(match_id=public.pk, player=bob)
    assert client.get(face).status_code == 200  # in the replay too
    unplayed = reverse("game:match_card_face", args=[public.pk, made.number + 1])
    assert client.get(unplayed).status_code == 404

    private = start_match(dave, bob, allow_observers=False)
    private_face = reverse("game:match_card_face", args=[private.pk, made.number])
    assert client.get(private_face).status_code == 404
    client.force_login(bob)
    assert client.get(private_face).status_code == 200
