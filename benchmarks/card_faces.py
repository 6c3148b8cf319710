"""Card faces with their art beside the same faces without art, measured in the same run.

For the whole catalog at each face size: mean size of a face (raw and gzipped, as a browser
receives it) and render time per face (p50, p95), and the ratios of the faces with art to the
faces without. Faces are not cached on the server: the face URL renders on every request and
sends Cache-Control (public, five minutes), so the render time is what a request costs.
Never fails on a number. Run with `make bench` (it migrates and loads the catalog first).
"""

import gzip
import os
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

import django  # noqa: E402

django.setup()

from collection.cards import faces  # noqa: E402
from collection.cards.models import Card  # noqa: E402

PASSES = int(os.environ.get("BENCH_ROUNDS", "20"))


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(cards: list[Card], size: str) -> dict[str, float]:
    rendered = [faces.card_face_svg(card, size=size).encode() for card in cards]
    samples = []
    for _ in range(PASSES):
        for card in cards:
            start = time.perf_counter()
            faces.card_face_svg(card, size=size)
            samples.append((time.perf_counter() - start) * 1000)
    return {
        "bytes": statistics.mean(len(face) for face in rendered),
        "largest": max(len(face) for face in rendered),
        "gzip": statistics.mean(len(gzip.compress(face)) for face in rendered),
        "p50": statistics.median(samples),
        "p95": percentile(samples, 0.95),
    }


def without_art(card, *, x, y) -> str:
    return ""


def main() -> None:
    cards = list(Card.objects.printed().select_related("card_set"))
    if not cards:
        sys.exit("The catalog is empty: run `make setup` first.")
    print(f"{len(cards)} cards, {PASSES} renders of each per size")
    header = f"{'faces':<22} {'mean B':>8} {'max B':>8} {'gzip B':>8} {'p50 ms':>8} {'p95 ms':>8}"
    for size in faces.FACE_SIZES:
        with mock.patch.object(faces, "card_art_svg", without_art):
            bare = measure(cards, size)
        with_art = measure(cards, size)
        print(f"\n{size}\n{header}")
        for label, figures in (("without art", bare), ("with art", with_art)):
            print(
                f"{label:<22} {figures['bytes']:>8.0f} {figures['largest']:>8} "
                f"{figures['gzip']:>8.0f} {figures['p50']:>8.3f} {figures['p95']:>8.3f}"
            )
        print(
            f"{'with / without':<22} {with_art['bytes'] / bare['bytes']:>7.2f}x "
            f"{with_art['largest'] / bare['largest']:>7.2f}x "
            f"{with_art['gzip'] / bare['gzip']:>7.2f}x "
            f"{with_art['p50'] / bare['p50']:>7.2f}x {with_art['p95'] / bare['p95']:>7.2f}x"
        )


if __name__ == "__main__":
    main()
