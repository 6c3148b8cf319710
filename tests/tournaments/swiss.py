"""Builders and checks the Swiss tests share: players, simulated events, the exact reference."""

import itertools
import random
from dataclasses import dataclass, field

import networkx as nx

from tournaments.pairing import SwissPlayer, SwissRound, pair_swiss, swiss_players
from tournaments.standings import Bye, Entrant, Result

# Larger than any score difference a test's pairing can sum to, so that the reference
# matcher first pairs as many players as it can and only then minimises the difference.
CARDINALITY_FIRST = 1_000_000


def player(number: int, points: int = 0, met: tuple[int, ...] = (), bye: bool = False):
    return SwissPlayer(player=number, points=points, opponents=frozenset(met), had_bye=bye)


def rematch_free_optimum(players: list[SwissPlayer]) -> int | None:
    """The least score difference of a pairing of all ``players`` (an even number) without a
    rematch, by networkx's exact matcher; None when every pairing has a rematch."""
    graph = nx.Graph()
    graph.add_nodes_from(p.player for p in players)
    for first, second in itertools.combinations(players, 2):
        if second.player not in first.opponents and first.player not in second.opponents:
            difference = abs(first.points - second.points)
            graph.add_edge(first.player, second.player, weight=CARDINALITY_FIRST - difference)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(players):
        return None
    points = {p.player: p.points for p in players}
    return sum(abs(points[first] - points[second]) for first, second in matching)


def paired_players(pairing: SwissRound) -> list[int]:
    return [*itertools.chain.from_iterable(pairing.pairs), *([pairing.bye] if pairing.bye else [])]


def rematches(pairing: SwissRound, players: list[SwissPlayer]) -> int:
    met = {p.player: p.opponents for p in players}
    return sum(1 for first, second in pairing.pairs if second in met[first])


@dataclass
class Event:
    """A Swiss being played: what the pairer is given, round after round."""

    entrants: list[Entrant]
    results: list[Result] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    dropped: set[int] = field(default_factory=set)
    rounds: list[SwissRound] = field(default_factory=list)

    def players(self, seed: int) -> list[SwissPlayer]:
        """The next round's players as the pairer is given them."""
        return swiss_players(
            entrants=self.entrants,
            results=self.results,
            byes=self.byes,
            dropped=self.dropped,
            seed=seed,
        )

    def pair_next(self, seed: int) -> SwissRound:
        return pair_swiss(self.players(seed))

    def play(self, pairing: SwissRound, rng: random.Random, drop_chance: float) -> None:
        """Random results for a round's pairs, its bye recorded, and a few players dropping."""
        number = len(self.rounds) + 1
        for first, second in pairing.pairs:
            winner, loser = (first, second) if rng.random() < 0.5 else (second, first)
            self.results.append(Result(round=number, winner=winner, loser=loser))
        if pairing.bye is not None:
            self.byes.append(Bye(round=number, player=pairing.bye))
        self.rounds.append(pairing)
        for entrant in self.entrants:
            if rng.random() < drop_chance:
                self.dropped.add(entrant.player)

    def active(self) -> list[int]:
        return [e.player for e in self.entrants if e.player not in self.dropped]


def simulated_event(players: int, rounds: int, seed: int, drop_chance: float = 0.02) -> Event:
    """A Swiss of ``players`` after ``rounds`` rounds paired by the pairer, results at random."""
    rng = random.Random(seed)
    event = Event(entrants=[Entrant(player=n, rating=1500) for n in range(1, players + 1)])
    for _ in range(rounds):
        event.play(event.pair_next(seed), rng, drop_chance)
    return event
