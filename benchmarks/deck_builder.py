"""Deck Builder latency beside a bare Django view and beside each request's data floor,
measured in the same run.

The player owns every card of the catalog four times and has a 58-card deck open, the
heaviest collection the builder shows. Prints p50 and p95 per request, the ratio to the bare
view, and the ratio to the request's data floor: the rows it shows (the collection
container's page, the deck's lines) read through its selectors with its filters and dumped
to JSON, the least the request could cost (issue: "each page's p95 within 3x its own data
floor"), the two measured in turns. Never fails on a number. Run after `make setup`:
`.venv/bin/python benchmarks/deck_builder.py` (it creates its player, "bench_deck_builder").
"""

import json
import os
import statistics
import sys
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

import django  # noqa: E402

django.setup()

from django.http import HttpResponse, QueryDict  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402

from benchmarks.pages import https_client, measure, page_frame_floor, percentile  # noqa: E402
from collection.cards import selectors as card_selectors  # noqa: E402
from collection.cards.filters import parse_card_filters  # noqa: E402
from collection.cards.models import Card  # noqa: E402
from collection.decks import selectors as deck_selectors  # noqa: E402
from collection.decks.services import decks  # noqa: E402
from collection.decks.views.decks import PAGE_SIZES  # noqa: E402
from collection.models import CardOwnership, Product  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "200"))
WARMUP = 20
COPIES = 4


def bare_view(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare_view), path("", include("tcgsite.urls"))]


def bench_player() -> tuple[User, dict[int, int]]:
    """A player owning every catalog card four times, with the Jedi starter deck saved."""
    player, _ = User.objects.get_or_create(username="bench_deck_builder")
    for card in Card.objects.filter(creator__isnull=True):
        CardOwnership.objects.update_or_create(
            owner=player, card=card, defaults={"quantity": COPIES}
        )
    starter = Product.objects.get(kind="starter_deck", archetype="jedi")
    counts = dict(starter.starter_cards.values_list("card_id", "quantity"))
    existing = player.decks.filter(name="Bench deck").first()
    decks.deck_save(
        owner=player, name="Bench deck", counts=counts, deck_id=existing.pk if existing else None
    )
    return player, counts


# What the collection container shows of a card, and what the deck container and the deck list
# show of a line.
COLLECTION_FIELDS = (
    "pk",
    "card_set__number",
    "number",
    "title",
    "card_type",
    "archetype",
    "cost",
    "attack",
    "defense",
    "health",
    "level",
    "owned",
)


def deck_rows(player: User, entries) -> list[dict]:
    counts, _problems = deck_selectors.entries_parse(entries)
    builder = deck_selectors.builder_deck(owner=player, counts=counts)
    return [
        {
            "pk": line.card.pk,
            "set": line.card.card_set.number,
            "number": line.card.number,
            "title": line.card.title,
            "card_type": line.card.card_type,
            "archetype": line.card.archetype,
            "cost": line.card.cost,
            "level": line.card.level,
            "copies": line.copies,
            "available": line.available,
        }
        for line in builder.lines
    ]


def collection_rows(player: User, query: QueryDict) -> dict:
    sets = [[s.number, s.code, s.name] for s in card_selectors.card_sets()]
    filters = parse_card_filters(
        dict(query.lists()), known_sets=[number for number, *_ in sets], collection=True
    )
    cards = deck_selectors.builder_collection(owner=player, filters=filters)
    return {
        "sets": sets,
        "found": cards.count(),
        "rows": list(cards[: PAGE_SIZES[filters.view]].values(*COLLECTION_FIELDS)),
    }


def data_floor(
    player: User, session_key: str, url: str, data, *, deck_entries=(), collection=False, page=False
) -> str:
    """What the request at ``url`` reads through its selectors with its filters, dumped to
    JSON: the signed-in player, the deck's lines, a page of the collection container where it
    shows one (``collection``), and the rest of the page frame and the Sealed tournament
    check where it is a whole page (``page``)."""
    query = QueryDict(url.partition("?")[2])
    entries = (data or {}).get("entry") or query.getlist("entry") or deck_entries
    rows = {"frame": page_frame_floor(session_key, page=page), "deck": deck_rows(player, entries)}
    if collection:
        rows["collection"] = collection_rows(player, query)
    if page:
        rows["sealed_pool"] = deck_selectors.builder_detour(player=player) is None
    return json.dumps(rows)


def main() -> None:
    card_count = Card.objects.count()
    if not card_count or not Product.objects.filter(kind="starter_deck").exists():
        sys.exit("The catalog is empty: run `make setup` first.")
    player, counts = bench_player()
    deck = player.decks.get(name="Bench deck")
    client = https_client()
    client.force_login(player)
    session_key = client.session.session_key
    entries = [f"{card_id}x{copies}" for card_id, copies in counts.items()]
    deck_query = urlencode({"entry": entries}, doseq=True)
    some_card = next(iter(counts))
    # The deck a page opens (the others' is in their query or form), and the requests that show
    # a page of the collection container.
    page_entries = {"builder, 58-card deck open": entries}
    with_collection = {
        "builder, new deck, Graphic View",
        "builder, new deck, Table View",
        "builder, 58-card deck open",
        "collection container, filtered (unit, text)",
    }
    requests = {
        "bare Django view": ("GET", "/bench/bare/", None),
        "builder, new deck, Graphic View": ("GET", reverse("decks:deck_builder"), None),
        "builder, new deck, Table View": (
            "GET",
            reverse("decks:deck_builder") + "?view=table",
            None,
        ),
        "builder, 58-card deck open": (
            "GET",
            reverse("decks:deck_edit", args=[deck.pk]),
            None,
        ),
        "collection container, filtered (unit, text)": (
            "GET",
            reverse("decks:deck_builder_collection") + "?type=unit&q=a&" + deck_query,
            None,
        ),
        "double-click: add one copy": (
            "POST",
            reverse("decks:deck_change"),
            {"entry": entries, "card": some_card, "op": "add", "copies": "1"},
        ),
        "Validate (every format)": (
            "GET",
            reverse("decks:deck_validate") + "?" + deck_query,
            None,
        ),
        "Statistics": ("GET", reverse("decks:deck_statistics") + "?" + deck_query, None),
        "Test Draw": ("GET", reverse("game:test_draw") + "?seed=7&" + deck_query, None),
    }
    owned = CardOwnership.objects.filter(owner=player).count()
    print(f"{owned} cards owned {COPIES} times each, {ROUNDS} requests each, in-process client")
    print(
        f"{'request':<48} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare':>11} "
        f"{'floor p50':>10} {'floor p95':>10} {'p50 / floor':>12} {'p95 / floor':>12}"
    )
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        bare_p95 = None
        for label, (method, url, data) in requests.items():
            send = client.post if method == "POST" else client.get
            floor = None
            if url != "/bench/bare/":

                def floor(url=url, data=data, label=label):
                    return data_floor(
                        player,
                        session_key,
                        url,
                        data,
                        deck_entries=page_entries.get(label, ()),
                        collection=label in with_collection,
                        page=label.startswith("builder,"),
                    )

            samples, floor_samples = measure(
                lambda send=send, url=url, data=data: send(url, data),
                floor,
                rounds=ROUNDS,
                warmup=WARMUP,
            )
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            bare_p95 = bare_p95 or p95
            line = f"{label:<48} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x"
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
