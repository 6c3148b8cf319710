"""Who plays whom: Swiss rounds, seeded single-elimination brackets and the Cut to Top 8.

Swiss (the rulebook's "Tournament Structure" and "Scoring"): each round pairs the active
players, dropped ones left out, by these rules, each one yielding only to those before it:

1. Every active player is paired exactly once, or is the round's one bye when their number is
   odd.
2. The bye goes to a player who has not had one yet (only when everyone has had one may a
   player get a second): the lowest-ranked such player, unless leaving them out makes a
   rematch unavoidable where leaving out another would not; then the lowest-ranked of those
   (in a field of more than 40, of the eight lowest-ranked).
3. No two players meet twice while a pairing without a rematch exists.
4. Players meet players on the same points: the sum, over the pairs, of the difference
   between the two players' points is as small as it can be.
5. Where rules 3 and 4 leave a choice, players of a score group meet in ranking order (1st
   against 2nd, 3rd against 4th), and a group's odd player out is its lowest-ranked one, who
   meets the top of the next group.

Round one has no ranking: its players are shuffled from the round's seed, which makes the
pairing "completely random" (the rulebook's "Tournament Structure") and yet reproducible.

How rules 3 and 4 are met quickly. With points on a line, the cost of a pairing is the sum,
over the gaps between adjacent score levels, of the gap's size times the number of pairs that
cross it. At least one pair crosses a gap with an odd number of players above it, so those
gaps give a lower bound, which pairing neighbours in ranking order reaches when no rematch is
in the way. The pairer works score group by score group from the top, carrying each group's
odd player down to the next, pairs within a group in ranking order and repairs rematches with
alternating paths (a chain of swaps). A pairing without a rematch that reaches the lower bound
is optimal, and is what a Swiss's own histories almost always get. Where the pairing has a
rematch or a pair crossing a gap it need not cross, an exact search re-pairs up to 40 players
around the trouble (the whole field when it is that small), so that in such fields rules 3 and
4 hold exactly. The searches of a round have a bounded number of steps (half a second at
worst): on histories no Swiss produces (most players having met most others) they may stop
short, and the pairing stays valid but may not be the best.

The number of Swiss rounds, when a tournament does not set it, is ceil(log2(players)): the
fewest rounds after which a single player can be undefeated (the rulebook's "Tournament
Structure": "Swiss tournaments with the proper number of rounds have a single undefeated
player at the end").

Single elimination (the rulebook's "Tournament Structure"): players are seeded (seed 1 is the
best) into a bracket whose size is the next power of two, in the standard order where seed 1
meets seed N in round one and seeds 1 and 2 can only meet in the final. Empty places in the
bracket are byes for the top seeds. A Cut to Top 8 plays Swiss rounds, then such a bracket of
the first eight of the Swiss standings.
"""

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from tournaments.standings import Bye, Entrant, Result, swiss_standings

# Where the fast pairing has a rematch or a pair crossing a gap it need not cross, the exact
# search re-pairs up to EXACT_FIELD players around it: the players in trouble and their
# partners, then the pairs nearest to them (the whole field, when it is that small). It does
# so at most TROUBLE_WINDOWS times a field; a search remembers what it solved. All the
# searches of a round share EXACT_SEARCH_STEPS steps (about half a second at worst): once
# they are spent, the pairing found so far stands.
EXACT_FIELD = 40
TROUBLE_WINDOWS = 8
EXACT_SEARCH_STEPS = 300_000
# How many bye candidates, from the lowest-ranked up, a field larger than EXACT_FIELD tries
# when leaving one out forces a rematch (rule 2 of the docstring); a smaller field tries all.
BYE_CANDIDATES = 8
CUT_SIZE = 8


@dataclass(frozen=True)
class SwissPlayer:
    """An active player as the Swiss pairer sees them."""

    player: int
    points: int
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False


@dataclass(frozen=True)
class SwissRound:
    """A round's pairs, the better-ranked player first and table 1 first, and its bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None


@dataclass(frozen=True)
class EliminationRound:
    """A bracket round's pairs in bracket order, and the players who advance without playing."""

    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...] = ()


def swiss_round_count(players: int) -> int:
    """ceil(log2(players)), at least one: the rounds a Swiss needs when none are set."""
    return max(1, (players - 1).bit_length())


def next_swiss_round(
    *,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    byes: Sequence[Bye] = (),
    dropped: Collection[int] = (),
    seed: int,
) -> SwissRound:
    """The next round of a Swiss from what has been played so far (``swiss_players`` says
    who is paired, in which order)."""
    return pair_swiss(
        swiss_players(entrants=entrants, results=results, byes=byes, dropped=dropped, seed=seed)
    )


def swiss_players(
    *,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    byes: Sequence[Bye] = (),
    dropped: Collection[int] = (),
    seed: int,
) -> list[SwissPlayer]:
    """The players to pair next, dropped ones left out, in ranking order: the standings'
    (``tournaments.standings``), or before anything has been played a shuffle decided by
    ``seed`` alone."""
    standings = swiss_standings(entrants, results, byes)
    opponents: dict[int, set[int]] = {standing.player: set() for standing in standings}
    for result in results:
        opponents[result.winner].add(result.loser)
        opponents[result.loser].add(result.winner)
    had_bye = {bye.player for bye in byes}
    players = [
        SwissPlayer(
            player=standing.player,
            points=standing.points,
            opponents=frozenset(opponents[standing.player]),
            had_bye=standing.player in had_bye,
        )
        for standing in standings
        if standing.player not in dropped
    ]
    if not results and not byes:
        # Not for secrets: the tournament stores the seed, so its first round can be re-derived.
        random.Random(seed).shuffle(players)  # noqa: S311
    return players


def pair_swiss(players: Sequence[SwissPlayer]) -> SwissRound:
    """Pair one Swiss round of ``players``, given in ranking order (best first), by the rules
    of this module's docstring. The result depends on nothing but the input."""
    # A stable sort: players on the same points keep their ranking order.
    ranked = sorted(players, key=lambda player: -player.points)
    if len(ranked) % 2 == 0:
        return SwissRound(pairs=tuple(_pair_field(ranked, _Steps()).pairs))
    eligible = [player for player in reversed(ranked) if not player.had_bye] or ranked[::-1]
    if len(ranked) > EXACT_FIELD:
        eligible = eligible[:BYE_CANDIDATES]
    steps = _Steps()
    best_bye, best = eligible[0], _pair_field(_without(ranked, eligible[0]), steps)
    for candidate in eligible[1:]:
        if best.rematches == 0:
            break
        pairing = _pair_field(_without(ranked, candidate), steps)
        if pairing.rematches < best.rematches:
            best_bye, best = candidate, pairing
    return SwissRound(pairs=tuple(best.pairs), bye=best_bye.player)


def score_difference(pairs: Sequence[tuple[int, int]], points: dict[int, int]) -> int:
    """The sum, over the pairs, of the difference between the two players' points (rule 4)."""
    return sum(abs(points[first] - points[second]) for first, second in pairs)


def parity_lower_bound(points: Sequence[int]) -> int:
    """The least score difference any pairing of players with these points can have: the sum
    of the gaps between score levels with an odd number of players above them, which is what
    pairing neighbours in order costs."""
    ordered = sorted(points, reverse=True)
    return sum(ordered[k] - ordered[k + 1] for k in range(0, len(ordered) - 1, 2))


def bracket_order(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` places (a power of two) in bracket order: each pair of
    neighbours meets in round one, and the winners of neighbouring pairs meet next. Seed s meets
    seed size + 1 - s first, and the top seeds are as far apart as they can be."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        last = 2 * len(order) + 1
        order = [seed for better in order for seed in (better, last - better)]
    return order


def seeded_bracket(players_by_seed: Sequence[int]) -> tuple[int | None, ...]:
    """The places of a single-elimination bracket, ``players_by_seed[0]`` being seed 1. The
    bracket has the next power of two places, two at least; an empty place (None) gives its
    neighbour, one of the top seeds, a bye: a scheduled event's lone player wins the final by
    one."""
    if not players_by_seed:
        raise ValueError("a bracket needs a player")
    size = max(2, 1 << (len(players_by_seed) - 1).bit_length())
    return tuple(
        players_by_seed[seed - 1] if seed <= len(players_by_seed) else None
        for seed in bracket_order(size)
    )


def top_cut_bracket(standings_order: Sequence[int]) -> tuple[int | None, ...]:
    """The bracket of a Cut to Top 8: the first eight of the Swiss standings, seeded in order."""
    return seeded_bracket(standings_order[:CUT_SIZE])


def elimination_round(places: Sequence[int | None]) -> EliminationRound:
    """The matches of a bracket round: neighbouring places meet; a player beside an empty place
    advances without playing."""
    pairs: list[tuple[int, int]] = []
    byes: list[int] = []
    for first, second in zip(places[::2], places[1::2], strict=True):
        if first is not None and second is not None:
            pairs.append((first, second))
        elif first is not None:
            byes.append(first)
        elif second is not None:
            byes.append(second)
    return EliminationRound(pairs=tuple(pairs), byes=tuple(byes))


def advance(places: Sequence[int | None], winners: Collection[int]) -> tuple[int | None, ...]:
    """The next round's places: from each pair of neighbouring places, the one who won its
    match or had a bye."""
    following: list[int | None] = []
    for first, second in zip(places[::2], places[1::2], strict=True):
        if first is None or second is None:
            following.append(first if second is None else second)
            continue
        if (first in winners) == (second in winners):
            raise ValueError(f"exactly one of {first} and {second} must have won")
        following.append(first if first in winners else second)
    return tuple(following)


def _without(ranked: list[SwissPlayer], left_out: SwissPlayer) -> list[SwissPlayer]:
    return [player for player in ranked if player is not left_out]


@dataclass(frozen=True)
class _Pairing:
    pairs: list[tuple[int, int]]
    rematches: int


class _OutOfSteps(Exception):
    """The exact search spent its steps: the pairing found so far stands."""


class _Steps:
    """The steps of exact search left to one round's pairing."""

    def __init__(self) -> None:
        self.left = EXACT_SEARCH_STEPS

    def take(self) -> None:
        if self.left <= 0:
            raise _OutOfSteps
        self.left -= 1


def _pair_field(ranked: list[SwissPlayer], steps: _Steps) -> _Pairing:
    """Pair an even number of players sorted by points (best first)."""
    matcher = _Matcher(ranked, steps)
    matcher.pair_by_groups()
    for _ in range(TROUBLE_WINDOWS):
        window = matcher.troubled_window()
        if not window:
            break
        matcher.search_exactly(window)
    return _Pairing(pairs=matcher.pairs(), rematches=matcher.rematches())


class _Matcher:
    """One pairing in the making, over positions 0..n-1 of the ranked players: a matcher per
    call, so that nothing is shared between the threads that pair."""

    def __init__(self, ranked: list[SwissPlayer], steps: _Steps) -> None:
        self.steps = steps
        self.ids = [player.player for player in ranked]
        self.points = [player.points for player in ranked]
        self.met = [player.opponents for player in ranked]
        self.mate = [-1] * len(ranked)
        # Positions an exact search has re-paired as well as they can be.
        self.settled: set[int] = set()

    def compatible(self, first: int, second: int) -> bool:
        return self.ids[second] not in self.met[first] and self.ids[first] not in self.met[second]

    def groups(self) -> list[list[int]]:
        groups: list[list[int]] = []
        for position, points in enumerate(self.points):
            if groups and self.points[groups[-1][0]] == points:
                groups[-1].append(position)
            else:
                groups.append([position])
        return groups

    def pair_by_groups(self) -> None:
        """Pair each score group with the players carried down from above, leaving as few as
        possible (its odd one, ideally) to carry to the next group."""
        carried: list[int] = []
        for group in self.groups():
            pool = carried + group
            self.pair_in_order(pool)
            self.repair(pool, leave=len(pool) % 2)
            carried = [position for position in pool if self.mate[position] < 0]
        if carried:
            # Those left at the bottom found no partner they had not met near their points:
            # look through the whole field before accepting a rematch.
            self.repair(list(range(len(self.ids))), leave=0)
            left = [position for position in range(len(self.ids)) if self.mate[position] < 0]
            for first, second in zip(left[::2], left[1::2], strict=True):
                self.mate[first], self.mate[second] = second, first

    def pair_in_order(self, pool: list[int]) -> None:
        """Each unpaired player, in order, meets the next unpaired one they have not met."""
        mate, compatible = self.mate, self.compatible
        for index, position in enumerate(pool):
            if mate[position] >= 0:
                continue
            for later in range(index + 1, len(pool)):
                partner = pool[later]
                if mate[partner] < 0 and compatible(position, partner):
                    mate[position], mate[partner] = partner, position
                    break

    def repair(self, members: list[int], *, leave: int) -> None:
        """Pair unpaired members along alternating paths until only ``leave`` stay unpaired,
        the better-ranked ones first so that the lowest-ranked float down."""
        free = [position for position in members if self.mate[position] < 0]
        if len(free) <= leave:
            return
        unpaired = set(free)
        for root in free:
            if len(unpaired) <= leave:
                return
            if root in unpaired:
                self.augment(root, members, unpaired)

    def augment(self, root: int, members: list[int], unpaired: set[int]) -> bool:
        """Find a chain root - a = b - c = d ... - z through the members, where "-" is a
        pair that has not met, "=" a current pair and z unpaired, and swap along it.

        It does not shrink odd cycles (Edmonds' blossoms), so it may miss a chain that exists;
        every chain it finds is sound, and a miss is what the exact search is for.
        """
        mate, compatible = self.mate, self.compatible
        reached_through: dict[int, tuple[int, int]] = {}
        visited = {root}
        frontier = [root]
        while frontier:
            current = frontier.pop()
            for other in sorted(unpaired):
                if other not in visited and compatible(current, other):
                    self.swap_along(current, other, reached_through)
                    unpaired.discard(root)
                    unpaired.discard(other)
                    return True
            for partner in members:
                if partner in visited or mate[partner] < 0 or not compatible(current, partner):
                    continue
                displaced = mate[partner]
                if displaced in visited:
                    continue
                visited.update((partner, displaced))
                reached_through[displaced] = (partner, current)
                frontier.append(displaced)
        return False

    def swap_along(
        self, last: int, other: int, reached_through: dict[int, tuple[int, int]]
    ) -> None:
        """Pair ``last`` with ``other``, then each player passed on the way back to the root
        with the one whose partner they took."""
        mate = self.mate
        while True:
            mate[last], mate[other] = other, last
            if last not in reached_through:
                return
            other, last = reached_through[last]

    def rematches(self) -> int:
        return sum(
            1
            for position, partner in enumerate(self.mate)
            if position < partner and not self.compatible(position, partner)
        )

    def pairs(self) -> list[tuple[int, int]]:
        return [
            (self.ids[position], self.ids[partner])
            for position, partner in enumerate(self.mate)
            if position < partner
        ]

    def troubled_window(self) -> list[int]:
        """Positions to re-pair exactly, in ranking order, closed under pairs (every partner
        of a position is in it): a rematch or a pair crossing a gap it need not cross, not yet
        settled, and the pairs nearest to it. Empty when there is none: without any trouble
        the pairing is optimal."""
        size = len(self.ids)
        mate, points = self.mate, self.points
        starts = [0] * (size + 1)
        for position, partner in enumerate(mate):
            if position < partner:
                starts[position] += 1
                starts[partner] -= 1
        crossing = 0
        troubled: list[int] = []
        for boundary in range(size - 1):
            crossing += starts[boundary]
            if (
                points[boundary] != points[boundary + 1]
                and crossing > (boundary + 1) % 2
                and boundary not in self.settled
            ):
                troubled = [boundary, boundary + 1]
                break
        if not troubled:
            troubled = [
                position
                for position, partner in enumerate(mate)
                if not self.compatible(position, partner) and position not in self.settled
            ][:1]
        if not troubled:
            return []
        window: set[int] = set()
        low, high = min(troubled), max(troubled)
        # The troubled place first, then what lies between its ends, then outwards.
        nearest = [*troubled, *range(low, high + 1)]
        for distance in range(1, size):
            nearest.extend(p for p in (low - distance, high + distance) if 0 <= p < size)
        for position in nearest:
            if position in window:
                continue
            if len(window) + 2 > EXACT_FIELD:
                break
            window.update((position, mate[position]))
        return sorted(window)

    def search_exactly(self, window: list[int]) -> None:
        """Re-pair the players of ``window`` (positions in ranking order, closed under pairs)
        as well as they can be: fewer rematches first, then a smaller score difference.

        The search pairs the best-ranked unpaired player with each possible partner, cheapest
        first; it cuts a branch whose cost plus the parity bound of those left can't beat the
        best found, and remembers each set of players it solved or proved can't beat a limit.
        Either way the window is settled: its trouble is what the best pairing of its players
        has, and no later window starts from it.
        """
        self.settled.update(window)
        size = len(window)
        points = [self.points[position] for position in window]
        # A rematch costs more than any pairing without one could.
        rematch_cost = (points[0] - points[-1]) * size + 1
        edge_cost = [
            [
                (0 if self.compatible(window[first], window[second]) else rematch_cost)
                + points[first]
                - points[second]
                for second in range(size)
            ]
            for first in range(size)
        ]
        # Each player's possible partners below them, cheapest first.
        options = [
            sorted((edge_cost[first][second], second) for second in range(first + 1, size))
            for first in range(size)
        ]
        solved: dict[int, tuple[int, int]] = {}
        at_least: dict[int, int] = {}

        # Each score level as a set of players (a bit mask), best first, with the gap to the
        # next level below: the parity bound counts, level by level, who stands above a gap.
        levels: list[tuple[int, int]] = []
        start = 0
        for k in range(size):
            if k + 1 == size or points[k + 1] != points[k]:
                members = (1 << (k + 1)) - (1 << start)
                levels.append((members, points[k] - points[k + 1] if k + 1 < size else 0))
                start = k + 1

        def bound(players: int) -> int:
            total = above = 0
            for members, gap in levels:
                above += (players & members).bit_count()
                if above & 1:
                    total += gap
            return total

        def solve(players: int, limit: int) -> int | None:
            self.steps.take()
            if players == 0:
                return 0 if limit > 0 else None
            if players in solved:
                value = solved[players][0]
                return value if value < limit else None
            if at_least.get(players, 0) >= limit or bound(players) >= limit:
                return None
            first = (players & -players).bit_length() - 1
            others = players & ~(1 << first)
            best, best_partner = limit, -1
            for cost, second in options[first]:
                if cost >= best:
                    break
                if not others >> second & 1:
                    continue
                rest = solve(others & ~(1 << second), best - cost)
                if rest is not None:
                    best, best_partner = cost + rest, second
            if best_partner < 0:
                at_least[players] = max(at_least.get(players, 0), limit)
                return None
            solved[players] = (best, best_partner)
            return best

        index = {position: k for k, position in enumerate(window)}
        current = sum(
            edge_cost[k][index[self.mate[position]]]
            for k, position in enumerate(window)
            if position < self.mate[position]
        )
        everyone = (1 << size) - 1
        try:
            improved = solve(everyone, current) is not None
        except _OutOfSteps:
            improved = False
        if improved:
            players = everyone
            while players:
                first = (players & -players).bit_length() - 1
                second = solved[players][1]
                self.mate[window[first]], self.mate[window[second]] = window[second], window[first]
                players &= ~((1 << first) | (1 << second))
