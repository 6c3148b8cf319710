"""The computer's reply in a Skirmish: from a person's decision to the computer's next view.

The script starts the site as ``make start`` does (production mode: PostgreSQL, the Redis
channel layer and broker, the Procfile's two daphne web processes, the Celery worker and beat,
run by honcho) on a database of its own, REPLY_DATABASE (``tcgsite_reply_bench``, created
fresh and dropped at the end), and Redis database REPLY_REDIS_URL (13); or, with
REPLY_MODE=embedded, as ``make run`` serves it (one daphne web process on SQLite,
REPLY_SQLITE_PATH, with its in-memory channel layer, its background threads and its beat). A
setup process with the site's settings makes the players, each with a Jedi starter deck
opened and saved, and a session.

For each size of REPLY_SKIRMISHES (1 and 8), that many players each start a Skirmish at once
(POST /skirmish/, against the Sith computer opponent at REPLY_LEVEL, hard) and play it
through the match socket as the browser does: each time their prompt offers a decision, they
wait REPLY_THINK_SECONDS (0.5, a quick person) and send its first button's action, until they
have made REPLY_DECISIONS decisions (60) or the game ends, and concede. A decision that hands
the decision to the computer (the view of the person's own action offers them nothing) is
timed from its send to the frame that shows the computer's next action applied, the
computer's next view.

The baseline, measured in the same run, is the configured pause (COMPUTER_PAUSE_SECONDS)
plus the computer's own thinking: the setup process rebuilds each position the computer
replied from and times its agent's choice there (``SearchAgent.choose``, wall clock, one
position at a time on an otherwise idle site). The script prints, per size: replies timed,
p50, p95 and max, the baseline's p50 and p95, p95 over the baseline's p95, and p95 over the
pause (the target: at most 3). It never fails on a number.

Run with `.venv/bin/python benchmarks/computer_reply.py`, PostgreSQL and Redis running
(docs/stack.md); REPLY_PORT (8750) is the first web process's port, REPLY_SERVER_URL the
PostgreSQL server (postgres://postgres@127.0.0.1:5432). The site's log is kept in
var/computer-reply-site.log.
"""

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.soak import (  # noqa: E402
    CSRF_COOKIE,
    HX_VALS,
    MATCH_ADDRESS,
    MATCH_REFUSAL,
    PLY,
    SESSION_COOKIE,
    HttpConnection,
    database_drop,
    is_decision,
    percentile,
    postgres_command,
    websockets_connect,
)

PYTHON = sys.executable
VENV_BIN = Path(sys.executable).parent
LOG_PATH = ROOT / "var" / "computer-reply-site.log"
OPPONENT = "sith"
USERNAME_PREFIX = "replybench"
SOCKET_TIMEOUT = 60.0
# Longer than any reply: a decision unanswered this long is counted as lost, not timed.
REPLY_LIMIT = 60.0
WEB_PROCESSES = 2
# The Celery worker's processes: ``make start`` runs one per core.
WORKER_PROCESSES = int(os.environ.get("REPLY_WORKER_PROCESSES", "2"))


@dataclass
class Config:
    mode: str  # "production" or "embedded"
    server_url: str
    database: str
    redis_url: str
    sqlite_path: Path
    port: int
    level: str
    think_seconds: float
    decisions: int
    # One key for the setup and the site: the players' sessions are signed with it.
    secret_key: str = field(default_factory=lambda: secrets.token_hex(32))

    @property
    def ports(self) -> list[int]:
        processes = WEB_PROCESSES if self.mode == "production" else 1
        return [self.port + number for number in range(processes)]

    def environment(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DJANGO_SECRET_KEY")
        }
        env.update(
            HOST="127.0.0.1",
            PATH=f"{VENV_BIN}:{os.environ.get('PATH', '')}",
            PYTHONUNBUFFERED="1",
        )
        if self.mode == "production":
            env.update(
                DJANGO_SECRET_KEY=self.secret_key,
                DJANGO_HTTPS="false",
                DATABASE_URL=f"{self.server_url.rstrip('/')}/{self.database}",
                REDIS_URL=self.redis_url,
                REDIS_CHANNEL_PREFIX="reply-bench",
                WORKER_PROCESSES=str(WORKER_PROCESSES),
            )
        else:
            env["SQLITE_PATH"] = str(self.sqlite_path)
        return env


def manage(config: Config, *arguments: str) -> str:
    done = subprocess.run(  # noqa: S603
        [PYTHON, *arguments],
        cwd=ROOT,
        env=config.environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"{' '.join(arguments)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def setup(config: Config, *arguments: str) -> object:
    """This script's setup command (players, or thinking times) run with the site's settings."""
    return json.loads(manage(config, str(Path(__file__).resolve()), *arguments))


# --- the site ---------------------------------------------------------------------------------


@dataclass
class Site:
    process: subprocess.Popen

    def said(self) -> str:
        return LOG_PATH.read_text(errors="replace")


def database_fresh(config: Config) -> None:
    if config.mode == "production":
        database_drop(config)
        postgres_command(config, f'CREATE DATABASE "{config.database}"')
    else:
        for path in (
            config.sqlite_path,
            *config.sqlite_path.parent.glob(f"{config.sqlite_path.name}-*"),
        ):
            path.unlink(missing_ok=True)
    manage(config, "manage.py", "migrate", "--noinput")
    manage(config, "manage.py", "load_cards")


def database_forget(config: Config) -> None:
    if config.mode == "production":
        database_drop(config)
    else:
        for path in (
            config.sqlite_path,
            *config.sqlite_path.parent.glob(f"{config.sqlite_path.name}-*"),
        ):
            path.unlink(missing_ok=True)


def site_start(config: Config) -> Site:
    """The site's processes, as ``make start`` (production) or ``make run`` (embedded) serve
    it, once every web process answers and, in production, the worker and beat have started."""
    if config.mode == "production":
        manage(config, "manage.py", "collectstatic", "--noinput", "--verbosity", "0")
        command = [
            str(VENV_BIN / "honcho"),
            "start",
            "--no-colour",
            "--port",
            str(config.port),
            "--concurrency",
            f"web={WEB_PROCESSES}",
        ]
    else:
        command = [
            str(VENV_BIN / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(config.port),
            "tcgsite.asgi:application",
        ]
    LOG_PATH.parent.mkdir(exist_ok=True)
    with LOG_PATH.open("wb") as log:
        process = subprocess.Popen(  # noqa: S603
            command,
            cwd=ROOT,
            env=config.environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            # Its own process group: stopping the site stops every process it started.
            start_new_session=True,
        )
    site = Site(process)
    try:
        site_wait(site, config)
    except BaseException:
        site_stop(site)
        raise
    return site


def site_wait(site: Site, config: Config, limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    waiting = set(config.ports)
    while time.monotonic() < deadline:
        if site.process.poll() is not None:
            raise RuntimeError(f"the site stopped:\n{site.said()[-3000:]}")
        for port in sorted(waiting):
            with contextlib.suppress(OSError):
                with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                    connection.sendall(b"GET /accounts/login/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if connection.recv(64).split(b" ")[1:2] == [b"200"]:
                        waiting.discard(port)
        said = site.said()
        if not waiting and (
            config.mode == "embedded" or ("ready." in said and "beat: Starting" in said)
        ):
            return
        time.sleep(0.5)
    raise RuntimeError(f"the site did not start in {limit:g} s:\n{site.said()[-3000:]}")


def site_stop(site: Site) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(site.process.pid, signal.SIGTERM)
    try:
        site.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(site.process.pid, signal.SIGKILL)
        site.process.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(site.process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)


# --- the people -------------------------------------------------------------------------------


@dataclass
class Reply:
    """A decision that handed the decision to the computer, and the computer's next view."""

    match_id: int
    computer_ply: int  # the position the computer replied from (its decision's ply)
    seconds: float


@dataclass
class Person:
    """A player with a Skirmish to play, as the browser plays it."""

    config: Config
    session: str
    deck_id: int
    port: int
    replies: list[Reply] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def __post_init__(self):
        self.http = HttpConnection(self.port)
        self.cookies = {SESSION_COOKIE: self.session, CSRF_COOKIE: "b" * 32}

    async def post(self, path: str, form: dict, *, htmx: bool = False):
        body = "&".join(f"{name}={value}" for name, value in form.items()).encode()
        lines = [
            f"POST {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            "Cookie: " + "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
            "Content-Type: application/x-www-form-urlencoded",
            f"Content-Length: {len(body)}",
            f"X-CSRFToken: {self.cookies[CSRF_COOKIE]}",
        ]
        if htmx:
            lines.append("HX-Request: true")
        return await self.http.exchange(("\r\n".join(lines) + "\r\n\r\n").encode(), body)

    async def play(self) -> None:
        started = await self.post(
            "/skirmish/",
            {
                "deck": self.deck_id,
                "opponent": OPPONENT,
                "level": self.config.level,
                "time_limit": 0,
            },
        )
        shown = MATCH_ADDRESS.search(started.header("location"))
        if started.status != 302 or shown is None:
            self.problems.append(f"the Skirmish did not start: {started.status}")
            return
        match_id = int(shown[1])
        connection = await websockets_connect(
            self.port, f"/ws/match/{match_id}/", {SESSION_COOKIE: self.session}
        )
        try:
            await self.decide(connection, match_id)
        finally:
            await self.post(f"/matches/{match_id}/concede/", {}, htmx=True)
            await connection.close()
            self.http.close()

    async def decide(self, connection, match_id: int) -> None:
        """Each offered decision's first button, after a short thought, until the person has
        made their decisions or the game is over; each reply of the computer's timed."""
        ply = -1
        offers: list[str] = []
        sent: tuple[float, int] | None = None  # when, and at which ply
        waiting_for_computer = False
        made = 0
        while made < self.config.decisions:
            if sent is None and offers:
                await asyncio.sleep(self.config.think_seconds)
                sent = (time.monotonic(), ply)
                await connection.send(offers[0])
                offers = []
                made += 1
            try:
                frame = await asyncio.wait_for(connection.recv(), REPLY_LIMIT)
            except TimeoutError:
                if sent is not None:
                    self.problems.append(f"no answer in {REPLY_LIMIT:g} s at ply {sent[1]}")
                return  # the game is over, or stuck
            if sent is not None and (refusal := MATCH_REFUSAL.search(frame)):
                self.problems.append(f"refused: {refusal[1][:80]}")
                return
            shown = PLY.search(frame)
            if shown is None or int(shown[1]) < ply:
                continue
            ply = int(shown[1])
            offers = [offer for offer in HX_VALS.findall(frame) if is_decision(offer)]
            if "wins the match" in frame:
                return
            if sent is None:
                continue
            sent_at, sent_ply = sent
            if ply == sent_ply + 1 and not offers:
                # The person's own action, shown: the computer decides next.
                waiting_for_computer = True
                continue
            if ply >= sent_ply + 2 or (ply == sent_ply + 1 and waiting_for_computer):
                self.replies.append(Reply(match_id, sent_ply + 1, time.monotonic() - sent_at))
            sent = None
            waiting_for_computer = False


async def play_at_once(config: Config, people: list[Person]) -> None:
    await asyncio.gather(*(person.play() for person in people))


# --- the setup, with the site's settings ------------------------------------------------------


def prepare(count: int) -> dict:
    """``count`` players, each with an opened Jedi starter deck and a session."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from collection.models import Product, ProductKind
    from collection.services.opening import products_open
    from collection.services.store import product_grant
    from tcgsite.accounts.models import User

    jedi = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype="jedi")
    players = []
    for number in range(count):
        user = User.objects.create_user(username=f"{USERNAME_PREFIX}{number:03d}")
        (item,) = product_grant(owner=user, product=jedi, quantity=1)
        products_open(owner=user, owned_product_ids=[item.pk])
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        players.append({"session": session.session_key, "deck": user.decks.latest("created").pk})
    return {"players": players, "pause": settings.COMPUTER_PAUSE_SECONDS}


def thinking_times(positions: list[list[int]]) -> list[float]:
    """The computer's thinking time, in seconds, at each position ``[match id, ply]`` it
    replied from, one after the other: its agent as the computer's turn makes it."""
    from game.engine import api as engine
    from game.models import Game
    from game.selectors import game_state_at
    from game.services.skirmish import computer_agent

    seconds = []
    for match_id, ply in positions:
        game = Game.objects.select_related("match").filter(match_id=match_id).latest("number")
        state = game_state_at(game, applied=ply)
        decision = engine.legal_actions(state)
        seat = game.match.seats.get(seat=decision.seat)
        agent = computer_agent(game.match.computer_level, seed=game.seed, own=seat.decklist)
        started = time.perf_counter()
        agent.choose(state, decision)
        seconds.append(time.perf_counter() - started)
    return seconds


# --- the report -------------------------------------------------------------------------------


def measure(config: Config, sizes: list[int]) -> None:
    database_fresh(config)
    prepared = setup(config, "prepare", str(max(sizes)))
    pause = prepared["pause"]
    site = site_start(config)
    rows = []
    try:
        for size in sizes:
            people = [
                Person(
                    config,
                    player["session"],
                    player["deck"],
                    config.ports[index % len(config.ports)],
                )
                for index, player in enumerate(prepared["players"][:size])
            ]
            asyncio.run(play_at_once(config, people))
            replies = [reply for person in people for reply in person.replies]
            problems = [problem for person in people for problem in person.problems]
            rows.append((size, replies, problems))
    finally:
        site_stop(site)
    try:
        print(
            f"{'at once':>7} {'replies':>7} {'p50 s':>6} {'p95 s':>6} {'max s':>6} "
            f"{'base p50':>8} {'base p95':>8} {'p95/base':>8} {'p95/pause':>9}"
        )
        for size, replies, problems in rows:
            report_row(config, size, replies, pause)
            for problem in sorted(set(problems))[:5]:
                print(f"        {problems.count(problem)} × {problem}")
    finally:
        database_forget(config)


def report_row(config: Config, size: int, replies: list[Reply], pause: float) -> None:
    if not replies:
        print(f"{size:>7} {0:>7}  (no reply timed)")
        return
    seconds = [reply.seconds for reply in replies]
    thinking = setup(
        config,
        "think",
        json.dumps([[reply.match_id, reply.computer_ply] for reply in replies]),
    )
    baseline = [pause + think for think in thinking]
    p95, base_p95 = percentile(seconds, 0.95), percentile(baseline, 0.95)
    print(
        f"{size:>7} {len(seconds):>7} {statistics.median(seconds):>6.2f} {p95:>6.2f} "
        f"{max(seconds):>6.2f} {statistics.median(baseline):>8.2f} {base_p95:>8.2f} "
        f"{p95 / base_p95:>8.2f} {p95 / pause:>9.2f}"
    )


def main() -> None:
    if len(sys.argv) > 1:  # the setup, with the site's settings
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")
        import django

        django.setup()
        if sys.argv[1] == "prepare":
            print(json.dumps(prepare(int(sys.argv[2]))))
        else:
            print(json.dumps(thinking_times(json.loads(sys.argv[2]))))
        return
    config = Config(
        mode=os.environ.get("REPLY_MODE", "production"),
        server_url=os.environ.get("REPLY_SERVER_URL", "postgres://postgres@127.0.0.1:5432"),
        database=os.environ.get("REPLY_DATABASE", "tcgsite_reply_bench"),
        redis_url=os.environ.get("REPLY_REDIS_URL", "redis://127.0.0.1:6379/13"),
        sqlite_path=Path(
            os.environ.get("REPLY_SQLITE_PATH", str(ROOT / "var" / "computer-reply.sqlite3"))
        ),
        port=int(os.environ.get("REPLY_PORT", "8750")),
        level=os.environ.get("REPLY_LEVEL", "hard"),
        think_seconds=float(os.environ.get("REPLY_THINK_SECONDS", "0.5")),
        decisions=int(os.environ.get("REPLY_DECISIONS", "60")),
    )
    sizes = [int(size) for size in os.environ.get("REPLY_SKIRMISHES", "1,8").split(",")]
    site = (
        f"production mode ({WEB_PROCESSES} web processes, {WORKER_PROCESSES} worker processes "
        "and beat)"
        if config.mode == "production"
        else "the embedded default (one web process, its background threads)"
    )
    print(
        f"Computer replies in Skirmishes at {config.level}, on {site}; each person makes up to "
        f"{config.decisions} decisions, {config.think_seconds:g} s after each prompt; "
        "reply = a decision's send to the computer's next view"
    )
    started = time.monotonic()
    measure(config, sizes)
    print(f"(whole run {time.monotonic() - started:.0f} s; the site's log: {LOG_PATH})")


if __name__ == "__main__":
    main()
