"""Presence with several web processes (rulebook, "User Lists"; docs/design.md, "Live play"): two
real daphne processes share the Redis channel layer and the database; a client on each sees
the same User List and the other's messages, and when one process is killed its player leaves
the other's list within the documented time (heartbeat plus expiry)."""

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import UserFactory

pytestmark = [
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="several processes share presence through Redis and PostgreSQL: production mode",
    ),
    pytest.mark.django_db(transaction=True),
]

HEARTBEAT, EXPIRY, GRACE = 1, 3, 1
DAPHNE = Path(sys.executable).parent / "daphne"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_daphne(port: int) -> subprocess.Popen:
    database = settings.DATABASES["default"]
    environment = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "LOBBY_HEARTBEAT_SECONDS": str(HEARTBEAT),
        "LOBBY_PRESENCE_EXPIRY_SECONDS": str(EXPIRY),
        "LOBBY_PRESENCE_GRACE_SECONDS": str(GRACE),
        "DJANGO_HTTPS": "false",
        "EMBEDDED_BEAT": "false",
    }
    log = tempfile.TemporaryFile()  # a pipe nobody reads could fill and stall daphne
    process = subprocess.Popen(  # noqa: S603
        [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "tcgsite.asgi:application"],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=log,
        cwd=settings.BASE_DIR,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise AssertionError(f"daphne stopped: {log.read().decode()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError("daphne did not start within 60 seconds")


@pytest.fixture
def processes():
    started = []

    def start() -> int:
        port = free_port()
        started.append(start_daphne(port))
        return port

    yield start, started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class Socket:
    def __init__(self, connection):
        self.connection = connection
        self.received: list[str] = []

    async def until(self, pattern: str, timeout: float) -> str:
        deadline = asyncio.get_running_loop().time() + timeout
        for html in self.received:
            if re.search(pattern, html):
                return html
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            try:
                html = await asyncio.wait_for(self.connection.recv(), left)
            except TimeoutError:
                break
            self.received.append(html)
            if re.search(pattern, html):
                return html
        raise AssertionError(f"nothing matched {pattern!r} within {timeout} s")


async def connect(port: int, cookie: str) -> Socket:
    import websockets

    connection = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/lobby/casual/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=20,
    )
    return Socket(connection)


def test_two_processes_share_the_lobby_and_a_dead_ones_players_leave(processes):
    start, started = processes
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    cookies = session_cookie(carol), session_cookie(bob)
    first, second = start(), start()

    async def scenario() -> float:
        on_first = await connect(first, cookies[0])
        on_second = await connect(second, cookies[1])
        # Each sees both players in the list, whichever process serves the other.
        for client in (on_first, on_second):
            await client.until(f'id="lobby-user-{carol.pk}"', timeout=20)
            await client.until(f'id="lobby-user-{bob.pk}"', timeout=20)
        await on_second.connection.send(json.dumps({"text": "hello across processes"}))
        await on_first.until("hello across processes", timeout=20)
        await on_first.connection.send(json.dumps({"text": "and back"}))
        await on_second.until("and back", timeout=20)

        started[1].send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        await on_first.until(f'id="lobby-user-{bob.pk}" hx-swap-oob="delete"', timeout=30)
        waited = time.monotonic() - killed_at
        await on_first.connection.close()
        return waited

    waited = asyncio.run(scenario())

    # The documented bound is the expiry plus a heartbeat (the sweep runs at some live
    # socket's beat); a loaded machine gets some slack on top.
    assert waited <= EXPIRY + HEARTBEAT + 10, waited
