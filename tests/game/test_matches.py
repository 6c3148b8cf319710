"""Casual matches through their services (rulebook, Casual Lobby: "Creating a Match",
"Joining a Match", "Launching Matches"; docs/design.md, "Live play")."""

import hashlib
import random
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from game.engine import api as engine
from game.models import GameAction, Match, MatchSeat, MatchStatus, MatchStructure
from game.selectors import MatchMoment, game_state, match_moment
from game.services import matches
from game.services.chat import match_chat_submit
from game.services.matches import (
    MatchError,
    MatchSettings,
    game_act,
    match_concede,
    match_create,
    match_first_choose,
    match_join,
    match_leave,
    match_next_games_sweep,
    match_pass_if_out_of_actions,
    match_ready,
)
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.services.chat import ChatError
from tcgsite.lobbies.services.moderation import chat_mute
from tests.factories import DeckFactory, UserFactory
from tests.game.conftest import player_with_deck, start_match

pytestmark = pytest.mark.django_db


def started(carol, bob, **settings):
    return start_match(carol, bob, **settings)


def deciding_player(match, carol, bob):
    game = match.games.order_by("-number").first()
    seat = engine.legal_actions(game_state(game)).seat
    return game, MatchSeat.objects.get(match=match, seat=seat).player


def test_a_match_is_titled_after_its_host_by_default_and_keeps_only_a_password_hash(carol):
    match = match_create(
        host=carol, deck=carol.deck, settings=MatchSettings(title="  ", password="Secret")
    )

    assert match.title == "Carol"
    assert match.status == MatchStatus.OPEN
    assert "Secret" not in match.password
    assert list(match.seats.values_list("player__username", "side")) == [("Carol", "light")]


def test_joining_takes_the_free_seat_and_opens_the_match_launch(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())

    match_join(match_id=match.pk, player=bob, deck=bob.deck)

    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING
    assert list(match.seats.values_list("seat", "player__username")) == [(0, "Carol"), (1, "Bob")]


def test_the_password_is_case_sensitive(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(password="Secret"))

    with pytest.raises(MatchError, match="case-sensitive"):
        match_join(match_id=match.pk, player=bob, deck=bob.deck, password="secret")
    match_join(match_id=match.pk, player=bob, deck=bob.deck, password="Secret")


def test_friends_only_admits_only_the_hosts_friends(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(friends_only=True))

    with pytest.raises(MatchError, match="Only Carol's friends"):
        match_join(match_id=match.pk, player=bob, deck=bob.deck)
    accounts.friend_add(user=carol, friend=bob)
    match_join(match_id=match.pk, player=bob, deck=bob.deck)


def test_ignored_players_cannot_join_your_games(carol, bob):
    accounts.ignore_add(user=carol, other=bob)
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())

    with pytest.raises(MatchError, match="not taking you on"):
        match_join(match_id=match.pk, player=bob, deck=bob.deck)


def test_light_versus_dark_keeps_players_of_one_side_apart(carol, catalog):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(light_vs_dark=True))
    rebel = player_with_deck("Rhen", "rebel")

    with pytest.raises(MatchError, match="light versus dark"):
        match_join(match_id=match.pk, player=rebel, deck=rebel.deck)


def test_a_player_is_in_one_match_at_a_time(carol, bob):
    match_create(host=carol, deck=carol.deck, settings=MatchSettings())

    with pytest.raises(MatchError, match="already in match"):
        match_create(host=carol, deck=carol.deck, settings=MatchSettings())


def test_a_deck_must_be_your_own_and_valid(carol, bob):
    with pytest.raises(MatchError, match="your own"):
        match_create(host=carol, deck=bob.deck, settings=MatchSettings())
    empty = DeckFactory(owner=carol, name="Empty")
    with pytest.raises(MatchError, match="not a valid"):
        match_create(host=carol, deck=empty, settings=MatchSettings())


def test_leaving_the_launch_screen_frees_the_seat_and_the_hosts_leaving_cancels(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    match_ready(match_id=match.pk, player=carol)

    match_leave(match_id=match.pk, player=bob)
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN
    assert not match.seats.filter(ready=True).exists()

    match_leave(match_id=match.pk, player=carol)
    match.refresh_from_db()
    assert match.status == MatchStatus.CANCELLED


def test_the_match_begins_when_both_are_ready_with_a_published_seed_commitment(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    match_ready(match_id=match.pk, player=carol)
    assert not match.games.exists()

    match_ready(match_id=match.pk, player=bob)

    match.refresh_from_db()
    (game,) = match.games.all()
    assert match.status == MatchStatus.PLAYING
    assert game.seed_hash == hashlib.sha256(f"{game.seed_salt}:{game.seed}".encode()).hexdigest()
    assert game.state == engine.to_json(engine.new_game(game.decklists, game.seed))


def test_only_the_deciding_seat_may_act_and_only_legally(carol, bob):
    match = started(carol, bob)
    game, decider = deciding_player(match, carol, bob)
    waiting = bob if decider == carol else carol
    legal = engine.legal_actions(game_state(game)).actions

    with pytest.raises(MatchError, match="not your decision"):
        game_act(match_id=match.pk, player=waiting, ply=0, action=legal[0])
    with pytest.raises(MatchError, match="not a legal action"):
        game_act(match_id=match.pk, player=decider, ply=0, action={"kind": "raid", "quest": 9})
    with pytest.raises(MatchError, match="not a legal action"):
        game_act(match_id=match.pk, player=decider, ply=0, action="keep")
    outsider = UserFactory(username="Dave")
    with pytest.raises(MatchError, match="not playing"):
        game_act(match_id=match.pk, player=outsider, ply=0, action=legal[0])

    game.refresh_from_db()
    assert game.applied == 0


def test_a_resent_action_is_applied_once_and_a_stale_one_is_refused(carol, bob):
    match = started(carol, bob)
    game, decider = deciding_player(match, carol, bob)
    action = engine.legal_actions(game_state(game)).actions[0]

    first = game_act(match_id=match.pk, player=decider, ply=0, action=action)
    again = game_act(match_id=match.pk, player=decider, ply=0, action=action)

    assert (first.resent, again.resent) == (False, True)
    assert GameAction.objects.filter(game=game).count() == 1
    game, decider = deciding_player(match, carol, bob)
    other = engine.legal_actions(game_state(game)).actions[0]
    with pytest.raises(MatchError, match="moved on"):
        game_act(match_id=match.pk, player=decider, ply=0, action=other)


def play_out(match, carol, bob, seed: int) -> None:
    """Random legal actions through the service until the match ends."""
    chooser = random.Random(seed)
    while match.status == MatchStatus.PLAYING:
        game, decider = deciding_player(match, carol, bob)
        legal = engine.legal_actions(game_state(game)).actions
        game_act(match_id=match.pk, player=decider, ply=game.applied, action=chooser.choice(legal))
        match.refresh_from_db()


def test_a_whole_game_is_stored_as_its_seed_and_log_which_replay_it(carol, bob):
    match = started(carol, bob)

    play_out(match, carol, bob, seed=5)

    (game,) = match.games.all()
    log = list(game.actions.order_by("number").values_list("action", flat=True))
    replayed = engine.replay(game.decklists, game.seed, log)
    assert engine.to_json(replayed) == engine.to_json(game_state(game))
    assert replayed.winner == game.winner_seat
    assert match.winner == match.seats.get(seat=game.winner_seat).player
    assert game.win_reason and game.ended


def test_a_best_of_three_plays_a_new_game_until_one_player_has_won_two(carol, bob):
    """The rule taken: the loser of a game chooses who goes first in the next, during a
    pause; one who lets the pause pass goes first."""
    match = started(carol, bob, structure=MatchStructure.BEST_OF_THREE)

    match_concede(match_id=match.pk, player=bob)
    match.refresh_from_db()
    assert (match.status, match.first_chooser) == (MatchStatus.PLAYING, 1)
    assert match.games.count() == 1 and match.next_game_at > timezone.now()
    with pytest.raises(MatchError, match="the next game of the match begins in a moment"):
        match_concede(match_id=match.pk, player=bob)
    with pytest.raises(MatchError, match="The loser of the last game chooses"):
        match_first_choose(match_id=match.pk, player=carol, go_first=True)
    assert not match_next_games_sweep()
    match_first_choose(match_id=match.pk, player=bob, go_first=False)
    second = match.games.get(number=2)
    assert second.first_seat == 0
    assert game_state(second).first == 0

    match_concede(match_id=match.pk, player=carol)
    match.refresh_from_db()
    match.next_game_at = timezone.now()
    match.save()
    assert match_next_games_sweep() == 1
    third = match.games.get(number=3)
    assert third.first_seat == 0  # Carol lost and let the pause pass: she goes first
    assert engine.to_json(
        engine.replay(third.decklists, third.seed, [], first=0)
    ) == engine.to_json(game_state(third))

    match_concede(match_id=match.pk, player=bob)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.winner == carol
    assert list(match.games.order_by("number").values_list("winner_seat", flat=True)) == [
        0,
        1,
        0,
    ]


def test_pass_when_out_of_actions_passes_for_the_player_who_asked(carol, bob):
    """Preferences, "Pass When Out of Actions": "automatically passes for you when you have
    no available actions"."""
    bob.preferences.pass_when_out_of_actions = True
    bob.preferences.save()
    match = started(carol, bob)
    bob_seat = match.seats.get(player=bob).seat
    chooser = random.Random(8)
    passes_for_bob = 0

    while match.status == MatchStatus.PLAYING:
        game, decider = deciding_player(match, carol, bob)
        state = game_state(game)
        decision = engine.legal_actions(state)
        # Bob is never left to decide when passing is all he can do.
        assert not (decision.seat == bob_seat and decision.actions == [{"kind": "pass"}])
        before = game.applied
        game_act(
            match_id=match.pk, player=decider, ply=before, action=chooser.choice(decision.actions)
        )
        game.refresh_from_db()
        passes_for_bob += game.actions.filter(
            number__gt=before + 1, seat=bob_seat, action={"kind": "pass"}
        ).count()
        match.refresh_from_db()

    assert passes_for_bob > 0
    (game,) = match.games.all()
    log = list(game.actions.order_by("number").values_list("action", flat=True))
    assert engine.to_json(engine.replay(game.decklists, game.seed, log)) == engine.to_json(
        game_state(game)
    )


def test_turning_pass_when_out_of_actions_on_passes_at_once_when_pass_is_all(carol, bob):
    """Preferences, "Pass When Out of Actions", turned on in the middle of a game: a player who
    can only pass is not left waiting for the click the setting saves; with anything else to
    do, or when it is not their decision, nothing is played for them."""
    match = started(carol, bob)
    chooser = random.Random(8)
    checked = {"passed": 0, "left": 0}
    while match.status == MatchStatus.PLAYING and checked["passed"] < 3:
        game, decider = deciding_player(match, carol, bob)
        decision = engine.legal_actions(game_state(game))
        other = carol if decider == bob else bob
        assert match_pass_if_out_of_actions(match_id=match.pk, player=other) is False
        if decision.actions == [{"kind": "pass"}]:
            assert match_pass_if_out_of_actions(match_id=match.pk, player=decider) is True
            last = game.actions.order_by("-number").first()
            assert (last.number, last.action) == (game.applied + 1, {"kind": "pass"})
            assert last.seat == decision.seat
            checked["passed"] += 1
        else:
            assert match_pass_if_out_of_actions(match_id=match.pk, player=decider) is False
            assert GameAction.objects.filter(game=game).count() == game.applied
            checked["left"] += 1
            game_act(
                match_id=match.pk,
                player=decider,
                ply=game.applied,
                action=chooser.choice(decision.actions),
            )
        match.refresh_from_db()

    assert checked["passed"] == 3 and checked["left"] > 0
    stranger = UserFactory(username="Stranger")
    assert match_pass_if_out_of_actions(match_id=match.pk, player=stranger) is False
    assert match_pass_if_out_of_actions(match_id=2_000_000_000, player=bob) is False


def test_match_chat_keeps_the_lobbies_mute_and_rate_limit(carol, bob):
    match = started(carol, bob)
    for number in range(5):
        match_chat_submit(match_id=match.pk, user=bob, text=f"line {number}")
    with pytest.raises(ChatError, match="talking too fast"):
        match_chat_submit(match_id=match.pk, user=bob, text="one too many")

    chat_mute(user=carol, until=timezone.now() + timedelta(hours=1), reason="spam", by=bob)
    with pytest.raises(ChatError, match="You are muted until .* \\(spam\\)"):
        match_chat_submit(match_id=match.pk, user=carol, text="hello")


def test_an_action_ships_the_match_as_a_fresh_read_finds_it_without_password_hashes(
    carol, bob, monkeypatch
):
    """The moment ``game_act`` ships with its announcement is what every web process builds
    the match's screens from: it must be the match as committed, clocks and log included."""
    shipped = []
    monkeypatch.setattr(
        matches, "send_on_commit", lambda **message: shipped.append(message["payload"])
    )
    bob.preferences.pass_when_out_of_actions = True
    bob.preferences.save()
    match = started(carol, bob, time_limit=20 * 60)
    chooser = random.Random(3)
    checked = 0

    while match.status == MatchStatus.PLAYING and checked < 40:
        game, decider = deciding_player(match, carol, bob)
        decision = engine.legal_actions(game_state(game))
        Match.objects.filter(pk=match.pk).update(
            clock_since=F("clock_since") - timedelta(seconds=1)
        )
        shipped.clear()
        game_act(
            match_id=match.pk,
            player=decider,
            ply=game.applied,
            action=chooser.choice(decision.actions),
        )
        match.refresh_from_db()
        (packed,) = [payload["moment"] for payload in shipped if "moment" in payload] or [None]
        if packed is None:
            assert match.status != MatchStatus.PLAYING or match.next_game_at is not None
            continue
        for player in (carol, bob):
            assert player.password.encode() not in packed
        moment, fresh = MatchMoment.unpack(packed), match_moment(match_id=match.pk)
        assert engine.to_json(moment.state) == engine.to_json(fresh.state)
        assert moment.game.applied == fresh.game.applied > game.applied
        assert (moment.match.clock_seat, moment.match.clock_since) == (
            fresh.match.clock_seat,
            fresh.match.clock_since,
        )
        assert [(s.player.username, s.clock_left_ms, s.faces) for s in moment.seats] == [
            (s.player.username, s.clock_left_ms, s.faces) for s in fresh.seats
        ]
        logged = game.actions.filter(number__gt=game.applied).order_by("number")
        assert moment.recent_since == game.applied
        assert moment.recent_actions == list(logged.values_list("number", "created", "events"))
        checked += 1

    assert checked == 40
