"""Staff moderation of the chat: muting a player for a period."""

from datetime import datetime

from django.utils import timezone

from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tcgsite.lobbies.models import ChatMute


class ModerationError(UserError):
    pass


def chat_mute(*, user: User, until: datetime, reason: str = "", by: User | None) -> ChatMute:
    """Forbid ``user`` to talk in any chat window until ``until``; they can still read."""
    if refusal := mute_refusal(user=user, until=until):
        raise ModerationError(refusal)
    return ChatMute.objects.create(user=user, until=until, reason=reason[:200], muted_by=by)


def chat_unmute(*, user: User) -> int:
    """End every mute in force on ``user``; the number ended."""
    return ChatMute.objects.filter(user=user, until__gt=timezone.now()).update(until=timezone.now())


def mute_refusal(*, user: User, until: datetime) -> str | None:
    """Why ``user`` can't be muted until ``until``, or None if they can."""
    if until <= timezone.now():
        return "A mute must end in the future."
    if user.is_staff:
        return f"{user} is a staff member and can't be muted."
    return None
