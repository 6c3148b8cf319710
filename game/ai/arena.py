"""Games between named computer agents with a set's starter decks, on one process or several:
what ``manage.py simulate`` and ``benchmarks/ai.py`` play.

The agents are named: ``random``, ``greedy`` and the search agent's levels ``easy``,
``normal`` and ``hard``. Every pairing cycles through the twelve ordered matchups of two
different starter decks, and the agents swap seats after each round of them, so each agent
plays every deck from both seats (``simulate(..., swap_seats=True)``).
"""

import itertools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from types import MappingProxyType

from game.ai.agents import GreedyAgent, RandomAgent
from game.ai.search import LEVELS, SearchAgent
from game.engine.actions import Agent
from game.engine.decklists import starter_decklists
from game.engine.simulation import Report, simulate

# Each agent is made from a seed, the decklists to expect of each archetype (or avatar) and,
# if known, its own decklist.
AgentFactory = Callable[..., Agent]


def _search(level: str) -> AgentFactory:
    return lambda seed, priors, own=None: SearchAgent(seed, level, priors=priors, own=own)


AGENTS: Mapping[str, AgentFactory] = MappingProxyType(
    {
        "random": lambda seed, priors, own=None: RandomAgent(seed),
        "greedy": lambda seed, priors, own=None: GreedyAgent(),
        **{level: _search(level) for level in LEVELS},
    }
)
# Games handed to a process at a time: two rounds of the twelve matchups, so that both seat
# orders of every matchup go to the same process.
CHUNK = 24
# A 2-versus-2 run's: one round of the 24 orders of the four decks (the sides swap seats after it).
TEAM_CHUNK = 24


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
    return _play_games(matchups, names, set_file, first, games, seed, thorough)


def _play_games(lineups_of, names, set_file, first, games, seed, thorough) -> Report:
    """The games of a chunk, the decks of each seated by ``lineups_of`` the starter decks."""
    decks = starter_decklists(set_file)
    factories = [partial(_make, AGENTS[name], decks=decks) for name in names]
    return simulate(
        games,
        seed,
        factories,
        lineups_of(decks),
        thorough=thorough,
        first_game=first,
        swap_seats=True,
    )


def _make(make: AgentFactory, seed: int, decks: dict[str, dict], own: dict | None = None) -> Agent:
    return make(seed, decks, own)


def chunks(games: int, size: int = CHUNK) -> list[tuple[int, int]]:
    """A run's games in pieces for the processes: (first game, number of games)."""
    return [(first, min(size, games - first)) for first in range(0, games, size)]


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
    # Every seat knows the boss's decklist behind its avatar (the encounter is public).
    priors = {**decks, boss["avatar"]["title"]: boss}
    hero = partial(_make, AGENTS[names[0]], decks=priors)
    boss_agent = partial(_make, AGENTS[names[1]], decks=priors, own=boss)
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


def team_lineups(decks: Mapping[str, dict]) -> list[list[list[dict]]]:
    """The four decks in every order of the seats of a 2-versus-2 game, as its two sides
    (``new_game([[a, b], [c, d]])`` seats a, c, b, d: seats 0 and 2 against 1 and 3)."""
    return [
        [[decks[order[0]], decks[order[1]]], [decks[order[2]], decks[order[3]]]]
        for order in itertools.permutations(sorted(decks))
    ]


def team_seating(sides: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The agents by seat of a 2-versus-2 game from its two sides' agents: the seats
    alternate sides in turn order. Reversed (as ``simulate`` swaps them), the sides swap."""
    first, second = sides
    return (first[0], second[0], first[1], second[1])


def play_team_chunk(
    names: tuple[str, ...], set_file: Path, first: int, games: int, seed: int, thorough: bool
) -> Report:
    """Games ``first`` to ``first + games - 1`` of a 2-versus-2 run; ``names`` are the
    agents by seat (``team_seating``)."""
    return _play_games(team_lineups, names, set_file, first, games, seed, thorough)


def play_team(
    sides: Sequence[Sequence[str]],
    games: int,
    seed: int,
    *,
    set_file: Path,
    processes: int = 1,
    thorough: bool = False,
) -> Report:
    """``games`` 2-versus-2 games between the two sides' agents (two each), the four starter
    decks of ``set_file`` in every order of the seats; the sides swap seats after each
    round of the 24 orders. The report's agents are the seats of ``team_seating(sides)``:
    agents 0 and 2 are the first side."""
    names = team_seating(sides)
    if processes == 1 or games <= TEAM_CHUNK:
        return play_team_chunk(names, set_file, 0, games, seed, thorough)
    report = Report()
    with ProcessPoolExecutor(processes) as pool:
        parts = [
            pool.submit(play_team_chunk, names, set_file, first, count, seed, thorough)
            for first, count in chunks(games, TEAM_CHUNK)
        ]
        for part in parts:
            report.merge(part.result())
    return report
