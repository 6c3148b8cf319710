"""Production mode under a small crowd (benchmarks/soak.py): 40 players for 20 seconds on the
Procfile's processes, started as ``make start`` starts them, on a database of the test's own.
No answer may be a server error, the site may never hold more database connections than
README's bound (Production mode, "Database connections"), and the ledger must account for
every credit, card and product."""

import os
import socket
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

from benchmarks.soak import SiteConfig, report, soak

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not settings.DATABASE_URL, reason="production mode: PostgreSQL, Redis and the Procfile"
    ),
]

PLAYERS = 40
SECONDS = 20


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive ports nothing listens on (honcho gives the web
    processes a port each from there)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            first = probe.getsockname()[1]
        if first + count > 65535:
            continue
        try:
            for port in range(first, first + count):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise RuntimeError("no free ports")


def test_a_small_crowd_gets_no_server_error_and_stays_within_the_connection_bound():
    server = urlsplit(settings.DATABASE_URL)
    config = SiteConfig(
        server_url=urlunsplit(server._replace(path="")),
        # The test database's name is the test process's own (test_tcgsite_gw0...).
        database=f"{connection.settings_dict['NAME']}_soak",
        redis_url=settings.REDIS_URL,
        channel_prefix=f"{os.environ.get('REDIS_CHANNEL_PREFIX', 'asgi')}-soak",
        port=free_ports(2),
    )

    result = soak(
        config,
        players=PLAYERS,
        seconds=SECONDS,
        processes=2,
        think_seconds=4,
        ramp_seconds=5,
    )

    report(result, players=PLAYERS, seconds=SECONDS)  # shown when the test fails

    assert result.crowd.server_errors() == {}, result.server_errors_logged
    assert result.peak_connections <= result.connection_bound, result.peak_connections_by_name
    assert result.conservation == []
    # The crowd did what it is there for: it was not refused its first steps.
    served = sum(sum(counts.values()) for counts in result.crowd.statuses.values())
    assert served > 10 * PLAYERS
    assert result.crowd.told["purchase"] >= PLAYERS
