"""Drawing a booster pack's cards: pure, seeded, so that any opening can be replayed."""

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tcgsite.errors import UserError


class BoosterError(UserError):
    """A booster whose slots the card pool can't fill."""


# About one booster in six holds a foil in place of one of its commons (README, "Booster packs").
FOIL_ONE_IN = 6


@dataclass(frozen=True)
class BoosterDraw:
    """One booster's cards in reveal order; the last ``len(foil_card_ids)`` of them are foils."""

    card_ids: list[int]
    foil_card_ids: list[int]


def booster_draw(
    pool: Mapping[str, Sequence[int]],
    slots: Sequence[Mapping],
    seed: int,
    *,
    foil_one_in: int | None = None,
) -> BoosterDraw:
    """The cards of one booster.

    ``pool`` maps a rarity letter to the card ids of that rarity (in a fixed order, e.g. card
    number); each slot ``{"rarity": "U", "count": 3}`` draws that many different cards of its
    rarity. Then, with ``foil_one_in`` (a recipe's rate; None for recipes kept before foils,
    which draw exactly as they always did), one booster in that many trades its last common
    for a foil of any card its slots draw from, revealed last. The same pool, slots, rate and
    seed always give the same cards in the same order, and the same foil.
    """
    rng = random.Random(seed)  # noqa: S311 - game randomness, recorded and replayable
    cards: list[int] = []
    commons: list[int] = []  # where the commons are among the cards
    for slot in slots:
        candidates = list(pool.get(slot["rarity"], ()))
        if len(candidates) < slot["count"]:
            raise BoosterError(
                f"The set has {len(candidates)} cards of rarity {slot['rarity']}, "
                f"too few for a slot of {slot['count']}."
            )
        if slot["rarity"] == "C":
            commons.extend(range(len(cards), len(cards) + slot["count"]))
        cards.extend(rng.sample(candidates, slot["count"]))
    if not foil_one_in or rng.randrange(foil_one_in) or not commons:
        return BoosterDraw(card_ids=cards, foil_card_ids=[])
    rarities = dict.fromkeys(slot["rarity"] for slot in slots)
    foil = rng.choice([card_id for rarity in rarities for card_id in pool.get(rarity, ())])
    del cards[commons[-1]]
    return BoosterDraw(card_ids=[*cards, foil], foil_card_ids=[foil])


def recipe_digest(
    slots: Sequence[Mapping], pool: Mapping[str, Sequence[int]], foil_one_in: int | None = None
) -> str:
    """The SHA-256 (hex) naming a recipe: of its JSON with sorted keys and no spaces, so that
    anyone holding the slots, the pool and the foil rate can compute it again. A recipe
    without a foil rate (kept before foils) leaves the key out, keeping its digest."""
    content: dict = {"pool": pool, "slots": slots}
    if foil_one_in is not None:
        content["foil_one_in"] = foil_one_in
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def pool_problems(pool) -> list[str]:
    """What is wrong with a recorded card pool (a map of rarity letter to card ids)."""
    if not isinstance(pool, dict):
        return ['A card pool is a map like {"R": [card id, ...], ...}.']
    return [
        f"{rarity!r}: a rarity's cards are a list of distinct card ids."
        for rarity, ids in pool.items()
        if not isinstance(ids, list)
        or not all(isinstance(card_id, int) and not isinstance(card_id, bool) for card_id in ids)
        or len(set(ids)) != len(ids)
    ]


def pool_card_ids(pool) -> list[int]:
    """The card ids of a recorded pool; a malformed one (the audit flags it) names none."""
    if pool_problems(pool):
        return []
    return [card_id for ids in pool.values() for card_id in ids]


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
