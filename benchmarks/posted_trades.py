"""Posted trades under contention and the posted-trades board at size, beside a bare Django
view measured in the same run.

1. Races: N players (2, 8 and 32 by default) accept one posted trade at once, each in its own
   thread and database connection, released together; BENCH_RACE_ROUNDS rounds (5) per size.
   Prints how many acceptances won in each round (always exactly one is the point) and the
   time from the release until every acceptance has settled, won or refused. Needs PostgreSQL
   (on SQLite writers queue on one lock and there is no race to see).
2. The board: 1,000 and then 10,000 open trades by other players (each one to three cards
   offered and one to three wanted, every fifth one offering a booster and every seventh
   asking for two), seen by a player who owns every card four times and no booster, with
   "Only show trades I can accept" on. Prints p50 and p95 of the board's newest page, the
   page ten "Older" clicks away and two searches as typed, beside a bare Django view, with
   their ratio to it, the number of queries of each request at each size (the same at
   1,000 and at 10,000 trades), and the ratio to each page's data floor: its rows read
   through the board's selector with the page's filters and dumped to JSON, the least the
   page could cost (issue 37: "each page's p95 within 3x its own data floor").

Runs in the embedded default (SQLite; no races) or in production mode (PostgreSQL and Redis)
with
`DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/3 DJANGO_SECRET_KEY=x
.venv/bin/python benchmarks/posted_trades.py`; it migrates the database first. Its players
are named `bench-ptrade-*`, and it deletes what it made when it starts and when it ends.
BENCH_RACERS=2,8 chooses the race sizes, BENCH_BOARD_SIZES=1000 the board's sizes,
BENCH_ROUNDS the requests per page (200). It never fails on a number.
"""

import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.http import HttpResponse, QueryDict  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import include, path  # noqa: E402

from benchmarks.pages import measure, page_frame_floor, percentile  # noqa: E402
from collection.cards.models import Card  # noqa: E402
from collection.models import (  # noqa: E402
    CreditEntry,
    ItemEntry,
    LedgerOperation,
    LedgerReason,
    Product,
    ProductKind,
)
from collection.services.ledger import CardChange, ledger_operation  # noqa: E402
from collection.trades.models import PostedTrade, PostedTradeLine, TradeSide  # noqa: E402
from collection.trades.selectors.posted import posted_trade_board  # noqa: E402
from collection.trades.services.exchange import TradeItem  # noqa: E402
from collection.trades.services.posted import (  # noqa: E402
    PostedTradeError,
    posted_trade_accept,
    posted_trade_create,
)
from collection.trades.views.posted import BoardPage  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402
from tcgsite.inputs import object_id  # noqa: E402

PREFIX = "bench-ptrade-"
RACERS = [int(n) for n in os.environ.get("BENCH_RACERS", "2,8,32").split(",")]
RACE_ROUNDS = int(os.environ.get("BENCH_RACE_ROUNDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "200"))
WARMUP = 10
BOARD_SIZES = [int(n) for n in os.environ.get("BENCH_BOARD_SIZES", "1000,10000").split(",")]
POSTERS = 200
COPIES = 4


def bare_view(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare_view), path("", include("tcgsite.urls"))]


def clean_up() -> None:
    """Delete every row the benchmark made: its players' trades, ledger rows and players."""
    players = User.objects.filter(username__startswith=PREFIX)
    with transaction.atomic():
        operations = set(
            ItemEntry.objects.filter(owner__in=players).values_list("operation", flat=True)
        ) | set(CreditEntry.objects.filter(owner__in=players).values_list("operation", flat=True))
        PostedTrade.objects.filter(poster__in=players).delete()
        ItemEntry.objects.filter(owner__in=players).delete()
        CreditEntry.objects.filter(owner__in=players).delete()
        LedgerOperation.objects.filter(pk__in=operations).delete()
        players.delete()


def player(name: str) -> User:
    return User.objects.create(username=f"{PREFIX}{name}")


def give_cards(owner: User, counts: dict[int, int]) -> None:
    with ledger_operation(owners=[owner], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=owner, card_id=card_id, delta=n, note="benchmark")
                for card_id, n in counts.items()
            ]
        )


def race_once(trade_id: int, takers: list[User]) -> tuple[int, float]:
    """Release ``takers`` together on one trade: (acceptances that won, ms until all settled)."""
    barrier = threading.Barrier(len(takers) + 1)
    outcomes: list = [None] * len(takers)

    def accept(index: int) -> None:
        try:
            barrier.wait()
            posted_trade_accept(trade_id=trade_id, taker=takers[index])
            outcomes[index] = True
        except PostedTradeError:
            outcomes[index] = False
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(i,)) for i in range(len(takers))]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    return sum(1 for outcome in outcomes if outcome), (time.perf_counter() - start) * 1000


def races(offered: Card, wanted: Card) -> None:
    print(f"\nRaces: N players accept one posted trade at once ({RACE_ROUNDS} rounds each)")
    print(f"{'players':>8} {'winners per round':<22} {'settle p50 ms':>14} {'settle max ms':>14}")
    for size in RACERS:
        poster = player(f"poster-{size}")
        give_cards(poster, {offered.pk: RACE_ROUNDS})
        takers = [player(f"taker-{size}-{i}") for i in range(size)]
        for taker in takers:
            give_cards(taker, {wanted.pk: RACE_ROUNDS})
        winners, times = [], []
        for _ in range(RACE_ROUNDS):
            trade = posted_trade_create(
                poster=poster,
                offer=[TradeItem(quantity=1, card_id=offered.pk)],
                want=[TradeItem(quantity=1, card_id=wanted.pk)],
            )
            won, elapsed = race_once(trade.pk, takers)
            winners.append(won)
            times.append(elapsed)
        print(
            f"{size:>8} {' '.join(map(str, winners)):<22} "
            f"{statistics.median(times):>14.1f} {max(times):>14.1f}"
        )


# --- 2. the board -----------------------------------------------------------------------------


def post_trades(count: int, start: int, card_ids: list[int], booster: Product) -> None:
    """Open trades written straight to the tables (posting checks the poster's holdings, which
    the board never reads), spread over POSTERS players."""
    posters = list(
        User.objects.filter(username__startswith=f"{PREFIX}board-poster-").order_by("pk")
    )
    trades = PostedTrade.objects.bulk_create(
        PostedTrade(poster=posters[(start + i) % len(posters)]) for i in range(count)
    )
    lines = []
    for offset, trade in enumerate(trades):
        i = start + offset
        pick = [card_ids[(i * 7 + k * 13) % len(card_ids)] for k in range(6)]
        for k in range(1 + i % 3):
            lines.append(
                PostedTradeLine(trade=trade, side=TradeSide.OFFER, card_id=pick[k], quantity=1 + k)
            )
        for k in range(1 + (i // 3) % 3):
            lines.append(
                PostedTradeLine(
                    trade=trade,
                    side=TradeSide.WANT,
                    card_id=pick[3 + k],
                    quantity=1 + (i + k) % COPIES,
                )
            )
        if i % 5 == 0:
            lines.append(
                PostedTradeLine(trade=trade, side=TradeSide.OFFER, product=booster, quantity=1)
            )
        if i % 7 == 0:
            lines.append(
                PostedTradeLine(trade=trade, side=TradeSide.WANT, product=booster, quantity=2)
            )
    PostedTradeLine.objects.bulk_create(lines, batch_size=5_000)


def query_count(request) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert getattr(response, "status_code", 200) == 200, response.status_code
    return len(captured)


def data_floor(viewer: User, session_key: str, url: str, *, page: bool) -> str:
    """What the board page at ``url`` reads, dumped to JSON: the page frame (of a whole
    ``page``; a search's htmx fragment has none) and the rows, read through the board's
    selector with the page's filters."""
    query = QueryDict(url.partition("?")[2])
    before = object_id(query.get("before"))
    trades = posted_trade_board(
        viewer=viewer,
        search=query.get("q", "").strip(),
        only_acceptable=query.get("can") == "1",
        before=before,
    )
    rows = [
        {
            "pk": trade.pk,
            "poster": trade.poster.username,
            "guild": trade.guild.name if trade.guild_id else None,
            "can_accept": trade.can_accept,
            "created_at": trade.created_at.isoformat(),
            "lines": [
                [
                    line.side,
                    line.quantity,
                    line.card.title if line.card_id else line.product.name,
                    line.card.card_set.number if line.card_id else None,
                    line.card.number if line.card_id else None,
                ]
                for line in trade.lines.all()
            ],
        }
        for trade in BoardPage.of(trades, before).object_list
    ]
    return json.dumps({"frame": page_frame_floor(session_key, page=page), "rows": rows})


def board(card_ids: list[int], booster: Product, viewer: User) -> None:
    for i in range(POSTERS):
        player(f"board-poster-{i}")
    rare_search = urlencode({"q": Card.objects.get(pk=card_ids[-1]).title, "can": 1})

    def pages() -> dict[str, str]:
        # "Older" ten times: the page after the 500 newest trades.
        older = PostedTrade.objects.order_by("-pk").values_list("pk", flat=True)[500]
        return {
            "bare Django view": "/bench/bare/",
            "board, can accept on, newest": "/trades/posted/?can=1",
            "board, can accept on, 10 pages older": f"/trades/posted/?can=1&before={older}",
            "board, can accept off, newest": "/trades/posted/",
            "board, search 'a' as typed (htmx), can on": "/trades/posted/?q=a&can=1",
            "board, search a rare card (htmx), can on": f"/trades/posted/?{rare_search}",
        }

    client = Client()
    client.force_login(viewer)
    session_key = client.session.session_key
    posted = 0
    print(
        f"\nThe board: the viewer owns every card ({len(card_ids)}) {COPIES} times and no booster; "
        f"{ROUNDS} requests per page, in-process test client"
    )
    for size in BOARD_SIZES:
        post_trades(size - posted, posted, card_ids, booster)
        posted = size
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE trades_postedtrade")
            cursor.execute("ANALYZE trades_postedtradeline")
        print(f"\n{size:,} open trades")
        print(
            f"{'page':<46} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare':>11} {'queries':>8} "
            f"{'floor p95':>10} {'p95 / floor':>12}"
        )
        bare_p95 = None
        for label, url in pages().items():
            headers = (
                {"HX-Request": "true", "HX-Target": "posted-results"} if "htmx" in label else {}
            )
            floor = None
            if url.startswith("/trades/"):

                def floor(url=url, page="htmx" not in label):
                    return data_floor(viewer, session_key, url, page=page)

            def request(url=url, headers=headers):
                return client.get(url, headers=headers, secure=True)

            queries = query_count(request)
            samples, floor_samples = measure(request, floor, rounds=ROUNDS, warmup=WARMUP)
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            bare_p95 = bare_p95 or p95
            line = f"{label:<46} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x {queries:>8}"
            if floor_samples:
                floor_p95 = percentile(floor_samples, 0.95)
                line += f" {floor_p95:>10.2f} {p95 / floor_p95:>11.1f}x"
            print(line)


def main() -> None:
    call_command("migrate", verbosity=0)
    card_ids = list(Card.objects.printed().order_by("pk").values_list("pk", flat=True))
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
    if not card_ids or booster is None:
        sys.exit("The catalog is empty: run `make setup` first.")
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"Database: {engine}")
    clean_up()
    try:
        if engine == "postgresql":
            races(Card.objects.get(pk=card_ids[0]), Card.objects.get(pk=card_ids[1]))
        else:
            print("\nRaces: skipped (they need PostgreSQL's row locks).")
        viewer = player("viewer")
        give_cards(viewer, {card_id: COPIES for card_id in card_ids})
        # Plain static names: the manifest of hashed ones exists only after collectstatic.
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(
            ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"], DEBUG=False, STORAGES=storages
        ):
            board(card_ids, booster, viewer)
    finally:
        clean_up()


if __name__ == "__main__":
    main()
