"""The Chat Log's card names (rulebook, THE GAME SCREEN, "Game Messages": "Cards mentioned in
the Log will be underlined, and in colored text. You can click on any of these underlined names
to make a magnified image of that card appear"): each name the log gives is a button carrying
the card's face, for players, observers and replays alike. The log is built for its viewer: a
card he may not see is never named, neither by title nor by face, and no card id is given."""

import re
from html import unescape

import pytest
from django.urls import reverse

from game.selectors import match_faces, match_replay, match_screen
from game.services.matches import game_act, match_concede
from tests.factories import UserFactory
from tests.game.conftest import play_at_random, start_match
from tests.game.test_card_warnings import (
    DRAWN,
    IN_PLAY,
    REPLACING,
    imperial_match,
    play_action,
    sidearm_to_replace,
)

pytestmark = pytest.mark.django_db

CARD_NAME = re.compile(
    r'<button type="button" class="log-card"( data-zoom="([^"]*)")?[^>]*>(.*?)</button>'
)


def named_cards(lines: list[str]) -> list[tuple[str, str | None]]:
    """Each card the log's lines name: (title, the face it magnifies)."""
    return [
        (unescape(title), unescape(face) if face else None)
        for line in lines
        for _, face, title in CARD_NAME.findall(str(line))
    ]


def face_of(match, title: str) -> str:
    face = match_faces(match, match.seats.all())[title]
    return f"{reverse('cards:card_face', args=face)}?size=large"


def test_the_log_names_the_cards_each_viewer_sees_and_never_a_hidden_one(catalog):
    """Carol's rifle replaces her sidearm and she draws a Conscript Squad: her log names all
    three, each a button magnifying its face; Bob's and an observer's name the rifle and the
    sidearm, and say she draws a card, with no trace of the squad."""
    match, carol, bob = imperial_match()
    state = sidearm_to_replace(match)
    game_act(match_id=match.pk, player=carol, ply=0, action=play_action(state, REPLACING))
    observer = UserFactory(username="Dana")

    logs = {
        viewer: match_screen(match_id=match.pk, viewer=viewer).log
        for viewer in (carol, bob, observer)
    }

    mine = logs[carol]
    assert named_cards(mine) == [
        (REPLACING, face_of(match, REPLACING)),
        (IN_PLAY, face_of(match, IN_PLAY)),
        (DRAWN, face_of(match, DRAWN)),
    ]
    assert any(f">{DRAWN}</button>" in line and "You draw" in line for line in mine)
    for viewer in (bob, observer):
        theirs = "".join(logs[viewer])
        assert named_cards(logs[viewer]) == [
            (REPLACING, face_of(match, REPLACING)),
            (IN_PLAY, face_of(match, IN_PLAY)),
        ]
        assert "* Carol draws a card." in unescape(re.sub(r"<[^>]+>", "", theirs))
        assert DRAWN not in theirs and face_of(match, DRAWN).split("?")[0] not in theirs
    for log in logs.values():
        assert "data-card" not in "".join(log)


def test_a_replay_names_a_drawn_card_only_in_its_players_own_view(carol, bob):
    """A finished match's replay: its public view's log says who drew a card and names none of
    the cards drawn; Carol's own view names hers, each a button with its face."""
    match = start_match(carol, bob)
    play_at_random(match, 30, seed=5)
    match_concede(match_id=match.pk, player=bob)

    public = match_replay(
        match_id=match.pk, viewer=carol, game_number=None, step=None, own_view=False
    )
    own = match_replay(match_id=match.pk, viewer=carol, game_number=None, step=None, own_view=True)

    public_draws = [line for line in public.log if "draws" in line]
    own_draws = [line for line in own.log if "You draw" in line]
    assert public_draws and own_draws
    assert not named_cards(public_draws)
    drawn = named_cards(own_draws)
    assert drawn and all(face == face_of(match, title) for title, face in drawn)
    # What is public is named in both: the avatars and quests played, the cards played.
    assert named_cards(public.log)
    assert set(named_cards(public.log)) <= set(named_cards(own.log))
