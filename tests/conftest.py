import contextlib
import dataclasses
import functools
import gc
import os
import time
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _plain_http():
    """The test client and the live test server speak plain HTTP: production's secure cookies
    would not stick, and its redirect to https would answer every request."""
    from django.conf import settings

    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher():
    """A password hashed with a deliberately slow hasher costs a tenth of a second or more, and
    the tests make hundreds of players; what they check does not depend on the hasher."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database holds the real sets (cards and their products) from the start, loaded
    once per session: each test's rolled-back transaction leaves them as they were. What the
    database then holds (the catalog and the data migrations' rows) is kept, serialized, to
    restore after a transactional test."""
    from django.db import connections

    from collection.cards.services import set_files
    from collection.services.products import set_load

    with django_db_blocker.unblock():
        for path in set_files():
            set_load(path=path)
        contents = {
            alias: _table_rows(connections[alias].creation.serialize_db_to_string(), alias)
            for alias in connections
        }
    _restore_after_flush.update(blocker=django_db_blocker, contents=contents)
    yield
    _restore_after_flush.clear()  # the test database is about to go


# Set by django_db_setup while the session's test database exists.
_restore_after_flush: dict = {}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item):
    """A transactional test (live server, channels, racing threads) ends by emptying every
    table: restore the catalog and the data migrations' rows, so that the next test finds the
    database as the session set it up, whatever the order of the tests. The flush that ends
    the test does not remake content types and permissions (the restore brings them back under
    their own keys): that took most of a second of each such test."""
    from unittest import mock

    if not (_restore_after_flush and _flushes_the_database(item)):
        return (yield)
    with _flush_deletes_rows():
        try:
            with mock.patch("django.core.management.commands.flush.emit_post_migrate_signal"):
                return (yield)
        finally:
            if _restore_after_flush:  # else the session's last test took the test database
                with _restore_after_flush["blocker"].unblock():
                    _database_restore(_restore_after_flush["contents"])


@contextlib.contextmanager
def _flush_deletes_rows():
    """On PostgreSQL, the flush empties the tables with DELETE, not TRUNCATE. A TRUNCATE gives
    every table, index and TOAST table new files and waits for the disk at commit: over a
    second a test on a busy machine, where deleting the few rows a test wrote takes a
    hundredth. Django's foreign keys there are DEFERRABLE INITIALLY DEFERRED, so the deletes,
    run in one transaction (execute_sql_flush), may come in any order."""
    from unittest import mock

    from django.db import connections

    with contextlib.ExitStack() as patches:
        for connection in connections.all():
            if connection.vendor == "postgresql":
                deleting = functools.partial(_sql_delete_every_row, connection.ops)
                patches.enter_context(mock.patch.object(connection.ops, "sql_flush", deleting))
        yield


def _sql_delete_every_row(ops, style, tables, *, reset_sequences=False, allow_cascade=False):
    if reset_sequences:  # only TRUNCATE ... RESTART IDENTITY does that in one statement
        return type(ops).sql_flush(
            ops, style, tables, reset_sequences=True, allow_cascade=allow_cascade
        )
    # The table names are the models' own, quoted.
    return [
        f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(ops.quote_name(table))};"
        for table in tables
    ]


def _flushes_the_database(item) -> bool:
    marker = item.get_closest_marker("django_db")
    transactional = marker is not None and (
        marker.kwargs.get("transaction") or (marker.args and marker.args[0])
    )
    fixtures = getattr(item, "fixturenames", ())
    return bool(transactional or "transactional_db" in fixtures or "live_server" in fixtures)


@dataclasses.dataclass(frozen=True)
class _TableRows:
    """One model's rows as the database stores them, with the statement that inserts them."""

    statement: str
    rows: list[tuple]


def _table_rows(serialized: str, alias: str) -> list[_TableRows]:
    """A database's rows, serialized, as one insert per model, in the serializer's order (a
    model after those it refers to), their values already converted for the database: Django's
    own restore saves each row on its own (a second a test), and even a bulk create spends most
    of its time converting the same values again."""
    from django.core import serializers
    from django.db import connections

    connection = connections[alias]
    quote = connection.ops.quote_name
    batches: list[tuple[type, list]] = []
    for row in serializers.deserialize("json", serialized, using=alias):
        if any(row.m2m_data.values()) or row.deferred_fields:
            raise NotImplementedError(f"{row.object!r}: restoring relations to many is not done")
        model = type(row.object)
        if batches and batches[-1][0] is model:
            batches[-1][1].append(row.object)
        else:
            batches.append((model, [row.object]))
    tables = []
    for model, instances in batches:
        fields = model._meta.concrete_fields
        columns = ", ".join(quote(field.column) for field in fields)
        placeholders = ", ".join(["%s"] * len(fields))
        # Table and column names come from the models, quoted; the values are parameters.
        statement = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({placeholders})"  # noqa: S608
        rows = [
            tuple(
                field.get_db_prep_save(getattr(instance, field.attname), connection)
                for field in fields
            )
            for instance in instances
        ]
        tables.append(_TableRows(statement=statement, rows=rows))
    return tables


def _database_restore(contents: dict[str, list[_TableRows]]) -> None:
    from django.contrib.contenttypes.models import ContentType
    from django.db import connections, transaction

    from collection.cards.models import CardSet

    if CardSet.objects.exists():  # the test was skipped before it touched the database
        return
    for alias, tables in contents.items():
        # Sequences go on from where they are, past every restored key.
        if ContentType.objects.using(alias).exists():  # written to after the test's flush
            _flush(alias)
        with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
            for table in tables:
                cursor.executemany(table.statement, table.rows)
    ContentType.objects.clear_cache()


def _flush(alias: str, attempts: int = 5) -> None:
    """Empty every table. A live server's socket may still be finishing its disconnect or a
    heartbeat in a transaction of its own, which PostgreSQL can find deadlocked with the
    flush's TRUNCATE and abort either side: the flush then tries again."""
    from django.core.management import call_command
    from django.core.management.base import CommandError

    for attempt in range(attempts):
        try:
            call_command(
                "flush",
                database=alias,
                interactive=False,
                inhibit_post_migrate=True,
                reset_sequences=False,
                verbosity=0,
            )
            return
        except CommandError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.5)


# Tests of code that imports nothing of Django's (each folder checks it): the engine and the
# computer players give the same results whatever the runtime mode, so CI runs them once.
PURE_FOLDERS = ("tests/game/engine/", "tests/game/ai/", "tests/starholds/", "tests/gamekit/")
BROWSER_FOLDER = "tests/browser/"
# Tests whose outcome depends on the runtime mode beyond the database: the settings each mode
# reads, static files, the channel layer under live servers, processes killed and restarted.
# Every socket test (asyncio) is one too. CI runs these in both passes (.ci/run).
BOTH_MODES_FILES = (
    "tests/test_settings.py",
    "tests/test_embedded_mode.py",
    "tests/test_serving.py",
    "tests/test_realtime.py",
    "tests/test_realtime_client_gone.py",
    "tests/test_routing.py",
    "tests/test_sockets_fuzz.py",
    "tests/test_database_pool.py",
    "tests/game/test_durability.py",
    "tests/trades/test_live_durability.py",
    "tests/lobbies/test_two_processes.py",
)


def pytest_collection_modifyitems(config, items):
    """The tests of pure code are marked ``pure``, the browser's ``browser``, those that depend
    on the runtime mode ``both_modes``. The slow tests go first: on several
    processes (``make test``), one begun last would keep its process running long after the
    others ran out of tests.

    PYTEST_REVERSE=1 then runs the tests in reverse order, to show that none depends on
    another having run first (transactional tests, which empty the database, then come
    first)."""
    root = Path(str(config.rootpath))
    for item in items:
        path = Path(str(item.path)).relative_to(root).as_posix()
        if path.startswith(PURE_FOLDERS):
            item.add_marker(pytest.mark.pure)
        elif path.startswith(BROWSER_FOLDER):
            item.add_marker(pytest.mark.browser)
        if path in BOTH_MODES_FILES or item.get_closest_marker("asyncio"):
            item.add_marker(pytest.mark.both_modes)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # a stable sort
    if os.environ.get("PYTEST_REVERSE"):
        items.reverse()


@pytest.fixture
def catalog(db):
    """The real sets, loaded from their data files: already in the test database (see
    django_db_setup), so this only asks for the database."""


@pytest.fixture
def empty_catalog(db):
    """No sets, cards or products, for tests of loading the catalog itself (rolled back with
    the test's transaction)."""
    from collection.cards.models import Card, CardSet
    from collection.models import Product

    Product.objects.all().delete()
    Card.objects.all().delete()
    CardSet.objects.all().delete()


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache, as the database starts empty."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def booster(catalog):
    from collection.models import Product, ProductKind

    return Product.objects.get(kind=ProductKind.BOOSTER_PACK)


@pytest.fixture
def starter(catalog):
    from collection.models import Product, ProductKind

    return Product.objects.filter(kind=ProductKind.STARTER_DECK).order_by("name").first()


@pytest.fixture
def event_pass(db):
    from tests.factories import EventPassFactory

    return EventPassFactory()


@pytest.fixture
def player(client):
    from tests.factories import UserFactory

    user = UserFactory()
    client.force_login(user)
    return user


@pytest.fixture
def interpreter_restored():
    """Undo what importing the site's ASGI application does to the test process's garbage
    collector (tcgsite/serving.py)."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
