"""Game clocks (rulebook, Casual Lobby, "Time Limit": "The total time allotted for a game is
divided in half between the two players. When it is your turn (or whenever the game is
waiting on you to make a decision), your portion of time counts down, while your opponent's
does not. If your total time runs out, you forfeit the game.")"""

import time
from datetime import timedelta

import pytest
from django.db.models import F
from django_celery_beat.models import PeriodicTask

from game.engine import api as engine
from game.models import Match, MatchSeat, MatchStatus
from game.selectors import game_state
from game.services.matches import (
    MatchError,
    MatchSettings,
    game_act,
    match_clocks_sweep,
    match_create,
)
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db


def time_passes(match, seconds: float) -> None:
    """As if the running clock had started ``seconds`` earlier."""
    Match.objects.filter(pk=match.pk).update(
        clock_since=F("clock_since") - timedelta(seconds=seconds)
    )


def deciding(match):
    game = match.games.order_by("-number").first()
    decision = engine.legal_actions(game_state(game))
    return game, MatchSeat.objects.get(match=match, seat=decision.seat), decision.actions


def test_each_player_gets_half_and_only_the_deciding_players_clock_runs(carol, bob):
    # The clock runs on real time too, from the match's start to the action: on a busy
    # machine that is more than a moment, and is measured, not assumed.
    begun = time.monotonic()
    match = start_match(carol, bob, time_limit=20 * 60)
    game, seat, actions = deciding(match)
    assert set(match.seats.values_list("clock_left_ms", flat=True)) == {600_000}
    match.refresh_from_db()
    assert match.clock_seat == seat.seat

    time_passes(match, 7)
    game_act(match_id=match.pk, player=seat.player, ply=game.applied, action=actions[0])
    real_ms = (time.monotonic() - begun) * 1000

    seat.refresh_from_db()
    other = match.seats.exclude(pk=seat.pk).get()
    assert 593_000 - real_ms <= seat.clock_left_ms <= 593_000
    assert other.clock_left_ms == 600_000


def test_the_sweep_ends_a_match_whose_flag_fell_while_nobody_is_connected(carol, bob):
    match = start_match(carol, bob, time_limit=20 * 60)
    _, seat, _ = deciding(match)
    time_passes(match, 5)
    assert match_clocks_sweep() == 0

    time_passes(match, 600)

    assert match_clocks_sweep() == 1
    assert match_clocks_sweep() == 0  # safe to run twice
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.winner != seat.player
    assert match.end_reason == f"{seat.player.username} ran out of time"
    assert match.clock_seat is None


def test_a_decision_after_the_flag_fell_is_not_applied_and_ends_the_match(carol, bob):
    match = start_match(carol, bob, time_limit=20 * 60)
    game, seat, actions = deciding(match)
    time_passes(match, 601)

    played = game_act(match_id=match.pk, player=seat.player, ply=game.applied, action=actions[0])

    assert played.events == []
    game.refresh_from_db()
    assert game.applied == 0 and game.win_reason.endswith("ran out of time")
    with pytest.raises(MatchError, match="not in progress"):
        game_act(match_id=match.pk, player=seat.player, ply=0, action=actions[0])


def test_an_untimed_match_has_no_clock(carol, bob):
    match = start_match(carol, bob)

    assert match.clock_seat is None
    assert set(match.seats.values_list("clock_left_ms", flat=True)) == {None}


def test_a_time_limit_must_be_sensible(carol):
    with pytest.raises(MatchError, match="time limit"):
        match_create(host=carol, deck=carol.deck, settings=MatchSettings(time_limit=10**9))


def test_the_clock_sweep_is_scheduled():
    task = PeriodicTask.objects.get(task="game.sweep_clocks")
    assert task.enabled and task.interval.every <= 5
