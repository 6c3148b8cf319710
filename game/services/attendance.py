"""Who is at a match's page. A player whose last socket on the match closed is away from
that moment; one whose web process died is away once its presence connection goes silent
(LOBBY_PRESENCE_EXPIRY_SECONDS), found by the periodic sweep. The opponent sees it, and in an
untimed match may claim the win or adjourn after MATCH_AWAY_CLAIM_SECONDS
(game/services/offers.py). Anyone else on the page observes the match, counted on its
medallion in the Casual Lobby while it is in progress.
"""

from django.db import transaction
from django.utils import timezone

from game.models import Match, MatchObserver, MatchSeat, MatchStatus
from game.selectors import live_sockets
from game.services.chat import match_notice
from game.services.matches import announce, announce_running, locked_match
from tcgsite.accounts.models import User


def match_socket_open(*, match_id: int, player: User, channel_name: str) -> None:
    """A socket on a match's page opened: a player is back if they were away; anyone else
    observes it, and a match in progress shows one more observer in the Casual Lobby if they
    were not watching already."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = match.seats.select_for_update().filter(player=player).first()
        if seat is None:
            watching = match.observers.filter(user=player).exists()
            MatchObserver.objects.get_or_create(
                channel_name=channel_name, defaults={"match": match, "user": player}
            )
            if not watching and match.status == MatchStatus.PLAYING:
                announce_running(match)
            return
        seat.sockets = [*_live(seat.sockets), channel_name]
        fields = ["sockets"]
        back = seat.away_since is not None
        if back:
            seat.away_since = None
            fields.append("away_since")
        seat.save(update_fields=fields)
        if back and match.status == MatchStatus.PLAYING:
            match_notice(match, player, f"{player.username} is back.")
            announce(match)


def match_socket_close(*, match_id: int, player: User, channel_name: str) -> None:
    with transaction.atomic():
        match = locked_match(match_id)
        seat = match.seats.select_for_update().filter(player=player).first()
        if seat is None:
            MatchObserver.objects.filter(channel_name=channel_name).delete()
            watching = match.observers.filter(user=player).exists()
            if not watching and match.status == MatchStatus.PLAYING:
                announce_running(match)
            return
        seat.sockets = [name for name in _live(seat.sockets) if name != channel_name]
        fields = ["sockets"]
        if not seat.sockets and seat.away_since is None:
            fields += _away(match, seat, player)
        seat.save(update_fields=fields)


def match_absences_sweep() -> int:
    """Mark away the players of matches in play whose every socket went silent (their web
    process died); the number marked. Safe to run twice, or in two processes at once."""
    playing = MatchSeat.objects.filter(
        match__status=MatchStatus.PLAYING, away_since=None, player__computer_opponent=None
    )
    seats = list(playing.values_list("match_id", "player_id", "sockets"))
    alive = set(_live([name for _, _, sockets in seats for name in sockets]))
    marked = 0
    for match_id, player_id, sockets in seats:
        if alive.intersection(sockets):
            continue
        with transaction.atomic():
            match = locked_match(match_id)
            seat = match.seats.select_for_update().select_related("player").get(player=player_id)
            if seat.away_since is not None or _live(seat.sockets):
                continue  # back meanwhile
            seat.sockets = []
            seat.save(update_fields=["sockets", *_away(match, seat, seat.player)])
            marked += 1
    return marked


def match_observers_sweep() -> int:
    """Forget the observers whose socket's process died (its presence connection went silent,
    or the sweep of presence took it), and show the matches in progress they watched with
    their observers as they are now; the number forgotten. Safe to run twice, or in two
    processes at once."""
    gone = MatchObserver.objects.exclude(channel_name__in=live_sockets())
    forgotten = list(gone.values_list("pk", "match_id"))
    for match_id in sorted({match_id for _, match_id in forgotten}):
        with transaction.atomic():
            match = locked_match(match_id)
            removed, _ = gone.filter(match_id=match_id).delete()
            if removed and match.status == MatchStatus.PLAYING:
                announce_running(match)
    return len(forgotten)


def _away(match: Match, seat: MatchSeat, player: User) -> list[str]:
    seat.away_since = timezone.now()
    if match.status == MatchStatus.PLAYING:
        match_notice(match, player, f"{player.username} is away.")
        announce(match)
    return ["away_since"]


def _live(channel_names: list[str]) -> list[str]:
    """The sockets among ``channel_names`` whose presence connection is still alive."""
    if not channel_names:
        return []
    alive = set(
        live_sockets().filter(channel_name__in=channel_names).values_list("channel_name", flat=True)
    )
    return [name for name in channel_names if name in alive]
