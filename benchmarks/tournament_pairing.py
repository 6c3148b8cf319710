"""Swiss pairing's speed and quality, and a whole simulated Swiss, one core.

For 64, 512 and 4,096 players: a history built by pairing the earlier rounds with the pairer
itself (ceil(log2(players)) rounds in all, random results, about 2% of the players dropping
after each round, one more if need be so that the last round needs a bye), then the time to
pair the last round (the median of BENCH_REPEATS pairings; the goal is under 0.5 s for 4,096
players), and apart the time to compute the standings it is paired from. Beside it, on the
same 64- and 512-player histories, networkx's exact matcher (``max_weight_matching``, maximum
cardinality, then the least score difference, with no edge between players who met, the bye
left out as the pairer left it out) with its time and the ratio. Every pairing is checked:
each active player exactly once, no rematch, no second bye, and its sum of score differences
against the exact optimum where networkx runs and against the parity lower bound everywhere.

Then a whole Swiss of 1,024 players: its ten rounds paired with random results, the final
standings, and the packs of 8-6-5-4-2*-1* for every place, timed (the issue's goal is under
60 s for the whole event with its database; this is the pure part of it).

Times are CPU time of this process (``time.process_time``), so that other work on a shared
machine doesn't count. Never fails on a number.

    .venv/bin/python benchmarks/tournament_pairing.py
    BENCH_FIELDS=64,512 BENCH_REPEATS=3 .venv/bin/python benchmarks/tournament_pairing.py
"""

import itertools
import os
import random
import statistics
import sys
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.pairing import (  # noqa: E402
    SwissPlayer,
    SwissRound,
    pair_swiss,
    parity_lower_bound,
    score_difference,
    swiss_players,
    swiss_round_count,
)
from tournaments.rewards import parse_reward_structure, rewards  # noqa: E402
from tournaments.standings import Bye, Entrant, Result, swiss_standings  # noqa: E402

FIELDS = [int(size) for size in os.environ.get("BENCH_FIELDS", "64,512,4096").split(",")]
REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
EXACT_UP_TO = 512
DROP_CHANCE = 0.02
WHOLE_EVENT = 1024
REWARDS = "8-6-5-4-2*-1*"
SEED = 20261125
# Larger than any sum of score differences here: the exact matcher pairs as many players as
# it can first, and only then minimises the difference.
CARDINALITY_FIRST = 10**9


class Swiss:
    """A Swiss being played: entrants, results, byes and drops, round after round."""

    def __init__(self, players: int, seed: int) -> None:
        self.entrants = [Entrant(player=number) for number in range(1, players + 1)]
        self.results: list[Result] = []
        self.byes: list[Bye] = []
        self.dropped: set[int] = set()
        self.played = 0
        self.rng = random.Random(seed)
        self.seed = seed

    def players(self) -> list[SwissPlayer]:
        return swiss_players(
            entrants=self.entrants,
            results=self.results,
            byes=self.byes,
            dropped=self.dropped,
            seed=self.seed,
        )

    def play(self, pairing: SwissRound) -> None:
        self.played += 1
        for first, second in pairing.pairs:
            winner, loser = (first, second) if self.rng.random() < 0.5 else (second, first)
            self.results.append(Result(round=self.played, winner=winner, loser=loser))
        if pairing.bye is not None:
            self.byes.append(Bye(round=self.played, player=pairing.bye))
        for entrant in self.entrants:
            if self.rng.random() < DROP_CHANCE:
                self.dropped.add(entrant.player)

    def make_active_count_odd(self) -> None:
        active = [e.player for e in self.entrants if e.player not in self.dropped]
        if len(active) % 2 == 0:
            self.dropped.add(active[len(active) // 2])


def exact_optimum(players: list[SwissPlayer], bye: int | None) -> tuple[int | None, float]:
    """networkx's least score difference without a rematch (None if impossible), and its CPU
    time."""
    started = time.process_time()
    paired = [player for player in players if player.player != bye]
    graph = nx.Graph()
    graph.add_nodes_from(player.player for player in paired)
    for first, second in itertools.combinations(paired, 2):
        if second.player not in first.opponents and first.player not in second.opponents:
            difference = abs(first.points - second.points)
            graph.add_edge(first.player, second.player, weight=CARDINALITY_FIRST - difference)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    elapsed = time.process_time() - started
    if 2 * len(matching) < len(paired):
        return None, elapsed
    points = {player.player: player.points for player in paired}
    return sum(abs(points[a] - points[b]) for a, b in matching), elapsed


def check(players: list[SwissPlayer], pairing: SwissRound) -> dict[str, object]:
    """What makes a pairing valid, and its score difference beside the parity lower bound."""
    paired = [player for pair in pairing.pairs for player in pair]
    if pairing.bye is not None:
        paired.append(pairing.bye)
    met = {player.player: player.opponents for player in players}
    had_bye = {player.player for player in players if player.had_bye}
    points = {player.player: player.points for player in players}
    return {
        "each once": sorted(paired) == sorted(points),
        "rematches": sum(1 for first, second in pairing.pairs if second in met[first]),
        "second bye": pairing.bye in had_bye and len(had_bye) < len(players),
        "difference": score_difference(pairing.pairs, points),
        "lower bound": parity_lower_bound(
            [points[player] for player in points if player != pairing.bye]
        ),
    }


def late_round(size: int) -> None:
    swiss = Swiss(size, SEED + size)
    rounds = swiss_round_count(size)
    history_started = time.process_time()
    for _ in range(rounds - 1):
        swiss.play(pair_swiss(swiss.players()))
    swiss.make_active_count_odd()
    history = time.process_time() - history_started
    view_started = time.process_time()
    players = swiss.players()
    view = time.process_time() - view_started
    groups = len({player.points for player in players})

    times = []
    for _ in range(REPEATS):
        started = time.process_time()
        pairing = pair_swiss(players)
        times.append(time.process_time() - started)
    pairer = statistics.median(times)
    quality = check(players, pairing)

    print(
        f"{size:>5} players, round {rounds} of {rounds}: {len(players)} active, "
        f"{len(swiss.dropped)} dropped, {groups} score groups "
        f"(history of {rounds - 1} rounds built in {history:.2f} s)"
    )
    print(
        f"      pairer        {pairer * 1000:8.1f} ms   (median of {REPEATS}; "
        f"min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})"
    )
    print(
        f"      standings     {view * 1000:8.1f} ms   (the ranking and each player's opponents "
        "from the history, what the pairer is given)"
    )
    if size <= EXACT_UP_TO:
        optimum, exact_time = exact_optimum(players, pairing.bye)
        print(
            f"      networkx      {exact_time * 1000:8.1f} ms   "
            f"({exact_time / pairer:,.0f} x the pairer)"
        )
    else:
        optimum = None
    exact = f"exact optimum {optimum}" if size <= EXACT_UP_TO else "exact optimum not run"
    print(
        f"      quality: each active player once {quality['each once']}, "
        f"rematches {quality['rematches']}, second bye {quality['second bye']}, "
        f"bye to {pairing.bye}; score difference {quality['difference']}, "
        f"{exact}, parity lower bound {quality['lower bound']}"
    )


def whole_event() -> None:
    structure = parse_reward_structure(REWARDS)
    swiss = Swiss(WHOLE_EVENT, SEED)
    rounds = swiss_round_count(WHOLE_EVENT)
    pairing_time = 0.0
    valid = True
    started = time.process_time()
    for _ in range(rounds):
        players = swiss.players()
        pairing_started = time.process_time()
        pairing = pair_swiss(players)
        pairing_time += time.process_time() - pairing_started
        quality = check(players, pairing)
        valid &= bool(
            quality["each once"] and not quality["rematches"] and not quality["second bye"]
        )
        swiss.play(pairing)
    standings_started = time.process_time()
    standings = swiss_standings(swiss.entrants, swiss.results, swiss.byes)
    packs = rewards(structure, [standing.player for standing in standings])
    finishing = time.process_time() - standings_started
    total = time.process_time() - started

    paid: dict[int, int] = {}
    for count in packs.values():
        paid[count] = paid.get(count, 0) + 1
    print(
        f"whole Swiss of {WHOLE_EVENT} players: {rounds} rounds in {total:.2f} s "
        f"(pairing {pairing_time:.2f} s, final standings and rewards {finishing * 1000:.0f} ms); "
        f"every round valid {valid}; {len(swiss.dropped)} dropped along the way"
    )
    top = standings[0]
    print(
        f"      winner {top.player} on {top.points} points ({top.wins} wins); "
        f"{REWARDS} pays "
        + ", ".join(f"{count} to {paid[count]}" for count in sorted(paid, reverse=True))
        + f" players: {sum(packs.values())} packs in all"
    )


def main() -> None:
    print(f"Swiss pairing, CPU time, {REPEATS} repeats\n")
    for size in FIELDS:
        late_round(size)
        print()
    whole_event()


if __name__ == "__main__":
    main()
