"""A whole simulated 1,024-player Swiss through the real services on PostgreSQL, with
computer results.

1,024 registered players, each with the saved deck of an opened starter deck and one event
pass, join a queue (``queue_join``), which then starts a simulated tournament
(``tournament_start(simulated=True)``: the entries re-checked, each fee taken through the
ledger, round one paired). A simulated tournament opens no match: the computer decides each
round's pairings, each winner drawn from a seeded RNG by the Elo expectation of the two
players' current ratings, through ``running.simulated_round_record``, which decides them as
finished matches do (the pairings decided, both ratings moved, the next round paired, or the
conclusion and the payout). With no worker here, Celery runs the payout task in this process
right after the conclusion's commit, as on the embedded default.

What a real tournament adds, a game match opened for each pair and ended by its game, is
measured by tests/tournaments/test_end_to_end.py with real computer games, not here.

Printed, in seconds of wall-clock time: the entries (the players joining the queue, before the
tournament exists, printed apart), the start (re-checks, fees, round one's pairing), each
round's results with the next round's pairing, the last round's with the conclusion, the
payout, and the whole tournament from its start to its payout; the goal is under 60 s.
Beside it, the bare baseline measured in the same run: the pure pairing of the same ten rounds
from the same results, the final standings and the rewards, in memory
(``tournaments.pairing``, ``tournaments.standings``, ``tournaments.rewards``), and the ratio.
Never fails on a number.

It needs production settings (DATABASE_URL to PostgreSQL, REDIS_URL, DJANGO_SECRET_KEY). It
creates a database of its own beside DATABASE_URL's, ``<name>_bench``, migrates it, loads the
catalog, and drops it at the end; give it a Redis database of its own too:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tcgsite REDIS_URL=redis://127.0.0.1:6379/4 \\
    DJANGO_SECRET_KEY=x .venv/bin/python benchmarks/tournament_simulation.py

BENCH_PLAYERS (1024) and BENCH_SEED choose the field and the draw.
"""

import math
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

PLAYERS = int(os.environ.get("BENCH_PLAYERS", "1024"))
SEED = int(os.environ.get("BENCH_SEED", "20261126"))
REWARDS = "8-6-5-4-2*-1*"
USERNAME_PREFIX = "swissbench"


def bench_database() -> tuple[str, str]:
    """DATABASE_URL's server with the benchmark's own database: (its URL, its name)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        # A benchmark never fails a build: on the embedded default it says what it needs.
        print("tournament_simulation: skipped; it needs DATABASE_URL (PostgreSQL), REDIS_URL and")
        print("DJANGO_SECRET_KEY (production settings).")
        sys.exit(0)
    parts = urlsplit(url)
    name = f"{parts.path.strip('/') or 'tcgsite'}_bench"
    return urlunsplit(parts._replace(path=f"/{name}")), name


def server_command(sql: str) -> None:
    parts = urlsplit(os.environ["DATABASE_URL"])
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(sql)


BENCH_URL, BENCH_NAME = bench_database()
server_command(f'DROP DATABASE IF EXISTS "{BENCH_NAME}"')
server_command(f'CREATE DATABASE "{BENCH_NAME}"')
os.environ["DATABASE_URL"] = BENCH_URL

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from collection.cards.services import set_files  # noqa: E402
from collection.models import Product, ProductKind  # noqa: E402
from collection.services.opening import products_open  # noqa: E402
from collection.services.products import set_load  # noqa: E402
from collection.services.store import product_grant  # noqa: E402
from tcgsite import jobs  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402
from tournaments import elo, pairing, rewards, standings  # noqa: E402
from tournaments.models import Pairing, Tournament, TournamentQueue, TournamentStatus  # noqa: E402
from tournaments.services.queues import queue_join, tournament_start  # noqa: E402
from tournaments.services.running import simulated_round_record  # noqa: E402

ARCHETYPES = ("jedi", "sith", "rebel", "imperial")


def players_make() -> list[User]:
    """The field, each registered with an opened starter deck and an event pass (setup)."""
    event_pass = Product.objects.get(kind=ProductKind.EVENT_PASS)
    starters = {
        archetype: Product.objects.get(kind=ProductKind.STARTER_DECK, archetype=archetype)
        for archetype in ARCHETYPES
    }
    players = []
    for number in range(PLAYERS):
        player = User(username=f"{USERNAME_PREFIX}{number:05d}", registered_at=timezone.now())
        player.set_unusable_password()
        player.save()
        (starter,) = product_grant(
            owner=player, product=starters[ARCHETYPES[number % 4]], quantity=1
        )
        products_open(owner=player, owned_product_ids=[starter.pk])
        product_grant(owner=player, product=event_pass, quantity=1)
        player.deck = player.decks.latest("created")
        players.append(player)
    return players


class PayoutClock:
    """Times the payout task, which runs right after the conclusion's commit."""

    def __init__(self):
        self.seconds = 0.0
        self._dispatch = jobs._dispatch

    def __call__(self, task_name: str, kwargs: dict, background: bool, pause: float) -> None:
        started = time.perf_counter()
        self._dispatch(task_name, kwargs, background, pause)
        if task_name == "tournaments.payout":
            self.seconds += time.perf_counter() - started


def round_results(tournament: Tournament, rng: random.Random) -> None:
    """Decide every pairing of the round being played, each winner drawn by the Elo
    expectation of the two players' current ratings; the next round is paired (or the
    tournament concluded and paid) in the same call."""
    rows = list(
        Pairing.objects.filter(tournament=tournament, round=tournament.round, decided=None)
        .exclude(second=None)
        .select_related("first__player", "second__player")
        .order_by("table")
    )
    winners = {}
    for row in rows:
        expected = elo.expected(row.first.player.rating, row.second.player.rating)
        winners[row.pk] = row.first_id if rng.random() < expected else row.second_id
    simulated_round_record(tournament_id=tournament.pk, winners=winners)


def baseline(tournament: Tournament) -> float:
    """The same tournament's ten pairings, final standings and rewards, pure, in memory."""
    participants = list(tournament.participants.order_by("pk"))
    rows = list(tournament.pairings.order_by("round", "table"))
    entrants = [
        standings.Entrant(player=each.pk, rating=each.rating_start) for each in participants
    ]
    started = time.perf_counter()
    results, byes = [], []
    for number in range(1, tournament.swiss_rounds + 1):
        pairing.next_swiss_round(
            entrants=entrants, results=results, byes=byes, dropped=set(), seed=tournament.seed
        )
        for row in rows:
            if row.round != number:
                continue
            if row.second_id is None:
                byes.append(standings.Bye(round=number, player=row.first_id))
            else:
                loser = row.second_id if row.winner_id == row.first_id else row.first_id
                results.append(standings.Result(round=number, winner=row.winner_id, loser=loser))
    order = [line.player for line in standings.swiss_standings(entrants, results, byes)]
    rewards.rewards(rewards.parse_reward_structure(REWARDS), order)
    return time.perf_counter() - started


def main() -> None:
    # No worker runs here: the tournament's tasks run in this process after each commit.
    settings.CELERY_TASK_ALWAYS_EAGER = True
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    for path in set_files():
        set_load(path=path)
    players = players_make()
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
    queue = TournamentQueue.objects.create(
        title="Benchmark Swiss",
        structure="swiss",
        # A scheduled event, open now, which the benchmark starts as a simulation once
        # everyone has joined, as the periodic sweep would start it at its time.
        on_demand=False,
        starts_at=timezone.now() + timedelta(minutes=10),
        max_players=PLAYERS,
        pack_pool=booster,
        reward_structure=REWARDS,
        entry_passes=1,
    )
    print(
        f"tournament_simulation: {PLAYERS} players, PostgreSQL database {BENCH_NAME}; "
        f"setup (migrate, catalog, players with decks and passes) "
        f"{time.perf_counter() - started:.1f} s"
    )
    payout_clock = PayoutClock()
    jobs._dispatch = payout_clock
    rng = random.Random(SEED)
    phases = []

    started = time.perf_counter()
    for player in players:
        queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    entries = ("entries (queue_join)", time.perf_counter() - started)
    started = time.perf_counter()
    with transaction.atomic():
        tournament_start(
            TournamentQueue.objects.select_for_update().get(pk=queue.pk), simulated=True
        )
    phases.append(("start: re-checks, fees, round 1 paired", time.perf_counter() - started))
    tournament = Tournament.objects.get(queue=queue)

    while tournament.status == TournamentStatus.PLAYING:
        number = tournament.round
        started = time.perf_counter()
        round_results(tournament, rng)
        whole = time.perf_counter() - started
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.PLAYING:
            phases.append((f"round {number}: results, round {number + 1} paired", whole))
        else:
            phases.append((f"round {number}: results, conclusion", whole - payout_clock.seconds))
            phases.append(("payout", payout_clock.seconds))
    jobs._dispatch = payout_clock._dispatch

    tournament.refresh_from_db()
    print(f"  {entries[0]:<42} {entries[1]:7.2f} s (before the tournament, apart)")
    total = sum(seconds for _, seconds in phases)
    for name, seconds in phases:
        print(f"  {name:<42} {seconds:7.2f} s")
    paid = tournament.participants.filter(packs__gt=0).count()
    print(
        f"  {'whole tournament, start to payout':<42} {total:7.2f} s (goal under 60 s): "
        f"{tournament.round} rounds ({math.ceil(math.log2(PLAYERS))} expected), "
        f"{tournament.pairings.count()} pairings, {paid} players paid, "
        f"paid={'yes' if tournament.paid else 'no'}"
    )
    bare = baseline(tournament)
    print(
        f"  bare baseline: the same rounds' pairing, standings and rewards in memory "
        f"{bare:.3f} s; ratio {total / bare:.0f}x"
    )


if __name__ == "__main__":
    try:
        main()
    finally:
        connections.close_all()
        server_command(f'DROP DATABASE IF EXISTS "{BENCH_NAME}"')
