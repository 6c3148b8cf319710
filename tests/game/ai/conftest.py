"""Shared setup of the computer opponents' tests: the first set's starter decks, loaded from
the set file without Django, and games played to positions worth deciding in."""

import itertools
from pathlib import Path

from game.ai.agents import GreedyAgent, RandomAgent
from game.encounters import ENCOUNTERS
from game.engine import api
from game.engine.decklists import card_definition, load_set, starter_decklists
from game.engine.state import State

SET_FILE = (
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
DECKS = starter_decklists(SET_FILE)
MATCHUPS = [[DECKS[a], DECKS[b]] for a, b in itertools.permutations(sorted(DECKS), 2)]
CARDS = {card["title"]: card_definition(card) for card in load_set(SET_FILE)["cards"]}


def positions(games: int, every: int = 1, seed: int = 0):
    """Positions of whole games (greedy against random, both seats), each with its pending
    decision: every ``every``-th decision that offers a choice."""
    found = 0
    for game in range(games):
        state = api.new_game(MATCHUPS[(seed + game) % len(MATCHUPS)], seed + game)
        players = [GreedyAgent(), RandomAgent(seed + game)]
        if game % 2:
            players.reverse()
        while state.winner is None:
            decision = api.legal_actions(state)
            if len(decision.actions) > 1:
                if found % every == 0:
                    yield state, decision
                found += 1
            api.apply(state, players[decision.seat].choose(state, decision))


# A 2-versus-2 team game (seats 0 and 2 against 1 and 3) and a Four-man Heroic Encounter
# (the four starter decks against the first encounter's boss, seat 4).
TEAM_GAME = [[DECKS["jedi"], DECKS["rebel"]], [DECKS["sith"], DECKS["imperial"]]]
BOSS = ENCOUNTERS[0].boss_decklist(CARDS)
ENCOUNTER_GAME = [[DECKS[name] for name in sorted(DECKS)], [BOSS]]
# What a seat of a heroic encounter expects of the others: the starter decks, and the boss's
# decklist behind its avatar.
ENCOUNTER_PRIORS = {**DECKS, BOSS["avatar"]["title"]: BOSS}


def side_positions(decklists: list, games: int, every: int = 1, seed: int = 0):
    """Positions of whole games with sides (greedy and random players in turn), each with
    its pending decision: every ``every``-th decision that offers a choice."""
    found = 0
    for game in range(games):
        state = api.new_game(decklists, seed + game)
        players = [
            GreedyAgent() if (seat + game) % 2 else RandomAgent(seed + game + seat)
            for seat in range(len(state.seats))
        ]
        while state.winner is None:
            decision = api.legal_actions(state)
            if len(decision.actions) > 1:
                if found % every == 0:
                    yield state, decision
                found += 1
            api.apply(state, players[decision.seat].choose(state, decision))


def snapshot(state: State) -> State:
    return api.from_json(api.to_json(state))
