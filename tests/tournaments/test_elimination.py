"""Single elimination and the Cut to Top 8 (tournaments/pairing.py, tournaments/standings.py),
after the rulebook's "Tournament Structure" (Single Elimination) and "Tournament Style" (Cut
to Top 8)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import (
    advance,
    bracket_order,
    elimination_round,
    seeded_bracket,
    top_cut_bracket,
)
from tournaments.standings import Result, cut_standings, elimination_placings


def test_seed_one_meets_the_last_seed_and_seeds_one_and_two_sit_in_opposite_halves():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(2) == [1, 2]


@given(st.integers(min_value=0, max_value=9))
def test_the_better_seed_always_wins_means_the_top_seeds_meet_last(power):
    """Seeds s and size + 1 - s meet first; if the better seed always wins, every round's
    survivors are the top seeds and the final is seed 1 against seed 2."""
    size = 2**power
    places: tuple[int | None, ...] = tuple(bracket_order(size))
    while len(places) > 1:
        matches = elimination_round(places)
        survivors = len(places) // 2
        assert all(first + second == len(places) + 1 for first, second in matches.pairs)
        places = advance(places, {min(pair) for pair in matches.pairs})
        assert sorted(places) == list(range(1, survivors + 1))
    assert places == (1,)


def test_a_field_short_of_a_power_of_two_gives_the_top_seeds_byes():
    """Six players in a bracket of eight: seeds 1 and 2 advance without playing."""
    places = seeded_bracket([11, 12, 13, 14, 15, 16])

    first_round = elimination_round(places)

    assert places == (11, None, 14, 15, 12, None, 13, 16)
    assert first_round.byes == (11, 12)
    assert first_round.pairs == ((14, 15), (13, 16))


@given(st.integers(min_value=2, max_value=300))
def test_every_player_plays_or_has_a_bye_and_only_top_seeds_have_byes(field):
    players = list(range(100, 100 + field))

    first_round = elimination_round(seeded_bracket(players))

    playing = [p for pair in first_round.pairs for p in pair]
    assert sorted(playing + list(first_round.byes)) == players
    assert sorted(first_round.byes) == players[: len(first_round.byes)]
    size = 1 << (field - 1).bit_length()
    assert len(first_round.byes) == size - field


def test_advance_takes_the_winner_of_each_match_and_each_bye():
    places = seeded_bracket([1, 2, 3, 4, 5, 6])

    following = advance(places, winners={5, 3})

    assert following == (1, 5, 2, 3)


def test_advance_refuses_a_match_without_exactly_one_winner():
    with pytest.raises(ValueError, match="exactly one"):
        advance((1, 2), winners={1, 2})
    with pytest.raises(ValueError, match="exactly one"):
        advance((1, 2), winners=set())


def test_a_bracket_needs_a_player_and_a_power_of_two():
    with pytest.raises(ValueError):
        seeded_bracket([])
    with pytest.raises(ValueError):
        bracket_order(6)


def test_a_lone_player_s_bracket_gives_them_the_final_by_a_bye():
    """Tournament Start Triggers: a scheduled event starts "no matter how many players"."""
    places = seeded_bracket([7])

    assert places == (7, None)
    assert elimination_round(places).byes == (7,)
    assert advance(places, winners=set()) == (7,)


def test_placings_by_the_round_a_player_lost_then_seed():
    """Champion, runner-up, the semi-final losers by seed, then the quarter-final losers."""
    seeds = [1, 2, 3, 4, 5, 6, 7, 8]
    results = [
        Result(1, 1, 8),
        Result(1, 5, 4),
        Result(1, 2, 7),
        Result(1, 6, 3),
        Result(2, 5, 1),
        Result(2, 2, 6),
        Result(3, 2, 5),
    ]

    assert elimination_placings(seeds, results) == [2, 5, 1, 6, 3, 4, 7, 8]


def test_cut_to_top_8_seeds_the_first_eight_and_places_the_rest_by_swiss_standings():
    """The rulebook's "Cut to Top 8": Swiss rounds "identify the top 8 players", who then play "a
    single elimination bracket tournament to determine the winner of the entire event"."""
    swiss_order = list(range(1, 13))

    bracket = top_cut_bracket(swiss_order)

    assert bracket == (1, 8, 4, 5, 2, 7, 3, 6)
    assert cut_standings(swiss_order, [3, 1, 2, 4, 5, 6, 7, 8]) == [
        3,
        1,
        2,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        11,
        12,
    ]
