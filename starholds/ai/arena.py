"""Whole Starholds games between computer agents, every invariant checked after every action:
what ``manage.py simulate --game starholds`` plays and prints.

A run of ``games`` games for ``players`` seats deals the first set's starter decks round the
table (game ``i`` gives seat ``s`` the deck ``(i + s) % 4``) and rotates the agents the same way,
so every agent plays every deck from every seat. Game ``i`` has the seed ``seed + i``: a game of
a run replays alone from its seed.
"""

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from gamekit.winrates import wilson_interval
from starholds.ai.agents import Agent, GreedyAgent, RandomAgent
from starholds.engine import api, invariants
from starholds.engine.decks import decklist
from starholds.engine.vocabulary import load_set

FIRST_SET = Path(__file__).resolve().parents[1] / "sets" / "01_sundered-reach.json"

# Agents by name, each made from its seed and the set's printed cards.
AGENTS: Mapping[str, Callable[[int, list[dict]], Agent]] = MappingProxyType(
    {
        "random": lambda seed, cards: RandomAgent(seed),
        "greedy": lambda seed, cards: GreedyAgent(cards),
    }
)
# The stall rule ends every game after its round limit; a game still running after this many
# actions means the engine lets a turn run on forever, which is a violation.
ACTION_CAP = 100_000
# Games handed to a process at a time.
CHUNK = 25


class InvalidRun(ValueError):
    """A run that cannot be played: an unknown agent, or a table of the wrong size."""


@dataclass
class Report:
    """What a run found. Agents are numbered as they were given (agent 0 is the first name),
    whichever seat they sat in."""

    agents: tuple[str, ...] = ()
    players: int = 0
    games: int = 0
    seconds: float = 0.0
    # CPU time of the processes that played the games: what a run costs on a machine other
    # work shares, where its wall-clock time says more about the others.
    cpu_seconds: float = 0.0
    rounds: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    endings: Counter = field(default_factory=Counter)  # the engine's result of each game
    wins_by_agent: Counter = field(default_factory=Counter)  # None: drawn games
    seats_by_agent: Counter = field(default_factory=Counter)  # seats each agent played
    violations: list[str] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def games_per_cpu_second(self) -> float:
        return self.games / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def mean_rounds(self) -> float:
        return sum(self.rounds) / len(self.rounds) if self.rounds else 0.0

    def merge(self, other: "Report") -> None:
        """Add the games of ``other`` (played by another process)."""
        self.games += other.games
        self.seconds += other.seconds
        self.cpu_seconds += other.cpu_seconds
        self.rounds += other.rounds
        self.actions += other.actions
        self.endings += other.endings
        self.wins_by_agent += other.wins_by_agent
        self.seats_by_agent += other.seats_by_agent
        self.violations += other.violations

    def summary(self) -> list[str]:
        """The report as lines of text."""
        endings = ", ".join(f"{result} {count}" for result, count in self.endings.most_common())
        lines = [
            f"{self.games} games of {self.players} players in {self.seconds:.1f} s: "
            f"{self.games_per_second:.2f} games per second ({self.games_per_cpu_second:.2f} per "
            f"second of CPU time)",
            f"round reached: mean {self.mean_rounds:.1f}, min {min(self.rounds)}, "
            f"max {max(self.rounds)}; mean {sum(self.actions) / len(self.actions):.0f} actions",
            f"ended by: {endings}",
        ]
        for number, name in enumerate(self.agents):
            wins = self.wins_by_agent[number]
            low, high = wilson_interval(wins, self.games)
            share = self.seats_by_agent[number] / (self.games * self.players)
            lines.append(
                f"agent {number} ({name}, {100 * share:.0f}% of the seats): won {wins} of "
                f"{self.games} games, {100 * wins / self.games:.1f}% (95% CI "
                f"{100 * low:.1f}-{100 * high:.1f}%)"
            )
        if self.wins_by_agent[None]:
            lines.append(f"drawn: {self.wins_by_agent[None]}")
        lines.append(f"invariant violations: {len(self.violations) or 'none'}")
        lines += self.violations
        return lines


@dataclass(frozen=True)
class Game:
    """One finished game: its winner seat (None: a draw), the engine's result, its rounds and
    actions, and every invariant violation seen (each naming the action after which)."""

    winner: int | None
    result: str
    rounds: int
    actions: int
    violations: tuple[str, ...]


def play_game(decklists: Sequence[dict], seed: int, agents: Sequence[Agent], options=None) -> Game:
    """One whole game, the engine's invariants checked after every action. A game plays on
    after a violation, so a run still shows how its games end; each violation names its seed
    and the action after which it was found (``play_game`` with that seed replays it). An
    error raised by the engine ends the game as "crashed", recorded like a violation."""
    events: list[dict] = []
    state = api.new_game(list(decklists), seed, options, events)
    violations = [
        f"seed {seed}, at set-up: {problem}"
        for problem in invariants.invariant_violations(state, events)
    ]
    applied = 0
    while True:
        decision = api.legal_actions(state)
        if decision.seat is None:
            break
        if applied == ACTION_CAP:
            violations.append(f"seed {seed}: still running after {ACTION_CAP} actions")
            break
        action = agents[decision.seat].choose(state, decision)
        applied += 1
        # An engine error is a finding of the run, not its end.
        try:
            events = api.apply(state, action)
        except Exception as error:
            violations.append(
                f"seed {seed}, action {applied} {action!r} by seat {decision.seat}: the engine "
                f"raised {error!r}"
            )
            return Game(None, "crashed", state.round, applied, tuple(violations))
        violations += [
            f"seed {seed}, action {applied} {action!r} by seat {decision.seat}: {problem}"
            for problem in invariants.invariant_violations(state, events)
        ]
    return Game(state.winner, state.result or "unfinished", state.round, applied, tuple(violations))


def starter_decklists(set_file: Path = FIRST_SET) -> tuple[list[dict], list[dict]]:
    """The engine's decklists of a set's starter decks, in the set's order, and its cards."""
    data = load_set(set_file)
    return [decklist(data, starter) for starter in data["starter_decks"]], data["cards"]


def play_chunk(
    names: tuple[str, ...], players: int, first: int, games: int, seed: int, set_file: Path
) -> Report:
    """Games ``first`` to ``first + games - 1`` of a run."""
    decks, printed = starter_decklists(set_file)
    report = Report(agents=names, players=players)
    started, cpu_started = time.perf_counter(), time.process_time()
    for number in range(first, first + games):
        game_seed = seed + number
        seated = [(number + seat) % len(names) for seat in range(players)]
        agents = [
            AGENTS[names[agent]](game_seed * 16 + seat, printed)
            for seat, agent in enumerate(seated)
        ]
        decklists = [decks[(number + seat) % len(decks)] for seat in range(players)]
        game = play_game(decklists, game_seed, agents)
        report.games += 1
        report.rounds.append(game.rounds)
        report.actions.append(game.actions)
        report.endings[game.result] += 1
        report.wins_by_agent[None if game.winner is None else seated[game.winner]] += 1
        report.seats_by_agent.update(seated)
        report.violations += game.violations
    report.seconds = time.perf_counter() - started
    report.cpu_seconds = time.process_time() - cpu_started
    return report


def run(
    names: Sequence[str],
    players: int,
    games: int,
    seed: int,
    *,
    processes: int = 1,
    set_file: Path = FIRST_SET,
) -> Report:
    """``games`` games of ``players`` seats between the agents ``names`` (seated in rotation),
    spread over ``processes`` processes. ``Report.seconds`` is the wall-clock time of the run."""
    unknown = [name for name in names if name not in AGENTS]
    if unknown or not names:
        raise InvalidRun(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(AGENTS)}")
    if not 2 <= players <= 12:
        raise InvalidRun("Starholds is played by 2 to 12 players")
    names = tuple(names)
    started = time.perf_counter()
    if processes == 1 or games <= CHUNK:
        report = play_chunk(names, players, 0, games, seed, set_file)
    else:
        report = Report(agents=names, players=players)
        with ProcessPoolExecutor(processes) as pool:
            parts = [
                pool.submit(
                    play_chunk, names, players, first, min(CHUNK, games - first), seed, set_file
                )  # fmt: skip
                for first in range(0, games, CHUNK)
            ]
            for part in parts:
                report.merge(part.result())
    report.seconds = time.perf_counter() - started
    return report
