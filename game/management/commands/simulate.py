from itertools import product

from django.core.management.base import BaseCommand, CommandError

from collection.cards.services import set_files
from game.ai.agents import GreedyAgent, RandomAgent
from game.engine.decklists import starter_decklists
from game.engine.simulation import simulate

AGENTS = {"random": RandomAgent, "greedy": lambda seed: GreedyAgent()}


class Command(BaseCommand):
    help = (
        "Play whole games between computer agents with the first set's starter decks and "
        "print games per second, mean turns, how games were won and any invariant violation."
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
            "--thorough",
            action="store_true",
            help="Also check the JSON round trip and every seat's view after every action.",
        )

    def handle(self, *args, games, seed, agents, thorough, **options):
        names = [name.strip() for name in agents.split(",")]
        unknown = [name for name in names if name not in AGENTS]
        if len(names) != 2 or unknown:
            raise CommandError(f"Give two agents from {', '.join(AGENTS)}, e.g. random,greedy.")
        if games < 1:
            raise CommandError("Play at least one game.")
        decks = starter_decklists(set_files()[0])
        matchups = [
            [decks[first], decks[second]]
            for first, second in product(decks, repeat=2)
            if first != second
        ]
        report = simulate(
            games, seed, [AGENTS[name] for name in names], matchups, thorough=thorough
        )
        self.stdout.write(f"agents: seat 0 {names[0]}, seat 1 {names[1]}")
        self.stdout.write(report.summary())
