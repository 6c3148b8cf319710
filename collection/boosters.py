"""Drawing a booster pack's cards: pure, seeded, so that any opening can be replayed."""

import random
from collections.abc import Mapping, Sequence

from tcgsite.errors import UserError


class BoosterError(UserError):
    """A booster whose slots the card pool can't fill."""


def booster_contents(
    pool: Mapping[str, Sequence[int]], slots: Sequence[Mapping], seed: int
) -> list[int]:
    """The card ids of one booster.

    ``pool`` maps a rarity letter to the card ids of that rarity (in a fixed order, e.g. card
    number); each slot ``{"rarity": "U", "count": 3}`` draws that many different cards of its
    rarity. The same pool, slots and seed always give the same cards in the same order.
    """
    rng = random.Random(seed)  # noqa: S311 - game randomness, recorded and replayable
    cards: list[int] = []
    for slot in slots:
        candidates = list(pool.get(slot["rarity"], ()))
        if len(candidates) < slot["count"]:
            raise BoosterError(
                f"The set has {len(candidates)} cards of rarity {slot['rarity']}, "
                f"too few for a slot of {slot['count']}."
            )
        cards.extend(rng.sample(candidates, slot["count"]))
    return cards


def slots_problems(slots) -> list[str]:
    """What is wrong with a booster's slot description (shown to staff in the admin)."""
    if not isinstance(slots, list) or not slots:
        return ['Slots are a list like [{"rarity": "R", "count": 1}, ...].']
    problems = []
    for slot in slots:
        if not isinstance(slot, dict) or set(slot) != {"rarity", "count"}:
            problems.append(f'{slot!r}: a slot is {{"rarity": letter, "count": number}}.')
        elif slot["rarity"] not in ("R", "U", "C", "F", "P"):
            problems.append(f"{slot!r}: rarity must be one of R, U, C, F, P.")
        elif not isinstance(slot["count"], int) or slot["count"] < 1:
            problems.append(f"{slot!r}: count must be a whole number of at least 1.")
    return problems
