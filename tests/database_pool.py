"""Production mode's connection pool made narrow, and its connections taken, for the tests of
what a request or a socket that waits too long for one is told (README, "Database
connections")."""

import threading
from contextlib import contextmanager

from django.conf import settings
from django.db import connection

POOLED = bool(settings.DATABASES["default"]["OPTIONS"].get("pool"))


def pool_narrow() -> dict:
    """The process's pool made one connection wide, lent for at most a fifth of a second; the
    options it had, for ``pool_widen``."""
    options = connection.settings_dict["OPTIONS"]
    wide = options["pool"]
    connection.close()
    connection.close_pool()
    options["pool"] = {"min_size": 1, "max_size": 1, "timeout": 0.2}
    return wide


def pool_widen(wide: dict) -> None:
    connection.close()
    connection.close_pool()
    connection.settings_dict["OPTIONS"]["pool"] = wide


@contextmanager
def pool_of_one():
    wide = pool_narrow()
    try:
        yield
    finally:
        pool_widen(wide)


@contextmanager
def connection_held_elsewhere():
    """The pool's one connection, taken and kept by another thread until the block ends."""
    taken, release = threading.Event(), threading.Event()

    def hold():
        try:
            # The narrow pool lends for a fifth of a second, but opening its one connection
            # on a busy machine can take longer: the holder waits for it to be open.
            connection.pool.open(wait=True, timeout=30)
            connection.ensure_connection()
            taken.set()
            release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(timeout=30)
    try:
        yield
    finally:
        release.set()
        holder.join(timeout=30)
