"""Player ratings (Elo): what a tournament match does to the two players' ratings.

The rulebook's "Understanding the Tournament Information" gives each tournament a K value:
"the weight a tournament will have on your Player Rating. A higher K value means bigger
stakes and larger swings in your rating with each win or loss." A match moves a rating by
K x (score - expected score), rounded to the nearest whole point (halves to even), since
ratings are whole numbers (a new player starts at 1500). The expected score is the usual
logistic curve on a 400-point scale: 400 points ahead, a player expects to win ten games for
each one lost.

The two players' changes always cancel exactly: the change is computed once, from one side,
and the other side gets its opposite, so no rounding can create or destroy rating points.
"""

INITIAL_RATING = 1500
SCORES = (0, 0.5, 1)


def expected(rating: int, opponent: int) -> float:
    """The score a player rated ``rating`` is expected to make against ``opponent``: between 0
    and 1, one half between equals."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def rating_change(rating: int, opponent: int, score: float, k: int) -> int:
    """What a match scored ``score`` (1 a win, 0 a loss, 0.5 a draw) against ``opponent`` adds
    to ``rating`` in a tournament of value ``k``; the opponent's change is its opposite."""
    if score not in SCORES:
        raise ValueError(f"a match scores 0, 0.5 or 1, not {score}")
    if k < 0:
        raise ValueError(f"a K value is never negative, not {k}")
    # Seen from the side that comes first in a fixed order, and negated for the other, so the
    # two changes cancel exactly even where floating point would round them apart.
    if (rating, score) > (opponent, 1 - score):
        return -rating_change(opponent, rating, 1 - score, k)
    return round(k * (score - expected(rating, opponent)))


def rating_after(rating: int, opponent: int, score: float, k: int) -> int:
    """A player's rating after a match scored ``score`` against ``opponent``, K being ``k``."""
    return rating + rating_change(rating, opponent, score, k)


def ratings_after_match(winner: int, loser: int, k: int) -> tuple[int, int]:
    """The new ratings of a match's winner and loser, in that order."""
    change = rating_change(winner, loser, 1, k)
    return winner + change, loser - change
