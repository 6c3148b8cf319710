"""The Casual Lobby's windows and the Match Launch screen of a 2-versus-2 team game (rulebook,
Casual Lobby, "Creating a Match", "Number of Players": "You can select the normal game for 2
players, or a multiplayer 2-versus-2 team game for 4 players"; MULTIPLAYER GAMES): bad input
gets its clear message in the window, never a 500."""

import pytest
from django.urls import reverse

from game.models import Match, MatchStatus
from game.selectors import match_replay
from game.services.matches import (
    MatchSettings,
    match_concede,
    match_create,
    match_join,
    match_ready,
)
from game.services.team_matches import match_fill_with_computers
from tests.game.conftest import player_with_deck

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dora(catalog):
    return player_with_deck("Dora", "rebel")


def create(client, player, **fields):
    return client.post(
        reverse("game:match_create"), {"deck": player.deck.pk, "structure": "1", **fields}, **HTMX
    ).content.decode()


def test_the_create_window_offers_two_or_four_players(client, carol):
    client.force_login(carol)

    page = client.get(reverse("game:match_create")).content.decode()

    assert "Number of Players" in page
    assert '<option value="2" selected>2 players</option>' in page
    assert '<option value="4">4 players: a 2-versus-2 team game</option>' in page


def test_creating_a_four_player_match_makes_a_team_game(client, carol):
    client.force_login(carol)

    response = client.post(
        reverse("game:match_create"),
        {"deck": carol.deck.pk, "structure": "1", "players": "4"},
        **HTMX,
    )

    match = Match.objects.get()
    assert response.headers["HX-Redirect"] == reverse("game:match_page", args=[match.pk])
    assert match.players == 4 and match.team_game


@pytest.mark.parametrize("players", ["3", "1", "-4", "four", "99999999999999999999", ""])
def test_a_number_of_players_other_than_two_or_four_is_refused_in_words(client, carol, players):
    client.force_login(carol)

    response = client.post(
        reverse("game:match_create"),
        {"deck": carol.deck.pk, "structure": "1", "players": players, "title": "Kept title"},
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose the game for 2 players, or the 2-versus-2 team game for 4." in page
    assert 'value="Kept title"' in page  # nothing typed is lost
    assert not Match.objects.exists()


def test_a_team_game_of_best_of_three_is_refused_with_the_services_message(client, carol):
    client.force_login(carol)

    page = create(client, carol, players="4", structure="3", title="Three games")

    assert "A 2-versus-2 team game is a Single Game" in page
    assert 'value="Three games"' in page
    assert '<option value="4" selected>' in page
    assert not Match.objects.exists()


def test_the_lobby_lists_a_team_game_as_two_versus_two_with_its_seats_taken(
    client, carol, bob, dora
):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    match_join(match_id=match.pk, player=dora, deck=dora.deck, team=0)
    client.force_login(bob)

    page = client.get(reverse("lobbies:lobby", args=["casual"])).content.decode()

    assert ">2 v 2</span>" in page
    assert 'title="Players">2/4</span>' in page


def test_the_join_window_of_a_team_game_lets_the_player_choose_a_team(client, carol, bob, dora):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    match_join(match_id=match.pk, player=bob, deck=bob.deck, team=1)
    client.force_login(dora)

    page = client.get(reverse("game:match_join", args=[match.pk])).content.decode()
    assert "Team 1</strong>: Carol, <span" in page
    assert "Team 2</strong>: Bob, <span" in page

    response = client.post(
        reverse("game:match_join", args=[match.pk]), {"deck": dora.deck.pk, "team": "1"}, **HTMX
    )

    assert response.status_code == 200
    assert match.seats.get(player=dora).seat == 2  # beside Carol (seats 0 and 2)


def test_a_full_team_is_greyed_out_and_refused_when_chosen_anyway(client, carol, bob, dora, erin):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    match_join(match_id=match.pk, player=dora, deck=dora.deck, team=0)
    client.force_login(bob)

    page = client.get(reverse("game:match_join", args=[match.pk])).content.decode()
    assert 'name="team" value="1" disabled' in page and "(full)" in page

    response = client.post(
        reverse("game:match_join", args=[match.pk]), {"deck": bob.deck.pk, "team": "1"}
    )

    assert response.status_code == 400
    assert "Team 1 is full: join the other team." in response.content.decode()
    assert not match.seats.filter(player=bob).exists()


@pytest.mark.parametrize("team", ["3", "0", "red", "-1", "1" * 30])
def test_a_team_that_is_not_one_or_two_is_refused_in_words(client, carol, bob, team):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    client.force_login(bob)

    response = client.post(
        reverse("game:match_join", args=[match.pk]), {"deck": bob.deck.pk, "team": team}
    )

    assert response.status_code == 400
    assert "Choose team 1 or team 2." in response.content.decode()


def test_either_team_seats_the_joiner_at_the_first_free_seat(client, carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    client.force_login(bob)

    client.post(
        reverse("game:match_join", args=[match.pk]), {"deck": bob.deck.pk, "team": "any"}, **HTMX
    )

    assert match.seats.get(player=bob).seat == 1


def test_a_full_team_game_is_refused_clearly(client, carol, bob, dora, erin, catalog):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    for player in (bob, dora, erin):
        match_join(match_id=match.pk, player=player, deck=player.deck)
    frank = player_with_deck("Frank", "jedi")
    client.force_login(frank)

    response = client.post(
        reverse("game:match_join", args=[match.pk]), {"deck": frank.deck.pk, "team": "1"}
    )

    assert response.status_code == 409
    assert f"Match {match.pk} is full" in response.content.decode()


def test_the_launch_screen_shows_both_teams_with_their_empty_seats(client, carol, dora):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    match_join(match_id=match.pk, player=dora, deck=dora.deck, team=0)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert page.count('class="launch__team"') == 2
    assert page.count("Empty seat: waiting for a player") == 2
    assert "Fill empty seats with computer players" in page
    assert "disabled" in page.split("Ready to go")[0].rsplit("<button", 1)[1]


def test_only_the_host_sees_the_fill_button_and_only_while_seats_are_free(client, carol, dora):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    match_join(match_id=match.pk, player=dora, deck=dora.deck, team=0)
    page_url = reverse("game:match_page", args=[match.pk])
    client.force_login(dora)
    assert "Fill empty seats" not in client.get(page_url).content.decode()

    client.force_login(carol)
    response = client.post(reverse("game:match_fill_with_computers", args=[match.pk]), **HTMX)

    assert response.status_code == 204
    page = client.get(page_url).content.decode()
    assert "Fill empty seats" not in page and "Empty seat" not in page
    assert page.count("launch__player--ready") == 2  # the computers, ready at once


def test_filling_seats_refused_for_a_guest_comes_back_in_words(client, carol, dora):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    match_join(match_id=match.pk, player=dora, deck=dora.deck, team=0)
    client.force_login(dora)

    response = client.post(reverse("game:match_fill_with_computers", args=[match.pk]), **HTMX)

    assert response.status_code == 409
    assert response.content.decode() == "Only the match's host may seat computer players."


def test_filling_the_seats_of_a_match_that_does_not_exist_is_refused_in_words(client, carol):
    client.force_login(carol)

    response = client.post(reverse("game:match_fill_with_computers", args=[987654]), **HTMX)

    assert response.status_code == 409
    assert response.content.decode() == "There is no such match."


def four_playing(carol, dora) -> Match:
    """Carol and Dora (seats 0 and 2) against two computer players, begun."""
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4))
    match_join(match_id=match.pk, player=dora, deck=dora.deck, team=0)
    match_fill_with_computers(match_id=match.pk, player=carol)
    for player in (carol, dora):
        match_ready(match_id=match.pk, player=player)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    return match


def test_concede_in_a_team_game_says_the_teammate_plays_on(client, carol, dora):
    match = four_playing(carol, dora)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert "your teammate Dora plays on alone against both opponents" in page


def test_a_player_who_left_is_told_the_game_goes_on_for_the_others(client, carol, dora):
    match = four_playing(carol, dora)
    match_concede(match_id=match.pk, player=carol)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert "You have left this game." in page and "It goes on for the others" in page
    assert "Concede (leave the game)" not in page
    client.force_login(dora)
    assert (
        "You have left this game."
        not in client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    )


def test_the_end_of_a_team_game_names_the_winning_teams_players(client, carol, dora, bob):
    match = four_playing(carol, dora)
    computers = [seat.player.username for seat in match.seats.order_by("seat")][1::2]
    match_concede(match_id=match.pk, player=carol)
    match_concede(match_id=match.pk, player=dora)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    winners = " and ".join(computers)

    client.force_login(dora)
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert "Defeat" in page
    assert f"{winners} win the game by the last opposing player leaving the game." in page

    client.force_login(bob)  # an observer
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert f">{winners} win</h2>" in page


def test_the_replay_of_a_team_game_names_the_winning_side(client, carol, dora):
    match = four_playing(carol, dora)
    computers = [seat.player.username for seat in match.seats.order_by("seat")][1::2]
    match_concede(match_id=match.pk, player=carol)
    match_concede(match_id=match.pk, player=dora)

    screen = match_replay(
        match_id=match.pk, viewer=dora, game_number=None, step=None, own_view=False
    )

    assert screen.replay["result"] == (
        f"{' and '.join(computers)} win the game by the last opposing player leaving the game"
    )


def test_match_info_of_a_team_game_says_four_players_and_each_players_team(
    client, carol, bob, dora
):
    match = match_create(
        host=carol, deck=carol.deck, settings=MatchSettings(players=4, time_limit=40 * 60)
    )
    match_join(match_id=match.pk, player=dora, deck=dora.deck, team=0)
    client.force_login(bob)

    page = client.get(reverse("game:match_info", args=[match.pk]), **HTMX).content.decode()

    assert "4 players: a 2-versus-2 team game" in page
    assert "40 minutes, a quarter for each player" in page
    assert "<strong>Carol</strong> (host): Light side, Jedi · team 1" in page
    assert "<strong>Dora</strong>: Light side, Rebel · team 1" in page
