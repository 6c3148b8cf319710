"""The computer opponents' strength and speed: the search agent's levels against the random
and the greedy agents, and against each other, with the first set's starter decks.

Prints, in one run, a win-rate table (each level against random and against greedy, and the
levels against each other; every pairing plays all twelve ordered matchups of the four
starter decks, the agents swapping seats after each round of twelve, so each plays every deck
from both seats), each win rate with its Wilson 95% confidence interval, the game lengths and
how games were won, then each agent's decision times (p50/p95/p99/max) with the greedy
agent's as the bare baseline measured in the same run. Never fails on a number: the targets
(>= 95% against random, >= 70% against greedy, decision p95 <= 300 ms and p99 <= 1 s) are
printed beside the figures.

Decision times are CPU time of the deciding thread (``time.thread_time``; a decision under
20 µs counts its wall-clock time, ``checked_play.SHORT_DECISION``): what a decision costs on
one core, whatever else a shared machine is running; wall-clock times are printed too.
Game ``i`` of every pairing has the seed ``BENCH_SEED + i``.

    .venv/bin/python benchmarks/ai.py                      # 408 games a target pairing
    BENCH_GAMES=48 BENCH_MUTUAL_GAMES=24 .venv/bin/python benchmarks/ai.py   # a quick look
    BENCH_PROCESSES=2 .venv/bin/python benchmarks/ai.py    # games spread over two processes
"""

import itertools
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.arena import chunks, play_chunk  # noqa: E402
from game.ai.search import LEVELS  # noqa: E402
from game.engine import api  # noqa: E402
from game.engine.simulation import Report, percentile  # noqa: E402

SET_FILE = (
    Path(__file__).resolve().parents[1] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
# 408 = 17 rounds of the 24 (matchup, seat order) combinations: at least 400, all balanced.
GAMES = int(os.environ.get("BENCH_GAMES", "408"))
MUTUAL_GAMES = int(os.environ.get("BENCH_MUTUAL_GAMES", "120"))
SEED = int(os.environ.get("BENCH_SEED", "1"))
PROCESSES = int(os.environ.get("BENCH_PROCESSES", "1"))
TARGETS = {"random": 0.95, "greedy": 0.70}
LEVEL_NAMES = tuple(LEVELS)


def pairings() -> list[tuple[str, str, int]]:
    """(agent 0, agent 1, games): each level against random and greedy, then the levels
    against each other, the stronger first."""
    found = [(level, rival, GAMES) for level in LEVEL_NAMES for rival in ("random", "greedy")]
    found += [
        (stronger, weaker, MUTUAL_GAMES)
        for stronger, weaker in itertools.combinations(reversed(LEVEL_NAMES), 2)
    ]
    return found


def run() -> dict[tuple[str, str], Report]:
    """Every pairing's games, in pieces spread over the processes."""
    jobs = [
        ((first_agent, second_agent), first, count)
        for first_agent, second_agent, games in pairings()
        for first, count in chunks(games)
    ]
    reports = {names: Report() for names, _, _ in jobs}

    def done(names: tuple[str, str], part: Report) -> None:
        reports[names].merge(part)
        print(f"  ... {names[0]} vs {names[1]}: {reports[names].games} games", flush=True)

    if PROCESSES == 1:
        for names, first, count in jobs:
            done(names, play_chunk(names, SET_FILE, first, count, SEED, False))
        return reports
    with ProcessPoolExecutor(PROCESSES) as pool:
        futures = [
            (names, pool.submit(play_chunk, names, SET_FILE, first, count, SEED, False))
            for names, first, count in jobs
        ]
        for names, future in futures:
            done(names, future.result())
    return reports


def engine_build() -> str:
    if api.__file__.endswith(".py"):
        return "the Python sources (`make engine` compiles them)"
    return "the modules compiled by `make engine` (mypyc)"


def main() -> None:
    print("Computer opponents: the search agent's levels (game/ai/search.py)")
    for level, settings in LEVELS.items():
        print(
            f"  {level:<6} {settings.playouts} playouts a decision, at most "
            f"{settings.candidates} candidate actions, horizon {settings.horizon} turn(s)"
        )
    print(f"engine: {engine_build()}; {os.cpu_count()} cores, {PROCESSES} process(es)")
    print(
        f"games: {GAMES} a pairing with a target, {MUTUAL_GAMES} a pairing of levels; "
        f"game i has seed {SEED} + i (seeds {SEED}..{SEED + max(GAMES, MUTUAL_GAMES) - 1}); "
        "12 ordered matchups of the 4 starter decks, seats swapped every 12 games"
    )
    started = time.perf_counter()
    reports = run()
    elapsed = time.perf_counter() - started

    print()
    print("Win rates (agent 0's share of the games, Wilson 95% CI)")
    header = (
        f"  {'agent 0':<7} {'agent 1':<7} {'games':>5} {'wins':>5} {'rate':>7} "
        f"{'95% CI':>15} {'target':>7}  {'turns':>5}  won by"
    )
    print(header)
    for (first, second), report in reports.items():
        rate, low, high = report.win_rate(0)
        target = TARGETS.get(second)
        verdict = (
            ""
            if target is None
            else f">={100 * target:.0f}% " + ("met" if rate >= target else "MISSED")
        )
        reasons = ", ".join(
            f"{reason} {count}" for reason, count in report.win_reasons.most_common()
        )
        print(
            f"  {first:<7} {second:<7} {report.games:>5} {report.wins_by_agent[0]:>5} "
            f"{100 * rate:>6.1f}% {100 * low:>6.1f}-{100 * high:>5.1f}% {verdict:>11}  "
            f"{report.mean_turns:>5.1f}  {reasons}"
        )
        if report.violations:
            print(f"    invariant violations: {len(report.violations)}: {report.violations[:3]}")

    print()
    print("Game length (turns, counting both players'; actions applied)")
    for (first, second), report in reports.items():
        print(
            f"  {first:<7} vs {second:<7} mean {report.mean_turns:5.1f} turns, median "
            f"{percentile(report.turns, 0.5):3.0f}, 5-95% {percentile(report.turns, 0.05):3.0f}-"
            f"{percentile(report.turns, 0.95):3.0f}; mean "
            f"{sum(report.actions) / len(report.actions):4.0f} actions"
        )

    print()
    print("Decision times, every decision of every game above (CPU ms of the deciding thread)")
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    for names, report in reports.items():
        for agent, name in enumerate(names):
            cpu.setdefault(name, []).extend(report.decision_seconds.get(agent, []))
            wall.setdefault(name, []).extend(report.decision_wall_seconds.get(agent, []))
    baseline = percentile(cpu["greedy"], 0.5) if cpu.get("greedy") else 0.0
    for name in (*LEVEL_NAMES, "greedy", "random"):
        samples = [1000 * sample for sample in cpu.get(name, [])]
        walls = [1000 * sample for sample in wall.get(name, [])]
        if not samples:
            continue
        p50, p95, p99 = (percentile(samples, share) for share in (0.5, 0.95, 0.99))
        speed = ""
        if name in LEVELS:
            met = p95 <= 300 and p99 <= 1000
            speed = f"  target p95<=300 p99<=1000: {'met' if met else 'MISSED'}"
        ratio = (
            f"  p50 x{p50 / (1000 * baseline):.0f} greedy's" if baseline and name in LEVELS else ""
        )
        print(
            f"  {name:<7} p50 {p50:7.2f}  p95 {p95:7.2f}  p99 {p99:7.2f}  max {max(samples):7.1f}"
            f"  mean {sum(samples) / len(samples):6.2f}  ({len(samples)} decisions; wall p50 "
            f"{percentile(walls, 0.5):.2f} p95 {percentile(walls, 0.95):.2f} p99 "
            f"{percentile(walls, 0.99):.2f}){speed}{ratio}"
        )
    print()
    print(f"{sum(report.games for report in reports.values())} games in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
