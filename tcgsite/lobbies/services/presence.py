"""Presence: who is online, in which room, at which place; the User Lists follow it live.

Every page a logged-in player has open holds a socket, recorded as a ``Connection``. Each web
process refreshes all its sockets' connections together every ``LOBBY_HEARTBEAT_SECONDS``
(``presence_heartbeats``, one statement for hundreds of sockets); a process that dies stops
refreshing, so its connections go stale after ``LOBBY_PRESENCE_EXPIRY_SECONDS``. A page closed
normally (a link followed, a tab closed) keeps its player listed for
``LOBBY_PRESENCE_GRACE_SECONDS``, so moving from page to page neither drops the player from the
lists nor floods the chat with arrivals and departures. ``presence_sweep``, run by the heartbeat
of any live socket (at most once per grace period across all processes) and by the periodic
schedule, announces the departures. With the defaults (10, 30 and 5 seconds) a closed page
leaves the lists within 15 seconds, and the players of a dead process within 40.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tcgsite.accounts.models import User
from tcgsite.lobbies import fragments
from tcgsite.lobbies.models import Connection, Presence
from tcgsite.lobbies.places import Place, Status, lobbies_showing, room_after_entering
from tcgsite.lobbies.selectors import Whereabouts, name_badges
from tcgsite.realtime import send_on_commit

SWEEP_LOCK = "lobbies:presence-sweep"
# Connections refreshed by one statement of a heartbeat: well inside every database's limit
# on a query's parameters.
BEAT_BATCH = 500


def lobby_group(lobby: str) -> str:
    """The group of every socket open on a lobby's page."""
    return f"lobby.{lobby}"


def presence_open(*, user: User, channel_name: str, place: str) -> Whereabouts:
    """A page of ``user`` at ``place`` opened its socket: the player enters the room the place
    leads to and the lists show them there."""
    if place not in Place.values:
        raise ValueError(f"unknown place {place!r}")
    now = timezone.now()
    with transaction.atomic():
        _lock_player(user.pk)
        current = Presence.objects.filter(user_id=user.pk).first()
        Connection.objects.create(
            channel_name=channel_name, user_id=user.pk, place=place, opened_at=now, seen_at=now
        )
        room = room_after_entering(place, current.room if current else None)
        return _settle(user.pk, current, room=room, now=now)


def presence_close(*, channel_name: str) -> None:
    """The socket closed. The player stays listed for the grace period unless another page of
    theirs is still open, which then decides their place."""
    now = timezone.now()
    with transaction.atomic():
        connection = Connection.objects.filter(channel_name=channel_name).first()
        if connection is None:
            return
        _lock_player(connection.user_id)
        Connection.objects.filter(pk=connection.pk).update(closed_at=now)
        if _live_connections(connection.user_id, now).exists():
            current = Presence.objects.filter(user_id=connection.user_id).first()
            _settle(connection.user_id, current, room=None, now=now)


def presence_move(*, user: User, channel_name: str, place: str) -> None:
    """The page of an open socket moved its player to another place (a match page, from
    starting a game to in a game)."""
    if place not in Place.values:
        raise ValueError(f"unknown place {place!r}")
    now = timezone.now()
    with transaction.atomic():
        _lock_player(user.pk)
        moved = Connection.objects.filter(channel_name=channel_name, closed_at=None).update(
            place=place, seen_at=now
        )
        if moved:
            current = Presence.objects.filter(user_id=user.pk).first()
            _settle(user.pk, current, room=None, now=now)


def presence_heartbeats(*, sockets: Iterable[tuple[User, str, str]]) -> None:
    """The periodic beat of one process's live sockets, each ``(user, channel_name, place)``:
    keep all their connections fresh at once, open again any that a sweep took while the
    process stalled, and sweep if no process did lately."""
    sockets = list(sockets)
    now = timezone.now()
    fresh: set[str] = set()
    for start in range(0, len(sockets), BEAT_BATCH):
        names = [channel_name for _, channel_name, _ in sockets[start : start + BEAT_BATCH]]
        live = Connection.objects.filter(channel_name__in=names, closed_at=None)
        fresh.update(live.values_list("channel_name", flat=True))
        live.update(seen_at=now)
    swept = [socket for socket in sockets if socket[1] not in fresh]
    if swept:
        # A deleted account's sockets close with it; until then they have no one to list.
        players = User.objects.filter(pk__in={user.pk for user, _, _ in swept})
        existing = set(players.values_list("pk", flat=True))
        for user, channel_name, place in swept:
            if user.pk in existing:
                Connection.objects.filter(channel_name=channel_name).delete()
                presence_open(user=user, channel_name=channel_name, place=place)
    presence_sweep_if_due()


def presence_sweep_if_due() -> int:
    """Sweep unless some process swept within the grace period; the number of departures."""
    if not cache.add(SWEEP_LOCK, 1, timeout=settings.LOBBY_PRESENCE_GRACE_SECONDS):
        return 0
    return presence_sweep()


def presence_sweep() -> int:
    """Forget the connections closed longer ago than the grace period or silent longer than
    the expiry, and announce the departure of every player left without one. Safe to run
    twice, or in two processes at once: each player is settled under their own lock."""
    now = timezone.now()
    gone = Connection.objects.filter(_gone(now))
    touched = set(gone.values_list("user_id", flat=True))
    gone.delete()
    stale_presences = Presence.objects.exclude(
        user_id__in=Connection.objects.values("user_id")
    ).values_list("user_id", flat=True)
    departures = 0
    for user_id in touched | set(stale_presences):
        with transaction.atomic():
            _lock_player(user_id)
            if Connection.objects.filter(user_id=user_id).exclude(_gone(now)).exists():
                # Still on some page, or between pages within the grace period.
                if _live_connections(user_id, now).exists():
                    current = Presence.objects.filter(user_id=user_id).first()
                    _settle(user_id, current, room=None, now=now)
                continue
            current = Presence.objects.filter(user_id=user_id).first()
            if current is not None:
                _announce(user_id, before=current, after=None)
                current.delete()
                departures += 1
    return departures


def _gone(now: datetime) -> Q:
    grace = timedelta(seconds=settings.LOBBY_PRESENCE_GRACE_SECONDS)
    expiry = timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS)
    return Q(closed_at__lt=now - grace) | Q(seen_at__lt=now - expiry)


def _live_connections(user_id: int, now: datetime):
    expiry = timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS)
    return Connection.objects.filter(
        user_id=user_id, closed_at=None, seen_at__gte=now - expiry
    ).order_by("-opened_at", "-pk")


def _lock_player(user_id: int) -> None:
    # One player's presence changes one at a time, whichever process handles their pages.
    list(User.objects.select_for_update().filter(pk=user_id).values_list("pk", flat=True))


def _settle(
    user_id: int, current: Presence | None, *, room: str | None, now: datetime
) -> Whereabouts:
    """Make the player's Presence follow their newest live page, and tell the lists."""
    newest = _live_connections(user_id, now).first()
    place = newest.place if newest else current.place
    room = room or (current.room if current else room_after_entering(place, None))
    after = Whereabouts(online=True, room=room, place=place)
    if current is None:
        Presence.objects.create(user_id=user_id, room=room, place=place, online_since=now)
    elif (current.room, current.place) != (room, place):
        Presence.objects.filter(user_id=user_id).update(room=room, place=place)
    _announce(user_id, before=current, after=after)
    return after


def _announce(user_id: int, *, before: Presence | None, after: Whereabouts | None) -> None:
    shown_before = lobbies_showing(room=before.room, place=before.place) if before else {}
    shown_after = lobbies_showing(room=after.room, place=after.place) if after else {}
    changed = [
        lobby
        for lobby in sorted(shown_before.keys() | shown_after.keys())
        if shown_before.get(lobby) != shown_after.get(lobby)
    ]
    if not changed:
        return
    user = User.objects.select_related("preferences").get(pk=user_id)
    badge = name_badges(user_ids=[user_id]).get(user_id) if after else None
    for lobby in changed:
        status: Status | None = shown_after.get(lobby)
        send_on_commit(
            group=lobby_group(lobby),
            message_type="lobby.presence",
            payload={
                "user_id": user_id,
                "username": user.username,
                "row": (
                    fragments.user_row(user, status=status, place=after.place, badge=badge)
                    if status
                    else ""
                ),
                "arrived": lobby not in shown_before,
                "left": lobby not in shown_after,
            },
        )


def user_rows_refresh(*, user_ids: Iterable[int]) -> int:
    """Send the User List rows of these players again, to every lobby showing them: a
    feature above the lobbies changed their names' badges (a medal won, a tournament
    entered or left). The number of rows sent."""
    ids = sorted(set(user_ids))
    sent = 0
    with transaction.atomic():
        # As _lock_player does for one player, in primary-key order.
        list(User.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))
        presences = list(
            Presence.objects.filter(user_id__in=ids).select_related("user__preferences")
        )
        badges = name_badges(user_ids=[presence.user_id for presence in presences])
        for presence in presences:
            for lobby, status in lobbies_showing(room=presence.room, place=presence.place).items():
                row = fragments.user_row(
                    presence.user,
                    status=status,
                    place=presence.place,
                    badge=badges.get(presence.user_id),
                )
                send_on_commit(
                    group=lobby_group(lobby),
                    message_type="lobby.presence",
                    payload={
                        "user_id": presence.user_id,
                        "username": presence.user.username,
                        "row": row,
                        "arrived": False,
                        "left": False,
                    },
                )
                sent += 1
    return sent
