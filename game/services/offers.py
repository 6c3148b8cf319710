"""Beside playing: offering a draw or to adjourn (rulebook, THE GAME SCREEN, "The Playmat"),
resuming or deleting an adjourned match ("/resume"), and what the player who stayed may do
when their opponent has been away a long time.

An offer stands until the other player answers it, its maker withdraws it, or the match
leaves play; offering what the other player already offers is agreeing to it. In a 2-versus-2
team game every other player still in the game must agree, one after the other, and one
refusal ends the offer (a player who left the game has no say). An adjourned match keeps its
game and every clock as they stood; it is resumed on the Match Launch screen once its players
are ready again.
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game import fragments
from game.models import DRAWN_BY_AGREEMENT, Match, MatchOffer, MatchSeat, MatchStatus
from game.selectors import computer_seats, in_lobby
from game.services.chat import match_notice
from game.services.matches import (
    MatchError,
    announce,
    announce_running,
    clock_switch,
    locked_match,
    refuse_if_busy,
    seat_of,
)
from game.signals import match_finished_on_commit
from tcgsite.accounts.models import User
from tcgsite.jobs import job_after_commit
from tcgsite.realtime import send_on_commit, user_group


def match_offer(*, match_id: int, player: User, offer: str) -> Match:
    """Offer a draw or to adjourn; if another player offers the same already, it is agreeing
    to it."""
    if offer not in MatchOffer.values:
        raise MatchError("Offer a draw, or to adjourn.")
    with transaction.atomic():
        match = locked_match(match_id)
        seat = _seat_in_the_game(match, player)
        _refuse_unless_playing(match)
        if match.event:
            raise MatchError("A tournament match can't be drawn or adjourned: play it out.")
        if match.offer:
            if match.offer_seat == seat or seat in match.offer_agreed:
                raise MatchError(f"You have offered {MatchOffer(match.offer).label} already.")
            if match.offer != offer:
                whose = "the" if match.team_game else "your opponent's"
                raise MatchError(f"Answer {whose} offer of {MatchOffer(match.offer).label} first.")
            _accept(match, player, seat)
            return match
        match.offer, match.offer_seat, match.offer_agreed = offer, seat, []
        match.save(update_fields=["offer", "offer_seat", "offer_agreed"])
        match_notice(match, player, f"{player.username} offers {MatchOffer(offer).label}.")
        if computer_seats(match):
            job_after_commit(
                "game.computer_answer",
                background=True,
                pause=settings.COMPUTER_PAUSE_SECONDS,
                match_id=match.pk,
            )
        announce(match)
    return match


def match_offer_answer(*, match_id: int, player: User, accept: bool) -> Match:
    """Accept or decline another player's offer."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = _seat_in_the_game(match, player)
        _refuse_unless_playing(match)
        if not match.offer or match.offer_seat == seat:
            whose = "another player's" if match.team_game else "your opponent's"
            raise MatchError(f"There is no offer of {whose} to answer.")
        if seat in match.offer_agreed:
            raise MatchError(f"You have agreed to {MatchOffer(match.offer).label} already.")
        if accept:
            _accept(match, player, seat)
            return match
        declined = MatchOffer(match.offer).label
        _offer_clear(match)
        match_notice(match, player, f"{player.username} declines {declined}.")
        announce(match)
    return match


def match_offer_withdraw(*, match_id: int, player: User) -> Match:
    with transaction.atomic():
        match = locked_match(match_id)
        seat = seat_of(match, player).seat
        if match.offer_seat != seat or not match.offer:
            raise MatchError("You have no offer to withdraw.")
        withdrawn = "the draw" if match.offer == MatchOffer.DRAW else "the offer to adjourn"
        _offer_clear(match)
        match_notice(match, player, f"{player.username} withdraws {withdrawn}.")
        announce(match)
    return match


def match_claim(*, match_id: int, player: User, adjourn: bool = False) -> Match:
    """The player who stayed claims the win, or adjourns the match, when their opponent has
    been away ``MATCH_AWAY_CLAIM_SECONDS`` in an untimed match (a timed match has the clock:
    the absent player's runs out)."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat_of(match, player)
        _refuse_unless_playing(match)
        if match.time_limit is not None:
            raise MatchError("In a timed match, your opponent's clock runs while they are away.")
        if match.event:
            raise MatchError("In a tournament, a player away ten minutes forfeits the game.")
        if match.team_game:
            raise MatchError(
                "In a 2-versus-2 team game, a player away can't be claimed against: play on "
                "with your teammate, offer to adjourn, or concede."
            )
        opponent = match.seats.select_related("player").exclude(player=player).get()
        waited = timedelta(seconds=settings.MATCH_AWAY_CLAIM_SECONDS)
        if opponent.away_since is None or timezone.now() - opponent.away_since < waited:
            raise MatchError(
                f"You may claim the match once {opponent.player.username} has been away "
                f"{settings.MATCH_AWAY_CLAIM_SECONDS // 60} minutes."
            )
        reason = f"{opponent.player.username} was away"
        if adjourn:
            _adjourn(match, player, f"{player.username} adjourned the match: {reason}.")
            return match
        game = match.games.select_for_update().order_by("-number").first()
        if game.ended is None:
            game.winner_seat, game.win_reason = 1 - opponent.seat, reason
            game.ended = timezone.now()
            game.save(update_fields=["winner_seat", "win_reason", "ended"])
        finish_match(match, winner=player, reason=f"{reason}; {player.username} claimed the win")
        announce(match)
    return match


def match_resume(*, match_id: int, player: User, lobby: str) -> Match:
    """Take an adjourned match back to its Match Launch screen, where both players get ready
    to go on; its opponents must be in ``lobby``, the lobby the player resumes it from."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat_of(match, player)
        if match.status != MatchStatus.ADJOURNED:
            raise MatchError(f"Match {match.pk} is not adjourned.")
        seats = list(match.seats.select_related("player"))
        computers = computer_seats(match)
        away = [
            seat.player.username
            for seat in seats
            if seat.player_id != player.pk
            and seat.seat not in computers
            and not seat.left_game
            and not in_lobby(seat.player, lobby)
        ]
        if away:
            raise MatchError(f"{', '.join(away)} must be in this lobby to resume the match.")
        for seat in seats:
            User.objects.select_for_update().get(pk=seat.player_id)
            refuse_if_busy(seat.player)
        match.status = MatchStatus.LAUNCHING
        match.end_reason = ""
        match.save(update_fields=["status", "end_reason"])
        match.seats.update(ready=False, away_since=None)
        # A computer is always ready; a player who left the game has nothing to get ready for.
        match.seats.filter(Q(seat__in=computers) | Q(left_game=True)).update(ready=True)
        match_notice(match, player, f"{player.username} resumes the match.")
        for seat in seats:
            if seat.player_id != player.pk and seat.seat not in computers and not seat.left_game:
                send_on_commit(
                    group=user_group(seat.player_id),
                    message_type="lobby.toast",
                    payload={
                        "sender_id": player.pk,
                        "html": fragments.resumed_toast(match, player),
                    },
                )
        announce(match)
    return match


def match_adjourned_delete(*, match_id: int, player: User) -> Match:
    """Give up an adjourned match: it ends with no winner, its log kept."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat_of(match, player)
        if match.status != MatchStatus.ADJOURNED:
            raise MatchError(f"Match {match.pk} is not adjourned.")
        game = match.games.select_for_update().order_by("-number").first()
        now = timezone.now()
        if game is not None and game.ended is None:
            game.ended, game.win_reason = now, "deleted while adjourned"
            game.save(update_fields=["ended", "win_reason"])
        finish_match(match, winner=None, reason=f"{player.username} deleted the adjourned match")
        announce(match)
    return match


def _seat_in_the_game(match: Match, player: User) -> int:
    seat = seat_of(match, player)
    if seat.left_game:
        raise MatchError("You have left this game: the players still in it decide.")
    return seat.seat


def _accept(match: Match, player: User, seat: int) -> None:
    """``seat`` agrees to the offer standing: it is agreed once every other player still in
    the game has (MULTIPLAYER GAMES: a team game has more than one opponent to ask)."""
    match.offer_agreed = [*match.offer_agreed, seat]
    waiting = [
        other.player.username
        for other in match.seats.select_related("player")
        if _to_agree(match, other)
    ]
    if not waiting:
        _agree(match, player)
        return
    match.save(update_fields=["offer_agreed"])
    label = MatchOffer(match.offer).label
    match_notice(
        match, player, f"{player.username} accepts {label}; waiting for {' and '.join(waiting)}."
    )
    announce(match)


def _to_agree(match: Match, seat: MatchSeat) -> bool:
    return (
        not seat.left_game and seat.seat != match.offer_seat and seat.seat not in match.offer_agreed
    )


def _agree(match: Match, player: User) -> None:
    agreed = match.offer
    if agreed == MatchOffer.ADJOURN:
        _adjourn(match, player, "The players agreed to adjourn the match.")
        return
    game = match.games.select_for_update().order_by("-number").first()
    if game.ended is None:
        game.ended, game.win_reason = timezone.now(), DRAWN_BY_AGREEMENT
        game.save(update_fields=["ended", "win_reason"])
    # Rule taken: a draw agreed ends the match, drawn, whatever its structure.
    finish_match(match, winner=None, reason=DRAWN_BY_AGREEMENT)
    match_notice(match, player, f"{player.username} accepts the draw.")
    announce(match)


def _adjourn(match: Match, player: User, reason: str) -> None:
    clock_switch(match, None)
    match.status = MatchStatus.ADJOURNED
    match.end_reason = reason[:200]
    match.next_game_at = None  # between two games, the next begins when it is resumed
    _offer_clear(match, save=False)
    match.save(
        update_fields=[
            *("status", "end_reason", "next_game_at"),
            *("offer", "offer_seat", "offer_agreed"),
        ]
    )
    match.seats.update(ready=False)
    match_notice(match, player, reason)
    announce(match)
    announce_running(match)


def finish_match(match: Match, *, winner: User | None, reason: str) -> None:
    clock_switch(match, None)
    match.status = MatchStatus.FINISHED
    match.ended = timezone.now()
    match.winner = winner
    match.end_reason = reason[:200]
    match.first_chooser = match.next_game_at = None
    _offer_clear(match, save=False)
    match.save(
        update_fields=[
            *("status", "ended", "winner", "end_reason", "offer", "offer_seat", "offer_agreed"),
            *("first_chooser", "next_game_at"),
        ]
    )
    match_finished_on_commit(match.pk)
    announce_running(match)


def _offer_clear(match: Match, *, save: bool = True) -> None:
    match.offer, match.offer_seat, match.offer_agreed = "", None, []
    if save:
        match.save(update_fields=["offer", "offer_seat", "offer_agreed"])


def _refuse_unless_playing(match: Match) -> None:
    if match.status != MatchStatus.PLAYING:
        raise MatchError("The match is not in progress.")
