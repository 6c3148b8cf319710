"""Collection Manager latency beside a bare Django view and beside each page's data floor,
measured in the same run.

The player owns every card of the catalog four times (with varied Wants, so that Trade and
Need both occur). Prints p50 and p95 per page, the ratio to the bare view, and the ratio to
the page's data floor: its selector's rows for that page fetched and dumped to JSON, the least
the page could cost (issue: "each page's p95 within 3x its own data floor"). Never fails on a
number. Run after `make setup`: `.venv/bin/python benchmarks/collection_manager.py`.
"""

import json
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
from django.http import HttpResponse, QueryDict  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402

from collection import selectors  # noqa: E402
from collection.cards.filters import parse_card_filters  # noqa: E402
from collection.cards.models import Card  # noqa: E402
from collection.models import CardOwnership, LedgerReason  # noqa: E402
from collection.services.ledger import CardChange, ledger_operation, wallet_for  # noqa: E402
from collection.views.binder import GRAPHIC_PAGE_SIZES, TABLE_PAGE_SIZE  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402
from tcgsite.accounts.services import preferences_for  # noqa: E402

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


# What a binder row shows of a card: its collector number, title, type line, numbers and the
# player's own numbers.
ROW_FIELDS = (
    "pk",
    "card_set__number",
    "rarity",
    "number",
    "title",
    "card_type",
    "archetype",
    "traits",
    "cost",
    "attack",
    "defense",
    "damage_bonus",
    "health",
    "level",
    "owned",
    "want",
    "trade",
    "need",
)


def data_floor(player: User, url: str):
    """The rows the binder page at ``url`` shows, read through its selector with the page's
    filters and dumped to JSON."""
    query = QueryDict(url.partition("?")[2])
    filters = parse_card_filters(dict(query.lists()), known_sets=[1], collection=True)
    preferences = preferences_for(user=player)
    cards = selectors.collection_cards(
        owner=player, filters=filters, only_owned=preferences.show_only_owned_cards
    )
    size = (
        TABLE_PAGE_SIZE
        if filters.view == "table"
        else GRAPHIC_PAGE_SIZES[preferences.card_size_collection]
    )
    start = (int(query.get("page", "1")) - 1) * size
    return json.dumps(list(cards[start : start + size].values(*ROW_FIELDS)))


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
        assert getattr(response, "status_code", 200) == 200, response.status_code
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
    print(
        f"{'page':<52} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare':>11} "
        f"{'floor p95':>10} {'p95 / floor':>12}"
    )
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        bare_p95 = None
        for label, request in requests.items():
            samples = measure(request)
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            bare_p95 = bare_p95 or p95
            line = f"{label:<52} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x"
            url = PAGES.get(label, "")
            if url.startswith("/collection/"):
                floor = percentile(measure(lambda url=url: data_floor(player, url)), 0.95)
                line += f" {floor:>10.2f} {p95 / floor:>11.1f}x"
            print(line)


if __name__ == "__main__":
    main()
