"""The Trade Lobby and the Tournaments Lobby pages beside a bare Django view and beside each
page's data floor, measured in the same run.

The Trade Lobby shows OPEN_MATCHES matches waiting for a player (its Match Medallions) and
the Posted Trades button. The Tournaments Lobby lists QUEUES open queues (each with a few
players waiting, the viewer in one of them, so the queue's box shows) and TOURNAMENTS started
tournaments of 8 to 32 players. Prints p50 and p95 per page, the ratio to the bare view, the
number of queries, and the ratio to the page's data floor: what the page reads through its
selectors (the waiting matches; the lists and the queue the viewer waits in; the header's
credits, the Tournament Timer) dumped to JSON, the least the page could cost (issue 37: "each
page's p95 within 3x its own data floor"). Never fails on a number.

Run after `make setup`: `.venv/bin/python benchmarks/lobby_pages.py`. Its players are named
`bench-lobby-*`; it deletes what it made when it starts and when it ends. BENCH_ROUNDS sets
the requests per page (300).
"""

import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import include, path  # noqa: E402

from benchmarks.pages import https_client, measure, page_frame_floor, percentile  # noqa: E402
from collection.models import Product, ProductKind  # noqa: E402
from game import selectors as game_selectors  # noqa: E402
from game.models import Match, MatchSeat, MatchStatus  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402
from tournaments import selectors as tournament_selectors  # noqa: E402
from tournaments.models import (  # noqa: E402
    Participant,
    QueueEntry,
    Tournament,
    TournamentQueue,
    TournamentStatus,
)

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "300"))
WARMUP = 20
PREFIX = "bench-lobby-"
QUEUES = 12
WAITING_PER_QUEUE = 5
TOURNAMENTS = 12
OPEN_MATCHES = 10


def bare_view(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare_view), path("", include("tcgsite.urls"))]

PAGES = {
    "bare Django view": "/bench/bare/",
    f"Trade Lobby ({OPEN_MATCHES} waiting matches)": "/lobbies/trade/",
    f"Tournaments Lobby ({QUEUES} queues, {TOURNAMENTS} started)": "/lobbies/tournaments/",
}


def clean_up() -> None:
    players = User.objects.filter(username__startswith=PREFIX)
    with transaction.atomic():
        Match.objects.filter(host__in=players).delete()
        Tournament.objects.filter(title__startswith=PREFIX).delete()
        TournamentQueue.objects.filter(title__startswith=PREFIX).delete()
        players.delete()


def lobby_data(viewer: User) -> None:
    """The queues and tournaments, written straight to the tables: joining checks decks and
    event passes, which the lobby never reads."""
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
    players = User.objects.bulk_create(
        User(username=f"{PREFIX}{n}") for n in range(QUEUES * WAITING_PER_QUEUE + 32)
    )
    queues = [
        TournamentQueue.objects.create(
            title=f"{PREFIX}queue {n}",
            max_players=8 * (1 + n % 4),
            pack_pool=booster,
            reward_structure="5-4-3-2-1*",
            position=n,
        )
        for n in range(QUEUES)
    ]
    waiting = iter(players)
    QueueEntry.objects.bulk_create(
        QueueEntry(queue=queue, player=next(waiting))
        for queue in queues
        for _ in range(WAITING_PER_QUEUE - (queue is queues[0]))
    )
    QueueEntry.objects.create(queue=queues[0], player=viewer)
    for n, host in enumerate(players[:OPEN_MATCHES]):
        match = Match.objects.create(
            title=f"Match {n}", host=host, status=MatchStatus.OPEN, time_limit=600 * (n % 2)
        )
        MatchSeat.objects.create(
            match=match,
            seat=0,
            player=host,
            deck_name="Deck",
            side="light",
            archetype="jedi",
            decklist=[],
        )
    for n in range(TOURNAMENTS):
        tournament = Tournament.objects.create(
            title=f"{PREFIX}tournament {n}",
            max_players=32,
            pack_pool=booster,
            reward_structure="8-6-4-2*",
            seed=n,
            status=TournamentStatus.PLAYING,
            round=1 + n % 3,
            swiss_rounds=5,
        )
        Participant.objects.bulk_create(
            Participant(
                tournament=tournament,
                player=player,
                seed=index,
                rating_start=1500,
                eliminated_round=1 if index % 5 == 0 else None,
            )
            for index, player in enumerate(players[: 8 * (1 + n % 4)])
        )


def data_floor(viewer: User, session_key: str, *, lists: bool) -> str:
    """What the lobby page reads, through the selectors the page calls, dumped to JSON: the
    page frame (the player, the header's credits and avatar and the Tournament Timer); the
    Trade Lobby's
    waiting matches, or with ``lists`` the Tournaments Lobby's two lists and the queue the
    viewer waits in."""
    read = {"frame": page_frame_floor(session_key)}
    if not lists:
        read["matches"] = [
            {
                "pk": match.pk,
                "title": match.title,
                "structure": match.structure,
                "time_limit": match.time_limit,
                "seats": match.seat_count,
            }
            for match in game_selectors.open_matches(viewer=viewer)
        ]
    else:
        found = tournament_selectors.lobby_lists()
        waiting = tournament_selectors.queue_waiting(player=viewer)
        read["queues"] = [
            {
                "pk": queue.pk,
                "title": queue.title,
                "structure": queue.structure,
                "max_players": queue.max_players,
                "rounds": queue.rounds_planned,
                "pack_pool": queue.pack_pool.name if queue.pack_pool else None,
                "rewards": queue.reward_structure,
                "waiting": [entry.player.username for entry in queue.entries.all()],
            }
            for queue in found["queues"]
        ]
        read["started"] = [
            {
                "pk": tournament.pk,
                "title": tournament.title,
                "status": tournament.status_label,
                "playing": tournament.playing,
                "players": tournament.players,
                "rounds": tournament.rounds_planned,
                "pack_pool": tournament.pack_pool.name if tournament.pack_pool else None,
                "rewards": tournament.reward_structure,
            }
            for tournament in found["started"]
        ]
        read["waiting"] = waiting and waiting["names"]
    return json.dumps(read)


def main() -> None:
    if not Product.objects.exists():
        sys.exit("The catalog is empty: run `make setup` first.")
    clean_up()
    try:
        viewer = User.objects.create(username=f"{PREFIX}viewer")
        lobby_data(viewer)
        client = https_client()
        client.force_login(viewer)
        session_key = client.session.session_key
        print(
            f"{QUEUES} queues ({WAITING_PER_QUEUE} waiting each), {TOURNAMENTS} started "
            f"tournaments; {ROUNDS} requests per page, in-process test client"
        )
        print(
            f"{'page':<44} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare':>11} {'queries':>8} "
            f"{'floor p95':>10} {'p95 / floor':>12}"
        )
        # Plain static names: the manifest of hashed ones exists only after collectstatic.
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(
            ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"], DEBUG=False, STORAGES=storages
        ):
            bare_p95 = None
            for label, url in PAGES.items():
                floor = None
                if url.startswith("/lobbies/"):

                    def floor(lists="tournaments" in url):
                        return data_floor(viewer, session_key, lists=lists)

                samples, floor_samples = measure(
                    lambda url=url: client.get(url), floor, rounds=ROUNDS, warmup=WARMUP
                )
                with CaptureQueriesContext(connection) as captured:
                    client.get(url)
                p50, p95 = statistics.median(samples), percentile(samples, 0.95)
                bare_p95 = bare_p95 or p95
                line = (
                    f"{label:<44} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x "
                    f"{len(captured):>8}"
                )
                if floor_samples:
                    floor_p95 = percentile(floor_samples, 0.95)
                    line += f" {floor_p95:>10.2f} {p95 / floor_p95:>11.1f}x"
                print(line)
    finally:
        clean_up()


if __name__ == "__main__":
    main()
