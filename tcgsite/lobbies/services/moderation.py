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
    if until <= timezone.now():
        raise ModerationError("A mute must end in the future.")
    if user.is_staff:
        raise ModerationError(f"{user} is a staff member and can't be muted.")
    return ChatMute.objects.create(user=user, until=until, reason=reason[:200], muted_by=by)


def chat_unmute(*, user: User) -> int:
    """End every mute in force on ``user``; the number ended."""
    return ChatMute.objects.filter(user=user, until__gt=timezone.now()).update(until=timezone.now())
