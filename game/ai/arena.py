"""Games between named computer agents with a set's starter decks, on one process or several:
what ``manage.py simulate`` and ``benchmarks/ai.py`` play.

The agents are named: ``random``, ``greedy`` and the search agent's levels ``easy``,
``normal`` and ``hard``. Every pairing cycles through the twelve ordered matchups of two
different starter decks, and the agents swap seats after each round of them, so each agent
plays every deck from both seats (``simulate(..., swap_seats=True)``).
"""

import itertools
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from types import MappingProxyType

from game.ai.agents import GreedyAgent, RandomAgent
from game.ai.search import LEVELS, SearchAgent
from game.engine.actions import Agent
from game.engine.decklists import starter_decklists
from game.engine.simulation import Report, simulate


def _search(level: str) -> Callable[[int, dict[str, dict]], Agent]:
    return lambda seed, priors: SearchAgent(seed, level, priors=priors)


# Each agent is made from a seed and the decklists to expect of each archetype.
AGENTS: Mapping[str, Callable[[int, dict[str, dict]], Agent]] = MappingProxyType(
    {
        "random": lambda seed, priors: RandomAgent(seed),
        "greedy": lambda seed, priors: GreedyAgent(),
        **{level: _search(level) for level in LEVELS},
    }
)
# Games handed to a process at a time: two rounds of the twelve matchups, so that both seat
# orders of every matchup go to the same process.
CHUNK = 24


def matchups(decks: Mapping[str, dict]) -> list[list[dict]]:
    """Every ordered pair of two different decks (``{archetype: decklist}``)."""
    return [
        [decks[first], decks[second]]
        for first, second in itertools.product(decks, repeat=2)
        if first != second
    ]


def play_chunk(
    names: tuple[str, ...], set_file: Path, first: int, games: int, seed: int, thorough: bool
) -> Report:
    """Games ``first`` to ``first + games - 1`` of a run (game ``i`` has seed ``seed + i``)."""
    decks = starter_decklists(set_file)
    factories = [partial(_make, AGENTS[name], decks=decks) for name in names]
    return simulate(
        games,
        seed,
        factories,
        matchups(decks),
        thorough=thorough,
        first_game=first,
        swap_seats=True,
    )


def _make(
    make: Callable[[int, dict[str, dict]], Agent], seed: int, decks: dict[str, dict]
) -> Agent:
    return make(seed, decks)


def chunks(games: int) -> list[tuple[int, int]]:
    """A run's games in pieces for the processes: (first game, number of games)."""
    return [(first, min(CHUNK, games - first)) for first in range(0, games, CHUNK)]


def encounter_lineups(heroes: Mapping[str, dict], boss: dict) -> list[list[list[dict]]]:
    """The four heroes' decklists in every order of their seats, each against the boss: the
    sides of a heroic encounter (``new_game([[hero, hero, hero, hero], [boss]])``)."""
    return [
        [[heroes[name] for name in order], [boss]]
        for order in itertools.permutations(sorted(heroes))
    ]


def play_encounter_chunk(
    names: tuple[str, str],
    boss: dict,
    set_file: Path,
    first: int,
    games: int,
    seed: int,
    thorough: bool,
) -> Report:
    """Games ``first`` to ``first + games - 1`` of an encounter run: the set's four starter
    decks, played by the agent ``names[0]``, against ``boss`` played by ``names[1]``."""
    decks = starter_decklists(set_file)
    hero = partial(_make, AGENTS[names[0]], decks=decks)
    boss_agent = partial(_make, AGENTS[names[1]], decks=decks)
    return simulate(
        games,
        seed,
        [hero, hero, hero, hero, boss_agent],
        encounter_lineups(decks, boss),
        thorough=thorough,
        first_game=first,
    )


def play_encounter(
    names: tuple[str, str],
    boss: dict,
    games: int,
    seed: int,
    *,
    set_file: Path,
    processes: int = 1,
    thorough: bool = False,
) -> Report:
    """``games`` games of a heroic encounter: four heroes with the starter decks of
    ``set_file`` (agent ``names[0]``, seats 0 to 3 in every order) against the boss's
    decklist (agent ``names[1]``, seat 4). The report's agents are the seats."""
    if processes == 1 or games <= CHUNK:
        return play_encounter_chunk(names, boss, set_file, 0, games, seed, thorough)
    report = Report()
    with ProcessPoolExecutor(processes) as pool:
        parts = [
            pool.submit(play_encounter_chunk, names, boss, set_file, first, count, seed, thorough)
            for first, count in chunks(games)
        ]
        for part in parts:
            report.merge(part.result())
    return report


def play(
    names: tuple[str, ...],
    games: int,
    seed: int,
    *,
    set_file: Path,
    processes: int = 1,
    thorough: bool = False,
) -> Report:
    """``games`` games between the agents ``names`` with the starter decks of ``set_file``,
    spread over ``processes`` processes. ``Report.seconds`` is the time the processes spent
    playing, added up."""
    if processes == 1 or games <= CHUNK:
        return play_chunk(names, set_file, 0, games, seed, thorough)
    report = Report()
    with ProcessPoolExecutor(processes) as pool:
        parts = [
            pool.submit(play_chunk, names, set_file, first, count, seed, thorough)
            for first, count in chunks(games)
        ]
        for part in parts:
            report.merge(part.result())
    return report
