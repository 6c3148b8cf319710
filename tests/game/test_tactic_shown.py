"""A tactic played is shown oversized over the playmat (rulebook, "Tactics": "You'll see an
oversized version of any tactic that's played appear on the screen. Then that tactic is
discarded."): each screen that follows the match, the players' and an observer's, carries the
tactic in the update that brings its play, and no later one."""

import re

import pytest
from django.urls import reverse

from game import fragments
from game.engine import api as engine
from game.engine.positions import Placed, Position, SeatSetup, build
from game.models import Game
from game.selectors import game_state, match_screen
from game.services.matches import game_act
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

TACTIC = "Think Fast"


def raid_with_a_tactic_in_hand(match) -> int:
    """The match's first game set up, through the position builder: Carol (seat 0, the Jedi
    starter) in her Main Phase of turn 3 with a unit at Bob's quest, where Bob has one too,
    and Think Fast in her hand with the power to play it. Her raid begins a combat in which
    she may play it; the tactic's card id. (The game's log is emptied: not replayable.)"""
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]

    def seat(decklist, *, hand=()):
        deck = list(decklist["deck"])
        cards = [next(card for card in deck if card["title"] == title) for title in hand]
        for card in cards:
            deck.remove(card)
        unit = next(card for card in deck if card["type"] == "unit")
        deck.remove(unit)
        return SeatSetup(
            avatar=decklist["avatar"],
            quests=decklist["quests"],
            hand=cards,
            playmat=(Placed(unit, quest=1),),
            deck=deck,
            power=5 if hand else None,
        )

    state = build(
        Position(seats=(seat(decklists[0], hand=(TACTIC,)), seat(decklists[1])), first=0, turn=3)
    )
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])
    return next(card for card in state.seats[0].hand if engine.card_titles(state)[card] == TACTIC)


def act(match, player, kind: str) -> None:
    """``player`` takes their one legal action of ``kind``."""
    game = Game.objects.filter(match=match).latest("number")
    (action,) = [
        each for each in engine.legal_actions(game_state(game)).actions if each["kind"] == kind
    ]
    game_act(match_id=match.pk, player=player, ply=game.applied, action=action)


def test_every_screen_that_follows_the_match_shows_the_tactic_just_played(carol, bob):
    match = start_match(carol, bob)
    tactic = raid_with_a_tactic_in_hand(match)
    observer = UserFactory(username="Dana")
    act(match, carol, "raid")
    viewers = (carol, bob, observer)
    before = {viewer: match_screen(match_id=match.pk, viewer=viewer) for viewer in viewers}

    act(match, carol, "play_tactic")

    for viewer in viewers:
        screen = match_screen(match_id=match.pk, viewer=viewer, logged=before[viewer].logged)
        assert screen.tactic["id"] == tactic
        assert (screen.tactic["title"], screen.tactic["player"]) == (TACTIC, "Carol")
        update, _ = fragments.match_screen_update(screen, replace_log=False, clear_error=True)
        shown = re.search(r'<figure class="tactic-shown" data-tactic="(\d+)".*?</figure>', update)
        assert int(shown.group(1)) == tactic
        face = reverse("cards:card_face", args=screen.tactic["face"])
        assert f'src="{face}?size=large"' in shown.group(0)
        assert 'width="340" height="476"' in shown.group(0)
        assert "Carol plays the tactic Think Fast." in shown.group(0)


def test_the_tactic_is_shown_once_not_on_a_first_look_nor_after_the_next_action(carol, bob):
    match = start_match(carol, bob)
    raid_with_a_tactic_in_hand(match)
    act(match, carol, "raid")
    act(match, carol, "play_tactic")
    shown = match_screen(match_id=match.pk, viewer=bob, logged=(1, 1))

    act(match, bob, "pass")

    assert shown.tactic is not None
    assert match_screen(match_id=match.pk, viewer=bob).tactic is None
    after = match_screen(match_id=match.pk, viewer=bob, logged=shown.logged)
    assert after.tactic is None
    update, _ = fragments.match_screen_update(after, replace_log=False, clear_error=True)
    assert "tactic-shown" not in update
