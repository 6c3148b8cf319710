"""Reads of players: the player list, a player's page, friends."""

from django.db.models import QuerySet

from tcgsite.accounts.models import User


def players_search(*, query: str = "") -> QuerySet[User]:
    """Active players whose name contains ``query``, by name, with their preferences."""
    players = User.objects.filter(is_active=True).select_related("preferences")
    if query:
        players = players.filter(username__icontains=query)
    return players.order_by("username")


def player_by_name(*, username: str) -> User | None:
    """The active player of that name, in any case, or None."""
    return User.objects.filter(username__iexact=username, is_active=True).first()


def is_friend(*, user: User, other: User) -> bool:
    """Whether ``user`` added ``other`` to their friends list."""
    return user.friends.filter(pk=other.pk).exists()
