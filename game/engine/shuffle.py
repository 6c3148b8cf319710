"""Shuffling with a seed: the same items and seed always give the same order."""

import random
from collections.abc import Iterable


def shuffled(items: Iterable, seed: int) -> list:
    """A new list of ``items`` in an order decided by ``seed`` alone.

    The engine shuffles decks with this, so that a stored seed replays a game; the Deck
    Builder's Test Draw uses it too, keeping a sample hand in its URL as a seed.
    """
    order = list(items)
    # Not for secrets: a game's shuffle must be reproducible from its stored seed.
    random.Random(seed).shuffle(order)  # noqa: S311
    return order
