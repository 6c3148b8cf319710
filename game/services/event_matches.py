"""Tournament matches (rulebook, "Tournaments Lobby"): opened by the tournament with both
players seated and the game clock of its style, ended by the tournament when a player drops
or the round's time is up, and forfeited game by game while a player stays away.

The disconnect rule ("Disconnecting"): a player away MATCH_EVENT_FORFEIT_SECONDS forfeits
the game in progress, and every later game of the match as soon as it starts while they are
still away; back in time, they have lost only clock time. A seat is away from the match's
opening until its player's page connects.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.models import Match, MatchSeat, MatchStatus
from game.selectors import card_faces, computer_seats, side_of
from game.services.chat import match_notice
from game.services.matches import (
    SEATS,
    MatchError,
    announce,
    clock_switch,
    decklist_titles,
    finish_game,
    locked_match,
    start_first_game,
)
from game.services.offers import finish_match
from tcgsite.accounts.models import User


@dataclass(frozen=True)
class EventSeat:
    """A player of a tournament match with the decklist they play."""

    player: User
    decklist: dict
    deck_name: str
    computer: bool = False


def event_match_open(
    *, title: str, seats: list[EventSeat], structure: int, time_limit: int, computer_level: str
) -> Match:
    """Open and begin a tournament match between ``seats`` (first seat first); the caller
    holds the tournament's lock, the match's first game starts at once."""
    if len(seats) != SEATS:
        raise MatchError("A tournament match has two players.")
    now = timezone.now()
    match = Match.objects.create(
        title=title[: Match._meta.get_field("title").max_length],
        host=seats[0].player,
        status=MatchStatus.PLAYING,
        structure=structure,
        allow_observers=True,
        time_limit=time_limit,
        event=True,
        started=now,
        computer_level=computer_level if any(seat.computer for seat in seats) else "",
    )
    for number, seat in enumerate(seats):
        archetype = seat.decklist["avatar"]["archetype"]
        MatchSeat.objects.create(
            match=match,
            seat=number,
            player=seat.player,
            deck_name=seat.deck_name,
            side=side_of(archetype),
            archetype=archetype,
            decklist=seat.decklist,
            faces=card_faces(titles=decklist_titles(seat.decklist)),
            ready=True,
            away_since=None if seat.computer else now,
        )
    start_first_game(match)
    announce(match)
    return match


def match_award(*, match_id: int, winner: User, reason: str) -> Match:
    """End a match in play with ``winner`` (a player dropped from the tournament, or the
    round's time ran out); a match already over is left as it ended."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.PLAYING:
            return match
        seats = list(match.seats.select_related("player"))
        if winner.pk not in {seat.player_id for seat in seats}:
            raise MatchError(f"{winner.username} is not playing in match {match.pk}.")
        game = match.games.select_for_update().order_by("-number").first()
        if game is not None and game.ended is None:
            game.winner_seat = next(seat.seat for seat in seats if seat.player_id == winner.pk)
            game.win_reason, game.ended = reason[:200], timezone.now()
            game.save(update_fields=["winner_seat", "win_reason", "ended"])
        finish_match(match, winner=winner, reason=reason)
        announce(match)
    return match


def event_forfeits_sweep() -> int:
    """Forfeit the game in progress of every tournament match whose player has been away
    MATCH_EVENT_FORFEIT_SECONDS; the number forfeited. Safe to run twice, or at once in two
    processes: each forfeit re-checks under the match's lock."""
    since = timezone.now() - timedelta(seconds=settings.MATCH_EVENT_FORFEIT_SECONDS)
    away = MatchSeat.objects.filter(
        match__event=True, match__status=MatchStatus.PLAYING, away_since__lte=since
    ).values_list("match_id", "seat")
    return sum(_forfeit(match_id, seat, since) for match_id, seat in away)


def _forfeit(match_id: int, seat_number: int, since) -> bool:
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.PLAYING or match.next_game_at is not None:
            return False  # over, or between two games: the next one is forfeited as it starts
        seat = match.seats.select_related("player").get(seat=seat_number)
        if (
            seat.away_since is None
            or seat.away_since > since
            or seat_number in computer_seats(match)
        ):
            return False
        game = match.games.select_for_update().order_by("-number").first()
        if game is None or game.ended is not None:
            return False
        reason = f"{seat.player.username} was away too long and forfeits"
        game.winner_seat, game.win_reason, game.ended = 1 - seat_number, reason, timezone.now()
        game.save(update_fields=["winner_seat", "win_reason", "ended"])
        match_notice(match, seat.player, f"{reason} game {game.number}.")
        clock_switch(match, None)
        finish_game(match, game)
        announce(match)
    return True
