import time

from django.core.management.base import BaseCommand, CommandError

from collection.cards.services import set_files
from game.ai.arena import AGENTS, play


class Command(BaseCommand):
    help = (
        "Play whole games between computer agents with the first set's starter decks and "
        "print games per second, mean turns, how games were won, each agent's win rate with "
        "its 95% confidence interval, the games' length, its decision times and any invariant "
        "violation. The agents swap seats after every round of the twelve matchups."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--agents",
            default="random,random",
            help=f"Two agents, comma-separated, from: {', '.join(AGENTS)}.",
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help="Play the games on this many processes (decision times are CPU times, so "
            "they stay comparable).",
        )
        parser.add_argument(
            "--thorough",
            action="store_true",
            help="Also check the JSON round trip and every seat's view after every action.",
        )

    def handle(self, *args, games, seed, agents, processes, thorough, **options):
        names = tuple(name.strip() for name in agents.split(","))
        unknown = [name for name in names if name not in AGENTS]
        if len(names) != 2 or unknown:
            raise CommandError(f"Give two agents from {', '.join(AGENTS)}, e.g. random,greedy.")
        if games < 1:
            raise CommandError("Play at least one game.")
        if processes < 1:
            raise CommandError("Use at least one process.")
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
