"""Reads of players: the player list, a player's page, friends and ignored players."""

from django.db.models import QuerySet

from tcgsite.accounts.models import USERNAME_MAX_LENGTH, User


def players_search(*, query: str = "") -> QuerySet[User]:
    """Active players whose name contains ``query``, by name, with their preferences."""
    players = User.objects.filter(is_active=True).select_related("preferences")
    if query:
        players = players.filter(username__icontains=query)
    return players.order_by("username")


def player_by_name(*, username: str) -> User | None:
    """The active player of that name, in any case, or None."""
    if len(username) > USERNAME_MAX_LENGTH:
        return None
    return User.objects.filter(username__iexact=username, is_active=True).first()


def is_friend(*, user: User, other: User) -> bool:
    """Whether ``user`` added ``other`` to their friends list."""
    return user.friends.filter(pk=other.pk).exists()


def is_ignored(*, user: User, other: User) -> bool:
    """Whether ``user`` put ``other`` on their Ignore List."""
    return user.ignored.filter(pk=other.pk).exists()


def ignored_ids(*, user_id: int) -> set[int]:
    """The ids of the players on this player's Ignore List."""
    return set(
        User.ignored.through.objects.filter(from_user_id=user_id).values_list(
            "to_user_id", flat=True
        )
    )


def ignorer_ids(*, user_id: int) -> set[int]:
    """The ids of the players who put this player on their Ignore List."""
    return set(
        User.ignored.through.objects.filter(to_user_id=user_id).values_list(
            "from_user_id", flat=True
        )
    )
