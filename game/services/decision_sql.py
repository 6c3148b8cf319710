"""What a decision reads and writes under its match's lock, in as few round trips to the
database as it can: it reads the match, its seats with their players and Pass When Out of
Actions, and its latest game in one, and writes the actions it logged with the game's new
count (and snapshot, and ending) in one.

The statements are written in SQL, made once per process from the models' metadata; rows
become model instances as the ORM makes them (``Model.from_db`` after the fields' database
converters), and values go in as the ORM sends them (``get_db_prep_save``): building these
statements with the ORM, and reading their rows through ``Model.objects.raw``, took longer
than running them. On PostgreSQL the three reads go in one pipeline (psycopg's pipeline
mode): the server still runs them in order, each seeing what was committed before it ran,
so the seats and the game are read after the match's lock is taken, exactly as when they
are sent one by one; the writes are one statement (the insert in a WITH). Each statement is
prepared on the server the first time a connection runs it (a cursor that binds on the
server, ``prepare=True``): PostgreSQL plans it once per connection, not once per decision.

A decision's transaction (``decision_transaction``) costs PostgreSQL two round trips in all:
its BEGIN goes with the reads, and its writes wait to go with its COMMIT (any other statement
sends them first, so everything runs in the order written).
"""

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar

import psycopg
from django.db import connection, transaction
from psycopg.pq import TransactionStatus

from game.models import Game, GameAction, Match, MatchSeat
from tcgsite.accounts.models import Preferences, User

# Large columns that deciding an action never reads: a seat's frozen decklist, a game's
# starting decklists and opening events, and its stored state (the state comes from the
# process's live states, or is read when first used).
SEAT_SKIPPED = ("decklist",)
PLAYER_SKIPPED = ("password",)
GAME_SKIPPED = ("decklists", "opening_events", "state")


def _for_update(sql: str) -> str:
    return f"{sql} FOR UPDATE" if connection.features.has_select_for_update else sql


def _fields(model, skipped: Sequence[str]) -> list:
    return [field for field in model._meta.concrete_fields if field.name not in skipped]


def _columns(model, alias: str, skipped: Sequence[str]) -> str:
    return ", ".join(f"{alias}.{field.column}" for field in _fields(model, skipped))


class RowReader:
    """Makes instances of ``model`` from rows of its columns but ``skipped`` (deferred in
    the instances), in the models' order, as the ORM would: each value through its field's
    converters (JSON decoded, time zones set)."""

    def __init__(self, model, skipped: Sequence[str]):
        self.model = model
        fields = _fields(model, skipped)
        self.attnames = [field.attname for field in fields]
        self.width = len(fields)
        # For each field that has converters: its position, its converters, its column.
        self.converters: list[tuple[int, list[Callable], object]] = []
        for position, field in enumerate(fields):
            column = field.get_col(model._meta.db_table)
            converters = connection.ops.get_db_converters(column) + field.get_db_converters(
                connection
            )
            if converters:
                self.converters.append((position, converters, column))

    def instance(self, row: Sequence, start: int = 0):
        values = list(row[start : start + self.width])
        for position, converters, column in self.converters:
            value = values[position]
            for converter in converters:
                value = converter(value, column, connection)
            values[position] = value
        return self.model.from_db(connection.alias, self.attnames, values)


@functools.cache
def _readers() -> tuple[RowReader, RowReader, RowReader, RowReader]:
    return (
        RowReader(Match, ()),
        RowReader(MatchSeat, SEAT_SKIPPED),
        RowReader(User, PLAYER_SKIPPED),
        RowReader(Game, GAME_SKIPPED),
    )


@functools.cache
def locked_match_sql() -> str:
    return _for_update(
        f"SELECT {_columns(Match, 'm', ())} FROM {Match._meta.db_table} m WHERE m.id = %s"  # noqa: S608 - names from models
    )


@functools.cache
def _seats_sql() -> str:
    preferences = Preferences._meta
    autopass = preferences.get_field("pass_when_out_of_actions").column
    return (
        f"SELECT {_columns(MatchSeat, 's', SEAT_SKIPPED)},"  # noqa: S608 - names from models
        f" {_columns(User, 'u', PLAYER_SKIPPED)}, p.{autopass}"
        f" FROM {MatchSeat._meta.db_table} s"
        f" JOIN {User._meta.db_table} u ON u.id = s.player_id"
        f" LEFT JOIN {preferences.db_table} p"
        f" ON p.{preferences.get_field('user').column} = s.player_id"
        " WHERE s.match_id = %s ORDER BY s.seat"
    )


@functools.cache
def _last_game_sql() -> str:
    return _for_update(
        f"SELECT {_columns(Game, 'g', GAME_SKIPPED)} FROM {Game._meta.db_table} g"  # noqa: S608 - names from models
        " WHERE g.match_id = %s ORDER BY g.number DESC LIMIT 1"
    )


# The writes of the decision transaction open in this context, waiting for its COMMIT.
_waiting_writes: ContextVar[list[tuple[str, list]] | None] = ContextVar(
    "decision_waiting_writes", default=None
)


@contextlib.contextmanager
def decision_transaction() -> Iterator[None]:
    """``transaction.atomic()``, in which ``log_and_game_save`` leaves its statement to go to
    PostgreSQL with the COMMIT, in one round trip, unless another statement runs first: then
    it goes before that one. Nested in another transaction, the statement goes at the end of
    the block, and the outer transaction commits as usual."""
    with transaction.atomic():
        if connection.vendor != "postgresql":
            yield
            return
        outermost = len(connection.atomic_blocks) == 1
        waiting: list[tuple[str, list]] = []
        token = _waiting_writes.set(waiting)
        try:
            with connection.execute_wrapper(functools.partial(_writes_first, waiting)):
                yield
        finally:
            _waiting_writes.reset(token)
        # After this COMMIT, the one atomic() sends next finds no transaction and sends
        # nothing; then it runs the on-commit hooks as usual.
        _writes_send(waiting, commit=outermost)


# SET LOCAL as a SELECT, which the server may prepare like the decision's other statements.
UNFLUSHED_COMMIT_SQL = "SELECT set_config('synchronous_commit', 'off', true)"


def commit_unflushed() -> None:
    """Let the open ``decision_transaction``'s COMMIT return once PostgreSQL has it in memory,
    without waiting for its flush to disk (its WAL writer flushes it within a fraction of a
    second): only a crash of the database server in between would undo it, and then with
    everything committed after it. The statement waits with the decision's writes, so it
    costs no round trip."""
    if connection.vendor == "postgresql" and (waiting := _waiting_writes.get()) is not None:
        waiting.append((UNFLUSHED_COMMIT_SQL, []))


def _writes_first(waiting: list, execute, sql, params, many, context):
    _writes_send(waiting, commit=False)
    return execute(sql, params, many, context)


def _writes_send(waiting: list[tuple[str, list]], *, commit: bool) -> None:
    driver = connection.connection
    if driver is None:
        return
    # A transaction marked for rollback (an error caught inside atomic()) is rolled back by
    # atomic(), and one that never began has nothing to commit.
    commit = (
        commit
        and not connection.needs_rollback
        and driver.info.transaction_status != TransactionStatus.IDLE
    )
    if not waiting and not commit:
        return
    with connection.wrap_database_errors, driver.pipeline(), psycopg.Cursor(driver) as cursor:
        for sql, params in waiting:
            cursor.execute(sql, params, prepare=True)
        if commit:
            # A statement, not driver.commit(), which would wait for the COMMIT before
            # leaving the pipeline waits again: one round trip, not two.
            cursor.execute("COMMIT")
    waiting.clear()


def fetch_in_order(statements: Sequence[tuple[str, Sequence]]) -> list[list[tuple]]:
    """The rows of each statement, run one after the other in the open transaction: in one
    pipeline on PostgreSQL, with the transaction's BEGIN if nothing has started it yet, else
    one by one."""
    connection.ensure_connection()
    if connection.vendor != "postgresql":
        results = []
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
                results.append(cursor.fetchall())
        return results
    if (waiting := _waiting_writes.get()) is not None:
        _writes_send(waiting, commit=False)
    driver = connection.connection
    # psycopg starts a transaction with a BEGIN that it waits for, a round trip of its own,
    # before the statements; in autocommit mode it leaves the BEGIN to us, and ours goes in
    # the pipeline. The transaction it begins is atomic()'s: atomic() commits or rolls it
    # back (psycopg does either whatever its autocommit), then sets autocommit on anyway.
    begin = (
        connection.in_atomic_block
        and not driver.autocommit
        and driver.isolation_level is None
        and driver.info.transaction_status == TransactionStatus.IDLE
    )
    if begin:
        driver.autocommit = True
    # Leaving the pipeline sends them all and takes every result in one round trip; a fetch
    # inside it would cost one more.
    with connection.wrap_database_errors, driver.pipeline():
        if begin:
            driver.execute("BEGIN")
        cursors = [psycopg.Cursor(driver) for _ in statements]
        for cursor, (sql, params) in zip(cursors, statements, strict=True):
            cursor.execute(sql, params, prepare=True)
    return [cursor.fetchall() for cursor in cursors]


def row_match(row: Sequence) -> Match:
    return _readers()[0].instance(row)


def decision_reads(match_id: int) -> tuple[Match | None, list[MatchSeat], Game | None]:
    """The match, locked; its seats in order, each with its ``player`` and its ``autopass``
    (Pass When Out of Actions), without their decklists; its latest game, locked, without
    its large fields. The caller holds a transaction open."""
    match_rows, seat_rows, game_rows = fetch_in_order(
        [
            (locked_match_sql(), [match_id]),
            (_seats_sql(), [match_id]),
            (_last_game_sql(), [match_id]),
        ]
    )
    if not match_rows:
        return None, [], None
    match_reader, seat_reader, player_reader, game_reader = _readers()
    seats = []
    for row in seat_rows:
        seat = seat_reader.instance(row)
        seat.player = player_reader.instance(row, seat_reader.width)
        seat.autopass = bool(row[-1])
        seats.append(seat)
    game = game_reader.instance(game_rows[0]) if game_rows else None
    return match_reader.instance(match_rows[0]), seats, game


@functools.cache
def _logged_fields() -> list:
    return [field for field in GameAction._meta.concrete_fields if not field.primary_key]


def _insert_sql(rows: int) -> str:
    fields = _logged_fields()
    columns = ", ".join(field.column for field in fields)
    values = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * rows)
    return f"INSERT INTO {GameAction._meta.db_table} ({columns}) VALUES {values}"  # noqa: S608 - names from models


def _game_update_sql(fields: Sequence[str]) -> str:
    meta = Game._meta
    assignments = ", ".join(f"{meta.get_field(name).column} = %s" for name in fields)
    return f"UPDATE {meta.db_table} SET {assignments} WHERE {meta.pk.column} = %s"  # noqa: S608 - names from models


def log_and_game_save(logged: Sequence[GameAction], game: Game, fields: Sequence[str]) -> None:
    """Insert the actions ``logged`` (not saved yet) and save ``fields`` of ``game``, in one
    statement on PostgreSQL, which waits for the COMMIT in a ``decision_transaction``."""
    action_params = [
        field.get_db_prep_save(getattr(action, field.attname), connection)
        for action in logged
        for field in _logged_fields()
    ]
    game_params = [
        field.get_db_prep_save(getattr(game, field.attname), connection)
        for field in map(Game._meta.get_field, fields)
    ]
    game_params.append(game.pk)
    if connection.vendor == "postgresql":
        if logged:
            sql = f"WITH logged AS ({_insert_sql(len(logged))}) {_game_update_sql(fields)}"
            params = action_params + game_params
        else:
            sql, params = _game_update_sql(fields), game_params
        if (waiting := _waiting_writes.get()) is not None:
            waiting.append((sql, params))
        else:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
        return
    with connection.cursor() as cursor:
        if not logged:
            cursor.execute(_game_update_sql(fields), game_params)
        else:
            cursor.execute(_insert_sql(len(logged)), action_params)
            cursor.execute(_game_update_sql(fields), game_params)
