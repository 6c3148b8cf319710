"""Reads of the lobbies: a lobby's users and recent chat, a player's whereabouts, friends."""

from collections.abc import Collection
from dataclasses import dataclass

from django.db.models import Q
from django.db.models.functions import Lower

from tcgsite.accounts.models import Preferences, User
from tcgsite.lobbies.models import ChatKind, ChatMessage, Presence
from tcgsite.lobbies.places import Lobby, Place, Status, status_in
from tcgsite.lobbies.registry import NameBadge, name_badge_providers

RECENT_MESSAGES = 50


def lobby_users(*, lobby: str) -> list[tuple[User, Status, str]]:
    """Each player in ``lobby``'s User List, by name, with their status and place."""
    shown = Q(room=lobby)
    if lobby == Lobby.MAIN:
        shown |= Q(place=Place.MAIN)
    presences = (
        Presence.objects.filter(shown)
        .select_related("user__preferences")
        .order_by(Lower("user__username"))
    )
    return [
        (presence.user, status_in(lobby, place=presence.place), presence.place)
        for presence in presences
    ]


def name_badges(*, user_ids: Collection[int]) -> dict[int, NameBadge]:
    """The badges of these players' names, from every feature that registered some; those
    without any are missing. Each provider is asked once for all of them."""
    ids = frozenset(user_ids)
    badges: dict[int, NameBadge] = {}
    if not ids:
        return badges
    for provider in name_badge_providers():
        for user_id, badge in provider(ids).items():
            badges[user_id] = badges[user_id] + badge if user_id in badges else badge
    return badges


def recent_messages(
    *, lobby: str, viewer_id: int, ignored: set[int], limit: int = RECENT_MESSAGES
) -> list[ChatMessage]:
    """The newest messages of ``lobby`` that ``viewer_id`` may see, oldest first: what was said
    to everyone, and the viewer's own whispers, less what ignored players sent."""
    visible = Q(kind__in=(ChatKind.SAY, ChatKind.EMOTE, ChatKind.SAY_TO)) | Q(
        kind=ChatKind.WHISPER
    ) & (Q(sender_id=viewer_id) | Q(recipient_id=viewer_id))
    messages = (
        ChatMessage.objects.filter(visible, lobby=lobby)
        .exclude(sender_id__in=ignored - {viewer_id})
        .select_related("sender__preferences", "recipient")
        .order_by("-sent_at", "-pk")[:limit]
    )
    return list(reversed(messages))


def shows_arrivals(*, user_id: int) -> bool:
    """Whether the player's Lobby Messages preference shows arrivals and departures."""
    return Preferences.objects.filter(user_id=user_id, lobby_messages=True).exists()


@dataclass(frozen=True)
class Whereabouts:
    online: bool
    room: str = ""
    place: str = ""

    @property
    def description(self) -> str:
        if not self.online:
            return "Offline"
        where = Place(self.place).label
        if self.place in Lobby.values:
            return where[0].upper() + where[1:]
        return f"{where[0].upper()}{where[1:]}, listed in the {Lobby(self.room).label}"


def whereabouts_of(user_ids) -> dict[int, Whereabouts]:
    """Where each of these players is; those offline are missing from the presence rows and
    come back as ``Whereabouts(online=False)``."""
    found = {
        presence.user_id: Whereabouts(online=True, room=presence.room, place=presence.place)
        for presence in Presence.objects.filter(user_id__in=list(user_ids))
    }
    return {user_id: found.get(user_id, Whereabouts(online=False)) for user_id in user_ids}


@dataclass(frozen=True)
class ListedPlayer:
    user: User
    whereabouts: Whereabouts


def friends_page(*, user: User) -> dict[str, list[ListedPlayer]]:
    """The Friends page: the Friends List (online players first) and the Ignore List."""
    friends = list(user.friends.select_related("preferences").order_by(Lower("username")))
    ignored = list(user.ignored.select_related("preferences").order_by(Lower("username")))
    where = whereabouts_of({player.pk for player in friends})
    listed = [ListedPlayer(friend, where[friend.pk]) for friend in friends]
    listed.sort(key=lambda entry: not entry.whereabouts.online)
    return {
        "friends": listed,
        "ignored": [ListedPlayer(player, Whereabouts(online=False)) for player in ignored],
    }
