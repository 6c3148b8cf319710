"""Card Warnings (rulebook, PREFERENCES, Game/Playmat: "a warning dialog when you're about to
replace a card that has a restriction"; TYPES OF CARDS, "Restrictions": playing a card of the
restriction of one you have in play destroys that one and draws a card). The engine says which
card a play would destroy; the Prompt's button for that play carries the question, naming it,
for a player whose preference is on, and for nobody else."""

import re
from html import unescape

import pytest

from game import fragments
from game.engine import api as engine
from game.engine.positions import Placed, Position, SeatSetup, build, card_ids
from game.models import Game
from game.selectors import match_screen
from game.services.matches import game_act
from tests.game.conftest import player_with_deck, start_match

pytestmark = pytest.mark.django_db

# The Imperial starter deck's two weapons, and its armor.
IN_PLAY = "Officer's Sidearm"
REPLACING = "Regulation Blaster Rifle"
ARMOR = "Composite Trooper Plating"
# What Carol draws when the rifle replaces the sidearm: no copy of it is anywhere but her deck.
DRAWN = "Conscript Squad"
CAROL, BOB = 0, 1
WARNING = re.compile(r'data-action-card="(\d+)"[^>]*?data-warning="([^"]*)"')


def imperial_decklist_position(decklists: list[dict]) -> Position:
    """Carol (seat 0, the Imperial starter deck) in her Main Phase of turn 3 with Officer's
    Sidearm in play, Regulation Blaster Rifle and Composite Trooper Plating in her hand, the
    power to play them, and her deck's first card a Conscript Squad, whose every copy is in the
    deck; Bob (seat 1) with his deck alone."""
    deck = list(decklists[CAROL]["deck"])

    def take(title: str) -> dict:
        card = next(card for card in deck if card["title"] == title)
        deck.remove(card)
        return card

    in_play, hand = take(IN_PLAY), (take(REPLACING), take(ARMOR))
    top = next(card for card in deck if card["title"] == DRAWN)
    deck.remove(top)
    carol = SeatSetup(
        avatar=decklists[CAROL]["avatar"],
        quests=decklists[CAROL]["quests"],
        hand=hand,
        playmat=(Placed(in_play),),
        deck=(top, *deck),
        power=6,
        created=decklists[CAROL].get("created", ()),
    )
    bob = SeatSetup(
        avatar=decklists[BOB]["avatar"],
        quests=decklists[BOB]["quests"],
        deck=decklists[BOB]["deck"],
    )
    return Position(seats=(carol, bob), first=CAROL, turn=3)


def sidearm_to_replace(match) -> engine.State:
    """The match's first game set up as ``imperial_decklist_position`` (its log emptied: not
    replayable); the state."""
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]
    state = build(imperial_decklist_position(decklists))
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])
    return state


def imperial_match(bob_archetype: str = "sith"):
    carol = player_with_deck("Carol", "imperial")
    bob = player_with_deck("Bob", bob_archetype)
    return start_match(carol, bob), carol, bob


def play_action(state, title: str) -> dict:
    (action,) = [
        action
        for action in engine.legal_actions(state).actions
        if action["kind"] == "play" and action["card"] in card_ids(state, CAROL, title)[:1]
    ]
    return action


def warnings_shown(screen) -> dict[int, str]:
    """The questions of the Prompt's buttons, by the card each would play."""
    html = fragments.match_screen(screen)
    return {int(card): unescape(text) for card, text in WARNING.findall(html)}


def test_the_engine_names_the_card_a_restriction_would_destroy(catalog):
    match, _, _ = imperial_match()
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]
    state = build(imperial_decklist_position(decklists))
    (sidearm,) = state.seats[CAROL].items
    rifle, armor = state.seats[CAROL].hand

    assert engine.replaced_by_restriction(state, CAROL, rifle) == sidearm
    assert engine.replaced_by_restriction(state, CAROL, armor) is None
    # Bob has no weapon in play: the same card would destroy none of his.
    assert engine.replaced_by_restriction(state, BOB, rifle) is None

    events = engine.apply(state, play_action(state, REPLACING))

    destroyed = [event["card"] for event in events if event["type"] == "destroyed"]
    assert destroyed == [sidearm]


def test_the_play_that_would_destroy_a_card_asks_first_naming_it(catalog):
    match, carol, _ = imperial_match()
    state = sidearm_to_replace(match)
    rifle = card_ids(state, CAROL, REPLACING)[0]

    screen = match_screen(match_id=match.pk, viewer=carol)

    shown = warnings_shown(screen)
    assert list(shown) == [rifle]
    assert IN_PLAY in shown[rifle] and "will be destroyed" in shown[rifle]
    assert shown[rifle].startswith(f"Play {REPLACING}?")
    assert "weapon" in shown[rifle]


def test_with_the_preference_off_no_play_asks(catalog):
    match, carol, _ = imperial_match()
    sidearm_to_replace(match)
    carol.preferences.card_warnings = False
    carol.preferences.save()

    screen = match_screen(match_id=match.pk, viewer=carol)

    assert screen.board["actions"]
    assert warnings_shown(screen) == {}
    assert not any(action.get("warning") for action in screen.board["actions"])


def test_a_socket_asks_as_the_preference_stood_when_it_opened(catalog):
    """A match page's socket reads Card Warnings as it opens (the playmat's Settings… draw
    the page anew when it changes) and gives it to every screen it builds."""
    match, carol, _ = imperial_match()
    sidearm_to_replace(match)
    carol.preferences.card_warnings = False
    carol.preferences.save()

    asked = match_screen(match_id=match.pk, viewer=carol, card_warnings=True)
    not_asked = match_screen(match_id=match.pk, viewer=carol)

    assert len(warnings_shown(asked)) == 1
    assert warnings_shown(not_asked) == {}


def test_the_warning_goes_once_the_card_is_replaced(catalog):
    """Once the rifle is in play and the sidearm gone, nothing of Carol's hand would destroy a
    card: no play asks."""
    match, carol, _ = imperial_match()
    state = sidearm_to_replace(match)
    game_act(match_id=match.pk, player=carol, ply=0, action=play_action(state, REPLACING))

    screen = match_screen(match_id=match.pk, viewer=carol)

    assert screen.board["actions"]
    assert warnings_shown(screen) == {}
