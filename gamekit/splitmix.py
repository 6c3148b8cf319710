"""A game's random numbers: a SplitMix64 generator whose whole state is one integer kept in the
game state, so the state round-trips through JSON exactly and a seed plus the applied actions
replay a game. Both engines draw everything random from it, in the order it happens."""

from typing import Protocol

MASK_64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class HasRng(Protocol):
    rng: int


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer, reduced to 64 bits)."""
    return seed & MASK_64


def next_u64(holder: HasRng) -> int:
    """The next 64-bit number; advances ``holder.rng``."""
    holder.rng = (holder.rng + _GOLDEN_GAMMA) & MASK_64
    mixed = holder.rng
    mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & MASK_64
    mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & MASK_64
    return mixed ^ (mixed >> 31)


def below(holder: HasRng, bound: int) -> int:
    """A number from 0 to ``bound - 1``; the multiply-shift keeps the bias below 2**-50."""
    return (next_u64(holder) * bound) >> 64
