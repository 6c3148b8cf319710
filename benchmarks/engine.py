"""The rules engine's speed: random against random whole games with the starter decks, one core.

Prints games per second, the p50/p99 of ``apply`` and ``legal_actions``, the size of the
serialized state, and beside them a bare baseline measured in the same run (``json.dumps`` of
the state, and an empty call) with the ratios. Then ``manage.py simulate``'s games (random
against random, with every invariant checked after every action and each game replayed)
beside the bare game loop playing the same games with the same agents and seeds, unchecked,
and the ratio of their speeds. Never fails on a number.

Times are CPU time of this process (``time.process_time``, ``time.thread_time``), so that other
work on a shared machine doesn't count; games per wall-clock second are printed too.

    .venv/bin/python benchmarks/engine.py            # BENCH_GAMES=200 by default
    ENGINE_SOURCES=1 .venv/bin/python benchmarks/engine.py   # the Python sources instead
"""

import itertools
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import arena  # noqa: E402
from game.ai.agents import RandomAgent  # noqa: E402
from game.engine import api  # noqa: E402
from game.engine.decklists import starter_decklists  # noqa: E402
from game.engine.simulation import TURN_CAP, simulate  # noqa: E402
from game.engine.state import to_dict  # noqa: E402

GAMES = int(os.environ.get("BENCH_GAMES", "200"))
SET_FILE = (
    Path(__file__).resolve().parents[1] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
TARGETS = {
    "games per second": ">= 100",
    "p99": "< 1 ms",
    "state size": "< 64 KB",
    "simulate": ">= 0.6",
}
SIMULATE_SEED = 1


def matchups() -> list[list[dict]]:
    decks = starter_decklists(SET_FILE)
    return [[decks[a], decks[b]] for a, b in itertools.permutations(sorted(decks), 2)]


def play(decklists: list[dict], seed: int) -> api.State:
    state = api.new_game(decklists, seed)
    agent = RandomAgent(seed)
    while state.winner is None:
        api.apply(state, agent.choose(state, api.legal_actions(state)))
    return state


def engine_build() -> str:
    """Whether the modules measured are the ones ``make engine`` compiled, or the sources."""
    if api.__file__.endswith(".py"):
        return "the Python sources (`make engine` compiles them; ENGINE_SOURCES=1 forces them)"
    return "the modules compiled by `make engine` (mypyc)"


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def micros(samples: list[float]) -> str:
    return f"p50 {percentile(samples, 0.5):7.1f} µs   p99 {percentile(samples, 0.99):7.1f} µs"


def measure_throughput(pairs: list[list[dict]]) -> tuple[float, float, float]:
    """Games per CPU second, games per wall-clock second, and mean turns a game."""
    wall, cpu = time.perf_counter(), time.process_time()
    turns = 0
    for seed in range(GAMES):
        turns += play(pairs[seed % len(pairs)], seed).turn
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return GAMES / cpu, GAMES / wall, turns / GAMES


def measure_calls(pairs: list[list[dict]]) -> dict[str, list[float]]:
    """Every call timed on its own, in a second pass over the same games."""
    samples = {"legal_actions": [], "apply": [], "json.dumps": [], "empty call": [], "size": []}
    clock = time.thread_time

    def nothing(state, action):
        return None

    for seed in range(GAMES):
        state = api.new_game(pairs[seed % len(pairs)], seed)
        agent = RandomAgent(seed)
        while state.winner is None:
            start = clock()
            decision = api.legal_actions(state)
            samples["legal_actions"].append((clock() - start) * 1e6)
            action = agent.choose(state, decision)
            start = clock()
            nothing(state, action)
            samples["empty call"].append((clock() - start) * 1e6)
            start = clock()
            api.apply(state, action)
            samples["apply"].append((clock() - start) * 1e6)
            if state.step == "main":
                start = clock()
                text = json.dumps(to_dict(state), separators=(",", ":"))
                samples["json.dumps"].append((clock() - start) * 1e6)
                samples["size"].append(len(text.encode()))
    return samples


def bare_game(pairs: list[list[dict]], index: int) -> int:
    """Game ``index`` of a ``manage.py simulate`` run of random against random, as bare as it
    gets: no check, no timing, no replay. Returns its turns."""
    game_seed = SIMULATE_SEED + index
    state = api.new_game(pairs[index % len(pairs)], game_seed)
    # The seeds ``simulate`` gives each seat's agent.
    players = [RandomAgent(game_seed * 2 + seat) for seat in range(2)]
    while state.winner is None and state.turn <= TURN_CAP:
        decision = api.legal_actions(state)
        api.apply(state, players[decision.seat].choose(state, decision))
    return state.turn


def measure_simulate() -> tuple[float, float, bool]:
    """CPU seconds of the bare game loop and of ``simulate`` over the same games, and whether
    they were the same games and without violation. The two take turns by rounds of 24 games,
    so that both meet a shared machine at the same speed."""
    pairs = arena.matchups(starter_decklists(SET_FILE))
    bare = checked = 0.0
    same = True
    for first, count in arena.chunks(GAMES):
        start = time.process_time()
        turns = [bare_game(pairs, index) for index in range(first, first + count)]
        bare += time.process_time() - start
        start = time.process_time()
        report = simulate(
            count,
            SIMULATE_SEED,
            [RandomAgent, RandomAgent],
            pairs,
            first_game=first,
            swap_seats=True,
        )
        checked += time.process_time() - start
        same = same and report.turns == turns and not report.violations
    return bare, checked, same


def main() -> None:
    pairs = matchups()
    games_per_second, games_per_wall_second, mean_turns = measure_throughput(pairs)
    samples = measure_calls(pairs)
    dumps_p99 = percentile(samples["json.dumps"], 0.99)
    print(f"Engine: {GAMES} random-vs-random games, {len(pairs)} starter-deck matchups, one core")
    print(f"  running              {engine_build()}")
    print(
        f"  games per second     {games_per_second:9.1f}   (target {TARGETS['games per second']};"
        f" {games_per_wall_second:.1f} per wall-clock second; {mean_turns:.1f} turns a game)"
    )
    print(f"  actions per game     {len(samples['apply']) / GAMES:9.1f}")
    print(
        f"  legal_actions        {micros(samples['legal_actions'])}   (target p99 {TARGETS['p99']})"
    )
    print(f"  apply                {micros(samples['apply'])}   (target p99 {TARGETS['p99']})")
    sizes = samples["size"]
    print(
        f"  state JSON size      mean {statistics.mean(sizes) / 1024:.1f} KB   "
        f"max {max(sizes) / 1024:.1f} KB   (target {TARGETS['state size']})"
    )
    print("Baseline, same run:")
    print(f"  json.dumps(state)    {micros(samples['json.dumps'])}")
    print(f"  empty call           {micros(samples['empty call'])}")
    print("Ratios (p99):")
    for name in ("legal_actions", "apply"):
        ratio = percentile(samples[name], 0.99) / dumps_p99
        print(f"  {name:<20} {ratio:5.2f} × json.dumps(state)")
    bare, checked, same = measure_simulate()
    print(
        f"manage.py simulate beside the bare game loop, same run: {GAMES} random-vs-random games, "
        "CPU time"
    )
    print(
        f"  bare loop            {GAMES / bare:9.1f} games per second   (new_game, "
        "legal_actions, apply)"
    )
    print(
        f"  simulate             {GAMES / checked:9.1f} games per second   (and every invariant "
        "after every action, and each game replayed)"
    )
    print(
        f"  ratio                {bare / checked:9.3f} × the bare loop     (target "
        f"{TARGETS['simulate']}; same games, no violation: {'yes' if same else 'NO'})"
    )


if __name__ == "__main__":
    main()
