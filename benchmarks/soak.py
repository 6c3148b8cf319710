"""A mixed-traffic soak of production mode: a crowd of signed-in players on the whole site.

The script starts production mode as ``make start`` does, on a database of its own
(SOAK_DATABASE, ``tcgsite_soak``, created fresh and dropped at the end, also when the soak
fails or is stopped by Ctrl-C or kill) and Redis database 12 (SOAK_REDIS_URL): it migrates,
loads the catalog, collects the static files (into a folder of its own, STATIC_ROOT) and runs
the ``Procfile`` with honcho, two web processes, the Celery worker and beat. A staff member's
setup follows, written through the ORM: an event pass in the Store, two tournament queues
too large ever to start, and SOAK_PLAYERS players (200) with a session each. Everything the
players then do goes over HTTP and websockets from SOAK_CLIENT_PROCESSES client processes
(one per core), each player on one of the web processes chosen at random, as a round-robin
proxy would share them out.

The players arrive at random moments of a ramp (SOAK_RAMP_SECONDS, 120). Each starts by buying
two Jedi starter decks (one purchase) and an event pass and opening the decks (Open All): their
cards and the decks they save are what the player then plays and trades. It holds a lobby
socket open, and then, after a think time (SOAK_THINK_SECONDS, 20 on average, at least a
second), does one thing at a time, chosen at random by weight: browse the card browser and a
card's page, the binder, buy a product (a tenth of the confirmations sent twice, as a double
click) or open one, edit and save a deck, look at the posted trades, post one or accept one,
race for one (a player posts a trade and 2 to 32 players of its client process accept it at
once), say a line in its lobby's chat, play a casual match against another player (create,
join, both ready, a few decisions each over the match socket, then the host concedes), play a
Skirmish against the computer (Easy), or join a tournament queue and leave it. The crowd's time
(SOAK_SECONDS, 600) begins after the ramp.

Before the crowd, two players do the same on the idle site (SOAK_IDLE_SECONDS, 60): their
p95 of each kind of request is the baseline the crowd's is compared with, in the same run.

It prints, per kind of request: count, p50, p95, the idle p95 and the ratio, and the answers
that were not a success by status (0: no answer, the connection failed); the peak number of
the site's database connections (pg_stat_activity, sampled every 0.2 s, by application_name)
beside the bound documented in README, Production mode, "Database connections"; each of the
site's processes' peak memory (VmHWM); the races and their winners (a player outside the race
who took its trade first, as its poster's My Trades shows, when every racer was told so), and
what each racer of a race without exactly one winner was told; and the ledger's
conservation: every wallet's credits, every player's copies of every card and every product
equal to what the ledger's rows add up to, every trade moving as much as it takes, every
opening adding the cards it revealed, and each purchase, opening and accepted trade the
players were told of written exactly once. It fails on no other figure;
``tests/test_soak.py`` runs it with a small crowd and fails on a 5xx answer, a connection
above the bound or an item lost or duplicated.

Run with `.venv/bin/python benchmarks/soak.py` with PostgreSQL and Redis running (docs/stack.md);
SOAK_PORT (8700) is the first web process's port, SOAK_SERVER_URL the PostgreSQL server
(postgres://postgres@127.0.0.1:5432). The site's log (honcho's) is kept in var/soak-site.log
(SOAK_LOG). SOAK_WEB_PROCESSES (2) sets the number of web processes.

It measures the site's CPU in the crowd's steady part (after the ramp): each process's CPU time
from /proc/<pid>/stat, by kind of process, and per player-minute; and each request's, which the
web processes write down themselves (``REQUEST_CPU_LOG``, tcgsite/request_cpu.py), by the view's
URL name and method, as a share of the web processes' CPU and in milliseconds a request. With
SOAK_PROFILE (a file), py-spy samples the first web process through the steady part and the
report lists where its samples fall. It prints the sockets the crowd tried to open and those
that opened, and exits non-zero on any 5xx answer or any socket that did not open.
"""

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import psycopg
import websockets

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
VENV_BIN = Path(sys.executable).parent
# The driver's own database sessions (setup, the ledger check, the sampler) are named apart
# from the site's, whose names start with "tcgsite-" (Procfile).
DRIVER_APPLICATION = "soak-driver"
SUCCESS_STATUSES = {200, 204, 302}
ANSWER_TIMEOUT = 60.0
SOCKET_TIMEOUT = 30.0
SAMPLE_PERIOD = 0.2
LOBBIES = ("main", "casual", "trade", "tournaments")
SKIRMISH_OPPONENTS = ("jedi", "rebel", "sith", "imperial")
RACE_SIZES = (2, 4, 8, 16, 32)
DECISIONS_A_MATCH = (6, 24)  # each player's, at random between the two
SESSION_COOKIE = "sessionid"
CSRF_COOKIE = "csrftoken"

# What the site's pages carry (templates): read as a browser's page or htmx would.
CONFIRMATION = re.compile(r'name="confirmation" value="([0-9a-f-]{36})"')
OPEN_ALL = re.compile(r'class="unopened__all">(.*?)</form>', re.DOTALL)
OPEN_ONE = re.compile(
    r'class="unopened__open">\s*<input[^>]*>\s*<input type="hidden" name="open" value="(\d+)"'
)
OWNED_ID = re.compile(r'name="open" value="(\d+)"')
DECK_LINK = re.compile(r'href="/decks/(\d+)/"')
DECK_ENTRY = re.compile(r'name="entry" value="(\d+x\d+)"')
DECK_NAME = re.compile(r'id="deck-name" type="text" name="name" value="([^"]*)"')
ACCEPTABLE_TRADE = re.compile(r'posted-board__row--can" data-posted-open="/trades/posted/(\d+)/"')
MATCH_ADDRESS = re.compile(r"/matches/(\d+)/")
PLY = re.compile(r'data-ply="(\d+)"')
HX_VALS = re.compile(r"hx-vals='([^']*)'")
# game/_match_error.html; the copy every view carries to clear the error is ``hidden``.
MATCH_REFUSAL = re.compile(r'role="alert" hx-swap-oob="true">([^<]*)<')
HEADER_CREDITS = re.compile(r"<strong>(\d+)</strong> credits")
ALERT = re.compile(r'role="alert"[^>]*>([^<]+)<')
# What a racer is told when another player accepted the trade first
# (collection/trades/services/posted.py, closed_message).
TAKEN_BY_ANOTHER = "was just accepted by another player; nothing moved."
# A message flashed on the next page (base.html).
FLASHED = re.compile(r'<div class="message message--[^"]*" role="[^"]*">([^<]*)</div>')


# --- the site ---------------------------------------------------------------------------------


@dataclass
class SiteConfig:
    """Where and how production mode runs for the soak."""

    server_url: str  # the PostgreSQL server, without a database
    database: str
    redis_url: str
    channel_prefix: str
    port: int
    web_processes: int = 2
    worker_processes: int = 2
    # Enough for a whole soak of purchases: what the crowd measures is the site, not a
    # player's budget.
    starting_credits: int = 10_000_000
    # Where the site's log (honcho's: every process's output) is kept; a temporary file,
    # deleted with the site, when None.
    log_path: Path | None = None
    # One key for the setup and the site: the players' sessions are signed with it.
    secret_key: str = field(default_factory=lambda: secrets.token_hex(32))

    @property
    def database_url(self) -> str:
        return f"{self.server_url.rstrip('/')}/{self.database}"

    @property
    def static_root(self) -> Path:
        """The site's own collected static files: collecting into the checkout's
        (var/staticfiles) rewrites files that the test processes beside it are reading."""
        return Path(tempfile.gettempdir()) / f"{self.database}-static"

    @property
    def request_cpu_dir(self) -> Path:
        return Path(tempfile.gettempdir()) / f"{self.database}-request-cpu"

    @property
    def ports(self) -> list[int]:
        return [self.port + number for number in range(self.web_processes)]

    def environment(self, **extra: str) -> dict[str, str]:
        """The environment of ``make start`` for this site, and of the driver's setup."""
        return {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "REDIS_CHANNEL_PREFIX": self.channel_prefix,
            "DJANGO_SECRET_KEY": self.secret_key,
            # Plain http on the loopback, as README's "try it without a proxy".
            "DJANGO_HTTPS": "false",
            "HOST": "127.0.0.1",
            "WORKER_PROCESSES": str(self.worker_processes),
            "STARTING_CREDITS": str(self.starting_credits),
            "PATH": f"{VENV_BIN}:{os.environ.get('PATH', '')}",
            "PYTHONUNBUFFERED": "1",
            "STATIC_ROOT": str(self.static_root),
            # Each request's CPU, written down by the web processes (tcgsite/request_cpu.py).
            "REQUEST_CPU_LOG": str(self.request_cpu_dir),
            **extra,
        }


@dataclass
class Catalog:
    """What the players' pages name by number: written by the setup, read by the crowd."""

    jedi_starter: int
    booster: int
    event_pass: int
    prices: dict[str, int]  # by product id
    queues: list[int]
    # Cards of the Jedi starter deck of which it holds two copies or more: what posted trades
    # offer and want, so that most players hold them.
    trade_cards: list[int]
    card_pages: list[str]  # "set/number"
    pool_size: int  # DATABASE_POOL_SIZE as the web processes read it


@dataclass
class Site:
    config: SiteConfig
    honcho: subprocess.Popen
    log_path: Path
    catalog: Catalog
    cookies: list[str]  # one session cookie value per player

    def said(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def connection_bound(self) -> int:
        """README, Production mode, "Database connections": WEB_PROCESSES ×
        DATABASE_POOL_SIZE + WORKER_PROCESSES + 1 (worker's parent) + 1 (beat)."""
        config = self.config
        return config.web_processes * self.catalog.pool_size + config.worker_processes + 2


def postgres_command(config: SiteConfig, statement: str) -> None:
    with psycopg.connect(
        f"{config.server_url.rstrip('/')}/postgres",
        autocommit=True,
        application_name=DRIVER_APPLICATION,
    ) as connection:
        connection.execute(statement)


def database_drop(config: SiteConfig) -> None:
    postgres_command(config, f'DROP DATABASE IF EXISTS "{config.database}" WITH (FORCE)')


def manage(config: SiteConfig, *arguments: str) -> str:
    env = config.environment(DATABASE_APPLICATION_NAME=DRIVER_APPLICATION)
    done = subprocess.run(  # noqa: S603
        [PYTHON, *arguments], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(f"{' '.join(arguments)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def site_start(config: SiteConfig, players: int) -> Site:
    """A fresh database, prepared as ``make start`` prepares it, the staff's setup and the
    players; then the Procfile's processes, once every web process answers. Whatever stops it
    halfway (a failure, an interrupt), it leaves no process, database or files behind."""
    log_path = config.log_path or Path(tempfile.mkstemp(prefix="soak-site-", suffix=".log")[1])
    honcho = None
    try:
        # A fresh clone has no var/, where the script keeps the site's log.
        log_path.parent.mkdir(parents=True, exist_ok=True)
        database_drop(config)
        shutil.rmtree(config.request_cpu_dir, ignore_errors=True)
        config.request_cpu_dir.mkdir(parents=True)
        postgres_command(config, f'CREATE DATABASE "{config.database}"')
        manage(config, "manage.py", "migrate", "--noinput")
        manage(config, "manage.py", "load_cards")
        manage(config, "manage.py", "collectstatic", "--noinput", "--verbosity", "0")
        prepared = json.loads(
            manage(config, str(Path(__file__).resolve()), "prepare", str(players))
        )
        with log_path.open("wb") as log:
            honcho = subprocess.Popen(  # noqa: S603
                [
                    str(VENV_BIN / "honcho"),
                    "start",
                    "--no-colour",
                    "--port",
                    str(config.port),
                    "--concurrency",
                    f"web={config.web_processes}",
                ],
                cwd=ROOT,
                env=config.environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own process group: stopping the site stops every process it started.
                start_new_session=True,
            )
        site = Site(
            config=config,
            honcho=honcho,
            log_path=log_path,
            catalog=Catalog(**prepared["catalog"]),
            cookies=prepared["cookies"],
        )
        site_wait(site)
    except BaseException:
        site_remove(config, honcho, log_path)
        raise
    return site


def site_wait(site: Site, limit: float = 120) -> None:
    """Until each web process answers a page, and the worker and beat have started."""
    deadline = time.monotonic() + limit
    waiting = set(site.config.ports)
    while time.monotonic() < deadline:
        if site.honcho.poll() is not None:
            raise RuntimeError(f"production mode stopped:\n{site.said()[-3000:]}")
        for port in sorted(waiting):
            with contextlib.suppress(OSError):
                with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                    connection.sendall(b"GET /accounts/login/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if connection.recv(64).split(b" ")[1:2] == [b"200"]:
                        waiting.discard(port)
        said = site.said()
        if not waiting and "ready." in said and "beat: Starting" in said:
            return
        time.sleep(0.5)
    raise RuntimeError(f"production mode did not start in {limit:g} s:\n{site.said()[-3000:]}")


def site_processes(site: Site) -> dict[int, str]:
    """The site's processes (honcho's descendants, shells left out), by pid, each with a
    short name."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            commands[int(entry.name)] = (
                (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            )
    found: dict[int, str] = {}
    frontier = [site.honcho.pid]
    while frontier:
        parent = frontier.pop()
        for pid, its_parent in parents.items():
            if its_parent == parent:
                frontier.append(pid)
                command = commands.get(pid, "")
                # Honcho's own helpers and the shells it runs the Procfile's lines in.
                if (
                    command
                    and "honcho" not in command
                    and not command.startswith(("sh ", "/bin/sh "))
                ):
                    found[pid] = process_name(command, found, parent)
    return found


def process_name(command: str, named: dict[int, str], parent: int) -> str:
    if "daphne" in command:
        port = re.search(r"-p (\d+)", command)
        return f"web :{port[1] if port else '?'}"
    if " beat" in command:
        return "beat"
    if " worker" in command:
        return "worker child" if named.get(parent, "").startswith("worker") else "worker"
    return command[:40]


def peak_memory_kib(pids: dict[int, str]) -> dict[str, int]:
    """Each process's peak resident memory (VmHWM), by name ("web :8700", "worker child 2")."""
    peaks: dict[str, int] = {}
    for pid, name in sorted(pids.items()):
        with contextlib.suppress(OSError, TypeError):
            status = Path(f"/proc/{pid}/status").read_text()
            kib = int(re.search(r"VmHWM:\s+(\d+) kB", status)[1])
            label, number = name, 2
            while label in peaks:
                label, number = f"{name} {number}", number + 1
            peaks[label] = kib
    return peaks


def site_stop(site: Site) -> None:
    site_remove(site.config, site.honcho, site.log_path)


def site_remove(config: SiteConfig, honcho: subprocess.Popen | None, log_path: Path) -> None:
    """Stop honcho and every process it started (their process group), then drop the
    database and the site's files (its log only when it is a temporary file)."""
    if honcho is not None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(honcho.pid, signal.SIGTERM)
        try:
            honcho.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(honcho.pid, signal.SIGKILL)
            honcho.wait()
        # The processes' last writes and exits, so the group is gone before the database.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(honcho.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
    database_drop(config)
    shutil.rmtree(config.static_root, ignore_errors=True)
    shutil.rmtree(config.request_cpu_dir, ignore_errors=True)
    if config.log_path is None:
        log_path.unlink(missing_ok=True)


class ConnectionSampler(threading.Thread):
    """The site's database connections, every SAMPLE_PERIOD seconds: their peak in all and
    per application_name, the driver's own left out."""

    def __init__(self, config: SiteConfig):
        super().__init__(daemon=True)
        self.config = config
        self.peak = 0
        self.peak_by_name: Counter[str] = Counter()
        self.samples = 0
        self._stop_event = threading.Event()

    def run(self) -> None:
        with psycopg.connect(
            self.config.database_url, autocommit=True, application_name=DRIVER_APPLICATION
        ) as connection:
            while not self._stop_event.is_set():
                rows = connection.execute(
                    "SELECT application_name, count(*) FROM pg_stat_activity "
                    "WHERE datname = %s AND application_name <> %s GROUP BY 1",
                    (self.config.database, DRIVER_APPLICATION),
                ).fetchall()
                self.peak = max(self.peak, sum(count for _name, count in rows))
                for name, count in rows:
                    self.peak_by_name[name] = max(self.peak_by_name[name], count)
                self.samples += 1
                self._stop_event.wait(SAMPLE_PERIOD)

    def stop(self) -> None:
        self._stop_event.set()
        if self.ident is not None:  # started
            self.join(timeout=10)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PROFILE_RATE = 50  # py-spy's samples a second


def process_cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) a process has used, from /proc/<pid>/stat; None once
    it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_kind(name: str) -> str:
    """ "web :8700" and "worker child 2" as "web" and "worker child"."""
    return "web" if name.startswith("web") else re.sub(r" \d+$", "", name)


@dataclass
class CpuFigures:
    """What the site's processes used in the crowd's steady part (after the ramp)."""

    seconds: float  # the steady part's length
    by_kind: dict[str, float]  # CPU seconds, by kind of process
    # Each request's kind (view name and method): requests, and their CPU milliseconds.
    requests: dict[str, tuple[int, float]]
    profile: list[str]  # py-spy's summary of one web process, if it ran

    @property
    def total(self) -> float:
        return sum(self.by_kind.values())


class CpuMeter(threading.Thread):
    """The site's processes' CPU time over a window of the crowd (the steady part): each
    process's /proc/<pid>/stat at its start and end, and the requests the web processes wrote
    down in it (tcgsite/request_cpu.py). With ``profile``, py-spy samples the first web
    process through the window."""

    def __init__(self, site: Site, *, profile: Path | None = None):
        super().__init__(daemon=True)
        self.site = site
        self.profile = profile
        self.window: tuple[float, float] | None = None  # time.time() at its start and end
        self.figures: CpuFigures | None = None

    def measure(self, starts: float, ends: float) -> None:
        self.window = (starts, ends)
        self.start()

    def run(self) -> None:
        starts, ends = self.window
        time.sleep(max(0.0, starts - time.time()))
        names = site_processes(self.site)
        before = {pid: process_cpu_seconds(pid) for pid in names}
        spy = self._profile_start(names, ends - time.time())
        time.sleep(max(0.0, ends - time.time()))
        now = site_processes(self.site)
        by_kind: Counter[str] = Counter()
        for pid, name in now.items():
            used = process_cpu_seconds(pid)
            if used is not None:
                # A process started within the window (a worker child replaced) counts whole.
                by_kind[process_kind(name)] += used - (before.get(pid) or 0.0)
        profile = []
        if spy is not None:
            spy.wait()
            profile = profile_summary(self.profile)
        self.figures = CpuFigures(
            seconds=ends - starts,
            by_kind=dict(by_kind),
            requests=requests_cpu(self.site.config.request_cpu_dir, starts, ends),
            profile=profile,
        )

    def _profile_start(self, names: dict[int, str], seconds: float) -> subprocess.Popen | None:
        webs = sorted(pid for pid, name in names.items() if name.startswith("web"))
        if self.profile is None or not webs or seconds < 1:
            return None
        return subprocess.Popen(  # noqa: S603
            [
                str(VENV_BIN / "py-spy"),
                "record",
                "--nonblocking",
                # Only the thread holding the interpreter: where the CPU goes, not the waits.
                "--gil",
                "--format",
                "raw",
                "--rate",
                str(PROFILE_RATE),
                "--duration",
                str(int(seconds)),
                "--output",
                str(self.profile),
                "--pid",
                str(webs[0]),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def result(self) -> CpuFigures | None:
        if self.ident is not None:
            self.join()
        return self.figures


def requests_cpu(folder: Path, starts: float, ends: float) -> dict[str, tuple[int, float]]:
    """The requests that ended within the window, by kind: how many, and their CPU ms."""
    counts: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    for log in folder.glob("web-*.tsv"):
        for line in log.read_text().splitlines():
            ended, kind, cpu_ms, _wall_ms = line.split("\t")
            if starts <= float(ended) < ends:
                counts[kind] += 1
                spent[kind] += float(cpu_ms)
    return {kind: (counts[kind], spent[kind]) for kind in counts}


def profile_summary(path: Path, top: int = 40) -> list[str]:
    """py-spy's samples (its raw format: one stack a line, then its count) as the share of
    samples under each function (a function counts once a sample, however deep it recurs),
    then in each function itself, largest first."""
    if not path.exists():
        return ["py-spy wrote no profile (is ptrace allowed?)"]
    total = 0
    under: Counter[str] = Counter()
    itself: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        total += int(count)
        frames = set()
        leaf = stack
        for frame in stack.split(";"):
            if frame.startswith(("process ", "thread ")):
                continue
            function, _, where = frame.partition(" (")
            module = where.split(":")[0]
            for prefix in (str(ROOT) + "/", "site-packages/", "lib/python3."):
                if prefix in module:
                    module = module.split(prefix, 1)[1]
                    break
            frames.add(f"{function} ({module})")
            leaf = f"{function} ({module})"
        itself[leaf] += int(count)
        for frame in frames:
            under[frame] += int(count)
    if not total:
        return ["py-spy took no sample"]
    return [
        *(f"{100 * n / total:5.1f}%  {frame}" for frame, n in under.most_common(top)),
        "in the function itself:",
        *(f"{100 * n / total:5.1f}%  {frame}" for frame, n in itself.most_common(top // 2)),
    ]


# --- the crowd's figures ----------------------------------------------------------------------


@dataclass
class Tally:
    """What one client process (or all of them, merged) measured."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[str, Counter] = field(default_factory=dict)
    # What the players were told happened, to hold against the ledger.
    told: Counter = field(default_factory=Counter)
    race_winners: list[tuple[int, int]] = field(default_factory=list)  # (racers, winners)
    # Races whose trade a player outside the race took first (the racers' winner count then
    # counts that player).
    races_taken_first: int = 0
    # What each racer was told, in the races that did not end with exactly one winner.
    races_astray: list[str] = field(default_factory=list)
    problems: Counter = field(default_factory=Counter)

    def add(self, kind: str, milliseconds: float, status: int) -> None:
        self.latencies.setdefault(kind, []).append(milliseconds)
        self.statuses.setdefault(kind, Counter())[status] += 1

    def merge(self, other: "Tally") -> None:
        for kind, samples in other.latencies.items():
            self.latencies.setdefault(kind, []).extend(samples)
        for kind, counts in other.statuses.items():
            self.statuses.setdefault(kind, Counter()).update(counts)
        self.told.update(other.told)
        self.race_winners.extend(other.race_winners)
        self.races_taken_first += other.races_taken_first
        self.races_astray.extend(other.races_astray)
        self.problems.update(other.problems)

    def server_errors(self) -> dict[str, Counter]:
        """The 5xx answers, by kind and status."""
        found = {}
        for kind, counts in self.statuses.items():
            errors = Counter({status: n for status, n in counts.items() if status >= 500})
            if errors:
                found[kind] = errors
        return found


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --- one player's HTTP ------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, list[str]]
    body: str

    def header(self, name: str) -> str:
        return (self.headers.get(name.lower()) or [""])[0]


class HttpConnection:
    """One kept-alive HTTP/1.1 connection to one web process, as a browser keeps one."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def exchange(self, head: bytes, body: bytes) -> Answer:
        # A kept-alive connection the server closed meanwhile fails before any answer: a
        # browser sends again on a new one, as here (never once an answer has begun).
        for attempt in range(2):
            reused = self.writer is not None
            if not reused:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                self.writer.write(head + body)
                await self.writer.drain()
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed before answering")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if reused and attempt == 0:
                    continue
                raise
            try:
                return await self._answer(status_line)
            except BaseException:
                self.close()
                raise
        raise AssertionError("unreachable")

    async def _answer(self, status_line: bytes) -> Answer:
        status = int(status_line.split()[1])
        headers: dict[str, list[str]] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        if "chunked" in (headers.get("transfer-encoding") or [""])[0]:
            chunks = []
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readline()
            await self.reader.readline()
            body = b"".join(chunks)
        elif "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"][0]))
        elif status in (204, 304):
            body = b""
        else:
            body = await self.reader.read()
            self.close()
        if (headers.get("connection") or [""])[0].lower() == "close":
            self.close()
        return Answer(status, headers, body.decode("utf-8", errors="replace"))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- the crowd --------------------------------------------------------------------------------


@dataclass
class ClientSpec:
    """One client process's share of the crowd."""

    ports: list[int]
    cookies: list[str]
    names: list[str]
    catalog: Catalog
    start_at: float  # time.time() at which the players begin, the same in every process
    seconds: float
    think_seconds: float
    ramp_seconds: float
    seed: int


class Player:
    def __init__(self, crowd: "Crowd", name: str, session: str, port: int):
        self.crowd = crowd
        self.name = name
        self.port = port
        self.http = HttpConnection(port)
        self.cookies = {SESSION_COOKIE: session, CSRF_COOKIE: secrets.token_hex(16)}
        self.deck_id: int | None = None
        # Doing something: its own action, or its part in another player's match or race.
        self.busy = False
        self.lobby = crowd.random.choice(LOBBIES)
        self.lobby_socket = None
        self.said: dict[str, asyncio.Future] = {}

    # HTTP, as the player's browser (or its htmx) sends it.

    async def get(self, kind: str, path: str, *, htmx: bool = False) -> Answer:
        return await self.request(kind, "GET", path, htmx=htmx)

    async def post(self, kind: str, path: str, form, *, htmx: bool = False) -> Answer:
        return await self.request(kind, "POST", path, form=form, htmx=htmx)

    async def request(self, kind: str, method: str, path: str, *, form=None, htmx=False) -> Answer:
        """The answer to one request, timed under ``kind`` (a redirect is not followed)."""
        body = urlencode(form or {}, doseq=True).encode() if method == "POST" else b""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            "Cookie: " + "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
        ]
        if method == "POST":
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
                f"X-CSRFToken: {self.cookies[CSRF_COOKIE]}",
            ]
        if htmx:
            lines.append("HX-Request: true")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        started = time.monotonic()
        try:
            answer = await asyncio.wait_for(self.http.exchange(head, body), ANSWER_TIMEOUT)
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError):
            self.http.close()
            self.crowd.tally.add(kind, (time.monotonic() - started) * 1000, 0)
            return Answer(0, {}, "")
        self.crowd.tally.add(kind, (time.monotonic() - started) * 1000, answer.status)
        for cookie in answer.headers.get("set-cookie", []):
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if "max-age=0" in cookie.lower() or not value.strip('"'):
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        return answer

    # Sockets.

    async def socket(self, path: str, kind: str):
        started = time.monotonic()
        try:
            connection = await websockets_connect(self.port, path, self.cookies)
        except Exception as error:  # noqa: BLE001 - any failure to open is counted, by kind
            self.crowd.tally.add(kind, (time.monotonic() - started) * 1000, 0)
            self.crowd.tally.problems[f"{kind} failed: {type(error).__name__}: {error}"[:120]] += 1
            return None
        self.crowd.tally.add(kind, (time.monotonic() - started) * 1000, 101)
        return connection

    async def lobby_open(self) -> None:
        self.lobby_socket = await self.socket(f"/ws/lobby/{self.lobby}/", "lobby socket open")
        if self.lobby_socket is not None:
            self.crowd.background(self.lobby_read(self.lobby_socket))

    async def lobby_read(self, connection) -> None:
        try:
            async for frame in connection:
                for token, heard in list(self.said.items()):
                    if token in frame and not heard.done():
                        heard.set_result(time.monotonic())
        except websockets.ConnectionClosed:
            pass
        if connection.close_code not in (1000, 1001, None):
            self.crowd.tally.problems[f"lobby socket closed {connection.close_code}"] += 1
        if self.lobby_socket is connection:
            self.lobby_socket = None

    async def close(self) -> None:
        self.http.close()
        if self.lobby_socket is not None:
            with contextlib.suppress(Exception):
                await self.lobby_socket.close()


def local_path(location: str) -> str:
    """A redirect's path and query, on the player's own web process."""
    parts = urlsplit(location)
    return parts.path + (f"?{parts.query}" if parts.query else "")


async def websockets_connect(port: int, path: str, cookies: dict[str, str]):
    return await websockets.connect(
        f"ws://127.0.0.1:{port}{path}",
        additional_headers={
            "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
            "Origin": "http://127.0.0.1",
        },
        open_timeout=SOCKET_TIMEOUT,
        max_queue=None,
        max_size=None,
        ping_interval=None,
    )


class Seat:
    """A player's match socket: it reads each view, and acts on the view's prompt."""

    def __init__(self, player: Player, connection):
        self.player = player
        self.connection = connection
        self.ply = -1
        self.offers: list[str] = []
        self.in_flight: tuple[float, int] | None = None  # sent at, and at which ply
        self.changed = asyncio.Event()
        self.closed = False

    async def read(self) -> None:
        tally = self.player.crowd.tally
        try:
            async for frame in self.connection:
                refusal = MATCH_REFUSAL.search(frame)
                if refusal and self.in_flight is not None:
                    tally.problems[f"decision refused: {refusal[1][:60]}"] += 1
                    self.in_flight = None
                shown = PLY.search(frame)
                if shown is None or int(shown[1]) < self.ply:
                    self.changed.set()
                    continue
                self.ply = int(shown[1])
                self.offers = [offer for offer in HX_VALS.findall(frame) if is_decision(offer)]
                if self.in_flight is not None and self.ply > self.in_flight[1]:
                    tally.add("match decision", (time.monotonic() - self.in_flight[0]) * 1000, 101)
                    self.in_flight = None
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        self.closed = True
        self.changed.set()

    async def play(self, decisions: int, until: float) -> None:
        """Take up to ``decisions`` decisions, each after a short thought, as they come."""
        crowd = self.player.crowd
        while decisions > 0 and not self.closed and time.monotonic() < until:
            self.changed.clear()
            if self.in_flight is None and self.offers:
                await asyncio.sleep(crowd.random.uniform(0.5, 2.0))
                if self.in_flight is not None or not self.offers or self.closed:
                    continue
                offer = crowd.random.choice(self.offers)
                self.in_flight = (time.monotonic(), int(json.loads(offer)["ply"]))
                self.offers = []
                decisions -= 1
                try:
                    await self.connection.send(offer)
                except Exception:  # noqa: BLE001 - a closed socket ends the play
                    return
                continue
            if self.in_flight is not None and time.monotonic() - self.in_flight[0] > ANSWER_TIMEOUT:
                crowd.tally.add("match decision", ANSWER_TIMEOUT * 1000, 0)
                self.in_flight = None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 5)

    async def wait_settled(self, limit: float = ANSWER_TIMEOUT) -> None:
        deadline = time.monotonic() + limit
        while self.in_flight is not None and not self.closed and time.monotonic() < deadline:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)


def is_decision(hx_vals: str) -> bool:
    """Whether a button's hx-vals is a game decision (the prompt's), not a menu's."""
    try:
        values = json.loads(hx_vals)
    except ValueError:
        return False
    return isinstance(values, dict) and values.get("type") == "act"


class Crowd:
    """One client process's players, each doing one thing at a time until the end."""

    def __init__(self, spec: ClientSpec):
        self.spec = spec
        self.catalog = spec.catalog
        self.random = random.Random(spec.seed)
        self.tally = Tally()
        self.players = [
            Player(self, name, cookie, self.random.choice(spec.ports))
            for name, cookie in zip(spec.names, spec.cookies, strict=True)
        ]
        self.tasks: set[asyncio.Task] = set()
        self.ends_at = 0.0

    def background(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def idle(self, *, but: Player) -> list[Player]:
        return [player for player in self.players if not player.busy and player is not but]

    async def run(self) -> Tally:
        await asyncio.sleep(max(0.0, self.spec.start_at - time.time()))
        self.ends_at = time.monotonic() + self.spec.seconds
        lives = [asyncio.create_task(self.live(player)) for player in self.players]
        await asyncio.gather(*lives, return_exceptions=True)
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(player.close() for player in self.players))
        return self.tally

    async def live(self, player: Player) -> None:
        """Arrive at some moment of the ramp, get a deck, then act until the end. Until it
        has arrived, and once it has stopped, no other player's action (a race, a match)
        takes it in: two coroutines would read its one connection at once."""
        player.busy = True
        await asyncio.sleep(self.random.uniform(0, self.spec.ramp_seconds))
        try:
            await self.arrive(player)
            while time.monotonic() < self.ends_at:
                await asyncio.sleep(self.think())
                if player.busy or time.monotonic() >= self.ends_at:
                    continue
                action = self.random.choices(ACTIONS, weights=ACTION_WEIGHTS)[0]
                player.busy = True
                try:
                    await action(self, player)
                finally:
                    player.busy = False
        except Exception as error:  # noqa: BLE001 - a player's failure is counted, not fatal
            player.busy = True
            self.tally.problems[f"player stopped: {type(error).__name__}: {error}"[:120]] += 1

    def think(self) -> float:
        return max(1.0, self.random.expovariate(1 / self.spec.think_seconds))

    async def arrive(self, player: Player) -> None:
        player.busy = True
        try:
            await player.get("lobby page", lobby_path(player.lobby))
            await player.lobby_open()
            # Two starter decks: the deck it plays stays whole while the other's copies go
            # in trades.
            await buy(self, player, product=self.catalog.jedi_starter, quantity=2)
            await open_product(self, player, everything=True)
            await buy(self, player, product=self.catalog.event_pass)
            menu = await player.get("deck open menu", "/decks/builder/open/", htmx=True)
            decks = DECK_LINK.findall(menu.body)
            player.deck_id = int(decks[0]) if decks else None
        finally:
            player.busy = False


def lobby_path(lobby: str) -> str:
    return "/" if lobby == "main" else f"/lobbies/{lobby}/"


# The actions, each a few requests a person makes in a row.


async def browse_cards(crowd: Crowd, player: Player) -> None:
    filters = crowd.random.choice(
        [
            {},
            {"type": "unit"},
            {"archetype": crowd.random.choice(SKIRMISH_OPPONENTS)},
            {"q": crowd.random.choice(["damage", "shield", "Jedi", "draw", "credit"])},
            {"num": "cost>=3", "view": "table"},
            {"rarity": "R"},
        ]
    )
    await player.get("card browser", "/cards/" + (f"?{urlencode(filters)}" if filters else ""))
    page = crowd.random.choice(crowd.catalog.card_pages)
    await player.get("card page", f"/cards/{page}/")


async def binder(crowd: Crowd, player: Player) -> None:
    page = crowd.random.choice([1, 1, 2, 3])
    view = crowd.random.choice(["graphic", "graphic", "table"])
    await player.get("binder", f"/collection/?page={page}&view={view}")


async def buy(crowd: Crowd, player: Player, product: int | None = None, quantity: int = 1):
    catalog = crowd.catalog
    if product is None:
        product = crowd.random.choice(
            [catalog.jedi_starter, catalog.booster, catalog.booster, catalog.event_pass]
        )
    await player.get("store", "/store/")
    confirm = await player.get(
        "store confirm", f"/store/confirm/?product={product}&quantity={quantity}"
    )
    confirmation = CONFIRMATION.search(confirm.body)
    if confirmation is None:
        return
    credits_before = header_credits(confirm.body)
    purchase = {"product": product, "quantity": quantity, "confirmation": confirmation[1]}
    if crowd.random.random() < 0.1:  # a double click: the same confirmation twice at once
        await asyncio.gather(
            player.post("store buy", "/store/buy/", purchase),
            player_twin(player).post("store buy", "/store/buy/", purchase),
        )
    else:
        await player.post("store buy", "/store/buy/", purchase)
    # What the player sees spent, in the page's header: purchases made, each at its price.
    credits_after = header_credits((await player.get("store", "/store/")).body)
    if credits_before is not None and credits_after is not None:
        spent = credits_before - credits_after
        crowd.tally.told["purchase"] += spent // (quantity * catalog.prices[str(product)])


def header_credits(page: str) -> int | None:
    shown = HEADER_CREDITS.search(page)
    return int(shown[1]) if shown else None


def refusal(answer: Answer) -> str:
    """What a refused form or window says, for the problems seen."""
    said = ALERT.search(answer.body)
    return f"{answer.status} {unescape(said[1]).strip()[:70] if said else answer.body[:70]}"


def player_twin(player: Player) -> Player:
    """The same player's browser on a second connection (a second click, a second tab)."""
    twin = Player(player.crowd, player.name, player.cookies[SESSION_COOKIE], player.port)
    twin.cookies = player.cookies  # one browser, one cookie jar
    return twin


async def open_product(crowd: Crowd, player: Player, *, everything: bool = False) -> None:
    """Open one product (the Open button of a kind, at random), or everything (Open All)."""
    page = await player.get("binder", "/collection/")
    if everything:
        form = OPEN_ALL.search(page.body)
        owned = OWNED_ID.findall(form[1]) if form else []
    else:
        kinds = OPEN_ONE.findall(page.body)
        owned = [crowd.random.choice(kinds)] if kinds else []
    if not owned:
        return
    answer = await player.post("open", "/collection/open/", {"open": owned})
    location = answer.header("location")
    if answer.status == 302 and "opened" in location:
        reveal = await player.get("reveal", local_path(location))
        if reveal.status == 200 and "Already opened" not in reveal.body:
            crowd.tally.told["opening"] += location.count("id=")


async def deck_edit(crowd: Crowd, player: Player) -> None:
    if player.deck_id is None:
        return
    page = await player.get("deck builder", f"/decks/{player.deck_id}/")
    entries = DECK_ENTRY.findall(page.body)
    name = DECK_NAME.search(page.body)
    if not entries or name is None:
        return
    # One card out and in again, as a person tries a change and keeps the deck.
    shuffled = crowd.random.sample(entries, len(entries))
    await player.post(
        "deck save",
        "/decks/builder/save/",
        {"entry": shuffled, "name": unescape(name[1]), "deck": player.deck_id},
        htmx=True,
    )


async def posted_board(crowd: Crowd, player: Player) -> None:
    await player.get("posted board", "/trades/posted/" + crowd.random.choice(["", "?can=1"]))


async def posted_create(crowd: Crowd, player: Player) -> int | None:
    offered, wanted = crowd.random.sample(crowd.catalog.trade_cards, 2)
    answer = await player.post(
        "posted create",
        "/trades/posted/create/",
        {"offer": f"card:{offered}:1", "want": f"card:{wanted}:1"},
    )
    shown = re.search(r"/trades/posted/(\d+)/", answer.header("location"))
    if answer.status != 302 or shown is None:
        return None
    await player.get("posted detail", shown[0])
    return int(shown[1])


async def posted_accept(crowd: Crowd, player: Player) -> None:
    board = await player.get("posted board", "/trades/posted/?can=1")
    acceptable = ACCEPTABLE_TRADE.findall(board.body)
    if not acceptable:
        return
    trade = crowd.random.choice(acceptable)
    await player.get("posted detail", f"/trades/posted/{trade}/")
    won, _told = await accept(player, int(trade), "posted accept")
    if won:
        crowd.tally.told["trade"] += 1


async def accept(player: Player, trade: int, kind: str) -> tuple[bool, str]:
    """Accept a posted trade: whether this player got it, and what it was told (the
    delivery window; or the refusal on the listing, on the board it was sent back to, or on
    the busy page)."""
    answer = await player.post(kind, f"/trades/posted/{trade}/accept/", {})
    location = answer.header("location")
    if answer.status == 302 and "/delivery/" in location:
        await player.get("posted delivery", f"/trades/posted/{trade}/delivery/")
        return True, "302 delivery window"
    if answer.status == 302:
        board = await player.get("posted board", local_path(location))
        said = FLASHED.search(board.body)
        return False, f"302 {unescape(said[1]).strip() if said else location}"
    return False, refusal(answer)


async def posted_race(crowd: Crowd, player: Player) -> None:
    """A posted trade that 2 to 32 players accept at the same moment. It is on the board for
    everyone from the moment it is posted: a player of the crowd may take it before the
    racers (its poster's My Trades names who did), and then every racer must be told so."""
    idle = crowd.idle(but=player)
    size = min(crowd.random.choice(RACE_SIZES), len(idle))
    if size < 2:
        return
    racers = crowd.random.sample(idle, size)
    for racer in racers:
        racer.busy = True
    try:
        trade = await posted_create(crowd, player)
        if trade is None:
            return
        answers = await asyncio.gather(
            *(accept(racer, trade, "posted accept (race)") for racer in racers)
        )
        won = sum(got for got, _told in answers)
        crowd.tally.told["trade"] += won
        winners = won
        if not won:
            mine = await player.get("posted mine", "/trades/posted/mine/")
            taker = trade_taker(mine.body, trade)
            if (
                taker is not None
                and taker not in {racer.name for racer in racers}
                and all(TAKEN_BY_ANOTHER in told for _got, told in answers)
            ):
                crowd.tally.races_taken_first += 1
                winners = 1
        crowd.tally.race_winners.append((size, winners))
        if winners != 1:
            crowd.tally.races_astray.append(
                f"trade {trade}: " + " | ".join(told for _got, told in answers)
            )
    finally:
        for racer in racers:
            racer.busy = False


def trade_taker(page: str, trade: int) -> str | None:
    """Who accepted ``trade``, as its poster's My Trades shows it; None if no one has."""
    row = re.search(
        rf'href="/trades/posted/{trade}/">{trade}</a></td>\s*<td>[^<]*</td>\s*'
        r"<td>Posted, accepted.*?</td>\s*<td>([^<]*)</td>",
        page,
        re.DOTALL,
    )
    return unescape(row[1]) if row else None


async def chat(crowd: Crowd, player: Player) -> None:
    if player.lobby_socket is None:
        await player.lobby_open()
        if player.lobby_socket is None:
            return
    token = f"{player.name}-{secrets.token_hex(4)}"
    heard = asyncio.get_running_loop().create_future()
    player.said[token] = heard
    sent_at = time.monotonic()
    try:
        await player.lobby_socket.send(json.dumps({"text": f"Anyone trading? {token}"}))
        arrived = await asyncio.wait_for(heard, SOCKET_TIMEOUT)
        crowd.tally.add("chat line", (arrived - sent_at) * 1000, 101)
    except Exception:  # noqa: BLE001 - a line lost or a socket closed: counted
        crowd.tally.add("chat line", (time.monotonic() - sent_at) * 1000, 0)
    finally:
        del player.said[token]


async def queue_visit(crowd: Crowd, player: Player) -> None:
    if player.deck_id is None:
        return
    queue = crowd.random.choice(crowd.catalog.queues)
    await player.get("lobby page", "/lobbies/tournaments/")
    await player.get("queue join window", f"/tournaments/queues/{queue}/join/", htmx=True)
    joined = await player.post(
        "queue join", f"/tournaments/queues/{queue}/join/", {"deck": player.deck_id}, htmx=True
    )
    if "You are waiting in queue" not in joined.body:
        crowd.tally.problems[f"queue join refused: {refusal(joined)}"] += 1
        return
    await asyncio.sleep(crowd.random.uniform(2, 10))
    await player.post("queue leave", "/tournaments/queues/leave/", {}, htmx=True)


async def match_seat(player: Player, match: int) -> Seat | None:
    await player.get("match page", f"/matches/{match}/")
    connection = await player.socket(f"/ws/match/{match}/", "match socket open")
    if connection is None:
        return None
    seat = Seat(player, connection)
    player.crowd.background(seat.read())
    return seat


async def concede(player: Player, match: int) -> None:
    """The game's end, whoever was winning (a finished game can't be conceded: refused)."""
    answer = await player.post("match concede", f"/matches/{match}/concede/", {}, htmx=True)
    if answer.status != 204:
        player.crowd.tally.problems[f"concede refused: {refusal(answer)}"] += 1


async def casual_match(crowd: Crowd, player: Player) -> None:
    """Two players of this process: create, join, ready, a few decisions each, concede."""
    await match_of_two(
        crowd, player, kind="match", fields={"title": f"Soak {player.name}"}, computers=False
    )


RAID_CHOICE = re.compile(r'<select id="match-raid" name="encounter">(.*?)</select>', re.S)
OPTION_VALUE = re.compile(r'<option value="([^"]+)"')


async def raid(crowd: Crowd, player: Player) -> None:
    """Two players of this process raid a heroic encounter's boss (Play Format *Raid*), one of
    those the Create window lists: one creates it, the other joins, the host fills the two free
    heroes' seats with computer teammates, both get ready and make a few decisions, then both
    concede: the computer teammates play on against the boss to the game's end, off the
    request path."""
    if player.deck_id is None:
        return
    form = await player.get("match create form", "/casual/create/")
    listed = RAID_CHOICE.search(form.body)
    if listed is None:
        crowd.tally.problems["the Create window lists no raid"] += 1
        return
    fields = {
        "title": f"Raid {player.name}",
        "play_format": "raid",
        "encounter": crowd.random.choice(OPTION_VALUE.findall(listed[1])),
    }
    await match_of_two(crowd, player, kind="raid", fields=fields, computers=True)


async def match_of_two(
    crowd: Crowd, player: Player, *, kind: str, fields: dict, computers: bool
) -> None:
    """``player`` creates a match (the Create form with ``fields``) and an idle player of this
    process joins it; with ``computers``, the host fills the free seats with computer players.
    Both get ready and make a few decisions each. Then the host concedes, which ends a match of
    two; with computers, the partner too, and the computers play on to the game's end."""
    idle = [other for other in crowd.idle(but=player) if other.deck_id is not None]
    if player.deck_id is None or not idle:
        return
    partner = crowd.random.choice(idle)
    partner.busy = True
    seats: list[Seat] = []
    match = None
    try:
        await player.get("lobby page", "/lobbies/casual/")
        created = await player.post(
            f"{kind} create",
            "/casual/create/",
            {
                "structure": 1,
                "deck": player.deck_id,
                "allow_observers": "1",
                "time_limit": 0,
                **fields,
            },
            htmx=True,
        )
        shown = MATCH_ADDRESS.search(created.header("hx-redirect"))
        if shown is None:
            crowd.tally.problems[f"{kind} not created: {refusal(created)}"] += 1
            return
        match = int(shown[1])
        host_seat = await match_seat(player, match)
        joined = await partner.post(
            "match join", f"/matches/{match}/join/", {"deck": partner.deck_id}, htmx=True
        )
        if not joined.header("hx-redirect"):
            crowd.tally.problems[f"{kind} not joined: {refusal(joined)}"] += 1
            return
        partner_seat = await match_seat(partner, match)
        seats = [seat for seat in (host_seat, partner_seat) if seat is not None]
        if computers:
            filled = await player.post(
                f"{kind} fill with computers", f"/matches/{match}/computers/", {}, htmx=True
            )
            if filled.status != 204:
                crowd.tally.problems[f"{kind} not filled: {refusal(filled)}"] += 1
                return
        for someone in (player, partner):
            await someone.post("match ready", f"/matches/{match}/ready/", {"ready": "1"}, htmx=True)
        until = min(crowd.ends_at, time.monotonic() + 180)
        await asyncio.gather(
            *(seat.play(crowd.random.randint(*DECISIONS_A_MATCH), until) for seat in seats)
        )
        await asyncio.gather(*(seat.wait_settled() for seat in seats))
    finally:
        if match is not None:
            for someone in (player, partner) if computers else (player,):
                await concede(someone, match)
        for seat in seats:
            with contextlib.suppress(Exception):
                await seat.connection.close()
        partner.busy = False


async def skirmish(crowd: Crowd, player: Player) -> None:
    if player.deck_id is None:
        return
    await player.get("skirmish page", "/skirmish/")
    started = await player.post(
        "skirmish start",
        "/skirmish/",
        {
            "deck": player.deck_id,
            "opponent": crowd.random.choice(SKIRMISH_OPPONENTS),
            "level": "easy",
            "time_limit": 0,
        },
    )
    shown = MATCH_ADDRESS.search(started.header("location"))
    if started.status != 302 or shown is None:
        crowd.tally.problems[f"skirmish not started: {refusal(started)}"] += 1
        return
    match = int(shown[1])
    seat = await match_seat(player, match)
    try:
        if seat is not None:
            until = min(crowd.ends_at, time.monotonic() + 180)
            await seat.play(crowd.random.randint(*DECISIONS_A_MATCH), until)
            await seat.wait_settled()
    finally:
        await concede(player, match)
        if seat is not None:
            with contextlib.suppress(Exception):
                await seat.connection.close()


ACTION_WEIGHTS_BY_NAME = {
    browse_cards: 16,
    binder: 10,
    buy: 6,
    open_product: 5,
    deck_edit: 6,
    posted_board: 6,
    posted_create: 3,
    posted_accept: 3,
    posted_race: 1,
    chat: 12,
    casual_match: 2,
    skirmish: 1,
    raid: 1,
    queue_visit: 3,
}
ACTIONS = list(ACTION_WEIGHTS_BY_NAME)
ACTION_WEIGHTS = list(ACTION_WEIGHTS_BY_NAME.values())


def client_process(spec: ClientSpec, results) -> None:
    """A client process's loop (multiprocessing's target): its tally goes back on
    ``results``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    results.put(asyncio.run(Crowd(spec).run()))


def crowd_run(
    site: Site,
    *,
    players: range,
    seconds: float,
    processes: int,
    think_seconds: float,
    ramp_seconds: float,
    seed: int = 1,
    cpu_meter: CpuMeter | None = None,
) -> Tally:
    """The players numbered ``players`` on the site for ``seconds`` (after their ramp),
    shared among ``processes`` client processes; their tallies merged. ``cpu_meter`` measures
    the part after the ramp."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    numbers = list(players)
    start_at = time.time() + 3 + 0.5 * processes  # every process has imported by then
    if cpu_meter is not None:
        cpu_meter.measure(start_at + ramp_seconds, start_at + ramp_seconds + seconds)
    workers = []
    for index in range(processes):
        share = numbers[index::processes]
        if not share:
            continue
        spec = ClientSpec(
            ports=site.config.ports,
            cookies=[site.cookies[number] for number in share],
            names=[f"soak{number:04d}" for number in share],
            catalog=site.catalog,
            start_at=start_at,
            seconds=ramp_seconds + seconds,
            think_seconds=think_seconds,
            ramp_seconds=ramp_seconds,
            seed=seed * 1000 + index,
        )
        worker = context.Process(target=client_process, args=(spec, results), daemon=True)
        worker.start()
        workers.append(worker)
    tally = Tally()
    limit = start_at - time.time() + ramp_seconds + seconds + 300
    for _ in workers:
        tally.merge(results.get(timeout=max(limit, 60)))
    for worker in workers:
        worker.join(timeout=30)
    return tally


# --- the driver's setup and the ledger, run with the site's settings --------------------------


def prepare(players: int) -> dict:
    """What staff set up in the admin (an event pass in the Store, two tournament queues that
    never fill) and ``players`` players with a session each: run in a process of its own with
    the site's environment."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from collection.models import Product, ProductKind, StarterDeckCard
    from tcgsite.accounts.models import Preferences, User
    from tournaments.models import TournamentQueue

    event_pass = Product.objects.create(
        kind=ProductKind.EVENT_PASS, name="Soak Event Pass", price=100
    )
    queues = [
        TournamentQueue.objects.create(title=f"Soak queue {number}", max_players=100_000)
        for number in (1, 2)
    ]
    jedi = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype="jedi")
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
    trade_cards = list(
        StarterDeckCard.objects.filter(product=jedi, quantity__gte=2)
        .order_by("card_id")
        .values_list("card_id", flat=True)
    )
    from collection.cards.models import Card

    card_pages = [
        f"{set_number}/{number}"
        for set_number, number in Card.objects.printed()
        .order_by("pk")
        .values_list("card_set__number", "number")
    ]
    users = [User(username=f"soak{number:04d}") for number in range(players)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith="soak").order_by("username"))
    # bulk_create sends no post_save: the Preferences every player has are made here.
    Preferences.objects.bulk_create([Preferences(user=user) for user in users])
    cookies = []
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        cookies.append(session.session_key)
    return {
        "catalog": {
            "jedi_starter": jedi.pk,
            "booster": booster.pk,
            "event_pass": event_pass.pk,
            "prices": {str(product.pk): product.price for product in (jedi, booster, event_pass)},
            "queues": [queue.pk for queue in queues],
            "trade_cards": trade_cards,
            "card_pages": card_pages,
            "pool_size": settings.DATABASE_POOL_SIZE,
        },
        "cookies": cookies,
    }


def ledger_check() -> dict:
    """Conservation, from one snapshot of the ledger (REPEATABLE READ): what each kind of
    holding adds up to, the holdings that differ from their ledger rows, the operations that
    create or destroy what they should only move, and the operations written by reason."""
    from django.db import connection, transaction

    from collection.trades.models import PostedTradeStatus

    checks = {
        # Every wallet holds what its credit rows add up to, and its last row says so.
        "wallets unlike their credit rows": """
            SELECT count(*) FROM collection_wallet w
            LEFT JOIN (SELECT owner_id, sum(delta) AS total FROM collection_creditentry
                       GROUP BY owner_id) e ON e.owner_id = w.owner_id
            WHERE w.credits <> coalesce(e.total, 0)""",
        "credit rows of no wallet": """
            SELECT count(DISTINCT owner_id) FROM collection_creditentry e
            WHERE NOT EXISTS (SELECT 1 FROM collection_wallet w WHERE w.owner_id = e.owner_id)""",
        "wallets unlike their last balance": """
            SELECT count(*) FROM collection_wallet w
            JOIN LATERAL (SELECT balance_after FROM collection_creditentry e
                          WHERE e.owner_id = w.owner_id ORDER BY e.id DESC LIMIT 1) last ON true
            WHERE w.credits <> last.balance_after""",
        # Every player's copies of every card are what their card rows add up to.
        "card holdings unlike their rows": """
            SELECT count(*) FROM (
                SELECT owner_id, card_id, quantity FROM collection_cardownership
                WHERE quantity <> 0
            ) o FULL OUTER JOIN (
                SELECT owner_id, card_id, sum(delta) AS total FROM collection_itementry
                WHERE card_id IS NOT NULL GROUP BY owner_id, card_id
            ) e USING (owner_id, card_id)
            WHERE coalesce(o.quantity, 0) <> coalesce(e.total, 0)""",
        # Every product is held, unopened, by the one owner its rows add up to, once.
        "products unlike their rows": """
            SELECT count(*) FROM (
                SELECT p.id FROM collection_ownedproduct p
                LEFT JOIN (SELECT owned_product_id, owner_id, sum(delta) AS total
                           FROM collection_itementry WHERE owned_product_id IS NOT NULL
                           GROUP BY owned_product_id, owner_id) e ON e.owned_product_id = p.id
                GROUP BY p.id, p.owner_id, p.opened
                HAVING coalesce(sum(e.total) FILTER (WHERE e.owner_id = p.owner_id), 0)
                       <> CASE WHEN p.opened IS NULL THEN 1 ELSE 0 END
                    OR coalesce(sum(abs(e.total)) FILTER (WHERE e.owner_id <> p.owner_id), 0) <> 0
            ) unlike""",
        # A trade moves: per operation, each card's copies and the credits sum to nothing,
        # and each product leaves one owner for one other.
        "trades creating or destroying cards": """
            SELECT count(*) FROM (
                SELECT e.operation_id FROM collection_itementry e
                JOIN collection_ledgeroperation o ON o.id = e.operation_id
                WHERE o.reason = 'trade'
                GROUP BY e.operation_id, e.card_id, e.owned_product_id HAVING sum(e.delta) <> 0
            ) unbalanced""",
        "trades creating or destroying credits": """
            SELECT count(*) FROM (
                SELECT e.operation_id FROM collection_creditentry e
                JOIN collection_ledgeroperation o ON o.id = e.operation_id
                WHERE o.reason = 'trade' GROUP BY e.operation_id HAVING sum(e.delta) <> 0
            ) unbalanced""",
        # An opening consumes one product and adds exactly the cards it revealed.
        "openings unlike what they revealed": """
            SELECT count(*) FROM collection_opening g
            JOIN collection_ledgeroperation o ON o.reference = 'opening:' || g.owned_product_id
            WHERE (SELECT coalesce(sum(delta), 0) FROM collection_itementry e
                   WHERE e.operation_id = o.id AND e.card_id IS NOT NULL)
                  <> jsonb_array_length(g.card_ids::jsonb)
               OR (SELECT coalesce(sum(delta), 0) FROM collection_itementry e
                   WHERE e.operation_id = o.id AND e.owned_product_id = g.owned_product_id) <> -1
               OR EXISTS (
                   SELECT 1 FROM (
                       SELECT value::bigint AS card_id, count(*) AS copies
                       FROM jsonb_array_elements_text(g.card_ids::jsonb) GROUP BY 1
                   ) revealed
                   WHERE revealed.copies <> (SELECT coalesce(sum(delta), 0)
                                             FROM collection_itementry e
                                             WHERE e.operation_id = o.id
                                               AND e.card_id = revealed.card_id))""",
        "opened products with no opening": """
            SELECT count(*) FROM collection_ownedproduct p
            WHERE p.opened IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM collection_opening g
                              WHERE g.owned_product_id = p.id)""",
        # A purchase takes the products' price, and adds them.
        "purchases unlike their price": """
            SELECT count(*) FROM collection_ledgeroperation o
            WHERE o.reason = 'purchase'
              AND (SELECT coalesce(sum(delta), 0) FROM collection_creditentry c
                   WHERE c.operation_id = o.id)
                  <> -(SELECT coalesce(sum(pr.price), 0) FROM collection_itementry e
                       JOIN collection_ownedproduct p ON p.id = e.owned_product_id
                       JOIN collection_product pr ON pr.id = p.product_id
                       WHERE e.operation_id = o.id AND e.delta > 0)""",
    }
    totals = {
        "credits": "SELECT coalesce(sum(credits), 0) FROM collection_wallet",
        "cards": "SELECT coalesce(sum(quantity), 0) FROM collection_cardownership",
        "unopened products": "SELECT count(*) FROM collection_ownedproduct WHERE opened IS NULL",
        "opened products": "SELECT count(*) FROM collection_ownedproduct WHERE opened IS NOT NULL",
    }
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

        def scalar(sql: str) -> int:
            cursor.execute(sql)
            return int(cursor.fetchone()[0])

        problems = {name: scalar(sql) for name, sql in checks.items()}
        held = {name: scalar(sql) for name, sql in totals.items()}
        cursor.execute(
            "SELECT reason, count(*) FROM collection_ledgeroperation GROUP BY reason ORDER BY 1"
        )
        operations = dict(cursor.fetchall())
        # An accepted trade swapped once (its reference is unique), any other trade never.
        cursor.execute(
            "SELECT count(*) FROM trades_postedtrade t WHERE (t.status = %s) <> EXISTS "
            "(SELECT 1 FROM collection_ledgeroperation o WHERE o.reference = 'ptrade:' || t.id)",
            [PostedTradeStatus.ACCEPTED],
        )
        problems["trades swapped unlike their status"] = int(cursor.fetchone()[0])
    return {"problems": problems, "held": held, "operations": operations}


def site_ledger(site: Site) -> dict:
    return json.loads(manage(site.config, str(Path(__file__).resolve()), "ledger"))


def conservation_problems(before: dict, after: dict, tally: Tally) -> list[str]:
    """Every way the ledger after the crowd is not what its rows and the players say."""
    found = [f"{name}: {count}" for name, count in after["problems"].items() if count]
    for reason, told in (("purchase", "purchase"), ("opening", "opening"), ("trade", "trade")):
        written = after["operations"].get(reason, 0) - before["operations"].get(reason, 0)
        if written != tally.told[told]:
            found.append(f"{reason}: {written} written, {tally.told[told]} told to the players")
    return found


# --- the report -------------------------------------------------------------------------------


def kind_rows(crowd: Tally, idle: Tally | None) -> list[str]:
    rows = [
        f"{'kind':<24} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'idle p95':>9} {'ratio':>6}  "
        "not a success (status: count)"
    ]
    for kind in sorted(crowd.latencies):
        samples = crowd.latencies[kind]
        p95 = percentile(samples, 0.95)
        idle_samples = idle.latencies.get(kind) if idle else None
        idle_p95 = percentile(idle_samples, 0.95) if idle_samples else None
        failures = {
            status: count
            for status, count in crowd.statuses[kind].items()
            if status not in SUCCESS_STATUSES | {101}
        }
        rows.append(
            f"{kind:<24} {len(samples):>7} {statistics.median(samples):>8.1f} {p95:>8.1f} "
            + (f"{idle_p95:>9.1f} {p95 / idle_p95:>6.2f}" if idle_p95 else f"{'-':>9} {'-':>6}")
            + "  "
            + " ".join(f"{status}: {count}" for status, count in sorted(failures.items()))
        )
    return rows


@dataclass
class SoakResult:
    crowd: Tally
    idle: Tally | None
    peak_connections: int
    peak_connections_by_name: dict[str, int]
    connection_bound: int
    memory_kib: dict[str, int]
    conservation: list[str]
    ledger_after: dict
    server_errors_logged: Counter  # each exception the site's processes logged, by process
    cpu: CpuFigures | None

    def socket_opens(self) -> tuple[int, int]:
        """The sockets the crowd tried to open, and those that opened."""
        attempted = opened = 0
        for kind, counts in self.crowd.statuses.items():
            if kind.endswith("socket open"):
                attempted += sum(counts.values())
                opened += counts[101]
        return attempted, opened

    def failures(self) -> list[str]:
        """What makes the soak fail: a server error, a socket that did not open."""
        found = []
        server_errors = self.crowd.server_errors()
        if server_errors:
            found.append(f"5xx answers: {server_errors}")
        attempted, opened = self.socket_opens()
        if opened < attempted:
            found.append(f"{attempted - opened} of {attempted} sockets did not open")
        return found


def logged_errors(said: str) -> Counter:
    """The exceptions in honcho's log (``01:32:51 web.1    | ...`` lines), each the last line of
    its traceback, counted by kind of process."""
    errors: Counter = Counter()
    in_traceback: dict[str, bool] = {}
    for line in said.splitlines():
        process, bar, text = line[9:].partition("| ")
        if not bar:
            continue
        process = process.strip().split(".")[0]
        if text.startswith("Traceback"):
            in_traceback[process] = True
        elif in_traceback.get(process) and text and not text.startswith(" "):
            errors[f"{process}: {text[:160]}"] += 1
            in_traceback[process] = False
    return errors


def soak(
    config: SiteConfig,
    *,
    players: int,
    seconds: float,
    processes: int,
    think_seconds: float,
    ramp_seconds: float,
    idle_seconds: float = 0,
    profile: Path | None = None,
) -> SoakResult:
    """Start the site, run the idle pass (if any) and the crowd, and measure them; the site
    is stopped and its database dropped whatever happens. With ``profile``, py-spy samples a
    web process through the crowd's steady part into that file."""
    sampler = ConnectionSampler(config)
    site = site_start(config, players + (2 if idle_seconds else 0))
    try:
        sampler.start()
        before = site_ledger(site)
        idle = None
        if idle_seconds:
            idle = crowd_run(
                site,
                players=range(players, players + 2),
                seconds=idle_seconds,
                processes=1,
                think_seconds=2,
                ramp_seconds=0,
                seed=2,
            )
        cpu_meter = CpuMeter(site, profile=profile)
        crowd = crowd_run(
            site,
            players=range(players),
            seconds=seconds,
            processes=processes,
            think_seconds=think_seconds,
            ramp_seconds=ramp_seconds,
            cpu_meter=cpu_meter,
        )
        cpu = cpu_meter.result()
        memory = peak_memory_kib(site_processes(site))
        sampler.stop()
        after = site_ledger(site)
        told = Tally()
        told.merge(crowd)
        if idle is not None:
            told.merge(idle)
        return SoakResult(
            crowd=crowd,
            idle=idle,
            peak_connections=sampler.peak,
            peak_connections_by_name=dict(sampler.peak_by_name),
            connection_bound=site.connection_bound,
            memory_kib=memory,
            conservation=conservation_problems(before, after, told),
            ledger_after=after,
            server_errors_logged=logged_errors(site.said()),
            cpu=cpu,
        )
    finally:
        sampler.stop()
        site_stop(site)


def report(result: SoakResult, *, players: int, seconds: float) -> None:
    crowd = result.crowd
    print(f"\n{players} players for {seconds:g} s (after their ramp); requests by kind:")
    for row in kind_rows(crowd, result.idle):
        print(row)
    served = sum(sum(counts.values()) for counts in crowd.statuses.values())
    server_errors = result.crowd.server_errors()
    print(
        f"\n5xx answers: {sum(sum(c.values()) for c in server_errors.values())} of {served}"
        + (f" ({server_errors})" if server_errors else "")
    )
    attempted, opened = result.socket_opens()
    print(f"Socket opens: {opened} of {attempted} attempted opened")
    if result.cpu is not None:
        for row in cpu_rows(result.cpu, players=players):
            print(row)
    print(
        f"Database connections: peak {result.peak_connections} (bound "
        f"{result.connection_bound}); by application_name: "
        + ", ".join(f"{name} {n}" for name, n in sorted(result.peak_connections_by_name.items()))
    )
    print(
        "Peak memory (VmHWM): "
        + ", ".join(f"{name} {kib / 1024:.0f} MiB" for name, kib in result.memory_kib.items())
    )
    races = Counter(crowd.race_winners)
    print(
        "Races (racers: winners × times): "
        + (", ".join(f"{size}: {won}×{n}" for (size, won), n in sorted(races.items())) or "none")
        + (
            f"; of which {crowd.races_taken_first} taken first by a player outside the race"
            if crowd.races_taken_first
            else ""
        )
    )
    for race in crowd.races_astray[:10]:
        print(f"  not one winner: {race}")
    held = result.ledger_after["held"]
    print(
        f"Ledger after: {held['credits']} credits, {held['cards']} cards, "
        f"{held['unopened products']} unopened and {held['opened products']} opened products; "
        f"operations {result.ledger_after['operations']}"
    )
    print(
        f"Told to the players: {dict(crowd.told)}; conservation: "
        + ("; ".join(result.conservation) if result.conservation else "every item accounted for")
    )
    if crowd.problems:
        print("Other problems seen by the players:")
        for problem, count in crowd.problems.most_common(15):
            print(f"  {count:>6} {problem}")
    if result.server_errors_logged:
        print("Exceptions in the site's log:")
        for error, count in result.server_errors_logged.most_common(10):
            print(f"  {count:>6} {error}")


def cpu_rows(cpu: CpuFigures, *, players: int) -> list[str]:
    """The site's CPU in the steady part: per player-minute, by kind of process, by kind of
    request (from the web processes' own measure), and py-spy's summary if it ran."""
    player_minutes = players * cpu.seconds / 60
    rows = [
        f"\nCPU in the steady part ({cpu.seconds:g} s, {players} players): "
        f"{cpu.total:.1f} s, {cpu.total / cpu.seconds:.2f} of a core, "
        f"{1000 * cpu.total / player_minutes:.1f} ms per player-minute",
        f"{'process kind':<24} {'CPU s':>8} {'cores':>6} {'ms/player-min':>14}",
    ]
    for kind, seconds in sorted(cpu.by_kind.items(), key=lambda item: -item[1]):
        rows.append(
            f"{kind:<24} {seconds:>8.1f} {seconds / cpu.seconds:>6.2f} "
            f"{1000 * seconds / player_minutes:>14.1f}"
        )
    web_ms = 1000 * cpu.by_kind.get("web", 0.0)
    in_views = sum(spent for _count, spent in cpu.requests.values())
    rows.append(
        f"\nWeb processes' CPU by kind of request (the view's thread; share of the web "
        f"processes' {web_ms / 1000:.1f} s):"
    )
    rows.append(f"{'request kind':<48} {'count':>7} {'share':>6} {'ms each':>8}")
    for kind, (count, spent) in sorted(cpu.requests.items(), key=lambda item: -item[1][1]):
        share = spent / web_ms if web_ms else 0.0
        rows.append(f"{kind:<48} {count:>7} {share:>6.1%} {spent / count:>8.1f}")
    if web_ms:
        rows.append(
            f"{'outside the views (sockets, daphne, ASGI)':<48} {'':>7} "
            f"{(web_ms - in_views) / web_ms:>6.1%}"
        )
    if cpu.profile:
        rows.append("\npy-spy, one web process: share of samples under each function")
        rows.extend(cpu.profile)
    return rows


def main() -> None:
    if len(sys.argv) > 1:  # the driver's setup and ledger, with the site's settings
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        if sys.argv[1] == "prepare":
            print(json.dumps(prepare(int(sys.argv[2]))))
        else:
            print(json.dumps(ledger_check()))
        return
    # A stop asked by kill (or a CI job's end) unwinds as Ctrl-C does, through the clean-ups
    # that stop the site and drop its database.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    players = int(os.environ.get("SOAK_PLAYERS", "200"))
    seconds = float(os.environ.get("SOAK_SECONDS", "600"))
    processes = int(os.environ.get("SOAK_CLIENT_PROCESSES", str(os.cpu_count() or 1)))
    config = SiteConfig(
        server_url=os.environ.get("SOAK_SERVER_URL", "postgres://postgres@127.0.0.1:5432"),
        database=os.environ.get("SOAK_DATABASE", "tcgsite_soak"),
        redis_url=os.environ.get("SOAK_REDIS_URL", "redis://127.0.0.1:6379/12"),
        # Sites sharing one Redis need prefixes of their own (README, Production mode).
        channel_prefix=f"soak-{os.environ.get('SOAK_DATABASE', 'tcgsite_soak')}",
        port=int(os.environ.get("SOAK_PORT", "8700")),
        web_processes=int(os.environ.get("SOAK_WEB_PROCESSES", "2")),
        log_path=Path(os.environ.get("SOAK_LOG", ROOT / "var" / "soak-site.log")),
    )
    print(
        f"Soak: production mode ({config.web_processes} web processes, worker and beat) on "
        f"{config.database}, {players} players from {processes} client processes"
    )
    started = time.monotonic()
    result = soak(
        config,
        players=players,
        seconds=seconds,
        processes=processes,
        think_seconds=float(os.environ.get("SOAK_THINK_SECONDS", "20")),
        ramp_seconds=float(os.environ.get("SOAK_RAMP_SECONDS", "120")),
        idle_seconds=float(os.environ.get("SOAK_IDLE_SECONDS", "60")),
        profile=Path(os.environ["SOAK_PROFILE"]) if os.environ.get("SOAK_PROFILE") else None,
    )
    report(result, players=players, seconds=seconds)
    print(f"\n(whole run {time.monotonic() - started:.0f} s; the site's log: {config.log_path})")
    if failures := result.failures():
        print("\nFAILED: " + "; ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
