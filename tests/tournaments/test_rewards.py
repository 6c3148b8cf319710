"""Reward structures (tournaments/rewards.py), after the rulebook's "Reward Structure"."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.rewards import (
    InvalidRewardStructure,
    RewardStructure,
    Tier,
    parse_reward_structure,
    rewards,
)


def test_the_rulebooks_eight_player_example():
    """The rulebook's "Reward Structure": with 5-4-3-2-1* "for an eight-player tournament, the
    winner receives five booster packs [...], second place receives four packs, third receives
    three, fourth receives two, and all other players receive one"."""
    structure = parse_reward_structure("5-4-3-2-1*")

    assert structure.packs_by_place(8) == (5, 4, 3, 2, 1, 1, 1, 1)


def test_the_rulebooks_large_scale_example():
    """The rulebook's "Reward Structure": in 8-6-5-4-2*-1* "the 2* is [...] the rest of the top
    half of players in the tournament [...] The final 1* would be the rest of all players"."""
    structure = parse_reward_structure("8-6-5-4-2*-1*")

    assert structure.tiers == (
        Tier(8),
        Tier(6),
        Tier(5),
        Tier(4),
        Tier(2, starred=True),
        Tier(1, starred=True),
    )
    assert structure.packs_by_place(20) == (8, 6, 5, 4) + (2,) * 6 + (1,) * 10
    assert structure.packs_by_place(9) == (8, 6, 5, 4, 2, 1, 1, 1, 1)
    assert structure.packs_by_place(8) == (8, 6, 5, 4, 1, 1, 1, 1)
    assert structure.packs_by_place(3) == (8, 6, 5)


def test_without_a_star_the_places_after_the_tiers_earn_nothing():
    assert parse_reward_structure("3-1").packs_by_place(4) == (3, 1, 0, 0)


def test_a_zero_last_starred_tier_leaves_the_bottom_half_out():
    assert parse_reward_structure("3-2-1*-0*").packs_by_place(8) == (3, 2, 1, 1, 0, 0, 0, 0)


def test_rewards_follow_the_final_order():
    structure = parse_reward_structure("5-4-3-2-1*")

    assert rewards(structure, [40, 10, 30, 20, 50]) == {40: 5, 10: 4, 30: 3, 20: 2, 50: 1}


def test_a_structure_writes_back_as_staff_wrote_it():
    assert str(parse_reward_structure(" 8-6-5-4-2*-1* ")) == "8-6-5-4-2*-1*"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "can't be empty"),
        ("   ", "can't be empty"),
        ("5--4", "is empty"),
        ("-5", "is empty"),
        ("5-4-", "is empty"),
        ("5-a-1*", "whole number of packs"),
        ("5.5", "whole number of packs"),
        ("five", "whole number of packs"),
        ("5-٣", "whole number of packs"),
        ("5 - 4", "whole number of packs"),
        ("*5", "at its end"),
        ("5*4", "at its end"),
        ("5**", "at its end"),
        ("5*-4", "before a plain one"),
        ("5-4*-3-2*", "before a plain one"),
        ("3*-2*-1*", "at most two"),
        ("0", "pays no packs"),
        ("5-0-1*", "pays no packs"),
        ("3-0*", "pays no packs"),
        ("3-0*-0*", "pays no packs"),
        ("1-5", "pays more than tier 1"),
        ("3-1*-2*", "pays more than tier 2"),
    ],
)
def test_refuses_what_staff_cant_mean(text, reason):
    with pytest.raises(InvalidRewardStructure, match=reason):
        parse_reward_structure(text)


def test_a_refusal_is_a_value_error():
    assert issubclass(InvalidRewardStructure, ValueError)


@st.composite
def structures(draw):
    packs = sorted(draw(st.lists(st.integers(1, 12), min_size=1, max_size=8)), reverse=True)
    stars = draw(st.integers(0, min(2, len(packs))))
    return RewardStructure(
        tiers=tuple(
            Tier(count, starred=index >= len(packs) - stars) for index, count in enumerate(packs)
        )
    )


@given(structures(), st.integers(min_value=0, max_value=200))
def test_every_place_is_paid_once_and_never_more_than_a_higher_place(structure, players):
    packs = structure.packs_by_place(players)

    assert len(packs) == players
    assert list(packs) == sorted(packs, reverse=True)
    assert parse_reward_structure(str(structure)) == structure
