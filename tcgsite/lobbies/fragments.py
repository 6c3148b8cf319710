"""The HTML a lobby's socket sends: chat lines and User List rows, swapped in by htmx's
websocket extension (each fragment names its target, ``hx-swap-oob``).

Built with ``format_html`` rather than templates because a line is rendered once and sent to
every socket in the lobby, and a joining socket receives the whole list.
"""

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from tcgsite.accounts.models import User
from tcgsite.lobbies.models import ChatKind, ChatMessage
from tcgsite.lobbies.places import Place, Status
from tcgsite.lobbies.registry import NameBadge, OpenPage

CHAT_LOG_ID = "chat-log"
USER_LIST_ID = "user-list"


def avatar_url(user: User) -> str:
    return reverse("accounts:avatar_picture", args=[user.preferences.avatar_choice])


def player_name(user: User, badges: dict[int, NameBadge]) -> str:
    """A player's name in a chat line, with the badges features give it (a Sprint medal)."""
    badge = badges.get(user.pk)
    if not badge:
        return escape(user.username)
    return format_html(
        '<span class="{}">{}</span>{}',
        " ".join(("player-name", *badge.classes)),
        user.username,
        badge.html,
    )


def user_row(user: User, *, status: Status, place: str, badge: NameBadge | None = None) -> str:
    where = Place(place).label
    badge = badge or NameBadge()
    return format_html(
        '<li id="lobby-user-{id}" class="user-row user-row--{status}" data-username="{name}">'
        '<button type="button" class="user-row__name" data-user-menu="{name}" '
        'aria-haspopup="menu" title="{name}, {where} ({colour})">'
        '<img src="{avatar}" alt="" width="24" height="24" loading="lazy">'
        '<span class="{label_classes}">{name}</span>{badge}'
        '<span class="visually-hidden">, {where}</span></button></li>',
        id=user.pk,
        status=status.value,
        name=user.username,
        where=where,
        colour=status.label,
        avatar=avatar_url(user),
        label_classes=" ".join(("user-row__label", *badge.classes)),
        badge=badge.html,
    )


def user_list(
    rows: list[tuple[User, Status, str]], badges: dict[int, NameBadge] | None = None
) -> str:
    badges = badges or {}
    items = "".join(
        user_row(user, status=status, place=place, badge=badges.get(user.pk))
        for user, status, place in rows
    )
    return format_html(
        '<ul id="{}" class="user-list__users" hx-swap-oob="true">{}</ul>',
        USER_LIST_ID,
        _safe(items),
    )


def chat_line(
    message: ChatMessage,
    *,
    viewer_id: int | None = None,
    badges: dict[int, NameBadge] | None = None,
) -> str:
    """One message as ``viewer_id`` sees it (a whisper reads differently to its two players),
    its players' names with their ``badges``."""
    badges = badges or {}
    sender = message.sender
    name = player_name(sender, badges)
    if message.kind == ChatKind.EMOTE:
        body = format_html('<span class="chat-line__emote">{} {}</span>', name, message.text)
    elif message.kind == ChatKind.SAY_TO:
        body = format_html(
            '<strong class="chat-line__name">{} (to {}):</strong> {}',
            name,
            player_name(message.recipient, badges),
            message.text,
        )
    elif message.kind == ChatKind.WHISPER and viewer_id == sender.pk:
        body = format_html(
            '<span class="chat-line__whisper">You whisper to {}, {}</span>',
            player_name(message.recipient, badges),
            message.text,
        )
    elif message.kind == ChatKind.WHISPER:
        # A whisper received plays its sound once (static/js/sounds.js), by its key.
        body = format_html(
            '<span class="chat-line__whisper" data-sound-cue="whisper"'
            ' data-sound-key="whisper-{}">{} whispers to you, {}</span>',
            message.pk,
            name,
            message.text,
        )
    elif message.kind == ChatKind.PING:
        body = format_html('<span class="chat-line__ping">{} pings you.</span>', name)
    else:
        body = format_html('<strong class="chat-line__name">{}:</strong> {}', name, message.text)
    return format_html(
        '<li class="chat-line chat-line--{kind}" data-sender="{sender_id}">'
        '<time datetime="{iso}" title="{full} UTC">{short}</time>'
        '<img src="{avatar}" alt="" width="20" height="20" loading="lazy"> {body}</li>',
        kind=message.kind,
        sender_id=sender.pk,
        iso=message.sent_at.isoformat(),
        full=message.sent_at.strftime("%Y-%m-%d %H:%M:%S"),
        short=message.sent_at.strftime("%H:%M"),
        avatar=avatar_url(sender),
        body=body,
    )


def chat_line_players(message: ChatMessage) -> set[int]:
    """The players a chat line names."""
    return {message.sender_id} | ({message.recipient_id} if message.recipient_id else set())


def notice_line(text: str, *, error: bool = False) -> str:
    """A line shown to one player only: a command's output, a refusal, an arrival."""
    if error:
        return format_html('<li class="chat-line chat-line--error" role="alert">{}</li>', text)
    return format_html('<li class="chat-line chat-line--notice">{}</li>', text)


def answer_line(line: str | OpenPage) -> str:
    """A line of a command's answer; one that opens a page carries its address, which
    static/js/lobby.js follows (into the lobby's match window where it has one)."""
    if isinstance(line, str):
        return notice_line(line)
    return format_html(
        '<li class="chat-line chat-line--notice">{} '
        '<a href="{}" data-chat-opens="{}">Open</a></li>',
        line.text,
        line.url,
        "window" if line.window else "page",
    )


def appended(lines: list[str]) -> str:
    """Lines to add at the end of the chat log."""
    return format_html(
        '<ol id="{}" hx-swap-oob="beforeend">{}</ol>', CHAT_LOG_ID, _safe("".join(lines))
    )


def chat_log(lines: list[str]) -> str:
    """The whole chat log, replacing what the page shows."""
    return format_html(
        '<ol id="{}" class="chat-log" aria-live="polite" aria-relevant="additions" '
        'hx-swap-oob="true">{}</ol>',
        CHAT_LOG_ID,
        _safe("".join(lines)),
    )


def user_added(row: str) -> str:
    return format_html('<ul id="{}" hx-swap-oob="beforeend">{}</ul>', USER_LIST_ID, _safe(row))


def user_replaced(row: str) -> str:
    return row.replace("<li ", '<li hx-swap-oob="true" ', 1)


def user_removed(user_id: int) -> str:
    return format_html('<li id="lobby-user-{}" hx-swap-oob="delete"></li>', user_id)


def ping_sound() -> str:
    """Tells the page to sound the ping (static/js/lobby.js plays it)."""
    return '<div id="chat-ping" hx-swap-oob="true" data-ping="1"></div>'


def toast(line: str) -> str:
    """A ping shown on a page without a chat window."""
    return format_html(
        '<div id="toasts" hx-swap-oob="beforeend"><ol class="toast" role="status">{}</ol></div>',
        _safe(line),
    )


def _safe(html: str) -> str:
    # Only ever given HTML built by format_html in this module.
    return mark_safe(html)  # noqa: S308
