"""Live matches under load beside a bare echo consumer, measured in the same run.

For each size N (50, 200 and 1,000 matches by default) the script creates N Practice Games,
each begun, with two players and an observer, starts the site's web processes
(benchmarks/lobby_asgi.py): one daphne per core (BENCH_PROCESSES), each on a port of its own
as ``make start`` runs them behind the site's proxy. It opens the 3N match sockets
(ws/match/<id>/) from this process over the loopback, ten at a time, each ten once their pages
show the match, each socket to a process chosen at random (seeded), as a round-robin proxy
shares out players who arrive each at their own time: a match's sockets may meet on one
process or be served by different ones and meet through the channel layer. In each of
BENCH_SECONDS / BENCH_SEND_PERIOD rounds (30 / 5), each match's deciding player sends one legal
action, the first button of their prompt (the matches spread evenly over a window of
BENCH_SEND_PERIOD seconds), as a page does: ``{"type": "act", "ply": ..., "action": ...}``
taken from the button's hx-vals. A player waits for the view of their last action before
sending the next, as a person does, so a slow server gets fewer actions, not a backlog. An
action's latency is from its send to the arrival, at the last of the match's three sockets, of
a view past the ply it was sent at (the ``data-ply`` of the prompt).

The baseline is the bare echo consumer of the same ASGI application on as many processes of
its own, measured in the same minutes: the same 3N sockets in groups of three
(ws/bench/echo/<room>/), one socket of each group sending a line on the same schedule, its
latency from the send to its arrival at all three. The two routes take turns, a window each
round (the echo's, then the matches'), so that both meet the machine at the same speed: this
machine's speed drifts by a fifth and more within minutes, and measuring one route a minute
after the other made their ratio drift as much. Neither route ever shares a window with the
other's load.
It costs what the server, the websocket frames and the channel layer's group send cost,
without the session, the database, the engine or the HTML.

The script prints, per size and route: sockets held open at the end, seconds to connect them
all and for their first views to settle, actions sent, complete (seen by all three sockets)
and refused by the server, p50 and p95 latency, the web processes' CPU time per complete
action ("cpu ms", from the first send to the last view), the load generator's own in the
route's windows ("load ms": this process, which reads every view) and the share of the
machine's cores busy in them ("busy": the load generator, PostgreSQL and Redis included), the
p95 ratio match/echo, and the web processes' memory per live match (their resident sets after the
match sockets opened and their first views arrived, less before, over N). Each route of each
size gets web processes of its own, which start idle and from the same heap; the echo's
sockets open first, then the matches'. It never fails on a number.

Run with `.venv/bin/python benchmarks/match_load.py` after `make catalog` (it loads the card
catalog itself if it is missing); production mode (DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY)
measures PostgreSQL and the Redis channel layer, the embedded default SQLite and the in-memory
layer. BENCH_MATCHES=5,20 chooses the sizes. The benchmark's players are named matchbench*;
their matches are deleted before each size and at the end.

The test suite empties the cache before each test: in production mode, beside a test run on
the same Redis database, the groups' version counters vanish and every socket asks for its
whole view again, which the figures would include. Give the benchmark a Redis database of its
own then (REDIS_URL=redis://127.0.0.1:6379/1).
"""

import asyncio
import contextlib
import json
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
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
from django.contrib.sessions.models import Session  # noqa: E402
from django.db import connections  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402

from benchmarks.pages import percentile  # noqa: E402
from collection.cards.models import Card  # noqa: E402
from collection.cards.services import set_files  # noqa: E402
from collection.services.products import set_load  # noqa: E402
from game.engine import api as engine  # noqa: E402
from game.fragments import match_screen_update  # noqa: E402
from game.models import Match  # noqa: E402
from game.selectors import match_moment, match_screen  # noqa: E402
from game.services.matches import (  # noqa: E402
    MatchSettings,
    game_act,
    match_create,
    match_join,
    match_ready,
)
from tcgsite.accounts.models import Preferences, User  # noqa: E402
from tcgsite.lobbies.models import Connection, Presence  # noqa: E402

SIZES = [int(size) for size in os.environ.get("BENCH_MATCHES", "50,200,1000").split(",")]
SEND_PERIOD = float(os.environ.get("BENCH_SEND_PERIOD", "5"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "30"))
# One web process per core, as the site is deployed (README, "Production mode").
PROCESSES = int(os.environ.get("BENCH_PROCESSES", str(os.cpu_count() or 1)))
ARRIVAL_WAVE = 10  # sockets opened at once
QUIET = 3
DRAIN = 30  # seconds without a frame after which the views still awaited are given up
FIRST_VIEW_LIMIT = 120
IDLE_LIMIT = 60
USERNAME_PREFIX = "matchbench"
PLAYER_SLOTS = (0, 1)  # the observer's socket is the third
SOCKETS_PER_MATCH = 3
RENDER_DECISIONS = int(os.environ.get("BENCH_RENDER_DECISIONS", "300"))
RENDER_SEED = 37
PLY = re.compile(r'data-ply="(\d+)"')
HX_VALS = re.compile(r"hx-vals='([^']*)'")
# game/_match_error.html; the copy every view carries to clear the error is ``hidden``.
REFUSAL = re.compile(r'role="alert" hx-swap-oob="true">([^<]*)<')


def migrations_check() -> None:
    executor = MigrationExecutor(connections["default"])
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        sys.exit("The database lacks migrations: run `.venv/bin/python manage.py migrate` first.")


def catalog_ensure() -> None:
    """The practice decks' faces come from the catalog: load it if this database lacks it."""
    if not Card.objects.exists():
        for path in set_files():
            set_load(path=path)


def bench_players(count: int) -> tuple[list[User], list[str]]:
    """``count`` players made for the benchmark, and a session cookie for each."""
    names = [f"{USERNAME_PREFIX}{number:05d}" for number in range(count)]
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
    players = list(User.objects.filter(username__in=names).order_by("username"))
    cookies = []
    for user in players:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
    return players, cookies


def forget_bench_matches() -> None:
    """A player sits in one live match at a time: the benchmark's are deleted, with their games
    and presence, before new ones are made."""
    bench = User.objects.filter(username__startswith=USERNAME_PREFIX)
    Match.objects.filter(host__in=bench).delete()
    Connection.objects.filter(user__in=bench).delete()
    Presence.objects.filter(user__in=bench).delete()


def forget_bench_sessions(cookies: list[str]) -> None:
    keys = [cookie.split("=", 1)[1] for cookie in cookies]
    Session.objects.filter(session_key__in=keys).delete()


def begun_practice_games(players: list[User]) -> list[int]:
    """One begun Practice Game for each three players (the third is its observer)."""
    match_ids = []
    for first, second, _observer in zip(*[iter(players)] * SOCKETS_PER_MATCH, strict=True):
        match = match_create(
            host=first, deck=None, settings=MatchSettings(title="Benchmark", practice=True)
        )
        match_join(match_id=match.pk, player=second, deck=None)
        match_ready(match_id=match.pk, player=first)
        match_ready(match_id=match.pk, player=second)
        match_ids.append(match.pk)
    return match_ids


@dataclass
class Server:
    """The web processes serving one route: ``PROCESSES`` daphnes, each listening on a port of
    its own, as ``make start`` runs one per core for the proxy's upstream (README,
    "Production mode")."""

    ports: list[int]
    listeners: list[socket.socket]
    processes: list[subprocess.Popen]
    log: object  # one file all the processes write their errors to

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def said(self) -> str:
        self.log.seek(0)
        return self.log.read().decode()

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
            process.wait()
        for listener in self.listeners:
            listener.close()


class Proxy:
    """Where the proxy in front of the processes sends each new socket: to any of them, as a
    round-robin upstream does for players who arrive each at their own time (so a match's
    sockets may meet on one process or not, by chance). Seeded: both routes of a size get
    the same sequence."""

    def __init__(self, ports: list[int], seed: int):
        self.ports = ports
        self.chooser = random.Random(seed)

    def port(self) -> int:
        return self.chooser.choice(self.ports)


def start_server() -> Server:
    listeners = [socket.create_server(("127.0.0.1", 0), backlog=4096) for _ in range(PROCESSES)]
    log = tempfile.TemporaryFile()
    daphne = str(Path(sys.executable).parent / "daphne")
    processes = []
    for listener in listeners:
        listener.set_inheritable(True)
        fd = listener.fileno()
        processes.append(
            subprocess.Popen(  # noqa: S603
                [daphne, "-v", "1", "--fd", str(fd), "benchmarks.lobby_asgi:application"],
                cwd=ROOT,
                pass_fds=[fd],
                # Plain ws:// on the loopback; production mode otherwise redirects to https.
                env={**os.environ, **({"DJANGO_HTTPS": "false"} if settings.REDIS_URL else {})},
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        )
    server = Server(
        ports=[listener.getsockname()[1] for listener in listeners],
        listeners=listeners,
        processes=processes,
        log=log,
    )
    # A listening socket takes connections before its process serves it: each process says
    # when it listens.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.said().count("Listening on") >= PROCESSES:
            return server
        if any(process.poll() is not None for process in server.processes):
            break
        time.sleep(0.2)
    server.stop()
    raise SystemExit(f"daphne did not start: {server.said()[-2000:]}")


def resident_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(re.search(r"VmRSS:\s+(\d+) kB", status)[1])
    return total


def is_decision(hx_vals: str) -> bool:
    """Whether a button's hx-vals is a game decision (the prompt's), not a menu's."""
    try:
        values = json.loads(hx_vals)
    except ValueError:
        return False
    return isinstance(values, dict) and values.get("type") == "act"


@dataclass
class InFlight:
    """The one action (or echo line) a table has sent and not yet seen arrive everywhere."""

    sent_at: float
    sender: int
    mark: object  # what shows its arrival: the ply it was sent at, or the echoed line
    waiting: set[int] = field(default_factory=lambda: set(range(SOCKETS_PER_MATCH)))


class Table:
    """The three sockets of one match, two players and an observer, or their echo stand-ins."""

    shows_state_on_connect = False

    def __init__(self, index: int, cookies: list[str]):
        self.index = index
        self.cookies = cookies
        self.connections: list = [None] * SOCKETS_PER_MATCH
        self.in_flight: InFlight | None = None
        self.latencies: list[float] = []
        self.sent = 0
        self.refusals: list[str] = []

    def path(self) -> str:
        raise NotImplementedError

    def next_message(self) -> tuple[int, str, object] | None:
        """The slot to send from, the text to send, and the mark of its arrival; None when
        there is nothing to send."""
        raise NotImplementedError

    def receive(self, slot: int, text: str, now: float) -> None:
        raise NotImplementedError

    def arrived(self, slot: int, now: float) -> None:
        flight = self.in_flight
        if flight is None or slot not in flight.waiting:
            return
        flight.waiting.discard(slot)
        if not flight.waiting:
            self.latencies.append((now - flight.sent_at) * 1000)
            self.in_flight = None


class MatchTable(Table):
    shows_state_on_connect = True

    def __init__(self, index: int, cookies: list[str], match_id: int):
        super().__init__(index, cookies)
        self.match_id = match_id
        self.plies = [-1] * SOCKETS_PER_MATCH
        # The hx-vals of the decisions each socket's latest view offers (a player's own).
        self.offers: list[list[str]] = [[] for _ in range(SOCKETS_PER_MATCH)]
        self.view_bytes: list[int] = []

    def path(self) -> str:
        return f"/ws/match/{self.match_id}/"

    def next_message(self):
        for slot in PLAYER_SLOTS:
            if self.offers[slot]:
                offer = self.offers[slot][0]  # the prompt's primary button
                return slot, offer, int(json.loads(offer)["ply"])
        return None  # the game is over, or its views have not come yet

    def receive(self, slot: int, text: str, now: float) -> None:
        refusal = REFUSAL.search(text)
        if refusal and self.in_flight is not None and self.in_flight.sender == slot:
            self.refusals.append(refusal[1])
            self.in_flight = None
        shown = PLY.search(text)
        if shown is None:
            return
        self.view_bytes.append(len(text.encode()))
        ply = int(shown[1])
        if ply < self.plies[slot]:
            return
        self.plies[slot] = ply
        self.offers[slot] = [offer for offer in HX_VALS.findall(text) if is_decision(offer)]
        if self.in_flight is not None and ply > self.in_flight.mark:
            self.arrived(slot, now)


class EchoTable(Table):
    def path(self) -> str:
        return f"/ws/bench/echo/match{self.index}/"

    def next_message(self):
        line = f"echo-{self.index}-{self.sent}"
        return 0, line, line

    def receive(self, slot: int, text: str, now: float) -> None:
        if self.in_flight is not None and text == self.in_flight.mark:
            self.arrived(slot, now)


@dataclass
class Result:
    held: int
    connect_seconds: float
    settle_seconds: float
    sent: int
    complete: int
    refused: int
    p50: float
    p95: float
    server_cpu_ms: float
    client_cpu_ms: float
    machine_busy: float
    kib_per_match: float | None = None


async def open_socket(port: int, table: Table, slot: int, failures: list[str]):
    """The socket, or None (its failure noted) if the server dropped or refused it."""
    try:
        return await websockets.connect(
            f"ws://127.0.0.1:{port}{table.path()}",
            additional_headers={"Cookie": table.cookies[slot], "Origin": "http://127.0.0.1"},
            open_timeout=300,
            max_queue=None,
            max_size=None,
            ping_interval=None,
        )
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        failures.append(repr(error))
        return None


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        # utime and stime, the 14th and 15th fields of /proc/<pid>/stat (the name may hold
        # spaces).
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def machine_jiffies() -> tuple[int, int]:
    """The machine's CPU time since boot, busy and in all, in clock ticks (/proc/stat)."""
    fields = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


@dataclass
class Reading:
    """This process's CPU time and the machine's busy and total clock ticks, at one moment."""

    client_cpu: float
    busy_ticks: int
    total_ticks: int

    @classmethod
    def now(cls) -> "Reading":
        return cls(cpu_seconds([os.getpid()]), *machine_jiffies())


async def server_idle(pids: list[int], limit: float = IDLE_LIMIT) -> bool:
    """Wait until the server has worked off what it still had to do (a second in which its
    processes used under 5% of a core), or ``limit`` seconds; whether it went idle."""
    deadline = time.monotonic() + limit
    used = cpu_seconds(pids)
    while time.monotonic() < deadline:
        await asyncio.sleep(1)
        used, before = cpu_seconds(pids), used
        if used - before < 0.05:
            return True
    return False


async def warm_up(ports: list[int], table: Table, server_pids: list[int]) -> None:
    """Open and close one match's sockets, a few times over so that every process serves
    some, so the memory measured after is the matches' own and not the first render's
    (templates compiled, modules imported, caches filled)."""
    failures: list[str] = []
    opened = [
        await open_socket(port, table, slot, failures)
        for port in ports
        for slot in range(SOCKETS_PER_MATCH)
    ]
    connections = [connection for connection in opened if connection is not None]
    await asyncio.gather(*(connection.recv() for connection in connections))
    await asyncio.gather(*(connection.close() for connection in connections))
    await server_idle(server_pids)


@dataclass
class Route:
    """One route of a size: its tables, the web processes of its own that serve them, and
    what was measured of them."""

    name: str
    tables: list[Table]
    server: Server
    proxy: Proxy
    last_frame_at: float = field(default_factory=time.monotonic)
    readers: list[asyncio.Task] = field(default_factory=list)
    connect_seconds: float = 0.0
    settle_seconds: float = 0.0
    kib_per_match: float | None = None
    # This process's CPU time, and the machine's busy and total clock ticks, in the route's
    # windows of the drive.
    spent: Reading = field(default_factory=lambda: Reading(0.0, 0, 0))

    def charge(self, since: Reading) -> Reading:
        """Add what was spent since ``since`` to the route's account; the reading now."""
        now = Reading.now()
        self.spent.client_cpu += now.client_cpu - since.client_cpu
        self.spent.busy_ticks += now.busy_ticks - since.busy_ticks
        self.spent.total_ticks += now.total_ticks - since.total_ticks
        return now


async def connect(route: Route, *, memory: bool) -> None:
    """Open every socket of the route's tables and wait for their first views; with
    ``memory``, the server's memory per table too."""
    first_frames: dict[tuple[int, int], asyncio.Event] = {}
    tables, pids = route.tables, route.server.pids

    async def read(table: Table, slot: int, connection):
        try:
            async for text in connection:
                route.last_frame_at = now = time.monotonic()
                first_frames[table.index, slot].set()
                table.receive(slot, text, now)
        except websockets.ConnectionClosed:
            pass

    if memory:
        await warm_up(route.proxy.ports, tables[0], pids)
        kib_before = resident_kib(pids)
    seats = [(table, slot) for table in tables for slot in range(SOCKETS_PER_MATCH)]
    failures: list[str] = []
    started = time.monotonic()
    for wave in range(0, len(seats), ARRIVAL_WAVE):  # players arrive a few at a time
        batch = seats[wave : wave + ARRIVAL_WAVE]
        opened = await asyncio.gather(
            *(open_socket(route.proxy.port(), table, slot, failures) for table, slot in batch)
        )
        for (table, slot), connection in zip(batch, opened, strict=True):
            if connection is not None:
                table.connections[slot] = connection
                first_frames[table.index, slot] = asyncio.Event()
                route.readers.append(asyncio.create_task(read(table, slot, connection)))
        if tables[0].shows_state_on_connect:
            # The players' pages show before the next few arrive: arrivals that outran the
            # server would queue their handshakes behind its first views until daphne drops
            # them (its websocket_connect_timeout, 5 s), a stampede rather than a busy site.
            new = [
                first_frames[table.index, slot].wait()
                for (table, slot), connection in zip(batch, opened, strict=True)
                if connection is not None
            ]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*new), FIRST_VIEW_LIMIT)
        else:
            await asyncio.sleep(0.1)
    route.connect_seconds = time.monotonic() - started
    if failures:
        print(f"  {route.name}: {len(failures)} sockets failed to open, e.g. {failures[0]}")
    # Each socket's first view (the whole screen) is timed out of the drive: it starts once
    # they have all arrived (no frame for QUIET seconds).
    await asyncio.sleep(QUIET)
    while time.monotonic() - route.last_frame_at < QUIET:
        await asyncio.sleep(0.2)
    route.settle_seconds = time.monotonic() - started - route.connect_seconds
    if memory:
        route.kib_per_match = (resident_kib(pids) - kib_before) / len(tables)


async def drive(routes: list[Route]) -> None:
    """Let each route's tables act at a human rate, the routes taking turns: one window of
    SEND_PERIOD seconds each, round after round, so that every route meets the machine as it
    is at the same minutes (its speed drifts within minutes, by a fifth and more, as the host's
    other guests come and go) and never shares it with another route's load."""
    rounds = max(1, round(SECONDS / SEND_PERIOD))
    began = time.monotonic()

    def window_start(number: int) -> float:
        return began + number * SEND_PERIOD

    async def play(position: int, route: Route, table: Table):
        # The tables of a route spread evenly over its windows.
        offset = SEND_PERIOD * table.index / len(route.tables)
        for round_number in range(rounds):
            at = window_start(round_number * len(routes) + position) + offset
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            # A person acts on what they see: not before the last action's view has come.
            if table.in_flight is None and (message := table.next_message()):
                slot, text, mark = message
                table.in_flight = InFlight(sent_at=time.monotonic(), sender=slot, mark=mark)
                table.sent += 1
                try:
                    await table.connections[slot].send(text)
                except websockets.ConnectionClosed:
                    table.in_flight = None
                    return  # counted in "held" and the close codes

    async def account():
        """Each window's load generator CPU time and machine ticks, to its route's account."""
        reading = Reading.now()
        for number in range(rounds * len(routes)):
            await asyncio.sleep(max(0.0, window_start(number + 1) - time.monotonic()))
            reading = routes[number % len(routes)].charge(reading)

    # A table with a socket missing would wait for it forever.
    players = [
        asyncio.create_task(play(position, route, table))
        for position, route in enumerate(routes)
        for table in route.tables
        if None not in table.connections
    ]
    await account()
    await stop(players)
    # The last views arrive: wait while they are still coming, however long the backlog.
    # Their cost goes to the last window's route.
    reading = Reading.now()
    tables = [table for route in routes for table in route.tables]
    last_frame = max(route.last_frame_at for route in routes)
    while any(table.in_flight for table in tables) and time.monotonic() - last_frame < DRAIN:
        await asyncio.sleep(0.2)
        last_frame = max(route.last_frame_at for route in routes)
    routes[-1].charge(reading)


async def finish(route: Route, server_cpu: float) -> Result:
    """The route's figures, its sockets closed."""
    tables, spent = route.tables, route.spent
    connections = [connection for table in tables for connection in table.connections if connection]
    held = sum(1 for connection in connections if connection.state.name == "OPEN")
    closed_codes = {connection.close_code for connection in connections} - {None}
    if closed_codes:
        print(f"  {route.name}: sockets closed by the server with codes {sorted(closed_codes)}")
    refusals = sorted({refusal for table in tables for refusal in table.refusals})
    if refusals:
        print(f"  {route.name}: refused: {refusals[:5]}")
    await stop(route.readers)
    await asyncio.gather(*(connection.close() for connection in connections))
    latencies = sorted(latency for table in tables for latency in table.latencies)
    return Result(
        held=held,
        connect_seconds=route.connect_seconds,
        settle_seconds=route.settle_seconds,
        sent=sum(table.sent for table in tables),
        complete=len(latencies),
        refused=sum(len(table.refusals) for table in tables),
        p50=statistics.median(latencies) if latencies else float("nan"),
        p95=latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan"),
        server_cpu_ms=1000 * server_cpu / len(latencies) if latencies else float("nan"),
        client_cpu_ms=1000 * spent.client_cpu / len(latencies) if latencies else float("nan"),
        machine_busy=spent.busy_ticks / spent.total_ticks if spent.total_ticks else float("nan"),
        kib_per_match=route.kib_per_match,
    )


async def measure(routes: list[Route]) -> list[Result]:
    """Connect each route's sockets in turn (the last route's memory measured), drive them
    all in turns, and time each action's arrival at all three of its table's sockets."""
    for route in routes:
        await connect(route, memory=route is routes[-1])
    cpu_before = [cpu_seconds(route.server.pids) for route in routes]
    await drive(routes)
    server_cpu = [
        cpu_seconds(route.server.pids) - before
        for route, before in zip(routes, cpu_before, strict=True)
    ]
    return [await finish(route, cpu) for route, cpu in zip(routes, server_cpu, strict=True)]


async def stop(tasks: list[asyncio.Task]) -> None:
    """Cancel the tasks, raising the first error any of them ended with (a task's error is
    otherwise never seen, and its table would just fall silent)."""
    for task in tasks:
        task.cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, Exception):
            raise outcome


def print_row(count: int, route: str, result: Result) -> None:
    memory = "" if result.kib_per_match is None else f"{result.kib_per_match:>10.0f}"
    print(
        f"{count:>7} {route:<6} {count * SOCKETS_PER_MATCH:>7} {result.held:>6} "
        f"{result.connect_seconds:>9.1f} {result.settle_seconds:>8.1f} {result.sent:>6} "
        f"{result.complete:>8} {result.refused:>7} {result.p50:>8.1f} {result.p95:>8.1f} "
        f"{result.server_cpu_ms:>8.2f} {result.client_cpu_ms:>8.2f} {result.machine_busy:>6.0%} "
        f"{memory}"
    )


def measure_routes(count: int, routes_tables: dict[str, list[Table]]) -> dict[str, Result]:
    """The routes' figures, each route on daphne processes of its own: each starts idle (the
    matches' server still works off their sockets' departures long after they closed) and
    from the same heap."""
    servers = []
    try:
        routes = []
        for name, tables in routes_tables.items():
            server = start_server()
            servers.append(server)
            routes.append(Route(name, tables, server, Proxy(server.ports, seed=count)))
        try:
            results = asyncio.run(measure(routes))
        except (OSError, websockets.WebSocketException) as error:
            said = "\n".join(server.said()[-2000:] for server in servers)
            raise SystemExit(f"at {count} matches: {error!r}\n{said}") from error
        for route, result in zip(routes, results, strict=True):
            print_row(count, route.name, result)
            if result.held < count * SOCKETS_PER_MATCH:
                server_said = route.server.said()
                # The first error says why; the sockets' closing adds many more after it.
                first_error = max(server_said.find("Traceback"), 0)
                print(server_said[first_error : first_error + 3000])
    finally:
        for server in servers:
            server.stop()
    return {route.name: result for route, result in zip(routes, results, strict=True)}


def statistics_refresh() -> None:
    """Do what PostgreSQL's autovacuum does for a live site (and cannot here: the benchmark
    makes thousands of players and matches, and deletes the last size's, a moment before
    measuring; and it may be off, as on this machine's server): clear the dead rows and give
    the query planner the tables' statistics. Planning with a few hundred users where there are
    thousands, it joins a match's seats to their players by scanning the whole users table,
    several milliseconds a decision."""
    connection = connections["default"]
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)" if connection.vendor == "postgresql" else "ANALYZE")


def measure_size(count: int, players: list[User], cookies: list[str]) -> None:
    """Begin ``count`` matches, measure the echo consumer and them, and print their rows."""
    forget_bench_matches()
    setup_started = time.monotonic()
    match_ids = begun_practice_games(players[: SOCKETS_PER_MATCH * count])
    statistics_refresh()
    setup_seconds = time.monotonic() - setup_started
    seat_cookies = [
        cookies[SOCKETS_PER_MATCH * index : SOCKETS_PER_MATCH * (index + 1)]
        for index in range(count)
    ]
    match_tables = [
        MatchTable(index, seat_cookies[index], match_id) for index, match_id in enumerate(match_ids)
    ]
    echo_tables = [EchoTable(index, seat_cookies[index]) for index in range(count)]
    results = measure_routes(count, {"echo": echo_tables, "match": match_tables})
    echo, match = results["echo"], results["match"]
    view_bytes = [size for table in match_tables for size in table.view_bytes]
    mean_view_kib = statistics.mean(view_bytes) / 1024 if view_bytes else float("nan")
    print(
        f"{count:>7} match/echo p95 ratio {match.p95 / echo.p95:.2f}; {count} games begun in "
        f"{setup_seconds:.1f} s; a view frame is {mean_view_kib:.1f} KiB on average"
    )


def render_per_socket(players: list[User]) -> None:
    """The render of one socket's frame after each decision, in this process: one Practice
    Game played by random legal actions for RENDER_DECISIONS decisions, and at each moment
    each of its three sockets' frame made both ways, in turns: the whole screen (what every
    frame was before regions) and only the regions that changed since its last frame (what a
    socket sends now). Prints the CPU time (screen read from the moment, and render) and bytes
    of each."""
    forget_bench_matches()
    viewers = players[:SOCKETS_PER_MATCH]
    match_id = begun_practice_games(viewers)[0]
    chooser = random.Random(RENDER_SEED)
    shown: dict[int, dict[str, str] | None] = {viewer.pk: None for viewer in viewers}
    logged: dict[int, tuple[int, int] | None] = {viewer.pk: None for viewer in viewers}
    timed: dict[str, list[float]] = {"whole screen": [], "changed regions": []}
    sizes: dict[str, list[int]] = {"whole screen": [], "changed regions": []}
    for _ in range(RENDER_DECISIONS):
        moment = match_moment(match_id=match_id, with_recent_actions=True)
        for viewer in viewers:
            for way in ("whole screen", "changed regions"):
                start = time.process_time()
                screen = match_screen(
                    match_id=match_id, viewer=viewer, logged=logged[viewer.pk], moment=moment
                )
                html, regions = match_screen_update(
                    screen,
                    replace_log=logged[viewer.pk] is None,
                    clear_error=True,
                    shown=shown[viewer.pk] if way == "changed regions" else None,
                )
                timed[way].append((time.process_time() - start) * 1000)
                sizes[way].append(len(html.encode()))
            shown[viewer.pk], logged[viewer.pk] = regions, screen.logged
        state = moment.state
        decision = engine.legal_actions(state)
        if decision.seat is None:
            break
        game_act(
            match_id=match_id,
            player=viewers[decision.seat],
            ply=state.applied,
            action=chooser.choice(decision.actions),
        )
    forget_bench_matches()
    print(
        f"One socket's frame after each decision, in this process ({len(timed['whole screen'])} "
        "frames of a Practice Game's three sockets, CPU time of reading and rendering):"
    )
    for way, samples in timed.items():
        print(
            f"  {way:<16} p50 {statistics.median(samples):6.2f} ms  "
            f"p95 {percentile(samples, 0.95):6.2f} ms  "
            f"{statistics.mean(sizes[way]) / 1024:5.1f} KiB on average"
        )


def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(
        f"Live matches: {PROCESSES} daphne process(es) per size and route, {database} and "
        f"{layer}; each "
        f"match acts once a round for {SECONDS / SEND_PERIOD:g} rounds, the routes taking turns "
        f"in windows of {SEND_PERIOD:g} s (two players and an observer); "
        "latency = send to the new view at all three sockets"
    )
    migrations_check()
    catalog_ensure()
    forget_bench_matches()
    players, cookies = bench_players(SOCKETS_PER_MATCH * max(SIZES))
    try:
        render_per_socket(players)
        print(
            f"{'matches':>7} {'route':<6} {'sockets':>7} {'held':>6} {'connect s':>9} "
            f"{'settle s':>8} {'sent':>6} {'complete':>8} {'refused':>7} {'p50 ms':>8} "
            f"{'p95 ms':>8} {'cpu ms':>8} {'load ms':>8} {'busy':>6} {'KiB/match':>10}"
        )
        for count in SIZES:
            measure_size(count, players, cookies)
    finally:
        forget_bench_matches()
        forget_bench_sessions(cookies)


if __name__ == "__main__":
    main()
