"""Card browser latency beside a bare Django view, measured in the same run.

Prints p50 and p95 per page and the ratio to the bare view; never fails on a number.
Run with `make bench` (it migrates and loads the catalog first).
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

from django.http import HttpResponse  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import include, path  # noqa: E402

from collection.cards.models import Card  # noqa: E402
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


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(client: Client, url: str) -> list[float]:
    for _ in range(WARMUP):
        client.get(url)
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return samples


def main() -> None:
    card_count = Card.objects.count()
    if not card_count:
        sys.exit("The catalog is empty: run `make setup` first.")
    player = User.objects.filter(is_staff=False).first()
    client = Client()
    if player:
        client.force_login(player)
    PAGES["card page"] = Card.objects.order_by("number").first().get_absolute_url()
    print(f"{card_count} cards, {ROUNDS} requests per page, in-process test client")
    print(f"{'page':<52} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare':>11}")
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        bare_p95 = None
        for label, url in PAGES.items():
            samples = measure(client, url)
            p50, p95 = statistics.median(samples), percentile(samples, 0.95)
            bare_p95 = bare_p95 or p95
            print(f"{label:<52} {p50:>8.2f} {p95:>8.2f} {p95 / bare_p95:>10.1f}x")


if __name__ == "__main__":
    main()
