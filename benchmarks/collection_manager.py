"""Collection Manager latency beside a bare Django view and beside each page's data floor,
measured in the same run.

The player owns every card of the catalog four times (with varied Wants, so that Trade and
Need both occur). Prints p50 and p95 per page, the ratio to the bare view, and the ratio to
the page's data floor: what the page reads through its selectors (the page frame, the sets, the
player's Preferences, the number of cards found and the page's rows, the unopened products and
the totals) dumped to JSON, the least the page could cost (issue: "each page's p95 within 3x
its own data floor"), the two measured in turns. Never fails on a number. Run after
`make setup`: `.venv/bin/python benchmarks/collection_manager.py`.
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

from django.db.models import F  # noqa: E402
from django.http import HttpResponse, QueryDict  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402

from benchmarks.pages import https_client, measure, page_frame_floor, percentile  # noqa: E402
from collection import selectors  # noqa: E402
from collection.cards import selectors as card_selectors  # noqa: E402
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


def data_floor(player: User, session_key: str, url: str) -> str:
    """What the binder page at ``url`` reads through its selectors, dumped to JSON."""
    query = QueryDict(url.partition("?")[2])
    sets = [[s.number, s.code, s.name] for s in card_selectors.card_sets()]
    filters = parse_card_filters(
        dict(query.lists()), known_sets=[number for number, *_ in sets], collection=True
    )
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
    return json.dumps(
        {
            "frame": page_frame_floor(session_key),
            "sets": sets,
            "preferences": [preferences.show_only_owned_cards, preferences.card_size_collection],
            "found": cards.count(),
            "rows": list(cards[start : start + size].values(*ROW_FIELDS)),
            "unopened": [
                [item.pk, item.product.name] for item in selectors.unopened_products(owner=player)
            ],
            "totals": selectors.collection_totals(owner=player),
        }
    )


def main() -> None:
    card_count = Card.objects.filter(creator__isnull=True).count()
    if not card_count:
        sys.exit("The catalog is empty: run `make setup` first.")
    player = collector()
    client = https_client()
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
    session_key = client.session.session_key
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        bare_p95 = None
        for label, request in requests.items():
            url = PAGES.get(label, "")
            floor = (
                (lambda url=url: data_floor(player, session_key, url))
                if url.startswith("/collection/")
                else None
            )
            samples, floor_samples = measure(request, floor, rounds=ROUNDS, warmup=WARMUP)
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            bare_p95 = bare_p95 or p95
            line = f"{label:<52} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x"
            if floor_samples:
                floor_p95 = percentile(floor_samples, 0.95)
                line += f" {floor_p95:>10.2f} {p95 / floor_p95:>11.1f}x"
            print(line)


if __name__ == "__main__":
    main()
