"""Skirmish (rulebook, "Skirmish"): a player's deck against one of four computer opponents,
each with its archetype's starter deck, a name and an avatar; the computer's seat plays
through the same match service as a person, off the request path."""

from datetime import timedelta

import pytest
from django.contrib.auth.hashers import is_password_usable
from django.db.models import F
from django.urls import reverse

from game.engine import api as engine
from game.models import ComputerOpponent, Game, Match, MatchStatus
from game.selectors import game_state, match_history, resumable_matches, skirmish_record
from game.services import matches
from game.services.attendance import match_absences_sweep
from game.services.matches import MatchError, game_act, match_concede, match_ready
from game.services.offers import match_offer, match_resume
from game.services.skirmish import (
    computer_answer_offer,
    computer_move,
    skirmish_start,
)
from tcgsite import jobs
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.places import Lobby
from tests.factories import DeckFactory

pytestmark = pytest.mark.django_db


def test_four_computer_opponents_one_per_archetype_who_never_log_in(catalog):
    opponents = {opponent.archetype: opponent for opponent in ComputerOpponent.objects.all()}

    assert set(opponents) == {"jedi", "rebel", "sith", "imperial"}
    for opponent in opponents.values():
        assert not is_password_usable(opponent.player.password)
        assert opponent.player.preferences.avatar_choice and opponent.blurb
    assert len({opponent.player.preferences.avatar_choice for opponent in opponents.values()}) == 4


def test_a_skirmish_begins_at_once_against_the_starter_deck_of_the_archetype(carol):
    match = skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="hard")

    assert (match.status, match.computer_level) == (MatchStatus.PLAYING, "hard")
    human, computer = match.seats.order_by("seat")
    assert (human.player, human.deck) == (carol, carol.deck)
    assert computer.player == ComputerOpponent.objects.get(archetype="sith").player
    assert (computer.archetype, computer.deck_name) == ("sith", "Sith starter deck")
    assert match.games.count() == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"level": "impossible"}, "Choose Easy, Normal or Hard."),
        ({"archetype": "hutt"}, "Choose one of the four computer opponents."),
        ({"deck": None}, "Choose one of your decks."),
        ({"time_limit": 17}, "Choose a time limit from the list, or none."),
    ],
)
def test_a_skirmish_is_refused_with_a_reason(carol, arguments, message):
    chosen = {"deck": carol.deck, "archetype": "sith", "level": "easy", **arguments}

    with pytest.raises(MatchError, match=message):
        skirmish_start(player=carol, **chosen)
    assert not Match.objects.exists()


def test_a_deck_that_is_not_yours_or_not_valid_cannot_play(carol, bob):
    with pytest.raises(MatchError, match="your own decks"):
        skirmish_start(player=carol, deck=bob.deck, archetype="sith", level="easy")
    with pytest.raises(MatchError, match="not a valid"):
        empty = DeckFactory(owner=carol, name="Empty")
        skirmish_start(player=carol, deck=empty, archetype="sith", level="easy")


def play_a_little(match, person, decisions=12):
    """The person takes the first legal action whenever the game waits on them; the computer's
    turns run as the task would run them."""
    for _ in range(decisions):
        game = match.games.order_by("-number").first()
        decision = engine.legal_actions(game_state(game))
        if decision.seat == 0:
            game_act(match_id=match.pk, player=person, ply=game.applied, action=decision.actions[0])
        else:
            assert computer_move(match_id=match.pk, game_number=game.number, ply=game.applied)


def test_the_computer_acts_only_on_its_own_decision_and_a_task_run_twice_acts_once(carol):
    match = skirmish_start(player=carol, deck=carol.deck, archetype="jedi", level="normal")
    game = match.games.get()
    decision = engine.legal_actions(game_state(game))
    if decision.seat == 0:
        assert not computer_move(match_id=match.pk, game_number=1, ply=game.applied)
        game_act(match_id=match.pk, player=carol, ply=game.applied, action=decision.actions[0])
        game.refresh_from_db()
    ply = game.applied

    assert computer_move(match_id=match.pk, game_number=1, ply=ply)
    assert not computer_move(match_id=match.pk, game_number=1, ply=ply)
    assert game.actions.filter(number=ply + 1, seat=1).count() == 1


def test_the_computer_agrees_to_adjourn_and_declines_a_draw_it_is_not_losing(carol):
    match = skirmish_start(player=carol, deck=carol.deck, archetype="imperial", level="easy")

    match_offer(match_id=match.pk, player=carol, offer="draw")
    assert computer_answer_offer(match_id=match.pk)
    match.refresh_from_db()
    assert (match.status, match.offer) == (MatchStatus.PLAYING, "")
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    assert computer_answer_offer(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.ADJOURNED


def test_the_computer_is_never_away(carol):
    match = skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="easy")
    match.seats.filter(seat=0).update(sockets=["a-live-socket"])

    match_absences_sweep()

    assert match.seats.get(seat=1).away_since is None


def test_a_computer_turn_is_scheduled_after_the_commit_only_when_it_decides(
    carol, monkeypatch, django_capture_on_commit_callbacks
):
    dispatched = []
    monkeypatch.setattr(
        jobs, "_dispatch", lambda name, kwargs, background, pause: dispatched.append(name)
    )
    seen = set()
    for seed in range(1, 41):
        monkeypatch.setattr(matches.secrets, "randbits", lambda bits, seed=seed: seed)
        dispatched.clear()
        with django_capture_on_commit_callbacks(execute=True):
            match = skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="easy")
        game = match.games.get()
        computer_first = engine.legal_actions(game_state(game)).seat == 1
        assert dispatched == (["game.computer_move"] if computer_first else [])
        seen.add(computer_first)
        dispatched.clear()
        with django_capture_on_commit_callbacks(execute=True):
            match_concede(match_id=match.pk, player=carol)
        assert "game.computer_move" not in dispatched  # only the finished match's bookkeeping
        if seen == {True, False}:
            break
    assert seen == {True, False}


def test_play_skirmish_offers_the_four_opponents_levels_and_your_decks(client, carol):
    client.force_login(carol)

    page = client.get(reverse("game:skirmish")).content.decode()

    for name in ("Master-Orin", "Captain-Dessa", "Darth-Morrak", "Moff-Krell"):
        assert name in page
    for level in ("Easy", "Normal", "Hard"):
        assert level in page
    assert carol.deck.name in page
    assert reverse("game:skirmish") in client.get(reverse("lobby")).content.decode()


def test_starting_a_skirmish_opens_its_playmat(client, carol):
    client.force_login(carol)

    response = client.post(
        reverse("game:skirmish"),
        {"deck": carol.deck.pk, "opponent": "rebel", "level": "normal", "time_limit": "0"},
    )

    match = Match.objects.get()
    assert response.url == reverse("game:match_page", args=[match.pk])
    assert "playmat" in client.get(response.url).content.decode()


def test_a_refused_skirmish_says_why_on_the_page(client, carol):
    client.force_login(carol)

    response = client.post(
        reverse("game:skirmish"), {"deck": carol.deck.pk, "opponent": "hutt", "level": "easy"}
    )

    assert response.status_code == 400
    assert "Choose one of the four computer opponents." in response.content.decode()
    assert not Match.objects.exists()


def test_another_match_in_progress_is_finished_first(carol):
    skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="easy")
    with pytest.raises(MatchError, match="already in match"):
        skirmish_start(player=carol, deck=carol.deck, archetype="jedi", level="easy")


def test_an_adjourned_skirmish_is_resumed_from_a_lobby_with_the_computer_ready(carol):
    match = skirmish_start(player=carol, deck=carol.deck, archetype="rebel", level="easy")
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    computer_answer_offer(match_id=match.pk)
    Presence.objects.create(user=carol, room=Lobby.CASUAL, place=Lobby.CASUAL)

    assert resumable_matches(player=carol, lobby=Lobby.CASUAL) == [match]
    match_resume(match_id=match.pk, player=carol, lobby=Lobby.CASUAL)
    assert match.seats.get(seat=1).ready
    match_ready(match_id=match.pk, player=carol)

    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    play_a_little(match, carol)
    match_concede(match_id=match.pk, player=carol)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    (past,) = match_history(player=carol, viewer=carol)
    assert (past.skirmish, past.result) == ("Easy", "Lost")
    assert skirmish_record(player=carol) == {"won": 0, "lost": 1}


def test_a_computer_turn_no_process_plays_is_handed_on_by_the_sweep_once_overdue(
    carol, monkeypatch, django_capture_on_commit_callbacks
):
    dispatched = []
    monkeypatch.setattr(
        jobs, "_dispatch", lambda name, kwargs, background, pause: dispatched.append(kwargs)
    )
    match = skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="easy")
    game = match.games.get()
    decision = engine.legal_actions(game_state(game))
    if decision.seat == 0:
        game_act(match_id=match.pk, player=carol, ply=0, action=decision.actions[0])
        game.refresh_from_db()
    assert game.computer_due is not None
    dispatched.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert matches.computer_turns_sweep() == 0  # not overdue yet
    Game.objects.filter(pk=game.pk).update(computer_due=F("computer_due") - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert matches.computer_turns_sweep() == 1
        assert matches.computer_turns_sweep() == 0  # handed on once: due again after its pause

    assert dispatched == [{"match_id": match.pk, "game_number": 1, "ply": game.applied}]
    assert computer_move(match_id=match.pk, game_number=1, ply=game.applied)
    game.refresh_from_db()
    assert (game.computer_due is None) == (engine.legal_actions(game_state(game)).seat == 0)
