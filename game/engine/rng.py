"""The game's random numbers: the SplitMix64 generator both games share (gamekit/splitmix.py),
whose whole state is one integer in the game state, so the state round-trips through JSON
exactly and a seed plus the applied actions replay a game (docs/design.md, "The rules engine
contract"). Everything random in a game (the first player, every shuffle) draws from it, in
the order it happens.
"""

from game.engine.shuffle import shuffled
from gamekit.splitmix import HasRng, below, next_u64, seed_state

__all__ = ("HasRng", "below", "next_u64", "seed_state", "shuffle")


def shuffle(holder: HasRng, cards: list[int]) -> list[int]:
    """``cards`` in a new order, seeded from the generator."""
    return shuffled(cards, next_u64(holder))
