"""Lobby chat under load beside a bare echo consumer, measured in the same run.

N clients (100, 500 and 1,000 by default) connect from this process over the loopback to one
daphne process: first all to the Casual Lobby's chat socket, then all to a bare echo consumer
(benchmarks/lobby_asgi.py). Each client sends at a human rate (one line every
BENCH_SEND_PERIOD seconds, 300 by default: a busy lobby's chatty player, the clients spread
evenly over the period), for BENCH_SECONDS seconds (60). A line's latency is from its send to
its arrival at the last of the N clients; the script prints p50 and p95 for the lobby and the
echo consumer and their ratio, and how many clients stayed connected. It never fails on a number.

Run with `make bench` or `.venv/bin/python benchmarks/lobby_chat.py` (after `make setup`);
production mode (DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY) measures PostgreSQL and the Redis
channel layer, the embedded default SQLite and the in-memory layer. BENCH_CLIENTS=100,500
chooses the sizes.
"""

import asyncio
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402

from tcgsite.accounts.models import Preferences, User  # noqa: E402
from tcgsite.lobbies.models import ChatMessage, Connection, Presence  # noqa: E402

SIZES = [int(size) for size in os.environ.get("BENCH_CLIENTS", "100,500,1000").split(",")]
SEND_PERIOD = float(os.environ.get("BENCH_SEND_PERIOD", "300"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
ARRIVAL_WAVE = 10
QUIET = 3
TOKEN = re.compile(r"bench-(\d+)-(\d+)-(\d+)-end")


def bench_players(count: int) -> list[str]:
    """Session cookies of ``count`` players made for the benchmark."""
    names = [f"bench{number:04d}" for number in range(count)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    new = [User(username=name) for name in names if name not in existing]
    for user in new:
        user.set_unusable_password()
    User.objects.bulk_create(new)
    # bulk_create sends no post_save, so the Preferences every player has are made here.
    Preferences.objects.bulk_create(
        [
            Preferences(user=user)
            for user in User.objects.filter(username__in=names, preferences=None)
        ]
    )
    cookies = []
    for user in User.objects.filter(username__in=names).order_by("username"):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
    return cookies


def forget_bench_traces() -> None:
    bench = User.objects.filter(username__startswith="bench")
    ChatMessage.objects.filter(sender__in=bench).delete()
    Connection.objects.filter(user__in=bench).delete()
    Presence.objects.filter(user__in=bench).delete()


def start_server(port: int):
    log = tempfile.TemporaryFile()
    daphne = str(Path(sys.executable).parent / "daphne")
    process = subprocess.Popen(  # noqa: S603
        [daphne, "-b", "127.0.0.1", "-p", str(port), "benchmarks.lobby_asgi:application"],
        cwd=ROOT,
        # Plain ws:// on the loopback; production mode otherwise redirects to https.
        env={**os.environ, **({"DJANGO_HTTPS": "false"} if settings.REDIS_URL else {})},
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, log
        except OSError:
            time.sleep(0.2)
    process.kill()
    log.seek(0)
    raise SystemExit(f"daphne did not start: {log.read().decode()[-2000:]}")


async def measure(url: str, cookies: list[str], encode, run_id: int) -> dict:
    """Connect every client, let each send at a human rate, and time each line's delivery to
    all of them."""
    count = len(cookies)
    sent_at: dict[tuple[int, int], float] = {}
    arrivals: dict[tuple[int, int], int] = {}
    last_arrival: dict[tuple[int, int], float] = {}
    last_frame_at = time.monotonic()

    async def read(connection):
        nonlocal last_frame_at
        try:
            async for text in connection:
                last_frame_at = time.monotonic()
                for match in TOKEN.finditer(text):
                    if int(match[1]) != run_id:
                        continue
                    key = (int(match[2]), int(match[3]))
                    arrivals[key] = arrivals.get(key, 0) + 1
                    last_arrival[key] = time.monotonic()
        except websockets.ConnectionClosed:
            pass

    async def open_(cookie):
        return await websockets.connect(
            url,
            additional_headers={"Cookie": cookie, "Origin": "http://127.0.0.1"},
            open_timeout=120,
            max_queue=None,
            ping_interval=None,
        )

    started = time.monotonic()
    connections = []
    for wave in range(0, count, ARRIVAL_WAVE):  # players arrive a few at a time
        connections += await asyncio.gather(
            *(open_(cookie) for cookie in cookies[wave : wave + ARRIVAL_WAVE])
        )
        await asyncio.sleep(0.1)
    connect_seconds = time.monotonic() - started
    readers = [asyncio.create_task(read(connection)) for connection in connections]
    # Every arrival is announced to everyone already there; the lines are timed once those
    # announcements have all been delivered (no frame for QUIET seconds).
    await asyncio.sleep(QUIET)
    while time.monotonic() - last_frame_at < QUIET:
        await asyncio.sleep(0.2)
    settle_seconds = time.monotonic() - started - connect_seconds

    began = time.monotonic()

    async def talk(index, connection):
        await asyncio.sleep(SEND_PERIOD * index / count)
        sequence = 0
        while time.monotonic() - began < SECONDS:
            sent_at[(index, sequence)] = time.monotonic()
            await connection.send(encode(f"bench-{run_id}-{index}-{sequence}-end"))
            sequence += 1
            await asyncio.sleep(SEND_PERIOD)

    talkers = [
        asyncio.create_task(talk(index, connection)) for index, connection in enumerate(connections)
    ]
    await asyncio.sleep(SECONDS)
    for talker in talkers:
        talker.cancel()
    waiting_since = time.monotonic()  # the last lines arrive, or 30 s pass
    while time.monotonic() - waiting_since < 30 and any(
        arrivals.get(key, 0) < count for key in sent_at
    ):
        await asyncio.sleep(0.2)
    still_open = sum(1 for connection in connections if connection.state.name == "OPEN")
    closed_codes = {connection.close_code for connection in connections} - {None}
    if closed_codes:
        print(f"  sockets closed by the server with codes {sorted(closed_codes)}")
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*(connection.close() for connection in connections))
    latencies = sorted(
        (last_arrival[key] - sent) * 1000
        for key, sent in sent_at.items()
        if arrivals.get(key, 0) >= count
    )
    return {
        "connected": len(connections),
        "still_open": still_open,
        "connect_seconds": connect_seconds,
        "settle_seconds": settle_seconds,
        "lines": len(sent_at),
        "complete": len(latencies),
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p95": latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan"),
    }


def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(
        f"Lobby chat: one daphne process, {database} and {layer}; each client sends a line "
        f"every {SEND_PERIOD:g} s for {SECONDS:g} s; latency = send to arrival at all clients"
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process, log = start_server(port)
    try:
        header = f"{'clients':>8} {'route':<12} {'held':>6} {'connect s':>9} {'settle s':>8} "
        header += f"{'lines':>6} "
        header += f"{'complete':>8} {'p50 ms':>8} {'p95 ms':>8}"
        print(header)
        for run_id, count in enumerate(SIZES):
            forget_bench_traces()
            cookies = bench_players(count)
            results = {}
            for route, path, encode in (
                ("echo", "/ws/bench/echo/", lambda text: text),
                ("lobby", "/ws/lobby/casual/", lambda text: json.dumps({"text": text})),
            ):
                try:
                    result = asyncio.run(
                        measure(f"ws://127.0.0.1:{port}{path}", cookies, encode, run_id)
                    )
                except (OSError, websockets.WebSocketException) as error:
                    log.seek(0)
                    server_said = log.read().decode()[-2000:]
                    raise SystemExit(
                        f"{route} at {count} clients: {error!r}\n{server_said}"
                    ) from error
                results[route] = result
                print(
                    f"{count:>8} {route:<12} {result['still_open']:>6} "
                    f"{result['connect_seconds']:>9.1f} {result['settle_seconds']:>8.1f} "
                    f"{result['lines']:>6} "
                    f"{result['complete']:>8} {result['p50']:>8.1f} {result['p95']:>8.1f}"
                )
            if results["lobby"]["still_open"] < count:
                log.seek(0)
                print(log.read().decode()[-3000:])
            ratio = results["lobby"]["p95"] / results["echo"]["p95"]
            print(f"{count:>8} {'lobby/echo':<12} p95 ratio {ratio:.2f}")
    finally:
        process.kill()
        process.wait()
        forget_bench_traces()


if __name__ == "__main__":
    main()
