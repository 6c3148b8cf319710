"""The live games' states a web process keeps (game.live_states): the next action on a game
starts from the state its last announcement carried, never from a state that is not the
stored game's."""

import random
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import selectors
from game.engine import api as engine
from game.live_states import LiveStates, PackedHere, live_states, pack_state
from game.models import Game, Match, MatchSeat
from game.selectors import MatchMoment, game_state, game_state_at, match_moment
from game.services import matches
from game.services.matches import game_act
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db


def game_like(pk=1, salt="a", applied=0):
    return SimpleNamespace(pk=pk, seed_salt=salt, applied=applied)


@pytest.fixture
def a_state(carol, bob):
    match = start_match(carol, bob)
    return game_state(Game.objects.get(match=match))


def test_a_kept_state_is_taken_only_by_its_game_at_its_number_of_actions_each_a_copy(a_state):
    kept = LiveStates(size=4)
    kept.keep(game_like(applied=3), a_state)

    assert kept.take(game_like(applied=2)) is None
    assert kept.take(game_like(applied=4)) is None
    # The same id with another salt is another game (an id a deleted game had).
    assert kept.take(game_like(salt="b", applied=3)) is None
    first, second = kept.take(game_like(applied=3)), kept.take(game_like(applied=3))
    assert engine.to_json(first) == engine.to_json(a_state)
    first.turn += 5
    first.seats[0].hand.pop()
    first.cards[first.seats[1].avatar].damage += 3
    assert second.turn == a_state.turn == kept.take(game_like(applied=3)).turn
    # The kept state, which the announcement's screens share, is never the one changed.
    assert engine.to_json(second) == engine.to_json(a_state)
    assert engine.to_json(kept.take(game_like(applied=3))) == engine.to_json(a_state)


def test_an_earlier_state_never_replaces_a_later_one_and_the_oldest_games_are_forgotten(
    a_state,
):
    kept = LiveStates(size=2)
    later = engine.from_json(engine.to_json(a_state))
    later.turn += 1
    kept.keep(game_like(applied=5), later)
    kept.keep(game_like(applied=4), a_state)  # announced late
    assert kept.take(game_like(applied=4)) is None
    assert kept.take(game_like(applied=5)).turn == later.turn

    kept.keep(game_like(pk=2), a_state)
    kept.keep(game_like(pk=1, applied=6), a_state)  # game 1 kept again
    kept.keep(game_like(pk=3), a_state)
    assert kept.take(game_like(pk=2)) is None
    assert kept.take(game_like(pk=1, applied=6)) is not None
    assert kept.take(game_like(pk=3)) is not None


@pytest.fixture
def shipped(monkeypatch) -> list[dict]:
    """The payloads of the messages the match service sends, in order, instead of sending
    them."""
    payloads = []
    monkeypatch.setattr(
        matches, "send_on_commit", lambda **message: payloads.append(message["payload"])
    )
    return payloads


def seated_players(match: Match) -> dict:
    return {seat.seat: seat.player for seat in MatchSeat.objects.filter(match=match)}


def state_reads(queries) -> list[str]:
    table = Game._meta.db_table
    return [
        each["sql"]
        for each in queries
        if each["sql"].startswith("SELECT") and f'"{table}"."state"' in each["sql"]
    ]


def test_the_next_action_starts_from_the_announced_state_without_reading_the_stored_one(
    carol, bob, shipped
):
    """Played to 30 actions, each announced (its moment unpacked as a web process does): no
    action reads the game's stored JSON, and each leaves the game as stored, which a fresh
    decoding of the stored JSON confirms."""
    match = start_match(carol, bob)
    players = seated_players(match)
    game = Game.objects.get(match=match)
    live_states.keep(game, game_state(game))
    chooser = random.Random(5)

    for _ in range(30):
        state = game_state(game)
        decision = engine.legal_actions(state)
        with CaptureQueriesContext(connection) as queries:
            game_act(
                match_id=match.pk,
                player=players[decision.seat],
                ply=game.applied,
                action=chooser.choice(decision.actions),
            )
        assert state_reads(queries.captured_queries) == []
        moments = [payload["moment"] for payload in shipped if "moment" in payload]
        shipped.clear()
        if not moments:
            break  # the game ended: an ending is read afresh
        moment = MatchMoment.unpack(moments[-1])
        game.refresh_from_db()
        assert engine.to_json(moment.state) == engine.to_json(game_state(game))


def test_an_action_on_a_game_whose_state_is_not_kept_reads_the_stored_one(carol, bob):
    match = start_match(carol, bob)
    game = Game.objects.get(match=match)
    live_states.keep(game_like(pk=game.pk, salt=game.seed_salt, applied=99), game_state(game))
    state = game_state(game)
    decision = engine.legal_actions(state)
    player = MatchSeat.objects.get(match=match, seat=decision.seat).player

    with CaptureQueriesContext(connection) as queries:
        game_act(match_id=match.pk, player=player, ply=0, action=decision.actions[0])

    assert len(state_reads(queries.captured_queries)) == 1
    assert Match.objects.get(pk=match.pk).games.get().applied >= 1


def test_a_match_read_for_a_screen_keeps_its_state_for_the_processs_first_action(carol, bob):
    """A process that has shown a match (a socket's first look, or a move's announcement read
    afresh) starts its first action on it from that state, not from the stored JSON."""
    match = start_match(carol, bob)
    game = Game.objects.get(match=match)
    live_states.kept.clear()
    match_moment(match_id=match.pk)
    decision = engine.legal_actions(game_state(game))
    player = MatchSeat.objects.get(match=match, seat=decision.seat).player

    with CaptureQueriesContext(connection) as queries:
        game_act(match_id=match.pk, player=player, ply=0, action=decision.actions[0])

    assert state_reads(queries.captured_queries) == []
    game.refresh_from_db()
    assert game.applied >= 1


@pytest.fixture
def first_action_shipped(carol, bob, shipped) -> tuple[Game, bytes]:
    """A match's first action, played: its game as stored, and the moment it shipped."""
    match = start_match(carol, bob)
    game = Game.objects.get(match=match)
    decision = engine.legal_actions(game_state(game))
    player = MatchSeat.objects.get(match=match, seat=decision.seat).player
    game_act(match_id=match.pk, player=player, ply=0, action=decision.actions[0])
    (packed,) = [payload["moment"] for payload in shipped if "moment" in payload]
    game.refresh_from_db()
    return game, packed


def unpacked_elsewhere(packed: bytes, monkeypatch) -> MatchMoment:
    """The moment as another web process unpacks it: one that did not pack it."""
    monkeypatch.setattr(selectors, "packed_here", PackedHere(size=4))
    return MatchMoment.unpack(packed)


def test_a_shipped_moment_carries_its_actions_and_neither_the_state_nor_the_stored_json(
    first_action_shipped, monkeypatch
):
    """A process that keeps the state the action started from applies the action to it: it
    reads nothing, and reaches the state stored."""
    game, packed = first_action_shipped
    before = game_state_at(game, applied=0)
    assert game.state[:200].encode() not in packed
    assert pack_state(game_state(game)) not in packed
    live_states.kept.clear()
    live_states.keep(game_like(pk=game.pk, salt=game.seed_salt, applied=0), before)

    with CaptureQueriesContext(connection) as queries:
        moment = unpacked_elsewhere(packed, monkeypatch)

    assert queries.captured_queries == []
    assert engine.to_json(moment.state) == engine.to_json(game_state(game))
    assert engine.to_json(live_states.take(game)) == engine.to_json(game_state(game))


def test_a_process_without_the_state_before_a_shipped_moment_reads_it_at_the_moments_action(
    carol, bob, shipped, monkeypatch
):
    """Even when the game has gone on past its next snapshot since, the moment's state is the
    game's at the moment, not as it stands."""
    monkeypatch.setattr(matches, "SNAPSHOT_ACTIONS", 3)
    match = start_match(carol, bob)
    players = seated_players(match)
    game = Game.objects.get(match=match)
    chooser = random.Random(3)
    states = {}
    while game.applied < 8 and game.ended is None:
        decision = engine.legal_actions(game_state(game))
        action = chooser.choice(decision.actions)
        game_act(match_id=match.pk, player=players[decision.seat], ply=game.applied, action=action)
        game.refresh_from_db()
        states[game.applied] = engine.to_json(game_state(game))
    moments = [payload["moment"] for payload in shipped if "moment" in payload]
    assert game.state_applied > 2  # snapshots were stored after the first moments

    live_states.kept.clear()
    for packed in moments[:3]:
        moment = unpacked_elsewhere(packed, monkeypatch)
        assert engine.to_json(moment.state) == states[moment.game.applied]
        live_states.kept.clear()


def test_the_stored_state_is_a_snapshot_every_few_actions_and_at_the_end_and_replays_between(
    carol, bob, monkeypatch
):
    """docs/design.md and the live matches issue, "periodic snapshots": every action is in the log
    when it is accepted, the whole state every ``SNAPSHOT_ACTIONS`` actions and at the end;
    the state is the snapshot with the log's later actions replayed."""
    monkeypatch.setattr(matches, "SNAPSHOT_ACTIONS", 4)
    match = start_match(carol, bob)
    players = seated_players(match)
    game = Game.objects.get(match=match)
    chooser = random.Random(11)
    snapshots = set()

    while game.ended is None:
        before = game.state
        state = game_state(game)
        decision = engine.legal_actions(state)
        action = chooser.choice(decision.actions)
        game_act(match_id=match.pk, player=players[decision.seat], ply=game.applied, action=action)
        engine.apply(state, action)
        game.refresh_from_db()
        assert game.applied - game.state_applied < 4
        if game.state_applied == game.applied:
            snapshots.add(game.applied)
        elif game.state != before:
            raise AssertionError("the stored state changed between two snapshots")
        if game.ended is None:
            # Replayed from its snapshot, the game is where the action (and the passes of
            # Pass When Out of Actions, none here) left it.
            assert engine.to_json(game_state(game)) == engine.to_json(state)

    assert game.state_applied == game.applied  # the end is stored whole
    assert len(snapshots) >= game.applied // 4
    log = list(game.actions.order_by("number").values_list("action", flat=True))
    assert engine.to_json(engine.replay(game.decklists, game.seed, log)) == game.state


def test_the_process_that_packed_a_moment_takes_it_back_as_made_and_others_unpack_a_copy(
    first_action_shipped, monkeypatch
):
    game, packed = first_action_shipped

    here = MatchMoment.unpack(packed)
    assert MatchMoment.unpack(bytes(bytearray(packed))) is here  # the bytes, however carried
    assert engine.to_json(live_states.take(game)) == engine.to_json(game_state(game))

    live_states.kept.clear()
    elsewhere = unpacked_elsewhere(packed, monkeypatch)
    assert elsewhere is not here and elsewhere.state is not here.state
    assert engine.to_json(elsewhere.state) == engine.to_json(here.state)
    assert [seat.player.username for seat in elsewhere.seats] == [
        seat.player.username for seat in here.seats
    ]
    assert engine.to_json(live_states.take(game)) == engine.to_json(game_state(game))


def test_what_a_process_packed_is_forgotten_beyond_its_size():
    here = PackedHere(size=2)
    for number in range(3):
        here.keep(f"packed {number}".encode(), number)
    assert here.original(b"packed 0") is None
    assert [here.original(f"packed {number}".encode()) for number in (1, 2)] == [1, 2]
