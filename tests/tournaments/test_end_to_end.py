"""Whole tournaments of house computer players, as production runs them: a real Celery worker
plays the computer's decisions and records each result, a real Celery beat sweeps every few
seconds, and the tournament's own path pairs each round, concludes and pays. Staff enter the
players with ``manage.py computer_players``. Then the standings, the ratings and the ledger are
checked against the rulebook ("Tournaments Lobby": "Scoring", "Tournament Structure", "K",
"Reward Structure") and the ledger's references.

The worker and beat are subprocesses on the test database and a Redis database of their own,
so that no other worker on the machine takes their tasks. The matches are Single Game at the
computer's Easy level, with no pause before a computer acts; a match of two computers plays
runs of decisions per task (game.services.matches.computers_play_on), and every match is played
to its end on the table within the rulebook's round time."""

import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.conf import settings

from collection.models import ItemEntry, LedgerOperation, OwnedProduct, Product, ProductKind
from game.models import MatchStatus
from tcgsite.accounts.models import User
from tournaments.models import (
    Decision,
    Pairing,
    RatingChange,
    Tournament,
    TournamentQueue,
    TournamentStatus,
)
from tournaments.standings import Bye, Entrant, Result, elimination_placings, swiss_standings

pytestmark = [
    pytest.mark.skipif(
        settings.EMBEDDED, reason="a worker and beat in other processes need PostgreSQL"
    ),
    pytest.mark.django_db(transaction=True),
]

CELERY = Path(sys.executable).parent / "celery"
# Both tournaments play at once; they end long before this unless something is wrong.
# Three one-minute Swiss rounds, the elimination's two beside them, and a sweep every 5 s.
DEADLINE_SECONDS = 330
# Five players in the Swiss: three rounds, each with a bye (an odd field), so the pairings
# avoid rematches and second byes for real; four in the elimination: a bracket of two rounds.
SWISS_PLAYERS, ELIMINATION_PLAYERS = 5, 4
HOUSE_PLAYERS = SWISS_PLAYERS + ELIMINATION_PLAYERS
SWISS_REWARDS = "4-2*-1*"
ELIMINATION_REWARDS = "3-2-1*"
# Places 1 to 5 of the Swiss: 2* is the rest of the top half (places 2 and 3 of 5), 1*
# everyone else.
SWISS_PACKS = (4, 2, 2, 1, 1)
ELIMINATION_PACKS = (3, 2, 1, 1)


def own_redis_url() -> str:
    """The suite's Redis server, another database: the suite empties its own before each
    test, and a worker of another run on this machine must not take these tasks."""
    parts = urlsplit(settings.REDIS_URL)
    suite_db = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(suite_db + 8) % 16}"))


@pytest.fixture
def production_processes():
    """A worker and beat on the test database; the environment to run a command in."""
    database = settings.DATABASES["default"]
    environment = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
        f"{database['NAME']}",
        "REDIS_URL": own_redis_url(),
        "COMPUTER_PAUSE_SECONDS": "0",
        "TOURNAMENT_COMPUTER_LEVEL": "easy",
        "EMBEDDED_BEAT": "false",
    }
    redis.Redis.from_url(environment["REDIS_URL"]).flushdb()
    work = tempfile.TemporaryDirectory()
    logs = {name: open(Path(work.name) / f"{name}.log", "w+b") for name in ("worker", "beat")}  # noqa: SIM115
    commands = {
        # One process per core: the matches of a round play side by side.
        "worker": ["worker", "--pool", "prefork", "--concurrency", "2"]
        + ["--without-gossip", "--without-mingle", "--loglevel", "warning"],
        "beat": ["beat", "--scheduler", "django_celery_beat.schedulers:DatabaseScheduler"]
        + ["--pidfile", str(Path(work.name) / "beat.pid"), "--loglevel", "warning"],
    }
    processes = {
        name: subprocess.Popen(  # noqa: S603
            [str(CELERY), "-A", "tcgsite", *arguments],
            env=environment,
            stdout=logs[name],
            stderr=subprocess.STDOUT,
            cwd=settings.BASE_DIR,
        )
        for name, arguments in commands.items()
    }
    environment["logs"] = logs
    try:
        yield environment
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs.values():
            log.close()
        work.cleanup()


def staff_command(environment: dict, *arguments: str) -> str:
    """``manage.py`` as staff run it, in a process of its own like the worker's."""
    done = subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", *arguments],
        env={name: value for name, value in environment.items() if name != "logs"},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def until_paid(queues: list[TournamentQueue], environment: dict) -> list[Tournament]:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while True:
        tournaments = list(Tournament.objects.filter(queue__in=queues).order_by("pk"))
        if len(tournaments) == len(queues) and all(each.paid for each in tournaments):
            return tournaments
        if time.monotonic() > deadline:
            progress = [(each.pk, each.status, each.round, each.paid) for each in tournaments]
            logs = {}
            for name, log in environment["logs"].items():
                log.seek(0)
                logs[name] = log.read().decode(errors="replace")[-3000:]
            pytest.fail(f"not paid within {DEADLINE_SECONDS} s: {progress}\n{logs}")
        time.sleep(0.25)


@pytest.mark.slow
def test_a_swiss_and_a_single_elimination_of_computer_players_play_to_their_payout(
    production_processes,
):
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
    swiss_queue = TournamentQueue.objects.create(
        title="House Swiss",
        structure="swiss",
        style=1,
        max_players=SWISS_PLAYERS,
        k=24,
        pack_pool=booster,
        reward_structure=SWISS_REWARDS,
        entry_passes=1,
    )
    elimination_queue = TournamentQueue.objects.create(
        title="House Knockout",
        structure="single_elimination",
        style=1,
        max_players=ELIMINATION_PLAYERS,
        k=16,
        pack_pool=booster,
        reward_structure=ELIMINATION_REWARDS,
        entry_passes=1,
    )
    started = time.monotonic()

    # The command makes the house players with the first queue's entries; run again for the
    # second queue, it makes nothing more (the count of house players is checked at the end).
    for queue, count in ((swiss_queue, SWISS_PLAYERS), (elimination_queue, ELIMINATION_PLAYERS)):
        out = staff_command(
            production_processes,
            "computer_players",
            str(HOUSE_PLAYERS),
            "--queue",
            str(queue.pk),
            "--enter",
            str(count),
        )
        assert f"{HOUSE_PLAYERS} house computer players ready" in out
        assert f"{count} entered in queue {queue.pk}" in out
    swiss, elimination = until_paid([swiss_queue, elimination_queue], production_processes)
    print(f"both tournaments played and paid in {time.monotonic() - started:.0f} s")

    assert swiss.structure == "swiss" and elimination.structure == "single_elimination"
    for tournament in (swiss, elimination):
        assert tournament.status == TournamentStatus.CONCLUDED
        rows = list(tournament.pairings.select_related("match", "winner"))
        played = [row for row in rows if row.second_id is not None]
        # Each match was played to its end, and its winner won the pairing.
        assert {row.decision for row in played} == {Decision.PLAYED}
        assert all(row.match.status == MatchStatus.FINISHED for row in played)
        assert all(row.match.winner_id == row.winner.player_id for row in played)
        decisions = Counter(row.decision for row in played)
        print(f"tournament {tournament.pk}: {dict(decisions)}")
    swiss_standings_check(swiss)
    elimination_standings_check(elimination)
    ratings_check([swiss, elimination])
    ledger_check(swiss, SWISS_PACKS)
    ledger_check(elimination, ELIMINATION_PACKS)
    assert User.objects.filter(computer_opponent__skirmish=False).count() == HOUSE_PLAYERS


def swiss_standings_check(tournament: Tournament) -> None:
    participants = list(tournament.participants.all())
    rows = list(tournament.pairings.all())
    assert tournament.swiss_rounds == 3 and {row.round for row in rows} == {1, 2, 3}
    met = Counter(frozenset((row.first_id, row.second_id)) for row in rows if row.second_id)
    assert max(met.values()) == 1, "a rematch"
    byes = Counter(row.first_id for row in rows if row.second_id is None)
    assert sum(byes.values()) == 3 and all(count <= 1 for count in byes.values())
    points = defaultdict(int)
    for row in rows:
        if row.second_id is None:
            points[row.first_id] += 3
        else:
            points[row.winner_id] += 3
            points[row.second_id if row.winner_id == row.first_id else row.first_id] += 1
    for round_number in (1, 2, 3):
        # Four play, the fifth has the bye.
        this_round = [row for row in rows if row.round == round_number]
        assert sorted(row.second_id is None for row in this_round) == [False, False, True]
    by_rank = sorted(participants, key=lambda each: each.final_rank)
    assert [each.final_rank for each in by_rank] == list(range(1, SWISS_PLAYERS + 1))
    ranked_points = [points[each.pk] for each in by_rank]
    assert ranked_points == sorted(ranked_points, reverse=True)
    # Equal points are ordered by the documented tie-breakers (tournaments/standings.py).
    expected = swiss_standings(
        [Entrant(player=each.pk, rating=each.rating_start) for each in participants],
        [
            Result(
                round=row.round,
                winner=row.winner_id,
                loser=row.second_id if row.winner_id == row.first_id else row.first_id,
            )
            for row in rows
            if row.second_id
        ],
        [Bye(round=row.round, player=row.first_id) for row in rows if row.second_id is None],
    )
    assert [line.player for line in expected] == [each.pk for each in by_rank]
    assert [line.points for line in expected] == ranked_points


def elimination_standings_check(tournament: Tournament) -> None:
    participants = list(tournament.participants.all())
    rows = list(tournament.pairings.order_by("round", "table"))
    assert [sum(1 for row in rows if row.round == n) for n in (1, 2)] == [2, 1]
    champion = next(each for each in participants if each.final_rank == 1)
    assert champion.eliminated_round is None
    assert sum(1 for row in rows if row.winner_id == champion.pk) == 2
    for row in rows:
        loser = row.second_id if row.winner_id == row.first_id else row.first_id
        assert next(each for each in participants if each.pk == loser).eliminated_round == row.round
    by_seed = [each.pk for each in sorted(participants, key=lambda each: each.seed)]
    results = [
        Result(
            round=row.round,
            winner=row.winner_id,
            loser=row.second_id if row.winner_id == row.first_id else row.first_id,
        )
        for row in rows
    ]
    by_rank = sorted(participants, key=lambda each: each.final_rank)
    assert [each.pk for each in by_rank] == elimination_placings(by_seed, results)


def ratings_check(tournaments: list[Tournament]) -> None:
    decided = list(
        Pairing.objects.filter(tournament__in=tournaments)
        .exclude(second=None)
        .prefetch_related("rating_changes")
    )
    for row in decided:
        changes = list(row.rating_changes.all())
        assert len(changes) == 2
        assert {change.player_id for change in changes} == {
            row.first.player_id,
            row.second.player_id,
        }
        # Elo moves as much as one wins the other loses, but for the rounding of each.
        assert abs(sum(change.after - change.before for change in changes)) <= 1
    players = User.objects.filter(participations__tournament__in=tournaments).distinct()
    for player in players:
        moved = sum(
            change.after - change.before
            for change in RatingChange.objects.filter(player=player).order_by("pk")
        )
        assert player.rating == 1500 + moved


def ledger_check(tournament: Tournament, packs_by_place: tuple[int, ...]) -> None:
    event_pass = Product.objects.get(kind=ProductKind.EVENT_PASS)
    for participant in tournament.participants.select_related("player"):
        player = participant.player
        packs = packs_by_place[participant.final_rank - 1]
        assert participant.packs == packs
        assert (
            OwnedProduct.objects.filter(owner=player, product=tournament.pack_pool).count() == packs
        )
        assert (
            LedgerOperation.objects.filter(reference=f"payout:{tournament.pk}:{player.pk}").count()
            == 1
        )
        assert (
            LedgerOperation.objects.filter(reference=f"entry:{tournament.pk}:{player.pk}").count()
            == 1
        )
        # The one pass given for the entry was consumed once, by the entry's operation.
        passes = list(OwnedProduct.objects.filter(owner=player, product=event_pass))
        assert len(passes) == 1 and passes[0].opened is not None
        consumed = ItemEntry.objects.filter(owned_product=passes[0], delta=-1)
        assert [entry.operation.reference for entry in consumed] == [
            f"entry:{tournament.pk}:{player.pk}"
        ]
