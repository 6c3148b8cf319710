"""Player Tips on the rulebook's eight screens (PREFERENCES, Hide Player Tips) that the page
tests of tests/accounts/test_preferences.py don't reach: the Trade screen's, and the game
screen's Excessive Attack and Quest Filled, which show while their moment lasts; and the
playmat's sound cues (game/cues.py), each built on a position."""

import pytest
from django.urls import reverse

from game.cues import playmat_cues
from game.engine import api as engine
from game.engine.actions import raid
from game.engine.positions import Position, SeatSetup, build
from game.models import Game, MatchStatus
from game.selectors import game_state, match_screen
from game.services.matches import game_act
from tcgsite.accounts.models import Preferences, TipScreen
from tcgsite.lobbies.fragments import chat_line
from tcgsite.lobbies.models import ChatKind, ChatMessage
from tests.game.conftest import player_with_deck, start_match
from tests.game.test_match_batches import raid_position
from tests.trades.live_helpers import open_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(catalog):
    return player_with_deck("Carol", "jedi")


@pytest.fixture
def bob(catalog):
    return player_with_deck("Bob", "sith")


INTERFACE = reverse("accounts:preferences", args=["interface"])
# The User Interface page as a browser sends it, with no tips hidden.
INTERFACE_SETTINGS = {
    "card_size_collection": "medium",
    "card_size_deck": "small",
    "lobby_messages": "on",
    "request_attention": "on",
}


def hidden_tips(player) -> list[str]:
    return Preferences.objects.get(user=player).hidden_tips


def test_the_trade_screens_tips_hide_and_come_back_from_preferences(client, carol, bob):
    session = open_session(carol, bob)
    client.force_login(carol)
    screen = reverse("trades:live_screen", args=[session.pk])
    assert 'id="tips-trade"' in client.get(screen).content.decode()

    client.post(reverse("accounts:hide_tips", args=[TipScreen.TRADE]), {"next": screen})

    assert hidden_tips(carol) == [TipScreen.TRADE]
    assert 'id="tips-trade"' not in client.get(screen).content.decode()
    assert 'value="trade" id="id_hidden_tips_3" checked' in client.get(INTERFACE).content.decode()
    client.post(INTERFACE, INTERFACE_SETTINGS)
    assert hidden_tips(carol) == []
    assert 'id="tips-trade"' in client.get(screen).content.decode()


def current_state(match):
    return game_state(Game.objects.filter(match=match).latest("number"))


def cues_of(match, player) -> dict:
    return match_screen(match_id=match.pk, viewer=player).board["cues"]


@pytest.fixture
def carol_raids(carol, bob):
    """Carol (seat 0) raids Bob's quest with three ready units, his two units there exerted
    (tests/game/test_match_batches.py ``raid_position``); the raid has begun."""
    match = start_match(carol, bob)
    quest = engine.from_json(raid_position(match, raider=0)).quests[1].card
    game_act(match_id=match.pk, player=carol, ply=0, action=raid(quest))
    return match


def test_excessive_attack_is_due_once_the_attack_beats_the_defense(carol_raids, carol, bob):
    match = carol_raids
    assert TipScreen.EXCESSIVE_ATTACK not in cues_of(match, carol)["tips"]
    state = current_state(match)
    exerting = next(a for a in engine.legal_actions(state).actions if a["kind"] == "exert")

    game_act(match_id=match.pk, player=carol, ply=state.applied, action=exerting)

    assert TipScreen.EXCESSIVE_ATTACK in cues_of(match, carol)["tips"]
    assert TipScreen.EXCESSIVE_ATTACK not in cues_of(match, bob)["tips"]


def test_the_match_page_holds_the_game_screens_tips_until_hidden(client, carol_raids, carol):
    page = reverse("game:match_page", args=[carol_raids.pk])
    client.force_login(carol)
    for screen in (TipScreen.EXCESSIVE_ATTACK, TipScreen.QUEST_FILLED):
        assert f'data-game-tip="{screen}"' in client.get(page).content.decode()

        client.post(reverse("accounts:hide_tips", args=[screen]), {"next": page})

        assert f'data-game-tip="{screen}"' not in client.get(page).content.decode()
    client.post(INTERFACE, INTERFACE_SETTINGS)
    shown_again = client.get(page).content.decode()
    assert 'data-game-tip="excessive_attack"' in shown_again
    assert 'data-game-tip="quest_filled"' in shown_again


def filled_quest_position(match, tokens: int) -> None:
    """Carol (seat 0) in her Main Phase with ``tokens`` of her level tokens at her own level 2
    quest, as a moving effect leaves them."""
    setups = []
    for seat in match.seats.order_by("seat"):
        decklist = seat.decklist
        setups.append(
            SeatSetup(
                avatar=decklist["avatar"],
                quests=decklist["quests"],
                deck=decklist["deck"],
                tokens=(tokens, 0) if seat.seat == 0 else (),
            )
        )
    state = build(Position(seats=tuple(setups), first=0, turn=3))
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])


@pytest.mark.parametrize(("tokens", "due"), [(1, False), (2, True), (3, True)])
def test_quest_filled_is_due_while_a_quest_holds_enough_tokens(carol, bob, tokens, due):
    match = start_match(carol, bob)
    filled_quest_position(match, tokens)

    assert (TipScreen.QUEST_FILLED in cues_of(match, carol)["tips"]) is due
    assert TipScreen.QUEST_FILLED not in cues_of(match, bob)["tips"]


def sounds(cues: dict) -> dict[str, str]:
    return {sound["name"]: sound["key"] for sound in cues["sounds"]}


def test_your_turn_sounds_for_the_active_player_alone(carol, bob):
    match = start_match(carol, bob)
    filled_quest_position(match, 0)
    number = Game.objects.filter(match=match).latest("number").number

    assert sounds(cues_of(match, carol)) == {"your_turn": f"turn-{number}-3"}
    assert sounds(cues_of(match, bob)) == {}


def test_a_raid_sounds_for_its_defender_once_per_raid(carol_raids, carol, bob):
    state = current_state(carol_raids)
    quest = state.quests[1]

    heard = sounds(cues_of(carol_raids, bob))

    assert heard == {"raid": f"raid-1-3-{quest.card}-{quest.raids}"}
    assert "raid" not in sounds(cues_of(carol_raids, carol))


def test_the_end_of_a_game_sounds_for_both_players_and_no_turn_then(carol_raids, carol, bob):
    carol_raids.status = MatchStatus.FINISHED
    carol_raids.save(update_fields=["status"])

    for player in (carol, bob):
        assert sounds(cues_of(carol_raids, player)) == {"game_end": "end-1"}


def test_an_observer_hears_nothing_and_gets_no_tip():
    view = {"winner": None, "active": 0, "turn": 1, "combat": None, "quests": []}

    assert playmat_cues(view, None, game_number=1, over=False) == {"sounds": [], "tips": []}


def test_a_whisper_received_carries_its_sound_cue_and_one_sent_none(carol, bob):
    message = ChatMessage.objects.create(
        lobby="casual", sender=carol, recipient=bob, kind=ChatKind.WHISPER, text="psst"
    )

    received = chat_line(message, viewer_id=bob.pk)

    assert f'data-sound-cue="whisper" data-sound-key="whisper-{message.pk}"' in received
    assert "data-sound-cue" not in chat_line(message, viewer_id=carol.pk)
