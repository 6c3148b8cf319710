"""The game's random numbers: the SplitMix64 generator both games share (gamekit/splitmix.py),
whose whole state is one integer kept in the game state, so a seed plus the applied actions
replay a game exactly and the state round-trips through JSON. Everything random (shuffles, the
ante's tie die, random discards) draws from it in the order it happens."""

from gamekit.splitmix import HasRng, below, seed_state

__all__ = ("HasRng", "below", "seed_state", "shuffle")


def shuffle(holder: HasRng, cards: list[int]) -> None:
    """Shuffles ``cards`` in place (Fisher-Yates)."""
    for index in range(len(cards) - 1, 0, -1):
        other = below(holder, index + 1)
        cards[index], cards[other] = cards[other], cards[index]
