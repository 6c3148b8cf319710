"""A live match's hot path leaves nothing for the cyclic garbage collector: each action's
messages and views are freed by reference counting as soon as they are sent, so a web
process holding hundreds of matches is not stopped by collections (tcgsite/serving.py). A
nested function that refers to another, or to itself, would make a reference cycle on every
call; these tests catch one coming back into the engine's messages and views or the
playmat's selector."""

import gc
from contextlib import contextmanager

import pytest

from game.ai.agents import GreedyAgent
from game.engine import api as engine
from game.models import Game
from game.selectors import game_state, match_moment, match_screen
from game.services.matches import game_act
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

WATCHED_MODULES = ("game.engine", "game.selectors")


@contextmanager
def cycles_kept():
    """The objects found in reference cycles made inside the block, by their type's module
    and name."""
    found: list[str] = []
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found += [f"{type(each).__module__}.{type(each).__qualname__}" for each in gc.garbage]
        found += [
            f"{each.__module__}.{each.__qualname__}"
            for each in gc.garbage
            if callable(each) and hasattr(each, "__qualname__")
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def played_game(carol, bob, *, actions: int):
    match = start_match(carol, bob)
    agent = GreedyAgent()
    for _ in range(actions):
        game = Game.objects.filter(match=match).latest("number")
        state = game_state(game)
        decision = engine.legal_actions(state)
        player = carol if decision.seat == 0 else bob
        action = agent.choose(state, decision)
        game_act(match_id=match.pk, player=player, ply=game.applied, action=action)
    return match


def test_the_game_messages_and_views_of_every_seat_make_no_cycle(carol, bob):
    match = played_game(carol, bob, actions=40)
    game = Game.objects.filter(match=match).latest("number")
    state = game_state(game)
    events = list(game.opening_events)
    for logged in game.actions.order_by("number"):
        events += logged.events
    names, titles = ["Carol", "Bob"], engine.card_titles(state)

    with cycles_kept() as cycles:
        for viewer in (0, 1, None):
            lines = [engine.render(event, viewer, names, titles) for event in events]
            engine.view(state, viewer)

    assert len(lines) > 40
    assert not [kind for kind in cycles if kind.startswith(WATCHED_MODULES)]


def test_the_playmat_of_each_viewer_makes_no_cycle(carol, bob):
    match = played_game(carol, bob, actions=30)
    moment = match_moment(match_id=match.pk, with_recent_actions=True)
    logged = (moment.game.number, moment.game.applied - 5)

    with cycles_kept() as cycles:
        for viewer in (carol, bob):
            screen = match_screen(match_id=match.pk, viewer=viewer, logged=logged, moment=moment)

    assert screen.board["actions"] or screen.board["deciding"]
    assert not [kind for kind in cycles if kind.startswith(WATCHED_MODULES)]
