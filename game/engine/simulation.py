"""Whole games between agents, with the engine's invariants checked after every action.

``simulate`` is what a management command prints and what the property tests lean on: games
per second, mean turns, how the games were won, and every invariant violation met; and, to
compare agents, each agent's win rate with its 95% confidence interval and the time its
decisions took. The invariant checks are plain functions, usable on any state.
"""

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from game.engine import api
from game.engine.actions import Action, Agent
from game.engine.checked_play import play_checked
from game.engine.state import State
from gamekit.winrates import wilson_interval

# Normal play ends by completed quests or an empty deck long before this (a 53-card deck
# runs out after about 50 turns); reaching it is a violation.
TURN_CAP = 200


@dataclass
class Report:
    """What ``simulate`` found. Agents are numbered as they were given (``agents[0]`` is
    agent 0), whichever seat they sat in."""

    games: int = 0
    seconds: float = 0.0
    turns: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)  # actions applied in each game
    win_reasons: Counter = field(default_factory=Counter)
    wins_by_agent: Counter = field(default_factory=Counter)
    # How each game ended: (the winner's agent, the win reason).
    endings: Counter = field(default_factory=Counter)
    # Each decision's time, by agent: CPU time of the deciding thread (what it costs on one
    # core, whatever else the machine runs; see checked_play.SHORT_DECISION) and wall-clock
    # time.
    decision_seconds: dict[int, list[float]] = field(default_factory=dict)
    decision_wall_seconds: dict[int, list[float]] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def mean_turns(self) -> float:
        return sum(self.turns) / len(self.turns) if self.turns else 0.0

    def merge(self, other: "Report") -> None:
        """Add the games of ``other`` (played elsewhere, e.g. by another process)."""
        self.games += other.games
        self.seconds += other.seconds
        self.turns += other.turns
        self.actions += other.actions
        self.win_reasons += other.win_reasons
        self.wins_by_agent += other.wins_by_agent
        self.endings += other.endings
        for mine, theirs in (
            (self.decision_seconds, other.decision_seconds),
            (self.decision_wall_seconds, other.decision_wall_seconds),
        ):
            for agent, samples in theirs.items():
                mine.setdefault(agent, []).extend(samples)
        self.violations += other.violations

    def win_rate(self, agent: int) -> tuple[float, float, float]:
        """The agent's share of the games won, with its Wilson 95% confidence interval."""
        wins = self.wins_by_agent[agent]
        low, high = wilson_interval(wins, self.games)
        return (wins / self.games if self.games else 0.0), low, high

    def summary(self) -> str:
        """The report as a few lines of text, for a management command to print."""
        reasons = ", ".join(f"{reason} {count}" for reason, count in self.win_reasons.most_common())
        wins = ", ".join(
            f"agent {agent}: {count}" for agent, count in sorted(self.wins_by_agent.items())
        )
        lines = [
            f"{self.games} games in {self.seconds:.2f} s: {significant(self.games_per_second)} "
            f"games per second, {self.mean_turns:.1f} turns a game",
            f"won by: {reasons}",
            f"wins: {wins}",
            *self.comparison(),
            f"invariant violations: {len(self.violations) or 'none'}",
            *self.violations,
        ]
        return "\n".join(lines)

    def comparison(self) -> list[str]:
        """Win rates with their confidence intervals, game length and decision times."""
        agents = sorted(self.decision_seconds)
        lines = []
        if self.games:
            rates = []
            for agent in agents:
                rate, low, high = self.win_rate(agent)
                rates.append(
                    f"agent {agent}: {100 * rate:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"
                )
            lines.append(f"win rate: {', '.join(rates)}")
            lines.append(
                f"game length: mean {self.mean_turns:.1f} turns (median "
                f"{percentile(self.turns, 0.5):.0f}, 5-95% {percentile(self.turns, 0.05):.0f}-"
                f"{percentile(self.turns, 0.95):.0f}), mean "
                f"{sum(self.actions) / len(self.actions):.0f} actions"
            )
        for agent in agents:
            cpu = [1000 * sample for sample in self.decision_seconds[agent]]
            wall = [1000 * sample for sample in self.decision_wall_seconds.get(agent, [])]
            if not cpu:
                continue
            lines.append(
                f"decision time agent {agent}: CPU p50 {percentile(cpu, 0.5):.1f} ms, p95 "
                f"{percentile(cpu, 0.95):.1f} ms, p99 {percentile(cpu, 0.99):.1f} ms, max "
                f"{max(cpu):.0f} ms; wall p50 {percentile(wall, 0.5):.1f} ms, p95 "
                f"{percentile(wall, 0.95):.1f} ms, p99 {percentile(wall, 0.99):.1f} ms; "
                f"{len(cpu)} decisions"
            )
        return lines


def significant(value: float, digits: int = 3) -> str:
    """``value`` with at least ``digits`` significant digits and one decimal, so that a slow
    run reads as slow rather than as nothing: 48 games in 1,685 s are 0.0285 games per
    second, not 0.0."""
    if value <= 0 or not math.isfinite(value):
        return f"{value:.1f}"
    decimals = max(1, digits - 1 - math.floor(math.log10(value)))
    return f"{value:.{decimals}f}"


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest sample with ``fraction`` of them at or
    below it."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def simulate(
    games: int,
    seed: int,
    agents: Sequence[Callable[[int], Agent]],
    decklists: Sequence[list[dict]],
    *,
    thorough: bool = False,
    first_game: int = 0,
    swap_seats: bool = False,
) -> Report:
    """Play ``games`` games; agent factory ``agents[seat]`` makes the agent of each seat from a
    seed, and the games cycle through ``decklists`` (each a decklist per seat).

    Invariants are checked after every action; ``thorough`` adds, after every action, the
    JSON round trip and every seat's view holding no hidden card. Each finished game is also
    replayed from its seed and actions (``replay_violations``).

    Game ``index`` (from ``first_game``, so that several processes can share a run) has the
    seed ``seed + index``. With ``swap_seats`` the agents change seats after each round of
    ``decklists``, so each plays every decklist from both seats.
    """
    report = Report()
    report.decision_seconds = {agent: [] for agent in range(len(agents))}
    report.decision_wall_seconds = {agent: [] for agent in range(len(agents))}
    started = time.perf_counter()
    for index in range(first_game, first_game + games):
        game_seed = seed + index
        seats = decklists[index % len(decklists)]
        swapped = swap_seats and (index // len(decklists)) % 2 == 1
        # agent_of[seat]: which agent sits in the seat (a two-player game swaps the two).
        agent_of = list(reversed(range(len(agents)))) if swapped else list(range(len(agents)))
        players = [
            agents[agent_of[seat]](game_seed * len(agents) + seat) for seat in range(len(agents))
        ]
        state = api.new_game(seats, game_seed)
        played, problems = play_checked(
            state,
            players,
            [report.decision_seconds[agent] for agent in agent_of],
            [report.decision_wall_seconds[agent] for agent in agent_of],
            TURN_CAP,
            thorough_violations if thorough else None,
        )
        report.violations += [f"game {index}, {problem}" for problem in problems]
        if state.winner is None:
            report.violations.append(f"game {index}: no winner after {TURN_CAP} turns")
        else:
            report.violations += [
                f"game {index}: {problem}"
                for problem in replay_violations(seats, game_seed, played, state)
            ]
        report.games += 1
        report.turns.append(state.turn)
        report.actions.append(len(played))
        report.win_reasons[state.win_reason] += 1
        winner = None if state.winner is None else agent_of[state.winner]
        report.wins_by_agent[winner] += 1
        report.endings[winner, state.win_reason] += 1
    report.seconds = time.perf_counter() - started
    return report


def replay_violations(
    decklists: list[dict], seed: int, played: list[Action], state: State
) -> list[str]:
    """Whether the game's seed and ``played``, the actions just played and checked one by one,
    replay to ``state``. They are carried out without listing the legal actions again, which
    halves the time; it also replays them without anything that listing leaves in the
    state's caches, which must change nothing."""
    try:
        replayed = api.replay(decklists, seed, played, checked=False)
    except Exception as error:  # whatever stops the replay is the violation found
        return [f"replaying its actions fails: {error!r}"]
    if replayed != state:
        return ["replaying its actions gives another state"]
    return []


def thorough_violations(state: State) -> list[str]:
    return round_trip_violations(state) + view_violations(state)


def round_trip_violations(state: State) -> list[str]:
    if api.from_json(api.to_json(state)) != state:
        return ["the state does not survive a JSON round trip"]
    return []


def hidden_cards(state: State, viewer: int | None) -> set[int]:
    """The cards whose identity ``viewer`` must not learn: every deck (except his own while he
    searches it), and the hands and quest piles of the other seats."""
    hidden = set()
    searching = (
        state.step == "choose"
        and state.pending[0]["choice"]["zone"] == "deck"
        and state.deciding == viewer
    )
    for seat, player in enumerate(state.seats):
        if not (searching and seat == viewer):
            hidden.update(player.deck)
        if seat != viewer:
            hidden.update(player.hand)
            hidden.update(player.quest_pile)
    return hidden


def shown_cards(seen: object) -> set[int]:
    """Every card id a view (or a redacted event) mentions."""
    found = set()
    pending = [seen]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("id", "card", "quest") and isinstance(item, int):
                    found.add(item)
                elif isinstance(item, dict | list):
                    pending.append(item)
        elif isinstance(value, list):
            pending += [item for item in value if isinstance(item, dict | list)]
    return found


def view_violations(state: State) -> list[str]:
    problems = []
    for viewer in [None, *range(len(state.seats))]:
        leaked = shown_cards(api.view(state, viewer)) & hidden_cards(state, viewer)
        if leaked:
            problems.append(f"the view of {viewer} shows hidden cards {sorted(leaked)}")
    return problems
