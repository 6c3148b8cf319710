"""A decision's reads and writes under its match's lock, in SQL (game/services/decision_sql.py):
they read and write exactly what the ORM would, and what they read under the lock is what
the transaction before committed."""

import threading
import time

import pytest
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from game.models import Game, GameAction, Match, MatchSeat
from game.services.decision_sql import decision_reads, log_and_game_save
from game.services.matches import locked_match
from tcgsite.accounts.models import Preferences
from tests.game.conftest import start_match


def field_values(instance, leaving=()) -> dict:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
        if field.name not in leaving
    }


@pytest.mark.django_db
def test_the_reads_make_the_match_its_seats_players_and_latest_game_as_the_orm_does(carol, bob):
    match = start_match(carol, bob)
    Preferences.objects.filter(user=carol).update(pass_when_out_of_actions=True)
    MatchSeat.objects.filter(match=match, player=bob).update(sockets=["one", "two"])

    with transaction.atomic():
        read_match, seats, game = decision_reads(match.pk)

    assert field_values(read_match) == field_values(Match.objects.get(pk=match.pk))
    stored_seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    assert [field_values(seat, ("decklist",)) for seat in seats] == [
        field_values(seat, ("decklist",)) for seat in stored_seats
    ]
    assert next(seat for seat in seats if seat.player == bob).sockets == ["one", "two"]
    assert all(isinstance(seat.faces, dict) and seat.faces for seat in seats)
    assert [field_values(seat.player, ("password",)) for seat in seats] == [
        field_values(seat.player, ("password",)) for seat in stored_seats
    ]
    assert {seat.player.username: seat.autopass for seat in seats} == {
        carol.username: True,
        bob.username: False,
    }
    stored_game = Game.objects.get(match=match)
    skipped = ("state", "decklists", "opening_events")
    assert field_values(game, skipped) == field_values(stored_game, skipped)
    assert game.started.tzinfo is not None
    # The large fields are deferred, not missing: read when used.
    assert game.opening_events == stored_game.opening_events


@pytest.mark.django_db
def test_the_reads_of_a_match_that_is_not_there_find_nothing():
    with transaction.atomic():
        assert decision_reads(987654) == (None, [], None)


@pytest.mark.django_db(transaction=True)
def test_reads_waiting_on_the_lock_see_what_the_transaction_holding_it_committed(carol, bob):
    """The seats and the game are read after the match's lock is taken, even though all three
    reads go to the database at once: a decision never starts from the game as it was before
    the decision it waited for."""
    match = start_match(carol, bob)
    locked, waited = threading.Event(), []

    def holder():
        try:
            with transaction.atomic():
                locked_match(match.pk)
                locked.set()
                time.sleep(0.5)
                Game.objects.filter(match=match).update(applied=7)
                MatchSeat.objects.filter(match=match, seat=1).update(clock_left_ms=1234)
        finally:
            close_old_connections()
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    assert locked.wait(10)
    started = time.monotonic()
    with transaction.atomic():
        _, seats, game = decision_reads(match.pk)
        waited.append(time.monotonic() - started)
    thread.join()

    assert game.applied == 7
    assert seats[1].clock_left_ms == 1234
    assert waited[0] >= 0.3


@pytest.mark.django_db
def test_logged_actions_and_the_game_are_written_as_the_orm_would(carol, bob):
    match = start_match(carol, bob)
    game = Game.objects.get(match=match)
    at = timezone.now()
    logged = [
        GameAction(
            game=game, number=number, seat=number % 2, action={"kind": "pass"}, events=events
        )
        for number, events in ((1, [{"event": "passed", "seat": 1}]), (2, []))
    ]
    for action in logged:
        action.created = at
    game.applied, game.win_reason = 2, "a reason"

    with transaction.atomic():
        log_and_game_save(logged, game, ["applied", "win_reason"])

    stored = GameAction.objects.filter(game=game).order_by("number")
    assert [(a.number, a.seat, a.action, a.events, a.created) for a in stored] == [
        (1, 1, {"kind": "pass"}, [{"event": "passed", "seat": 1}], at),
        (2, 0, {"kind": "pass"}, [], at),
    ]
    game.refresh_from_db()
    assert (game.applied, game.win_reason) == (2, "a reason")

    game.applied = 3
    with transaction.atomic():
        log_and_game_save([], game, ["applied"])
    game.refresh_from_db()
    assert game.applied == 3
    assert GameAction.objects.filter(game=game).count() == 2
