"""The HTML guilds send over the sockets: the pop-ups (an invitation, a kick, the Guild
Message) and the lines of Guild Chat, for a lobby's chat window and for a match's Chat Log."""

from django.template.loader import render_to_string
from django.utils.html import format_html

from guilds.models import Guild, GuildChatLine, GuildInvitation
from tcgsite.accounts.models import User
from tcgsite.lobbies import fragments as lobby_fragments


def invitation_toast(invitation: GuildInvitation) -> str:
    return render_to_string("guilds/_invitation_toast.html", {"invitation": invitation})


def kicked_toast(guild: Guild, by: User) -> str:
    return format_html(
        '<li class="toast__line"><strong>{}</strong> removed you from the guild {}.</li>',
        by.username,
        guild.name,
    )


def message_toast(guild: Guild, *, by: User | None) -> str:
    return render_to_string("guilds/_message_toast.html", {"guild": guild, "by": by})


def message_popup(guild: Guild) -> str:
    """The Guild Message shown on a page as it opens (the pop-up at login)."""
    return lobby_fragments.toast(message_toast(guild, by=None))


def lobby_chat_line(line: GuildChatLine) -> str:
    """A Guild Chat line in a lobby's chat window: green, the guild's name before the
    sender's (rulebook, "Guild Chat")."""
    return format_html(
        '<li class="chat-line chat-line--guild" data-sender="{sender_id}">'
        '<time datetime="{iso}" title="{full} UTC">{short}</time>'
        '<img src="{avatar}" alt="" width="20" height="20" loading="lazy"> '
        '<strong class="chat-line__name">[{guild}] {sender}:</strong> {text}</li>',
        sender_id=line.sender_id,
        iso=line.sent_at.isoformat(),
        full=line.sent_at.strftime("%Y-%m-%d %H:%M:%S"),
        short=line.sent_at.strftime("%H:%M"),
        avatar=lobby_fragments.avatar_url(line.sender),
        guild=line.guild.name,
        sender=line.sender.username,
        text=line.text,
    )


def match_log_line(line: GuildChatLine) -> str:
    """The same line in a match's Chat Log."""
    return format_html(
        '<li class="log-line log-line--chat log-line--guild" data-sender="{}">'
        "<strong>[{}] {}:</strong> {}</li>",
        line.sender_id,
        line.guild.name,
        line.sender.username,
        line.text,
    )
