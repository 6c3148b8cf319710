"""Tournament points and standings: who is ahead, and why, in a Swiss or after an elimination.

Scoring (the rulebook's "Scoring"): a win is worth 3 tournament points, a loss 1, and a bye
counts as a 3-point victory. Elimination rounds score nothing: their players are placed by how
far they went.

Swiss standings are ordered by these keys, the first that differs deciding:

1. Tournament points, more first.
2. Opponents' points: the sum of the current points of every opponent met, once per match
   played (a bye has no opponent and adds nothing), more first.
3. Opponents' opponents' points: the sum of key 2 over every opponent met, more first.
4. Rating at entry, higher first.
5. Player id, lower first, so that no two players ever tie.

Keys 2 and 3 are the "strength of schedule tie-breakers" of the rulebook's "Scoring": a player
who met stronger opponents ranks first. A dropped player keeps their place in the standings
(the rulebook's "Dropping From a Tournament": they receive any rewards they have earned), and
their points still count for everyone they met.

Elimination placings (single elimination, and the bracket of a Cut to Top 8): the champion
first, then the players knocked out in a later round before those knocked out earlier, and
among players knocked out in the same round the better seed first.
"""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

WIN_POINTS = 3
LOSS_POINTS = 1
BYE_POINTS = 3


@dataclass(frozen=True)
class Entrant:
    """A player entered in a tournament, with their rating when it started (the last real
    tie-breaker)."""

    player: int
    rating: int = 1500


@dataclass(frozen=True)
class Result:
    """A finished match of a round. Tournament matches have a winner: the game clock decides
    a match that would otherwise not end."""

    round: int
    winner: int
    loser: int


@dataclass(frozen=True)
class Bye:
    """A round a player did not play, counted as a win (the rulebook's "Scoring")."""

    round: int
    player: int


@dataclass(frozen=True)
class Standing:
    """One line of the standings, with every key that placed it."""

    rank: int
    player: int
    points: int
    wins: int
    losses: int
    byes: int
    opponents_points: int
    opponents_opponents_points: int
    rating: int


def swiss_standings(
    entrants: Sequence[Entrant], results: Sequence[Result], byes: Sequence[Bye] = ()
) -> list[Standing]:
    """Every entrant's line, best first, ranked by the keys of this module's docstring."""
    wins: dict[int, int] = defaultdict(int)
    losses: dict[int, int] = defaultdict(int)
    bye_count: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[int]] = defaultdict(list)
    for result in results:
        wins[result.winner] += 1
        losses[result.loser] += 1
        opponents[result.winner].append(result.loser)
        opponents[result.loser].append(result.winner)
    for bye in byes:
        bye_count[bye.player] += 1

    points = {
        entrant.player: WIN_POINTS * wins[entrant.player]
        + LOSS_POINTS * losses[entrant.player]
        + BYE_POINTS * bye_count[entrant.player]
        for entrant in entrants
    }
    opponents_points = {
        player: sum(points[opponent] for opponent in opponents[player]) for player in points
    }
    opponents_opponents_points = {
        player: sum(opponents_points[opponent] for opponent in opponents[player])
        for player in points
    }
    ordered = sorted(
        entrants,
        key=lambda entrant: (
            -points[entrant.player],
            -opponents_points[entrant.player],
            -opponents_opponents_points[entrant.player],
            -entrant.rating,
            entrant.player,
        ),
    )
    return [
        Standing(
            rank=rank,
            player=entrant.player,
            points=points[entrant.player],
            wins=wins[entrant.player],
            losses=losses[entrant.player],
            byes=bye_count[entrant.player],
            opponents_points=opponents_points[entrant.player],
            opponents_opponents_points=opponents_opponents_points[entrant.player],
            rating=entrant.rating,
        )
        for rank, entrant in enumerate(ordered, start=1)
    ]


def elimination_placings(players_by_seed: Sequence[int], results: Sequence[Result]) -> list[int]:
    """The players of an elimination bracket in their final order, as this module's docstring
    says: the one who never lost first, then by the round they lost in (later first), then by
    seed (``players_by_seed[0]`` is seed 1)."""
    knocked_out = {result.loser: result.round for result in results}
    seed = {player: index for index, player in enumerate(players_by_seed)}
    return sorted(
        players_by_seed,
        key=lambda player: (player in knocked_out, -knocked_out.get(player, 0), seed[player]),
    )


def cut_standings(swiss_order: Sequence[int], bracket_placings: Sequence[int]) -> list[int]:
    """The final order of a Cut to Top 8: the bracket's placings, then everyone else in their
    Swiss order."""
    in_bracket = set(bracket_placings)
    return [*bracket_placings, *(player for player in swiss_order if player not in in_bracket)]
