"""Guild Chat (rulebook, "Guild Chat"): "/g message" in any chat window, a lobby's or a
match's, reaches every member of the sender's guild and no one else.

The lobbies' chat rules hold: the length limit, the rate limit and mutes. A member who ignores
the sender never receives the line (and their sockets would drop it too).
"""

from django.db import transaction
from django.utils import timezone

from guilds import fragments
from guilds.models import GuildChatLine
from guilds.selectors import guild_member_ids, guild_of
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import ignorer_ids
from tcgsite.lobbies.services.chat import (
    MAX_MESSAGE_LENGTH,
    ChatError,
    chat_speaker_check,
    clean_chat_text,
)
from tcgsite.realtime import send_on_commit, user_group


def guild_chat_say(*, user: User, text: object) -> GuildChatLine:
    """Say ``text`` to the sender's guild; raises ChatError to refuse."""
    text = clean_chat_text(text)
    guild = guild_of(user_id=user.pk)
    if guild is None:
        raise ChatError("You are not in a guild: /g talks to your guild's members.")
    if not text:
        raise ChatError("Type your message after /g, as in: /g Hello, guild!")
    if len(text) > MAX_MESSAGE_LENGTH:
        raise ChatError(
            f"Your message has {len(text)} characters; a message may have at most "
            f"{MAX_MESSAGE_LENGTH}. Nothing was sent."
        )
    now = timezone.now()
    chat_speaker_check(user=user, lines=GuildChatLine.objects.filter(sender=user), now=now)
    with transaction.atomic():
        line = GuildChatLine.objects.create(guild=guild, sender=user, text=text, sent_at=now)
        line.sender = User.objects.select_related("preferences").get(pk=user.pk)
        payload = {
            "sender_id": user.pk,
            "line": fragments.lobby_chat_line(line),
            "log_line": fragments.match_log_line(line),
        }
        deaf = ignorer_ids(user_id=user.pk)
        for member_id in guild_member_ids(guild_id=guild.pk):
            if member_id not in deaf:
                send_on_commit(
                    group=user_group(member_id), message_type="guild.chat", payload=payload
                )
    return line
