"""Swiss pairing (tournaments/pairing.py), after the rulebook's "Tournament Structure" (Swiss)
and "Scoring" (3 points a win, 1 a loss, the bye)."""

import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from tests.tournaments.swiss import (
    paired_players,
    player,
    rematch_free_optimum,
    rematches,
    simulated_event,
)
from tournaments.pairing import (
    SwissPlayer,
    next_swiss_round,
    pair_swiss,
    parity_lower_bound,
    score_difference,
    swiss_round_count,
)
from tournaments.standings import Entrant, Result


def test_round_one_is_a_shuffle_decided_by_the_seed():
    """The rulebook's "Tournament Structure": "In the first round of a Swiss tournament the
    pairings will be completely random"; the same seed gives the same round, another seed another
    one."""
    entrants = [Entrant(player=n) for n in range(1, 17)]

    first = next_swiss_round(entrants=entrants, results=[], seed=7)
    again = next_swiss_round(entrants=entrants, results=[], seed=7)
    other = next_swiss_round(entrants=entrants, results=[], seed=8)

    assert first == again
    assert first.pairs != other.pairs
    assert sorted(paired_players(first)) == list(range(1, 17))


def test_winners_meet_winners_and_losers_meet_losers():
    """The rulebook's "Tournament Structure": "In the second round, winners will be paired with
    winners and losers will be paired with losers"."""
    entrants = [Entrant(player=n) for n in range(1, 9)]
    results = [Result(1, 1, 2), Result(1, 3, 4), Result(1, 5, 6), Result(1, 7, 8)]

    pairing = next_swiss_round(entrants=entrants, results=results, seed=1)

    winners = {1, 3, 5, 7}
    for first, second in pairing.pairs:
        assert (first in winners) == (second in winners)
    assert pairing.bye is None


def test_a_group_meets_in_ranking_order():
    players = [player(n, points=6) for n in range(1, 7)]

    assert pair_swiss(players).pairs == ((1, 2), (3, 4), (5, 6))


def test_a_groups_odd_player_meets_the_top_of_the_next_group():
    players = [player(1, 9), player(2, 9), player(3, 9), player(4, 7), player(5, 7), player(6, 7)]

    assert pair_swiss(players).pairs == ((1, 2), (3, 4), (5, 6))


def test_the_bye_goes_to_the_lowest_ranked_player():
    """The rulebook's "Scoring": "If there is an odd number of players as a round begins, the
    player with the lowest number of points will receive a Bye if he has not already received
    one"."""
    players = [player(1, 9), player(2, 7), player(3, 5), player(4, 5), player(5, 3)]

    pairing = pair_swiss(players)

    assert pairing.bye == 5
    assert pairing.pairs == ((1, 2), (3, 4))


def test_the_bye_passes_over_a_player_who_already_had_one():
    players = [player(1, 9), player(2, 7), player(3, 5), player(4, 5), player(5, 3, bye=True)]

    pairing = pair_swiss(players)

    assert pairing.bye == 4
    assert pairing.pairs == ((1, 2), (3, 5))


def test_a_second_bye_only_when_everyone_has_had_one():
    players = [player(n, 6, bye=True) for n in range(1, 4)]

    assert pair_swiss(players).bye == 3


def test_the_bye_moves_up_when_leaving_the_lowest_out_would_force_a_rematch():
    """Players 1 and 2 met: the bye for player 3 would leave them only each other."""
    players = [player(1, 6, met=(2,)), player(2, 4, met=(1,)), player(3, 4)]

    pairing = pair_swiss(players)

    assert pairing.bye == 2
    assert pairing.pairs == ((1, 3),)


def test_no_rematch_while_one_can_be_avoided():
    """The rulebook's "Tournament Structure": "players are paired with opponents they have not
    yet faced"."""
    players = [player(1, 4, met=(2,)), player(2, 4, met=(1,)), player(3, 4), player(4, 4)]

    assert pair_swiss(players).pairs == ((1, 3), (2, 4))


def test_a_rematch_rather_than_an_unpaired_player():
    players = [player(1, 4, met=(2,)), player(2, 4, met=(1,))]

    assert pair_swiss(players).pairs == ((1, 2),)


def test_a_rematch_avoided_by_pairing_across_score_groups():
    """No rematch outranks the score difference: 1 and 2 met, so each meets a player on
    fewer points."""
    players = [player(1, 9, met=(2,)), player(2, 9, met=(1,)), player(3, 7), player(4, 7)]

    pairing = pair_swiss(players)

    assert pairing.pairs == ((1, 3), (2, 4))
    assert score_difference(pairing.pairs, {1: 9, 2: 9, 3: 7, 4: 7}) == 4


def test_dropped_players_are_never_paired():
    """The rulebook's "Dropping From a Tournament": a player who drops plays no further round."""
    entrants = [Entrant(player=n) for n in range(1, 8)]
    results = [Result(1, 1, 2), Result(1, 3, 4), Result(1, 5, 6)]

    pairing = next_swiss_round(entrants=entrants, results=results, dropped={3, 6}, seed=1)

    assert sorted(paired_players(pairing)) == [1, 2, 4, 5, 7]


def test_the_rounds_a_swiss_needs():
    """ceil(log2(players)), the rounds after which one player alone can be undefeated."""
    assert [swiss_round_count(n) for n in (1, 2, 3, 8, 9, 64, 1000, 1024, 4096)] == [
        1,
        1,
        2,
        3,
        4,
        6,
        10,
        10,
        12,
    ]


def test_the_parity_lower_bound():
    """Gaps with an odd number of players above them: 9|7 (one above) and 5|3 (three)."""
    assert parity_lower_bound([9, 7, 7, 5, 3, 3]) == 2 + 2


@st.composite
def fields(draw, most: int = 14):
    """A field with any history: points, who met whom and who had a bye, all at random (no
    Swiss produces some of them, which makes them harder)."""
    size = draw(st.integers(min_value=1, max_value=most))
    numbers = list(range(1, size + 1))
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.6]))
    met: dict[int, set[int]] = {n: set() for n in numbers}
    for first in numbers:
        for second in numbers[first:]:
            if rng.random() < density:
                met[first].add(second)
                met[second].add(first)
    players = [
        player(n, points=rng.randint(2, 8) * 2 + 1, met=tuple(met[n]), bye=rng.random() < 0.3)
        for n in numbers
    ]
    return sorted(players, key=lambda p: -p.points)


def assert_valid(pairing, players: list[SwissPlayer]) -> None:
    """Everyone paired exactly once or the bye, and the bye only if it must be."""
    assert sorted(paired_players(pairing)) == sorted(p.player for p in players)
    assert (pairing.bye is not None) == (len(players) % 2 == 1)
    if pairing.bye is not None:
        had_bye = {p.player for p in players if p.had_bye}
        assert pairing.bye not in had_bye or had_bye == {p.player for p in players}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_every_player_paired_once_with_no_avoidable_rematch_at_the_least_difference(players):
    """Checked against networkx's exact matcher: no rematch while a pairing without one exists
    (for some allowed bye), and then the least sum of score differences for the chosen bye."""
    pairing = pair_swiss(players)

    assert_valid(pairing, players)
    left = [p for p in players if p.player != pairing.bye]
    optimum = rematch_free_optimum(left)
    if optimum is not None:
        assert rematches(pairing, players) == 0
        points = {p.player: p.points for p in players}
        assert score_difference(pairing.pairs, points) == optimum
    else:
        allowed_byes = [p for p in players if not p.had_bye] or players
        for bye in allowed_byes if len(players) % 2 else []:
            assert rematch_free_optimum([p for p in players if p is not bye]) is None


@settings(max_examples=150, deadline=None)
@given(fields())
def test_the_same_field_always_gets_the_same_pairing(players):
    """No hidden randomness: the pairing depends on the input alone."""
    assert pair_swiss(players) == pair_swiss([SwissPlayer(**vars(p)) for p in players])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=9, max_value=64),
    played=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
@example(size=9, played=4, seed=1)  # a drop left 8 players with no rematch-free round
def test_a_swiss_round_reaches_the_exact_optimum(size, played, seed):
    """Histories a Swiss produces (random results, a few drops): the next round is valid and,
    where a round without a rematch exists (a small field that lost a player late may have
    none), it has no rematch and the least score difference networkx's exact matcher finds."""
    event = simulated_event(size, min(played, swiss_round_count(size)), seed, drop_chance=0.03)
    players = event.players(seed)

    pairing = pair_swiss(players)

    assert_valid(pairing, players)
    optimum = rematch_free_optimum([p for p in players if p.player != pairing.bye])
    assume(optimum is not None)
    assert rematches(pairing, players) == 0
    assert score_difference(pairing.pairs, {p.player: p.points for p in players}) == optimum


def dense_field(size: int, seed: int) -> list[SwissPlayer]:
    """A field where each player has met about half the others: the exact search's work."""
    rng = random.Random(seed)
    met: dict[int, set[int]] = {n: set() for n in range(1, size + 1)}
    for first in met:
        for second in range(first + 1, size + 1):
            if rng.random() < 0.5:
                met[first].add(second)
                met[second].add(first)
    players = [player(n, rng.randint(0, 6) * 2, tuple(met[n])) for n in met]
    return sorted(players, key=lambda p: -p.points)


def test_pairing_on_many_threads_at_once_gives_what_one_thread_does():
    """docs/design.md, "How code is written": pure logic runs on many threads at once, so it keeps
    no state between calls."""
    fields = [simulated_event(96, 4, seed).players(seed) for seed in range(4)]
    fields += [dense_field(31, seed) for seed in range(4)]
    alone = [pair_swiss(players) for players in fields]

    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(pair_swiss, fields * 4))

    assert together == alone * 4


def test_a_whole_swiss_of_1024_players_stays_valid_round_after_round():
    """Ten rounds with random results and drops: every round pairs each active player once (or
    gives the one bye), never twice the same pair, never a second bye, always at the parity
    lower bound of the score difference."""
    event = simulated_event(1024, 0, seed=2024)
    rng = random.Random(2024)
    met: set[frozenset[int]] = set()
    for _ in range(swiss_round_count(1024)):
        players = event.players(seed=2024)
        pairing = pair_swiss(players)

        assert_valid(pairing, players)
        assert set(paired_players(pairing)) == set(event.active())
        pairs = {frozenset(pair) for pair in pairing.pairs}
        assert not pairs & met
        met |= pairs
        points = {p.player: p.points for p in players}
        left = [points[p] for p in points if p != pairing.bye]
        assert score_difference(pairing.pairs, points) == parity_lower_bound(left)
        event.play(pairing, rng, drop_chance=0.01)

    assert max(Counter(bye.player for bye in event.byes).values()) == 1
