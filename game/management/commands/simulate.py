import time
from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from collection.cards.services import set_files
from game.ai.arena import AGENTS, play, play_encounter
from game.encounters import BOSS_SEAT, ENCOUNTERS, encounter_named
from game.engine.events import WIN_REASONS
from game.engine.simulation import Report, percentile
from game.selectors import tutorial_cards
from gamekit.winrates import wilson_interval
from starholds.ai import arena as starholds_arena

# The computer teammates' agent, which plays the four heroes of an encounter: the one that
# reads a game of several players (the search agent assumes one opponent).
HEROES_AGENT = "greedy"


class Command(BaseCommand):
    help = (
        "Play whole games between computer agents with the first set's starter decks and "
        "print games per second, mean turns, how games were won, each agent's win rate with "
        "its 95% confidence interval, the games' length, its decision times and any invariant "
        "violation. The agents swap seats after every round of the twelve matchups. With "
        "--encounter, the set's four starter decks play a heroic encounter against its boss "
        "instead, and the heroes' win rate is printed. With --game starholds, the second "
        "game's starter decks play instead, --players seats a game, every invariant checked "
        "after every action."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=sorted(GAMES), default="swg")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--agents",
            default="random,random",
            help=f"Two agents, comma-separated, from: {', '.join(AGENTS)}. Starholds: one or "
            f"more from {', '.join(starholds_arena.AGENTS)}, seated in rotation.",
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
            f"{', '.join(encounter.slug for encounter in ENCOUNTERS)}); --agents is not used.",
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

    def _swg(self, *, games, seed, agents, processes, thorough, encounter, **options):
        if encounter is not None:
            self._encounter(encounter, games, seed, processes, thorough)
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

    def _encounter(self, slug, games, seed, processes, thorough):
        try:
            chosen = encounter_named(slug)
        except KeyError as error:
            raise CommandError(error.args[0]) from None
        started = time.perf_counter()
        report = play_encounter(
            (HEROES_AGENT, chosen.agent),
            chosen.boss_decklist(tutorial_cards()),
            games,
            seed,
            set_file=set_files()[0],
            processes=processes,
            thorough=thorough,
        )
        report.seconds = time.perf_counter() - started
        self.stdout.write(
            f"encounter: {chosen.name} ({chosen.slug}): the four starter decks, played by "
            f"{HEROES_AGENT} in every order of seats, against the boss played by {chosen.agent}"
        )
        self.stdout.write("\n".join(encounter_summary(report)))

    def _starholds(self, *, games, seed, agents, processes, players, **options):
        names = [name.strip() for name in agents.split(",")]
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
