"""A decision's reads and writes under its match's lock, in SQL (game/services/decision_sql.py):
they read and write exactly what the ORM would, what they read under the lock is what the
transaction before committed, and a decision's transaction is two round trips to PostgreSQL,
storing everything or nothing."""

import select
import socket
import threading
import time

import pytest
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from game.engine import api as engine
from game.live_states import live_states
from game.models import Game, GameAction, Match, MatchSeat
from game.selectors import game_state
from game.services import decision_sql, matches
from game.services.decision_sql import (
    UNFLUSHED_COMMIT_SQL,
    commit_unflushed,
    decision_reads,
    decision_transaction,
    locked_match_sql,
    log_and_game_save,
)
from game.services.matches import game_act, locked_match
from tcgsite.accounts.models import Preferences
from tests.game.conftest import SeededSecrets, start_match
from tests.game.test_matches import play_out


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


def log_a_pass(game: Game) -> None:
    """The game's next action, a pass, logged as a decision logs it."""
    game.applied += 1
    logged = GameAction(
        game=game,
        number=game.applied,
        seat=0,
        action={"kind": "pass"},
        events=[],
        created=timezone.now(),
    )
    log_and_game_save([logged], game, ["applied"])


@pytest.mark.django_db(transaction=True)
def test_a_decision_transaction_stores_its_writes_when_it_commits(carol, bob):
    match = start_match(carol, bob)
    with decision_transaction():
        _, _, game = decision_reads(match.pk)
        log_a_pass(game)

    assert Game.objects.get(pk=game.pk).applied == game.applied
    assert GameAction.objects.filter(game=game, number=game.applied).exists()


@pytest.mark.django_db(transaction=True)
def test_a_decision_transaction_that_fails_after_its_writes_stores_nothing(carol, bob):
    match = start_match(carol, bob)
    applied = Game.objects.get(match=match).applied
    with pytest.raises(RuntimeError), decision_transaction():
        _, _, game = decision_reads(match.pk)
        log_a_pass(game)
        raise RuntimeError("refused after writing")

    assert Game.objects.get(match=match).applied == applied
    assert not GameAction.objects.filter(game__match=match, number=applied + 1).exists()
    # The connection is usable, in autocommit, as after any transaction.
    assert connection.get_autocommit()
    assert Match.objects.filter(pk=match.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_statement_after_waiting_writes_sees_them(carol, bob):
    """The writes waiting for the COMMIT go before any other statement of the transaction."""
    match = start_match(carol, bob)
    with decision_transaction():
        _, _, game = decision_reads(match.pk)
        log_a_pass(game)
        assert Game.objects.get(pk=game.pk).applied == game.applied
        assert locked_match(match.pk).pk == match.pk
        log_a_pass(game)

    assert GameAction.objects.filter(game=game, number__gte=game.applied - 1).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_decision_transaction_inside_another_leaves_the_commit_to_it(carol, bob):
    match = start_match(carol, bob)
    applied = Game.objects.get(match=match).applied
    with pytest.raises(RuntimeError), transaction.atomic():
        with decision_transaction():
            _, _, game = decision_reads(match.pk)
            log_a_pass(game)
        assert Game.objects.get(pk=game.pk).applied == applied + 1
        raise RuntimeError("the outer transaction fails")

    assert Game.objects.get(match=match).applied == applied


class RoundTrips:
    """A relay between the test's database connection and PostgreSQL that counts the round
    trips: each time the client sends after the server has answered. The server answers a
    pipeline once, at its end (its Sync), so statements sent together count once."""

    def __init__(self, host: str, port: int):
        self.server_address = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.count = 0
        self.thread = threading.Thread(target=self.relay, daemon=True)
        self.thread.start()

    def relay(self):
        client, _ = self.listener.accept()
        server = socket.create_connection(self.server_address)
        last_sender = None
        with client, server:
            while True:
                readable, _, _ = select.select([client, server], [], [])
                for sender in readable:
                    data = sender.recv(1 << 16)
                    if not data:
                        return
                    (server if sender is client else client).sendall(data)
                    if sender is client and only_flushes(data):
                        # Leaving a pipeline, psycopg sends a Flush after its Sync when the
                        # answer has not come yet; whether the answer beats it here is up to
                        # the scheduler, and nothing waits for it: not a round trip.
                        continue
                    if sender is client and last_sender is not client:
                        self.count += 1
                    last_sender = sender


FLUSH_MESSAGE = b"H\x00\x00\x00\x04"


def only_flushes(data: bytes) -> bool:
    """Whether ``data`` is nothing but the protocol's Flush messages."""
    return data == FLUSH_MESSAGE * (len(data) // len(FLUSH_MESSAGE))


@pytest.fixture
def round_trips():
    """The test's database connection, through a ``RoundTrips`` relay, counting from 0."""
    settings = connection.settings_dict
    address = (settings["HOST"], settings["PORT"])
    relay = RoundTrips(address[0] or "127.0.0.1", int(address[1] or 5432))
    connection.close()
    # The pool opens its connections with the settings it was made with: a new one, both ways.
    connection.close_pool()
    settings["HOST"], settings["PORT"] = "127.0.0.1", relay.port
    try:
        connection.ensure_connection()
        relay.count = 0
        yield relay
    finally:
        connection.close()
        # The pool may be opening a connection to replace the one it had: refused at once
        # rather than waited on until the pool's closing gives up on it.
        relay.listener.close()
        connection.close_pool()
        settings["HOST"], settings["PORT"] = address


@pytest.mark.django_db(transaction=True)
def test_a_decision_makes_two_round_trips_to_postgresql(carol, bob, request):
    """The BEGIN goes with the reads, the writes with the COMMIT (the state as the process
    kept it from the last announcement: no read of its own)."""
    if connection.vendor != "postgresql":
        pytest.skip("round trips to PostgreSQL")
    match = start_match(carol, bob)
    game = Game.objects.get(match=match)
    state = game_state(game)
    live_states.keep(game, state)
    decision = engine.legal_actions(state)
    round_trips = request.getfixturevalue("round_trips")

    game_act(
        match_id=match.pk,
        player=(carol, bob)[decision.seat],
        ply=game.applied,
        action=decision.actions[0],
    )

    assert round_trips.count == 2
    assert Game.objects.get(pk=game.pk).applied > game.applied


@pytest.mark.django_db(transaction=True)
def test_a_decisions_statements_are_prepared_once_per_connection_and_reused(carol, bob):
    """PostgreSQL plans the decision's reads and writes once per connection, not once per
    decision (psycopg's prepared statements, which the site's other queries do not use)."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements on PostgreSQL")
    match = start_match(carol, bob)
    for _ in range(3):
        game = Game.objects.get(match=match)
        decision = engine.legal_actions(game_state(game))
        game_act(
            match_id=match.pk,
            player=(carol, bob)[decision.seat],
            ply=game.applied,
            action=decision.actions[0],
        )

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    # Each statement once, whatever other variants earlier tests on this connection prepared
    # (a decision that logs several actions inserts them all in a statement of its own).
    for sql in (locked_match_sql().replace("%s", "$1"), "UPDATE game_game SET"):
        matching = [statement for statement in prepared if sql in statement]
        assert matching and len(matching) == len(set(matching)), prepared


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_an_unflushed_commit_is_asked_for_that_transaction_alone(carol, bob):
    """The setting goes with the waiting writes (a statement after them sees it) and ends
    with the transaction."""
    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit on PostgreSQL")
    match = start_match(carol, bob)
    before = synchronous_commit()
    with decision_transaction():
        _, _, game = decision_reads(match.pk)
        log_a_pass(game)
        commit_unflushed()
        assert synchronous_commit() == "off"

    assert before == synchronous_commit() == "on"
    assert Game.objects.get(pk=game.pk).applied == game.applied


# The game's seed and salt come from this one (the match service's ``secrets``, seeded): the
# random legal actions of ``play_out(..., seed=11)`` end that game in 109 decisions on
# PostgreSQL, where a random seed's game takes some 360 (140 to 620).
DEAL_SEED = 5


def unflushed_commits_of_a_game(carol, bob, monkeypatch) -> list[bool]:
    """Whether each decision of a game played out with random legal actions asked for an
    unflushed commit, in order: the last one ended the game."""
    monkeypatch.setattr(matches, "secrets", SeededSecrets(DEAL_SEED))
    asked = []
    writes_send = decision_sql._writes_send

    def recording(waiting, *, commit):
        if commit:
            asked.append(any(sql == UNFLUSHED_COMMIT_SQL for sql, _ in waiting))
        return writes_send(waiting, commit=commit)

    monkeypatch.setattr(decision_sql, "_writes_send", recording)
    play_out(start_match(carol, bob), carol, bob, seed=11)
    return asked


@pytest.mark.django_db(transaction=True)
def test_a_decision_that_leaves_its_game_going_does_not_wait_for_the_disk(carol, bob, monkeypatch):
    """The decision that ends the game, whose ending pays and rates, still waits for it."""
    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit on PostgreSQL")

    asked = unflushed_commits_of_a_game(carol, bob, monkeypatch)

    assert len(asked) > 10
    assert all(asked[:-1]) and not asked[-1]


@pytest.mark.django_db(transaction=True)
def test_every_decision_waits_for_the_disk_when_the_site_says_so(carol, bob, monkeypatch, settings):
    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit on PostgreSQL")
    settings.DECISION_COMMIT_FLUSHED = True

    asked = unflushed_commits_of_a_game(carol, bob, monkeypatch)

    assert len(asked) > 10
    assert not any(asked)
