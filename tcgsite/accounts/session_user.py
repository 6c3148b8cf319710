"""How the signed-in player is read at the start of each request and socket.

Every page shows the player's avatar, credits and Tournament Timer; read one by one, they are
four queries on every page, more than some pages' own rows. The apps that own that data add it
to the one query that loads the player (``session_user_register``, called once while Django
starts): the Preferences and the wallet joined, the running tournament as a subquery. Only the
page frame relies on what was read there; what must be current reads afresh.
"""

from collections.abc import Callable

from django.db.models import QuerySet

from tcgsite.accounts.models import User

SessionUserAdjustment = Callable[[QuerySet[User]], QuerySet[User]]

_adjustments: list[SessionUserAdjustment] = []


def session_user_register(adjustment: SessionUserAdjustment) -> None:
    _adjustments.append(adjustment)


def session_user(user_id) -> User | None:
    """The player signed in as ``user_id``, with what the apps joined to it; None if gone."""
    users = User._default_manager.select_related("preferences")
    for adjustment in _adjustments:
        users = adjustment(users)
    return users.filter(pk=user_id).first()
