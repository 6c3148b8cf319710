"""Production mode under a small crowd (benchmarks/soak.py): 40 players for 20 seconds on the
Procfile's processes, started as ``make start`` starts them, on a database of the test's own.
No answer may be a server error, the site may never hold more database connections than
README's bound (Production mode, "Database connections"), and the ledger must account for
every credit, card and product. Whatever ends the soak, its database is dropped."""

import os
import signal
import socket
import subprocess
import sys
import time
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from benchmarks.soak import (
    FLASHED,
    ROOT,
    TAKEN_BY_ANOTHER,
    SiteConfig,
    report,
    site_start,
    soak,
    trade_taker,
)
from collection.trades.services.posted import posted_trade_accept, posted_trade_create
from tests.factories import UserFactory
from tests.trades.posted_helpers import card_item, cards, give_cards

production_mode = pytest.mark.skipif(
    not settings.DATABASE_URL, reason="production mode: PostgreSQL, Redis and the Procfile"
)

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


def server_url() -> str:
    return urlunsplit(urlsplit(settings.DATABASE_URL)._replace(path=""))


def soak_database(purpose: str) -> str:
    # The test database's name is the test process's own (test_tcgsite_gw0...).
    return f"{connection.settings_dict['NAME']}_{purpose}"


def database_exists(name: str) -> bool:
    with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as server:
        found = server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return found.fetchone() is not None


@production_mode
@pytest.mark.slow
def test_a_small_crowd_gets_no_server_error_and_stays_within_the_connection_bound(tmp_path):
    config = SiteConfig(
        server_url=server_url(),
        database=soak_database("soak"),
        redis_url=settings.REDIS_URL,
        channel_prefix=f"{os.environ.get('REDIS_CHANNEL_PREFIX', 'asgi')}-soak",
        port=free_ports(2),
        # As on a fresh clone, where var/ does not exist yet.
        log_path=tmp_path / "var" / "soak-site.log",
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
    assert "web.1" in config.log_path.read_text()
    assert not database_exists(config.database)


@production_mode
def test_a_soak_whose_setup_fails_drops_its_database():
    config = SiteConfig(
        server_url=server_url(),
        database=soak_database("soak_setup"),
        redis_url=settings.REDIS_URL,
        channel_prefix="unused",
        port=free_ports(2),
        # Production mode half set up: the site's first command (migrate) refuses to start.
        secret_key="",
    )

    with pytest.raises(RuntimeError, match="migrate"):
        site_start(config, players=2)

    assert not database_exists(config.database)
    assert not config.static_root.exists()


@production_mode
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "kill"])
def test_a_soak_stopped_while_it_sets_up_drops_its_database(tmp_path, stop):
    database = soak_database(f"soak_{stop.name.lower()}")
    driver = subprocess.Popen(  # noqa: S603
        [sys.executable, str(ROOT / "benchmarks" / "soak.py")],
        env={
            **os.environ,
            "SOAK_SERVER_URL": server_url(),
            "SOAK_DATABASE": database,
            "SOAK_REDIS_URL": settings.REDIS_URL,
            "SOAK_PORT": str(free_ports(2)),
            "SOAK_LOG": str(tmp_path / "soak-site.log"),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # A bound, not a wait: the database appears within a second or so.
        deadline = time.monotonic() + 60
        while not database_exists(database):
            assert driver.poll() is None, "the soak ended before it made its database"
            assert time.monotonic() < deadline, "the soak never made its database"
            time.sleep(0.05)

        driver.send_signal(stop)
        driver.wait(timeout=60)
    finally:
        driver.kill()
        driver.wait()

    assert not database_exists(database)


@pytest.mark.django_db
def test_a_race_lost_to_a_player_outside_it_reads_as_the_soak_scores_it(client, catalog):
    """The pages the soak reads after a race that no racer won: the racer sent back to the
    board is told another player took the trade, and the poster's My Trades names who."""
    han, leia, chewie = (UserFactory(username=name) for name in ("Han", "Leia", "Chewie"))
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 2})
    give_cards(leia, {wanted.pk: 1})
    give_cards(chewie, {wanted.pk: 1})
    trade, waiting = (
        posted_trade_create(poster=han, offer=[card_item(offered, 1)], want=[card_item(wanted, 1)])
        for _ in range(2)
    )
    posted_trade_accept(trade_id=trade.pk, taker=leia)

    client.force_login(chewie)
    refused = client.post(f"/trades/posted/{trade.pk}/accept/")
    board = client.get(refused["Location"]).content.decode()
    client.force_login(han)
    mine = client.get("/trades/posted/mine/").content.decode()

    assert TAKEN_BY_ANOTHER in FLASHED.search(board)[1]
    assert trade_taker(mine, trade.pk) == "Leia"
    assert trade_taker(mine, waiting.pk) is None
