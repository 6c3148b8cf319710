"""Between Rounds (rulebook, "Tournaments Lobby": "A Tournament Timer will be located in the
bottom left corner of the screen that will indicate how much time is left in the round, the
current round number, and the tournament ID#. [...] When the next round is ready to begin,
each participant will be pulled back to the Tournaments Lobby"): a player whose match is over
is sent back to the lobby, where the Timer runs, and a round's call pulls every player back
to the lobby and from there into their match, over the sockets they have open."""

import pytest
from django.test import TestCase, override_settings
from django.urls import reverse

from game.services.matches import match_concede
from tcgsite.realtime import user_group
from tests.tournaments.conftest import entrants, on_demand_queue
from tournaments.services.queues import queue_join

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog")]
eager = override_settings(CELERY_TASK_ALWAYS_EAGER=True)
LOBBY = reverse("lobbies:lobby", args=["tournaments"])


def told(callbacks, player) -> list[str]:
    """The notices sent to ``player``'s sockets by the callbacks run after a commit."""
    return [
        callback.args[2]["html"]
        for callback in callbacks
        if getattr(callback, "args", ()) and callback.args[0] == user_group(player.pk)
    ]


def four_player_swiss():
    queue = on_demand_queue(max_players=4, structure="swiss", rounds=2)
    players = entrants(4)
    for player in players:
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    tournament = queue.tournaments.get()
    return tournament, list(tournament.pairings.select_related("first__player", "second__player"))


def concede(row):
    """The second player of ``row`` concedes its match; what runs after the commit (the
    result's record) runs as it would outside a test's transaction."""
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        match_concede(match_id=row.match_id, player=row.second.player)
    return callbacks


@eager
def test_a_player_whose_match_is_over_is_sent_back_to_the_lobby_until_the_next_round():
    tournament, (table_one, table_two) = four_player_swiss()

    callbacks = concede(table_one)

    for participant, result in ((table_one.first, "you won"), (table_one.second, "you lost")):
        (notice,) = told(callbacks, participant.player)
        assert f"Tournament {tournament.pk}, round 1: {result} your match." in notice
        assert f'href="{LOBBY}" data-lobby-return' in notice and "data-stay" in notice
    for participant in (table_two.first, table_two.second):  # still playing: left alone
        assert told(callbacks, participant.player) == []


@eager
def test_the_next_round_calls_each_player_through_the_lobby_to_their_match():
    tournament, (table_one, table_two) = four_player_swiss()
    concede(table_one)

    callbacks = concede(table_two)

    round_two = {row.first.player_id: row for row in tournament.pairings.filter(round=2)}
    round_two |= {row.second.player_id: row for row in round_two.values()}
    for row in (table_one, table_two):
        for participant in (row.first, row.second):
            notices = told(callbacks, participant.player)
            call = next(notice for notice in notices if "data-round-call" in notice)
            match_url = reverse("game:match_page", args=[round_two[participant.player_id].match_id])
            assert f'href="{match_url}" data-round-call data-lobby="{LOBBY}"' in call
            assert "round 2: your match is ready" in call


@eager
def test_the_lobby_shows_the_timer_between_rounds_and_the_match_once_it_is_called(client):
    tournament, (table_one, table_two) = four_player_swiss()
    player = table_one.first.player
    client.force_login(player)
    concede(table_one)

    lobby = client.get(LOBBY).content.decode()

    assert 'id="tournament-timer"' in lobby and "data-left-ms" in lobby
    assert f"<strong>Round 1</strong> · Tournament {tournament.pk}" in lobby
    assert "Between rounds: you will be called to your next match" in lobby
    assert "data-round-match" not in lobby

    concede(table_two)
    lobby = client.get(LOBBY).content.decode()

    match_id = (
        tournament.pairings.filter(round=2, first__player=player).first()
        or tournament.pairings.get(round=2, second__player=player)
    ).match_id
    assert f"<strong>Round 2</strong> · Tournament {tournament.pk}" in lobby
    assert f'href="{reverse("game:match_page", args=[match_id])}" data-round-match' in lobby
    assert "Between rounds" not in lobby


@eager
def test_the_loser_of_an_elimination_match_is_told_they_are_out_and_not_sent_back():
    """Single Elimination: "If you lose your match, you are then free to enter other events"."""
    queue = on_demand_queue(max_players=4, structure="single_elimination")
    for player in entrants(4):
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    tournament = queue.tournaments.get()
    table_one = tournament.pairings.select_related("first__player", "second__player").first()

    callbacks = concede(table_one)

    (out,) = told(callbacks, table_one.second.player)
    assert "you lost, and are out of the bracket" in out and "data-lobby-return" not in out
    (back,) = told(callbacks, table_one.first.player)
    assert "you won your match" in back and "data-lobby-return" in back
