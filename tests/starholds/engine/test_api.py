"""The engine's contract (starholds/engine/api.py): whole games to their end with every invariant
checked after every action, illegal actions refused without a change, JSON round trips, replays,
leaving, and views that hide hands and decks."""

import pytest

from starholds.engine import api
from starholds.engine.invariants import invariant_violations
from tests.starholds.engine.builders import play_eagerly, play_randomly, simple_deck


def new(players: int, seed: int = 1) -> api.State:
    return api.new_game([simple_deck() for _ in range(players)], seed)


@pytest.mark.parametrize("players", [2, 3])
def test_games_of_simple_cards_play_to_their_end(players):
    """Victory Conditions: the last player left wins; the stall rule ends the others."""
    for seed in range(2):
        state = new(players, seed)
        play_eagerly(state, seed)
        assert state.phase == "over"
        assert state.result in ("last_standing", "round_limit", "round_limit_draw")
        if state.result == "last_standing":
            assert [player.alive for player in state.seats].count(True) == 1
            assert state.seats[state.winner].alive


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 6])
def test_larger_games_play_to_their_end(players):
    state = new(players, 3)
    play_eagerly(state, 3)
    assert state.phase == "over"


def test_random_games_keep_every_invariant():
    state = new(3, 7)
    play_randomly(state, 7)
    assert state.phase == "over"


def test_an_illegal_action_raises_and_changes_nothing():
    state = new(2)
    before = api.to_json(state)
    for action in ({"kind": "fly"}, {"kind": "engage", "card": 10_000}, {"kind": "fire"}):
        with pytest.raises(api.IllegalAction):
            api.apply(state, action)
        assert api.to_json(state) == before


def test_the_state_round_trips_through_json_and_replays_exactly():
    state = new(3, 5)
    actions = play_randomly(state, 5, limit=400)
    copy = api.from_json(api.to_json(state))
    assert api.to_json(copy) == api.to_json(state)
    replayed = api.replay([simple_deck() for _ in range(3)], 5, actions)
    assert api.to_json(replayed) == api.to_json(state)
    assert api.legal_actions(copy) == api.legal_actions(state)


def test_leaving_eliminates_the_player_and_his_cards_leave_play():
    state = new(3, 2)
    play_randomly(state, 2, limit=300)
    leaver = state.active
    events = api.leave(state, leaver)
    assert not state.seats[leaver].alive
    assert not any(
        entry.zone == "play" and leaver in (entry.owner, entry.controller) for entry in state.cards
    )
    assert {"type": "eliminated", "seat": leaver, "reason": "left"} in events
    assert invariant_violations(state, events) == []
    assert state.active != leaver
    with pytest.raises(api.IllegalAction):
        api.leave(state, leaver)


def test_the_last_player_left_wins_when_the_others_leave():
    state = new(3, 2)
    api.leave(state, 0)
    api.leave(state, 2)
    assert state.winner == 1 and state.result == "last_standing"
    assert api.legal_actions(state).actions == []


def test_a_view_shows_its_own_hand_only():
    state = new(3, 4)
    play_randomly(state, 4, limit=200)
    for seat in range(3):
        shown = api.view(state, seat)
        assert [card["id"] for card in shown["hand"]] == state.seats[seat].hand
        assert [other["hand"] for other in shown["seats"]] == [
            len(player.hand) for player in state.seats
        ]
    assert "hand" not in api.view(state, None)


def test_drawn_cards_are_named_to_their_drawer_only():
    events = []
    state = api.new_game([simple_deck(), simple_deck()], 9, events=events)
    draws = [event for event in events if event["type"] == "draw"]
    assert len(draws) == 2 * 9
    assert all("card" not in event for event in api.redact(draws, 0) if event["seat"] == 1)
    assert all("card" in event for event in api.redact(draws, 0) if event["seat"] == 0)
    assert state.seats[0].hand and len(state.seats[0].hand) == 9
