"""Beside playing (rulebook, THE GAME SCREEN, "The Playmat"; "Chat Window Commands", /resume):
offering a draw or to adjourn, resuming or deleting an adjourned match, claiming a match
whose opponent stayed away, and Challenges from the User List."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from game.engine import api as engine
from game.models import Match, MatchChatKind, MatchChatLine, MatchStatus
from game.selectors import game_state, match_history, match_screen, open_matches, resumable_matches
from game.services.matches import (
    MatchError,
    MatchSettings,
    game_act,
    match_challenge_decline,
    match_concede,
    match_create,
    match_join,
    match_leave,
    match_ready,
)
from game.services.offers import (
    match_adjourned_delete,
    match_claim,
    match_offer,
    match_offer_answer,
    match_offer_withdraw,
    match_resume,
)
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.places import Lobby
from tests.game.conftest import player_with_deck, start_match

pytestmark = pytest.mark.django_db


def in_the_casual_lobby(*players):
    for player in players:
        Presence.objects.update_or_create(
            user=player, defaults={"room": Lobby.CASUAL, "place": Lobby.CASUAL}
        )


def play_a_few(match, count=3):
    """``count`` decisions of the current game, each by the seat that must make it."""
    for _ in range(count):
        game = match.games.order_by("-number").first()
        decision = engine.legal_actions(game_state(game))
        player = match.seats.get(seat=decision.seat).player
        game_act(match_id=match.pk, player=player, ply=game.applied, action=decision.actions[0])


def notices(match) -> list[str]:
    return list(
        MatchChatLine.objects.filter(match=match, kind=MatchChatKind.NOTICE).values_list(
            "text", flat=True
        )
    )


def test_a_draw_offered_and_accepted_ends_the_match_drawn(carol, bob):
    match = start_match(carol, bob, structure=3)

    match_offer(match_id=match.pk, player=carol, offer="draw")
    screen = match_screen(match_id=match.pk, viewer=bob)
    assert screen.offer == {
        "label": "a draw",
        "by": "Carol",
        "mine": False,
        "agreed": False,
        "waiting": ["Bob"],
    }
    match_offer_answer(match_id=match.pk, player=bob, accept=True)

    match.refresh_from_db()
    assert (match.status, match.winner, match.end_reason) == (
        MatchStatus.FINISHED,
        None,
        "drawn by agreement",
    )
    assert match.games.get().win_reason == "drawn by agreement"
    assert notices(match) == ["Carol offers a draw.", "Bob accepts the draw."]


def test_a_declined_or_withdrawn_offer_leaves_the_game_going(carol, bob):
    match = start_match(carol, bob)

    match_offer(match_id=match.pk, player=carol, offer="draw")
    with pytest.raises(MatchError, match="You have offered a draw already"):
        match_offer(match_id=match.pk, player=carol, offer="draw")
    with pytest.raises(MatchError, match="no offer of your opponent's"):
        match_offer_answer(match_id=match.pk, player=carol, accept=True)
    with pytest.raises(MatchError, match="Answer your opponent's offer of a draw first"):
        match_offer(match_id=match.pk, player=bob, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=False)
    match_offer(match_id=match.pk, player=bob, offer="adjourn")
    match_offer_withdraw(match_id=match.pk, player=bob)

    match.refresh_from_db()
    assert (match.status, match.offer) == (MatchStatus.PLAYING, "")
    assert notices(match) == [
        "Carol offers a draw.",
        "Bob declines a draw.",
        "Bob offers to adjourn.",
        "Bob withdraws the offer to adjourn.",
    ]


def test_offering_what_the_opponent_offers_agrees_to_it(carol, bob):
    match = start_match(carol, bob)

    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer(match_id=match.pk, player=bob, offer="adjourn")

    match.refresh_from_db()
    assert match.status == MatchStatus.ADJOURNED


def test_an_offer_needs_a_match_in_play_and_a_player_of_it(carol, bob, catalog):
    match = start_match(carol, bob)
    stranger = player_with_deck("Stranger", "rebel")

    with pytest.raises(MatchError, match="not playing in this match"):
        match_offer(match_id=match.pk, player=stranger, offer="draw")
    with pytest.raises(MatchError, match="Offer a draw, or to adjourn"):
        match_offer(match_id=match.pk, player=carol, offer="surrender")
    match.status = MatchStatus.FINISHED
    match.save()
    with pytest.raises(MatchError, match="not in progress"):
        match_offer(match_id=match.pk, player=carol, offer="draw")


def test_an_adjourned_timed_match_keeps_its_game_and_clocks_and_resumes_where_it_stood(carol, bob):
    match = start_match(carol, bob, time_limit=30 * 60)
    play_a_few(match)
    game = match.games.get()
    applied = game.applied
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    match.refresh_from_db()
    left = sorted(match.seats.values_list("clock_left_ms", flat=True))
    assert (match.status, match.clock_seat) == (MatchStatus.ADJOURNED, None)

    # Adjourned, both may play other matches meanwhile.
    other = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    match_leave(match_id=other.pk, player=carol)

    in_the_casual_lobby(carol, bob)
    assert resumable_matches(player=bob, lobby=Lobby.CASUAL) == [match]
    match_resume(match_id=match.pk, player=bob, lobby=Lobby.CASUAL)
    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING
    match_ready(match_id=match.pk, player=carol)
    match_ready(match_id=match.pk, player=bob)

    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert match.games.count() == 1 and match.games.get().applied == applied
    assert sorted(match.seats.values_list("clock_left_ms", flat=True)) == left
    assert match.clock_seat is not None
    play_a_few(match, 1)


def test_resume_needs_every_opponent_in_the_lobby(carol, bob):
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    in_the_casual_lobby(carol)

    assert resumable_matches(player=carol, lobby=Lobby.CASUAL) == []
    with pytest.raises(MatchError, match="Bob must be in this lobby"):
        match_resume(match_id=match.pk, player=carol, lobby=Lobby.CASUAL)
    in_the_casual_lobby(bob)
    assert resumable_matches(player=carol, lobby=Lobby.TRADE) == []


def test_leaving_a_resumed_match_before_it_goes_on_adjourns_it_again(carol, bob):
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    in_the_casual_lobby(carol, bob)
    match_resume(match_id=match.pk, player=carol, lobby=Lobby.CASUAL)

    match_leave(match_id=match.pk, player=bob)

    match.refresh_from_db()
    assert match.status == MatchStatus.ADJOURNED
    assert match.seats.count() == 2


def test_deleting_an_adjourned_match_ends_it_with_no_winner(carol, bob):
    match = start_match(carol, bob)
    with pytest.raises(MatchError, match="not adjourned"):
        match_adjourned_delete(match_id=match.pk, player=carol)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)

    match_adjourned_delete(match_id=match.pk, player=bob)

    match.refresh_from_db()
    assert (match.status, match.winner) == (MatchStatus.FINISHED, None)
    assert match.end_reason == "Bob deleted the adjourned match"


def away_for(match, player, seconds):
    match.seats.filter(player=player).update(away_since=timezone.now() - timedelta(seconds=seconds))


def test_the_player_who_stayed_may_claim_the_win_after_the_documented_absence(carol, bob, settings):
    settings.MATCH_AWAY_CLAIM_SECONDS = 180
    match = start_match(carol, bob)

    with pytest.raises(MatchError, match="once Bob has been away 3 minutes"):
        match_claim(match_id=match.pk, player=carol)
    away_for(match, bob, 100)
    screen = match_screen(match_id=match.pk, viewer=carol)
    assert screen.away == [{"name": "Bob", "minutes": 1}]
    assert (screen.claimable, screen.claim_in_minutes) == (False, 2)
    with pytest.raises(MatchError, match="once Bob has been away"):
        match_claim(match_id=match.pk, player=carol)
    away_for(match, bob, 181)
    assert match_screen(match_id=match.pk, viewer=carol).claimable
    assert not match_screen(match_id=match.pk, viewer=bob).claimable

    match_claim(match_id=match.pk, player=carol)

    match.refresh_from_db()
    assert (match.status, match.winner) == (MatchStatus.FINISHED, carol)
    assert match.end_reason == "Bob was away; Carol claimed the win"


def test_or_adjourn_it_instead(carol, bob, settings):
    settings.MATCH_AWAY_CLAIM_SECONDS = 180
    match = start_match(carol, bob)
    away_for(match, bob, 200)

    match_claim(match_id=match.pk, player=carol, adjourn=True)

    match.refresh_from_db()
    assert match.status == MatchStatus.ADJOURNED


def test_a_timed_match_cannot_be_claimed_the_clock_decides(carol, bob):
    match = start_match(carol, bob, time_limit=30 * 60)
    away_for(match, bob, 3600)

    with pytest.raises(MatchError, match="clock runs while they are away"):
        match_claim(match_id=match.pk, player=carol)
    assert not match_screen(match_id=match.pk, viewer=carol).claimable


def test_a_challenge_is_seen_and_joined_by_the_challenged_player_alone(carol, bob, catalog):
    dave = player_with_deck("Dave", "rebel")
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(challenged=bob))

    assert match in open_matches(viewer=bob)
    assert match not in open_matches(viewer=dave)
    with pytest.raises(MatchError, match="challenge to another player"):
        match_join(match_id=match.pk, player=dave, deck=dave.deck)
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.LAUNCHING


def test_a_challenge_can_be_declined_and_ignored_players_cannot_challenge(carol, bob):
    with pytest.raises(MatchError, match="can't challenge yourself"):
        match_create(host=carol, deck=carol.deck, settings=MatchSettings(challenged=carol))
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(challenged=bob))
    with pytest.raises(MatchError, match="no challenge of yours"):
        match_challenge_decline(match_id=match.pk, player=carol)

    match_challenge_decline(match_id=match.pk, player=bob)

    match.refresh_from_db()
    assert (match.status, match.end_reason) == (
        MatchStatus.CANCELLED,
        "Bob declined the challenge.",
    )
    accounts.ignore_add(user=bob, other=carol)
    with pytest.raises(MatchError, match="Bob is not taking challenges from you"):
        match_create(host=carol, deck=carol.deck, settings=MatchSettings(challenged=bob))


def test_between_two_games_an_agreed_draw_leaves_the_last_result_alone(carol, bob):
    match = start_match(carol, bob, structure=3)
    match_concede(match_id=match.pk, player=bob)

    match_offer(match_id=match.pk, player=bob, offer="draw")
    match_offer_answer(match_id=match.pk, player=carol, accept=True)

    match.refresh_from_db()
    assert (match.status, match.next_game_at) == (MatchStatus.FINISHED, None)
    assert match.games.get().winner_seat == 0


def test_a_match_adjourned_between_two_games_resumes_with_the_next(carol, bob):
    match = start_match(carol, bob, structure=3)
    match_concede(match_id=match.pk, player=carol)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    in_the_casual_lobby(carol, bob)

    match_resume(match_id=match.pk, player=bob, lobby=Lobby.CASUAL)
    match_ready(match_id=match.pk, player=carol)
    match_ready(match_id=match.pk, player=bob)

    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    second = match.games.get(number=2)
    assert second.first_seat == 0  # Carol lost the first game
    screen = match_screen(match_id=match.pk, viewer=carol)
    assert screen.score == [{"name": "Carol", "wins": 0}, {"name": "Bob", "wins": 1}]
    assert screen.between_games is None


def test_the_loser_is_asked_who_goes_first_and_everyone_sees_the_pause(client, carol, bob):
    match = start_match(carol, bob, structure=3)
    match_concede(match_id=match.pk, player=bob)

    screen = match_screen(match_id=match.pk, viewer=bob)
    assert screen.between_games["mine"] and screen.between_games["number"] == 2
    assert not match_screen(match_id=match.pk, viewer=carol).between_games["mine"]
    client.force_login(bob)
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert "I go first" in page and "Game 2 begins in" in page
    client.force_login(carol)
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert "Bob lost the last game and chooses who goes first." in page
    assert "I go first" not in page


def test_a_drawn_match_reads_drawn_in_both_players_histories(carol, bob):
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=bob, offer="draw")
    match_offer_answer(match_id=match.pk, player=carol, accept=True)

    for player in (carol, bob):
        (past,) = match_history(player=player, viewer=player)
        assert (past.match, past.result) == (match, "Drawn")
