import time
from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from collection.cards.services import set_files
from game.ai.arena import AGENTS, play, play_encounter, play_team, team_seating
from game.encounters import (
    BOSS_SEAT,
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    ENCOUNTERS,
    difficulty_named,
    encounter_named,
)
from game.engine.events import WIN_REASONS
from game.engine.simulation import Report, percentile
from game.selectors import tutorial_cards
from gamekit.winrates import wilson_interval
from starholds.ai import arena as starholds_arena

# The heroes' agent of an encounter run unless --agents names another.
HEROES_AGENT = "greedy"


class Command(BaseCommand):
    help = (
        "Play whole games between computer agents with the first set's starter decks and "
        "print games per second, mean turns, how games were won, each agent's win rate with "
        "its 95% confidence interval, the games' length, its decision times and any invariant "
        "violation. The agents swap seats after every round of the twelve matchups. Two sides "
        "of two agents (--agents hard,hard/greedy,greedy) play 2-versus-2 games of the four "
        "starter decks in every order, the sides swapping seats after each round, and each "
        "side's win rate is printed. With --encounter, the set's four starter decks play a "
        "heroic encounter against its boss at --difficulty instead, and the heroes' win rate "
        "is printed. With --game starholds, the second "
        "game's starter decks play instead, --players seats a game, every invariant checked "
        "after every action."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=sorted(GAMES), default="swg")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--agents",
            help=f"Two agents, comma-separated, from: {', '.join(AGENTS)} (default "
            "random,random); or two sides of two, the sides split by a slash "
            "(hard,hard/greedy,greedy). With --encounter: the heroes' agent (default "
            f"{HEROES_AGENT}). Starholds: one or more from {', '.join(starholds_arena.AGENTS)}, "
            "seated in rotation (default random,random).",
        )
        parser.add_argument(
            "--players",
            type=int,
            default=4,
            help="Starholds only: seats a game (2 to 12).",
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help="Play the games on this many processes (decision times are CPU times, so "
            "they stay comparable).",
        )
        parser.add_argument(
            "--encounter",
            help="Play this heroic encounter, four starter decks against its boss (one of: "
            f"{', '.join(encounter.slug for encounter in ENCOUNTERS)}).",
        )
        parser.add_argument(
            "--difficulty",
            default=DEFAULT_DIFFICULTY,
            choices=[difficulty.slug for difficulty in DIFFICULTIES],
            help="With --encounter: how hard the boss plays.",
        )
        parser.add_argument(
            "--thorough",
            action="store_true",
            help="Also check the JSON round trip and every seat's view after every action.",
        )

    def handle(self, *args, game, games, seed, processes, **options):
        if games < 1:
            raise CommandError("Play at least one game.")
        if processes < 1:
            raise CommandError("Use at least one process.")
        GAMES[game](self, games=games, seed=seed, processes=processes, **options)

    def _swg(self, *, games, seed, agents, processes, thorough, encounter, difficulty, **options):
        if encounter is not None:
            heroes = (agents or HEROES_AGENT).strip()
            if heroes not in AGENTS:
                raise CommandError(f"Name the heroes' agent, one of {', '.join(AGENTS)}.")
            self._encounter(encounter, difficulty, heroes, games, seed, processes, thorough)
            return
        agents = agents or "random,random"
        if "/" in agents:
            self._team(agents, games, seed, processes, thorough)
            return
        names = tuple(name.strip() for name in agents.split(","))
        unknown = [name for name in names if name not in AGENTS]
        if len(names) != 2 or unknown:
            raise CommandError(f"Give two agents from {', '.join(AGENTS)}, e.g. random,greedy.")
        started = time.perf_counter()
        report = play(
            names, games, seed, set_file=set_files()[0], processes=processes, thorough=thorough
        )
        report.seconds = time.perf_counter() - started
        self.stdout.write(
            f"agents: seat 0 {names[0]}, seat 1 {names[1]} (agents 0 and 1; they swap seats "
            "every 12 games)"
        )
        self.stdout.write(report.summary())

    def _team(self, agents, games, seed, processes, thorough):
        sides = [tuple(name.strip() for name in side.split(",")) for side in agents.split("/")]
        unknown = [name for side in sides for name in side if name not in AGENTS]
        if len(sides) != 2 or any(len(side) != 2 for side in sides) or unknown:
            raise CommandError(
                f"Give two sides of two agents from {', '.join(AGENTS)}, e.g. "
                "hard,hard/greedy,greedy."
            )
        started = time.perf_counter()
        report = play_team(
            sides, games, seed, set_file=set_files()[0], processes=processes, thorough=thorough
        )
        report.seconds = time.perf_counter() - started
        seated = team_seating(sides)
        self.stdout.write(
            f"2-versus-2: side A {','.join(sides[0])} against side B {','.join(sides[1])} "
            "(agents 0 and 2 are side A, 1 and 3 side B; the sides swap seats every 24 games)"
        )
        self.stdout.write(report.summary())
        named = [
            (f"side A ({','.join(sides[0])})", [0, 2]),
            (f"side B ({','.join(sides[1])})", [1, 3]),
        ]
        self.stdout.write("\n".join(side_summary(report, named)))
        kinds: dict[str, list[int]] = {}
        for agent, name in enumerate(seated):
            kinds.setdefault(name, []).append(agent)
        self.stdout.write("\n".join(decision_times(report, kinds.items())))

    def _encounter(self, slug, difficulty, heroes, games, seed, processes, thorough):
        try:
            chosen = encounter_named(slug)
            level = difficulty_named(difficulty)
        except KeyError as error:
            raise CommandError(error.args[0]) from None
        started = time.perf_counter()
        report = play_encounter(
            (heroes, level.boss_level),
            chosen.boss_decklist(tutorial_cards()),
            games,
            seed,
            set_file=set_files()[0],
            processes=processes,
            thorough=thorough,
        )
        report.seconds = time.perf_counter() - started
        self.stdout.write(
            f"encounter: {chosen.name} ({chosen.slug}) at {level.name}: the four starter decks, "
            f"played by {heroes} in every order of seats, against the boss played by "
            f"{level.boss_level}"
        )
        self.stdout.write("\n".join(encounter_summary(report)))
        kinds = [
            (f"heroes ({heroes})", list(range(BOSS_SEAT))),
            (f"boss ({level.boss_level})", [BOSS_SEAT]),
        ]
        self.stdout.write("\n".join(decision_times(report, kinds)))

    def _starholds(self, *, games, seed, agents, processes, players, **options):
        names = [name.strip() for name in (agents or "random,random").split(",")]
        try:
            report = starholds_arena.run(names, players, games, seed, processes=processes)
        except starholds_arena.InvalidRun as error:
            raise CommandError(str(error)) from None
        seated = ", ".join(f"agent {number} {name}" for number, name in enumerate(names))
        self.stdout.write(f"Starholds: {seated}, seated in rotation")
        self.stdout.write("\n".join(report.summary()))


# Each game's runner, by the name --game takes.
GAMES = {"swg": Command._swg, "starholds": Command._starholds}


def encounter_summary(report: Report) -> list[str]:
    """The heroes' win rate with its 95% confidence interval, the games' length and how they
    ended, from a report whose agents are the seats (the boss is ``BOSS_SEAT``)."""
    heroes = sum(
        count for agent, count in report.wins_by_agent.items() if agent not in (None, BOSS_SEAT)
    )
    low, high = wilson_interval(heroes, report.games)
    by_side: dict[str, Counter] = {"heroes": Counter(), "boss": Counter()}
    for (agent, reason), count in report.endings.items():
        if agent is not None:
            by_side["boss" if agent == BOSS_SEAT else "heroes"][reason] += count
    endings = {
        side: ", ".join(f"{WIN_REASONS[reason]} {count}" for reason, count in reasons.most_common())
        or "never"
        for side, reasons in by_side.items()
    }
    unfinished = report.wins_by_agent[None]
    return [
        f"{report.games} games in {report.seconds:.1f} s",
        f"heroes' win rate: {100 * heroes / report.games:.1f}% (95% CI {100 * low:.1f}-"
        f"{100 * high:.1f}%), {heroes} of {report.games} games",
        f"turns: mean {report.mean_turns:.1f} (median {percentile(report.turns, 0.5):.0f}, "
        f"5-95% {percentile(report.turns, 0.05):.0f}-{percentile(report.turns, 0.95):.0f}), "
        "every player's counted",
        f"the heroes won by: {endings['heroes']}",
        f"the boss won by: {endings['boss']}",
        *([f"unfinished: {unfinished}"] if unfinished else []),
        f"invariant violations: {len(report.violations) or 'none'}",
        *report.violations,
    ]


def side_summary(report: Report, sides: list[tuple[str, list[int]]]) -> list[str]:
    """Each side's win rate with its 95% confidence interval, from a report whose agents
    are the seats of ``sides`` (a name and the agents of each)."""
    lines = []
    for name, agents in sides:
        wins = sum(report.wins_by_agent[agent] for agent in agents)
        low, high = wilson_interval(wins, report.games)
        lines.append(
            f"{name} win rate: {100 * wins / report.games:.1f}% (95% CI {100 * low:.1f}-"
            f"{100 * high:.1f}%), {wins} of {report.games} games"
        )
    return lines


def decision_times(report: Report, kinds) -> list[str]:
    """The CPU time of the decisions of each kind of seat (a name and its agents): p50, p95,
    p99 and the longest."""
    lines = []
    for name, agents in kinds:
        cpu = [1000 * sample for agent in agents for sample in report.decision_seconds[agent]]
        if cpu:
            lines.append(
                f"decision time {name}: CPU p50 {percentile(cpu, 0.5):.1f} ms, p95 "
                f"{percentile(cpu, 0.95):.1f} ms, p99 {percentile(cpu, 0.99):.1f} ms, max "
                f"{max(cpu):.0f} ms; {len(cpu)} decisions"
            )
    return lines
