"""Properties of 2-versus-2 team games (MULTIPLAYER GAMES) over random seeds, random decks
and random legal play, checked after every action: cards are conserved, each seat's view and
events hide every other seat's hand (a teammate's too), reach and the team's bookkeeping
hold (``invariants.team_violations``), the state survives JSON, every game ends with one
side standing, and replay is exact."""

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.ai.agents import GreedyAgent, RandomAgent
from game.engine import api
from game.engine.decklists import starter_decklists
from game.engine.events import redact
from game.engine.invariants import invariant_violations
from game.engine.simulation import round_trip_violations, shown_cards, view_violations
from game.engine.state import in_game, side_of

SET_FILE = (
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
DECKS = starter_decklists(SET_FILE)
NAMES = sorted(DECKS)
# Turns counted over all four players: random play ends team games long before this.
TURN_CAP = 400

four_decks = st.lists(st.sampled_from(NAMES), min_size=4, max_size=4)


def sides_of(names: list[str]) -> list[list[dict]]:
    return [[DECKS[names[0]], DECKS[names[1]]], [DECKS[names[2]], DECKS[names[3]]]]


def event_leaks(state: api.State, events: list[dict]) -> list[str]:
    """The events that show a viewer a card hidden from him: a card in a deck, or in
    another seat's hand or quest pile (as ``simulation.hidden_cards`` says, read card by
    card: this runs after every action of hundreds of games). A heroic encounter's boss may
    reshuffle his discard pile into his deck, and draw from it, in the same action: his
    cards an event named before that were public then."""
    named = [
        (index, event, cards) for index, event in enumerate(events) if (cards := shown_cards(event))
    ]
    if not named:
        return []
    decks = {card for player in state.seats for card in player.deck}
    reshuffles = [
        (index, event["seat"])
        for index, event in enumerate(events)
        if event["type"] == "deck_reshuffled"
    ]
    private = {card for player in state.seats for card in (*player.hand, *player.quest_pile)}
    searcher = (
        state.deciding
        if state.step == "choose" and state.pending[0]["choice"]["zone"] == "deck"
        else None
    )
    problems = []
    for index, event, cards in named:
        if not cards & (decks | private):
            continue
        reshuffled_later = {seat for at, seat in reshuffles if at > index}
        for viewer in (None, *range(len(state.seats))):
            owner_sees = {viewer} if viewer == searcher else set()
            leaked = {
                card
                for card in shown_cards(redact(event, viewer))
                if state.cards[card].owner not in reshuffled_later
                and (
                    (card in decks and state.cards[card].owner not in owner_sees)
                    or (card in private and state.cards[card].owner != viewer)
                )
            }
            if leaked:
                problems.append(f"{event} shows {viewer} the hidden cards {leaked}")
    return problems


def check_game_over(state: api.State) -> None:
    """One side won: a player of it completed his last quest, or every player of the other
    side lost while one of the winners plays on; or the last avatars of both sides were
    destroyed at once, and the side of the player taking his turn won (WINNING THE GAME)."""
    winning = side_of(state, state.winner)
    standing = [any(in_game(state, seat) for seat in side) for side in state.teams.sides]
    if state.win_reason == "all_avatars_destroyed":
        assert standing == [False, False] and state.winner == state.active
    elif state.win_reason == "quests_completed":
        assert standing[winning]
    else:
        assert standing[winning] and not standing[1 - winning]


def play_randomly(state: api.State, chooser: random.Random, after_each) -> list[dict]:
    """Random legal actions until the game ends; ``after_each(action, events)`` checks."""
    played = []
    while state.winner is None:
        assert state.turn <= TURN_CAP, "the game did not end"
        decision = api.legal_actions(state)
        assert decision.actions and decision.seat == state.deciding
        assert in_game(state, decision.seat)
        action = chooser.choice(decision.actions)
        events = api.apply(state, action)
        played.append(action)
        after_each(action, events)
    return played


def views_hide_what_they_must(state: api.State) -> None:
    problems = view_violations(state) + round_trip_violations(state)
    assert not problems, problems


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63), names=four_decks, play_seed=st.integers())
def test_random_team_games_keep_every_invariant_after_every_action(seed, names, play_seed):
    """Every action: cards conserved, reach and team bookkeeping, no hidden card in an event
    for any seat. Whenever a player leaves and at the end: no hidden card in any seat's view,
    and the JSON round trip. (Replays are checked with the players leaving, below.)"""
    state = api.new_game(sides_of(names), seed)

    def after_each(action, events):
        problems = invariant_violations(state, events) + event_leaks(state, events)
        assert not problems, f"after {action}: {problems}"
        if any(event["type"] == "player_lost" for event in events):
            views_hide_what_they_must(state)

    play_randomly(state, random.Random(play_seed), after_each)

    views_hide_what_they_must(state)
    check_game_over(state)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63), names=four_decks, play_seed=st.integers())
def test_every_seats_view_hides_the_other_hands_all_game_long(seed, names, play_seed):
    """At the start of every turn and every combat, each seat's view shows its own hand only
    (not a teammate's), an observer's none, and nobody a deck."""
    state = api.new_game(sides_of(names), seed)

    def after_each(action, events):
        if any(event["type"] in ("turn_started", "combat_began") for event in events):
            views_hide_what_they_must(state)

    play_randomly(state, random.Random(play_seed), after_each)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**63),
    names=four_decks,
    play_seed=st.integers(),
    leaving=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 300)), max_size=3),
)
# Found by this property: the leaver's combatants destroyed while he assigned damage among
# them, and the combat action the game went back to after a tactic still his.
@example(seed=155486, names=["jedi", "sith", "rebel", "jedi"], play_seed=418, leaving=[(1, 167)])
@example(seed=280, names=["jedi", "rebel", "sith", "sith"], play_seed=1434154, leaving=[(0, 29)])
def test_players_leaving_at_random_moments_leave_a_game_that_plays_on(
    seed, names, play_seed, leaving
):
    """Leaving the game (MULTIPLAYER GAMES) at any moment, in turn or out of it, before the
    first turn, in a combat or while card text resolves: the game goes on for the others,
    or ends once a side has nobody left."""
    sides = sides_of(names)
    state = api.new_game(sides, seed)
    chooser = random.Random(play_seed)
    played: list[dict] = []
    while state.winner is None:
        assert state.turn <= TURN_CAP, "the game did not end"
        leavers = [
            seat for seat, moment in leaving if moment == len(played) and in_game(state, seat)
        ]
        if leavers:
            action = api.leave(leavers[0])
        else:
            action = chooser.choice(api.legal_actions(state).actions)
        events = api.apply(state, action)
        played.append(action)
        problems = invariant_violations(state, events)
        assert not problems, f"after action {len(played)} {action}: {problems}"
        if state.winner is None:
            assert in_game(state, state.deciding)

    check_game_over(state)
    assert api.to_json(api.replay(sides, seed, played)) == api.to_json(state)


@pytest.mark.parametrize("computers", [(0, 2), (1, 3), (0, 1, 2, 3), (2,)])
def test_the_computer_plays_any_seat_of_a_team_game_from_its_own_view(computers):
    """The greedy agent reads only ``view(state, seat)``, where its teammate's hand is
    hidden as anyone's; seated anywhere, beside random players, it finishes games."""
    names = [NAMES[seat % len(NAMES)] for seat in range(4)]
    state = api.new_game(sides_of(names), sum(computers))
    players = [GreedyAgent() if seat in computers else RandomAgent(seat) for seat in range(4)]
    while state.winner is None:
        assert state.turn <= TURN_CAP, "the game did not end"
        decision = api.legal_actions(state)
        api.apply(state, players[decision.seat].choose(state, decision))

    check_game_over(state)
