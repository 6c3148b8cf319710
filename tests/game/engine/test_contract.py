"""The rules engine contract (docs/design.md): purity, legal actions, illegal actions, JSON, replay,
views without hidden information, events and their game messages, decklists."""

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine import actions, api
from game.engine.decklists import starter_decklists
from game.engine.events import TOLD_BY_ANOTHER
from game.engine.state import Card
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    decklist,
    item,
    keep_hands,
    put_in_hand,
    put_into_play,
    quest_at,
    start,
    unit,
)

ROOT = Path(__file__).resolve().parents[3]
SET_FILE = ROOT / "collection/cards/sets/01_embers-of-the-outer-rim.json"
SHOCHU = decklist(avatar("Shochu"), item("Field Kit"), unit("Trooper", attack=2))
PALADON = decklist(avatar("Paladon"), unit("Trooper", defense=1))


def play_randomly(state: api.State, seed: int, limit: int = 10_000) -> list[dict]:
    """Random legal actions until the game ends (or ``limit`` actions); the actions taken."""
    chooser = random.Random(seed)
    played = []
    while state.winner is None and len(played) < limit:
        action = chooser.choice(api.legal_actions(state).actions)
        api.apply(state, action)
        played.append(action)
    return played


def test_the_engine_imports_nothing_from_django():
    modules = [
        "game.engine.api",
        "game.engine.decklists",
        "game.engine.simulation",
        "game.ai.agents",
    ]
    code = (
        f"import sys\nfor name in {modules!r}: __import__(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )

    result = subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ("done", api.UnknownAction),
        ({"kind": "fly"}, api.UnknownAction),
        (actions.keep(), api.NotNow),
        (actions.assign_damage(0), api.NotNow),
        (actions.raid(0), api.NotAllowed),
        (actions.play(9999), api.NotAllowed),
        ({**actions.done(), "extra": 1}, api.NotAllowed),
    ],
)
def test_an_illegal_action_raises_a_clear_error_and_leaves_the_state_unchanged(action, error):
    state = start(SHOCHU, PALADON)
    keep_hands(state)
    before = api.to_json(state)

    with pytest.raises(error) as raised:
        api.apply(state, action)

    assert isinstance(raised.value, api.IllegalAction)
    assert str(raised.value)
    assert api.to_json(state) == before


def test_a_unit_played_to_a_quest_that_is_not_on_the_playmat_is_not_allowed():
    state = start(SHOCHU, PALADON)
    trooper = put_in_hand(state, FIRST, "Trooper")
    keep_hands(state)

    with pytest.raises(api.NotAllowed, match="legal ones of its kind"):
        api.apply(state, actions.play(trooper, quest=trooper))


def test_legal_actions_name_the_one_seat_that_decides_and_the_decision():
    state = start(SHOCHU, PALADON, first=SECOND)

    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (SECOND, "redraw")
    assert decision.prompt
    assert decision.as_dict()["actions"] == [{"kind": "keep"}, {"kind": "redraw"}]


def test_the_state_survives_a_json_round_trip_mid_combat():
    state = start(SHOCHU, PALADON)
    put_into_play(state, FIRST, "Trooper", at=0)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    assert state.combat is not None

    text = api.to_json(state)

    assert api.from_json(text) == state
    assert api.to_json(api.from_json(text)) == text


def test_what_the_engine_caches_about_a_game_is_neither_saved_nor_compared():
    decks = starter_decklists(SET_FILE)
    state = api.new_game([decks["jedi"], decks["imperial"]], seed=5)
    play_randomly(state, seed=5, limit=200)
    api.view(state, FIRST)

    text = api.to_json(state)
    restored = api.from_json(text)

    assert "caches" not in json.loads(text)
    assert state.caches.index is not None
    assert restored.caches.index is None
    assert restored == state
    assert api.legal_actions(restored).as_dict() == api.legal_actions(state).as_dict()


def test_a_seed_and_the_applied_actions_replay_the_game_exactly():
    decks = starter_decklists(SET_FILE)
    decklists = [decks["jedi"], decks["imperial"]]
    state = api.new_game(decklists, seed=42)
    played = play_randomly(state, seed=42)

    replayed = api.replay(decklists, 42, played)

    assert api.to_json(replayed) == api.to_json(state)
    assert state.winner is not None


def test_two_cards_that_differ_in_any_field_are_not_equal():
    """A replay is checked by comparing states, so every field of a card counts."""
    card = Card(definition=1, owner=0, controller=0)

    for field in dataclasses.fields(Card):
        value = getattr(card, field.name)
        if isinstance(value, bool):
            changed = not value
        elif isinstance(value, list):
            changed = [*value, "raid"]
        elif isinstance(value, str):
            changed = f"{value}attack"
        else:
            changed = value + 1
        assert dataclasses.replace(card, **{field.name: changed}) != card, field.name
    assert dataclasses.replace(card) == card
    assert card != card.definition


def test_a_replay_unchecked_reaches_the_same_state_as_a_checked_one():
    decks = starter_decklists(SET_FILE)
    decklists = [decks["rebel"], decks["sith"]]
    state = api.new_game(decklists, seed=7)
    played = play_randomly(state, seed=7)

    replayed = api.replay(decklists, 7, played, checked=False)

    assert api.to_json(replayed) == api.to_json(state)


def test_a_replay_unchecked_still_refuses_an_action_of_a_kind_not_possible_now():
    decks = starter_decklists(SET_FILE)
    decklists = [decks["jedi"], decks["imperial"]]

    with pytest.raises(api.NotNow):
        api.replay(decklists, 3, [{"kind": "done"}], checked=False)
    with pytest.raises(api.UnknownAction):
        api.replay(decklists, 3, [{"kind": "cheat"}], checked=False)


def test_a_replay_unchecked_refuses_actions_after_the_end():
    decks = starter_decklists(SET_FILE)
    decklists = [decks["jedi"], decks["imperial"]]
    state = api.new_game(decklists, seed=5)
    played = play_randomly(state, seed=5)

    with pytest.raises(api.GameOver):
        api.replay(decklists, 5, [*played, {"kind": "pass"}], checked=False)


def test_a_decklist_without_a_card_its_cards_create_is_refused_unless_checked_before():
    smuggler = ability(
        "Counterfeit Credits", rules={"keywords": [{"keyword": "smuggle", "card": "Credit Chip"}]}
    )
    decklists = [decklist(avatar("Jason"), smuggler), decklist(avatar("Tyler"))]

    with pytest.raises(api.InvalidDecklist, match="'Counterfeit Credits' creates Credit Chip"):
        api.new_game(decklists, seed=1)
    with pytest.raises(api.InvalidDecklist, match="creates Credit Chip"):
        api.replay(decklists, 1, [])
    # A replay unchecked is for decklists that passed when their game began.
    assert api.replay(decklists, 1, [], checked=False).winner is None


def test_a_seat_sees_its_own_hand_and_quest_pile_and_only_counts_of_the_others():
    state = start(SHOCHU, PALADON)
    keep_hands(state)

    seen = api.view(state, FIRST)

    mine, theirs = seen["players"]
    assert [card["id"] for card in mine["hand"]] == state.seats[FIRST].hand
    assert [card["id"] for card in mine["quest_pile"]] == state.seats[FIRST].quest_pile
    assert (theirs["hand"], theirs["quest_pile"]) == (None, None)
    assert (theirs["hand_count"], theirs["quest_pile_count"], theirs["deck_count"]) == (6, 3, 15)
    assert "deck" not in mine
    assert seen["decision"]["actions"] == api.legal_actions(state).actions


def test_an_observer_sees_no_hand_no_quest_pile_and_no_legal_actions():
    state = start(SHOCHU, PALADON)
    keep_hands(state)

    seen = api.view(state, None)

    assert all(player["hand"] is None for player in seen["players"])
    assert all(player["quest_pile"] is None for player in seen["players"])
    assert "actions" not in seen["decision"]
    assert "actions" not in api.view(state, SECOND)["decision"]
    assert seen["decision"]["seat"] == FIRST


def test_game_messages_name_the_drawn_card_only_to_the_player_who_drew_it():
    state = start(SHOCHU, PALADON)
    field_kit = put_in_hand(state, FIRST, "Field Kit")
    draw = {"type": "draw", "seat": FIRST, "card": field_kit}
    names, titles = ["Shochu", "Paladon"], api.card_titles(state)

    assert api.render(draw, FIRST, names, titles) == "* You draw Field Kit."
    assert api.render(draw, SECOND, names, titles) == "* Shochu draws a card."
    assert api.render(draw, None, names, titles) == "* Shochu draws a card."
    assert api.redact(draw, SECOND) == {"type": "draw", "seat": FIRST}


def test_a_game_message_tells_its_card_names_apart_naming_a_drawn_card_to_its_player_alone():
    state = start(SHOCHU, PALADON)
    field_kit = put_in_hand(state, FIRST, "Field Kit")
    draw = {"type": "draw", "seat": FIRST, "card": field_kit}
    names, titles = ["Shochu", "Paladon"], api.card_titles(state)

    assert api.render_parts(draw, FIRST, names, titles) == [
        ("* You draw ", False),
        ("Field Kit", True),
        (".", False),
    ]
    for viewer in (SECOND, None):
        assert api.render_parts(draw, viewer, names, titles) == [("* Shochu draws a card.", False)]


def test_every_game_message_of_a_whole_game_is_its_parts_joined_each_name_a_title():
    decks = starter_decklists(SET_FILE)
    events: list[dict] = []
    state = api.new_game([decks["jedi"], decks["imperial"]], seed=5, events=events)
    chooser = random.Random(5)
    while state.winner is None:
        events += api.apply(state, chooser.choice(api.legal_actions(state).actions))
    titles = api.card_titles(state)

    named = 0
    for viewer in (None, FIRST, SECOND):
        for event in events:
            parts = api.render_parts(event, viewer, ["Shochu", "Paladon"], titles)
            assert "".join(text for text, _ in parts) == api.render(
                event, viewer, ["Shochu", "Paladon"], titles
            )
            assert all(text in titles for text, card in parts if card)
            named += sum(card for _, card in parts)
    assert named > len(events)


def test_every_event_of_a_whole_game_is_a_typed_dict_with_a_game_message_for_everyone():
    decks = starter_decklists(SET_FILE)
    events: list[dict] = []
    state = api.new_game([decks["rebel"], decks["sith"]], seed=3, events=events)
    chooser = random.Random(3)
    while state.winner is None:
        events += api.apply(state, chooser.choice(api.legal_actions(state).actions))
    titles = api.card_titles(state)

    for viewer in (None, FIRST, SECOND):
        lines = [api.render(event, viewer, ["Shochu", "Paladon"], titles) for event in events]
        # Each has its line, but those another event's line tells (a hit's damage taken).
        assert all(
            line.startswith("* ") or (line == "" and event["type"] in TOLD_BY_ANOTHER)
            for event, line in zip(events, lines, strict=True)
        )
    assert any(event["type"] in TOLD_BY_ANOTHER for event in events)
    assert len({event["type"] for event in events}) >= 20
    assert events[-1]["type"] == "game_won"


def test_starter_decklists_hold_an_avatar_four_quests_and_a_deck_of_53_cards():
    decks = starter_decklists(SET_FILE)

    assert sorted(decks) == ["imperial", "jedi", "rebel", "sith"]
    for decklist_ in decks.values():
        assert decklist_["avatar"]["type"] == "avatar"
        assert sorted(quest["level"] for quest in decklist_["quests"]) == [2, 4, 5, 6]
        assert len(decklist_["deck"]) == 53


def test_a_decklist_with_a_quest_in_the_deck_is_refused():
    wrong = {**SHOCHU, "deck": [*SHOCHU["deck"], SHOCHU["quests"][0]]}

    with pytest.raises(api.InvalidDecklist, match="quest"):
        api.new_game([wrong, PALADON], seed=1)


def test_an_action_equal_to_a_legal_one_is_carried_out_as_the_legal_one():
    state = start(SHOCHU, PALADON)
    field_kit = put_in_hand(state, FIRST, "Field Kit")
    keep_hands(state)

    api.apply(state, {"kind": "play", "card": float(field_kit)})

    assert state.seats[FIRST].items == [field_kit]
    assert isinstance(state.seats[FIRST].items[0], int)
