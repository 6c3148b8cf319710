"""Collection Manager latency beside a bare Django view, measured in the same run.

The player owns every card of the catalog four times (with varied Wants, so that Trade and
Need both occur). Prints p50 and p95 per page and the ratio to the bare view; never fails on
a number. Run after `make setup`: `.venv/bin/python benchmarks/collection_manager.py`.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

import django  # noqa: E402

django.setup()

from django.db.models import F  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402

from collection.cards.models import Card  # noqa: E402
from collection.models import CardOwnership, LedgerReason  # noqa: E402
from collection.services.ledger import CardChange, ledger_operation, wallet_for  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "300"))
WARMUP = 20
COPIES = 4
BENCH_PLAYER = "bench-collector"


def bare_view(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare_view), path("", include("tcgsite.urls"))]

PAGES = {
    "bare Django view": "/bench/bare/",
    "binder, Graphic View, page 1": "/collection/",
    "binder, Graphic View, page 10": "/collection/?page=10",
    "binder, Table View (100 cards)": "/collection/?view=table",
    "binder, Table View sorted by need": "/collection/?view=table&sort=-need",
    "binder, filtered (unit, trade>=1, need=0, text)": (
        "/collection/?type=unit&num=trade%3E%3D1&num=need%3D0&q=a&view=table"
    ),
}


def collector() -> User:
    """The benchmark's player, owning every card four times; made once, kept afterwards.

    The cards come through the ledger writers in one operation (as a staff grant would),
    because no player-facing service hands out a whole catalog."""
    player, created = User.objects.get_or_create(username=BENCH_PLAYER)
    wallet_for(owner=player)
    if created:
        cards = list(Card.objects.filter(creator__isnull=True).values_list("pk", flat=True))
        with ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger:
            ledger.cards_change(
                changes=[
                    CardChange(owner=player, card_id=card_id, delta=COPIES, note="benchmark")
                    for card_id in cards
                ]
            )
            CardOwnership.objects.filter(owner=player).update(want=F("card_id") % 7)
    return player


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(request) -> list[float]:
    for _ in range(WARMUP):
        request()
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        response = request()
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    return samples


def main() -> None:
    card_count = Card.objects.filter(creator__isnull=True).count()
    if not card_count:
        sys.exit("The catalog is empty: run `make setup` first.")
    player = collector()
    client = Client()
    client.force_login(player)
    card = Card.objects.filter(creator__isnull=True).order_by("pk").first()
    want_url = reverse("collection:want_change", args=[card.pk])
    wants = iter(range(10**9))
    requests = {label: (lambda url=url: client.get(url)) for label, url in PAGES.items()}
    requests["Want + (htmx POST, one card's numbers)"] = lambda: client.post(
        want_url, {"want": next(wants) % 10, "view": "graphic"}, headers={"HX-Request": "true"}
    )
    print(
        f"{card_count} cards, each owned {COPIES} times; {ROUNDS} requests per page, "
        "in-process test client"
    )
    print(f"{'page':<52} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare':>11}")
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        bare_p95 = None
        for label, request in requests.items():
            samples = measure(request)
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            bare_p95 = bare_p95 or p95
            print(f"{label:<52} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x")


if __name__ == "__main__":
    main()
