"""Ratings (tournaments/elo.py), after the rulebook's "Understanding the Tournament
Information" (K: "A higher K value means bigger stakes and larger swings in your rating")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.elo import (
    INITIAL_RATING,
    expected,
    rating_after,
    rating_change,
    ratings_after_match,
)

ratings = st.integers(min_value=100, max_value=3000)
k_values = st.integers(min_value=0, max_value=64)


def test_known_values():
    assert expected(1500, 1500) == 0.5
    assert expected(1900, 1500) == pytest.approx(10 / 11)
    assert rating_after(INITIAL_RATING, 1500, 1, k=32) == 1516
    assert rating_after(1500, 1500, 0, k=32) == 1484
    assert ratings_after_match(1600, 1400, k=32) == (1608, 1392)
    assert ratings_after_match(1400, 1600, k=32) == (1424, 1576)
    assert rating_after(1500, 1500, 0.5, k=32) == 1500


def test_a_higher_k_swings_the_rating_more():
    assert rating_change(1500, 1500, 1, k=16) < rating_change(1500, 1500, 1, k=48)


@given(ratings, ratings, k_values, st.sampled_from([0, 0.5, 1]))
def test_the_two_changes_cancel(rating, opponent, k, score):
    """No rating point is created or destroyed by a match, whatever the rounding."""
    mine = rating_change(rating, opponent, score, k)
    theirs = rating_change(opponent, rating, 1 - score, k)

    assert mine + theirs == 0
    assert rating_after(rating, opponent, score, k) == rating + mine


@given(ratings, ratings, k_values)
def test_a_win_never_costs_and_a_loss_never_pays(winner, loser, k):
    new_winner, new_loser = ratings_after_match(winner, loser, k)

    assert new_winner >= winner
    assert new_loser <= loser
    assert new_winner - winner <= k


def test_refuses_a_score_that_is_not_a_result_and_a_negative_k():
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        rating_change(1500, 1500, 2, k=32)
    with pytest.raises(ValueError, match="never negative"):
        rating_change(1500, 1500, 1, k=-1)
