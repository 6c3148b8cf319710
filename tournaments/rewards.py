"""Reward structures: how many booster packs each final place earns, written like ``5-4-3-2-1*``.

What a structure means (the rulebook's "Reward Structure", made exact):

- A structure is a list of tiers separated by dashes; a tier is a whole number of packs,
  optionally followed by a star. Nothing else may appear in it, not even spaces.
- A plain tier pays one place: the first plain tier the winner, the second the runner-up,
  and so on.
- Starred tiers come after every plain tier; there may be none, one or two.
- With one starred tier, it pays every place after the plain tiers: ``5-4-3-2-1*`` in an
  eight-player tournament pays 5, 4, 3 and 2 packs to the first four and 1 to each of the
  other four.
- With two starred tiers, the first pays every place after the plain tiers that is in the top
  half of the final standings (the first N/2 places of N players, rounded up), and the second
  every place after that: ``8-6-5-4-2*-1*`` with 20 players pays 8, 6, 5 and 4 packs to the
  first four, 2 to places 5 to 10 and 1 to places 11 to 20.
- Without a starred tier, the places after the plain tiers earn nothing. A tier whose places
  don't exist (more plain tiers than players, or the top half already paid) pays no one.
- A lower place never earns more than a higher one: packs never rise from one tier to the
  next.
- A tier of zero packs is only meaningful as the second of two starred tiers (``3-2-1*-0*``:
  the rest of the top half earn one pack and the bottom half nothing); anywhere else it is
  refused.

Dropped players are placed like everyone else and receive what their place earns (the
rulebook's "Dropping From a Tournament").
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

MAX_STARRED_TIERS = 2
_TIER = re.compile(r"([0-9]+)(\*?)", re.ASCII)


class InvalidRewardStructure(ValueError):
    """A reward structure staff can't use, with what is wrong with it in words."""


@dataclass(frozen=True)
class Tier:
    """Packs paid to one place (plain) or to a group of places (starred)."""

    packs: int
    starred: bool = False

    def __str__(self) -> str:
        return f"{self.packs}*" if self.starred else str(self.packs)


@dataclass(frozen=True)
class RewardStructure:
    """A parsed reward structure; ``str()`` writes it back as staff would."""

    tiers: tuple[Tier, ...]

    def __str__(self) -> str:
        return "-".join(str(tier) for tier in self.tiers)

    def packs_by_place(self, players: int) -> tuple[int, ...]:
        """The packs earned by places 1 to ``players``, as this module's docstring says."""
        plain = [tier.packs for tier in self.tiers if not tier.starred]
        starred = [tier.packs for tier in self.tiers if tier.starred]
        packs = plain[:players]
        if len(starred) == MAX_STARRED_TIERS:
            top_half = (players + 1) // 2
            packs += [starred[0]] * max(0, top_half - len(packs))
        if starred:
            packs += [starred[-1]] * (players - len(packs))
        return tuple(packs + [0] * (players - len(packs)))


def parse_reward_structure(text: str) -> RewardStructure:
    """The structure ``text`` describes (surrounding spaces aside), or InvalidRewardStructure
    saying why there is none."""
    text = text.strip()
    if not text:
        raise InvalidRewardStructure("A reward structure can't be empty: write e.g. 5-4-3-2-1*.")
    tiers: list[Tier] = []
    for number, written in enumerate(text.split("-"), start=1):
        if not written:
            raise InvalidRewardStructure(
                f"Tier {number} of {text!r} is empty: tiers are whole numbers of packs, "
                "never negative, separated by single dashes."
            )
        match = _TIER.fullmatch(written)
        if match is None:
            raise InvalidRewardStructure(
                f"Tier {number} of {text!r} is {written!r}: a tier is a whole number of packs, "
                "optionally followed by one star at its end (e.g. 2*)."
            )
        tiers.append(Tier(packs=int(match[1]), starred=bool(match[2])))
    _check(text, tiers)
    return RewardStructure(tiers=tuple(tiers))


def rewards(structure: RewardStructure, final_order: Sequence[int]) -> dict[int, int]:
    """Each player's packs, given the players in their final order (winner first)."""
    return dict(zip(final_order, structure.packs_by_place(len(final_order)), strict=True))


def _check(text: str, tiers: list[Tier]) -> None:
    starred = [number for number, tier in enumerate(tiers, start=1) if tier.starred]
    if len(starred) > MAX_STARRED_TIERS:
        raise InvalidRewardStructure(
            f"{text!r} has {len(starred)} starred tiers: at most two (the rest of the top "
            "half, then the rest of all players)."
        )
    if starred and starred[0] <= len(tiers) - len(starred):
        raise InvalidRewardStructure(
            f"In {text!r} a starred tier comes before a plain one: starred tiers pay groups "
            "of places after the places the plain tiers pay, so they come last."
        )
    for number, tier in enumerate(tiers, start=1):
        if tier.packs == 0 and not (tier.starred and number == len(tiers) and len(starred) == 2):
            raise InvalidRewardStructure(
                f"Tier {number} of {text!r} pays no packs: only the last of two starred tiers "
                "may be 0 (the bottom half earns nothing); otherwise leave the tier out."
            )
    for number in range(2, len(tiers) + 1):
        if tiers[number - 1].packs > tiers[number - 2].packs:
            raise InvalidRewardStructure(
                f"Tier {number} of {text!r} pays more than tier {number - 1}: a lower place "
                "never earns more packs than a higher one."
            )
