"""Card browser and card page latency beside a bare Django view and beside each page's data
floor, measured in the same run.

Prints p50 and p95 per page, the ratio to the bare view, and the ratio to the page's data
floor: the rows it shows read through its selectors with its filters and dumped to JSON, the
least the page could cost (issue: "each page's p95 within 3x its own data floor"), the two
measured in turns. Never fails on a number. Run with `make bench` (it migrates and loads the
catalog first).
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

from django.contrib.auth.models import AnonymousUser  # noqa: E402
from django.http import HttpResponse, QueryDict  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.urls import include, path  # noqa: E402

from benchmarks.pages import https_client, measure, page_frame_floor, percentile  # noqa: E402
from collection.cards import selectors  # noqa: E402
from collection.cards.filters import parse_card_filters  # noqa: E402
from collection.cards.models import Card  # noqa: E402
from collection.cards.registry import card_panels  # noqa: E402
from collection.cards.views import PAGE_SIZES  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "300"))
WARMUP = 20


def bare_view(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare_view), path("", include("tcgsite.urls"))]

PAGES = {
    "bare Django view": "/bench/bare/",
    "browser, all cards, Graphic View": "/cards/",
    "browser, all cards, Table View": "/cards/?view=table",
    "browser, filtered (unit, cost>=2, attack!=1, text)": (
        "/cards/?type=unit&num=cost%3E%3D2&num=attack%21%3D1&q=a&view=table"
    ),
    "card page": None,
}


# What the browser's Table View shows of a card (the Graphic View shows less).
ROW_FIELDS = (
    "pk",
    "card_set__number",
    "rarity",
    "number",
    "title",
    "card_type",
    "archetype",
    "cost",
    "attack",
    "defense",
    "damage_bonus",
    "health",
    "level",
)
# What the card page shows of its card.
CARD_FIELDS = (
    *ROW_FIELDS,
    "restriction",
    "game_text",
    "lore",
    "artist",
    "traits",
)


def browser_floor(url: str, session_key: str | None) -> str:
    """What the browser page at ``url`` reads through its selectors with the page's filters,
    dumped to JSON: the page frame, the sets, the number of cards found and the page's rows."""
    query = QueryDict(url.partition("?")[2])
    sets = [[s.number, s.code, s.name] for s in selectors.card_sets()]
    filters = parse_card_filters(dict(query.lists()), known_sets=[number for number, *_ in sets])
    cards = selectors.cards_filtered(filters=filters)
    return json.dumps(
        {
            "frame": session_key and page_frame_floor(session_key),
            "sets": sets,
            "found": cards.count(),
            "rows": list(cards[: PAGE_SIZES[filters.view]].values(*ROW_FIELDS)),
        }
    )


def card_page_floor(viewer, session_key: str | None, set_number: int, number: int) -> str:
    """What the card page reads: the page frame, its card, its neighbours' titles, and the
    panels' data (the player's copies, Want and decks), dumped to JSON."""
    card = selectors.card_by_number(set_number=set_number, number=number, viewer=viewer)
    previous, following = selectors.card_neighbours(card=card)
    row = {name: getattr(card, name) for name in CARD_FIELDS if "__" not in name}
    row["set"] = card.card_set.name
    panels = [panel.context(viewer=viewer, card=card) for panel in card_panels]
    return json.dumps(
        {
            "frame": session_key and page_frame_floor(session_key),
            "card": row,
            "neighbours": [
                c and (c.card_set.number, c.number, c.title) for c in (previous, following)
            ],
            "panels": panels,
        },
        default=str,
    )


def main() -> None:
    card_count = Card.objects.count()
    if not card_count:
        sys.exit("The catalog is empty: run `make setup` first.")
    player = User.objects.filter(is_staff=False).first()
    client = https_client()
    if player:
        client.force_login(player)
    card = Card.objects.select_related("card_set").order_by("number").first()
    PAGES["card page"] = card.get_absolute_url()
    viewer = player or AnonymousUser()
    session_key = client.session.session_key if player else None
    floors = {
        label: lambda url=url: browser_floor(url, session_key)
        for label, url in PAGES.items()
        if url and url.startswith("/cards/?") or url == "/cards/"
    }
    floors["card page"] = lambda: card_page_floor(
        viewer, session_key, card.card_set.number, card.number
    )
    print(
        f"{card_count} cards, {ROUNDS} requests per page, in-process test client, "
        f"{'as ' + player.username if player else 'logged out'}"
    )
    print(
        f"{'page':<52} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare':>11} "
        f"{'floor p50':>10} {'floor p95':>10} {'p50 / floor':>12} {'p95 / floor':>12}"
    )
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        bare_p95 = None
        for label, url in PAGES.items():
            samples, floor_samples = measure(
                lambda url=url: client.get(url), floors.get(label), rounds=ROUNDS, warmup=WARMUP
            )
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            bare_p95 = bare_p95 or p95
            line = f"{label:<52} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x"
            if floor_samples:
                floor_p50 = statistics.median(floor_samples)
                floor_p95 = percentile(floor_samples, 0.95)
                line += (
                    f" {floor_p50:>10.2f} {floor_p95:>10.2f} {p50 / floor_p50:>11.1f}x"
                    f" {p95 / floor_p95:>11.1f}x"
                )
            print(line)


if __name__ == "__main__":
    main()
