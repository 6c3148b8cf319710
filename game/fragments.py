"""The HTML the Casual Lobby's socket and a match's socket send, swapped in by htmx's
websocket extension (each fragment names its target, ``hx-swap-oob``)."""

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from game.models import Match, MatchChatKind, MatchChatLine

MEDALLIONS_ID = "medallion-list"


def medallion(match: Match, *, added: bool = False) -> str:
    """A Match Medallion (rulebook, Casual Lobby, "Joining a Match"): added at the end of the
    list, or swapped in for the one shown."""
    if not hasattr(match, "seat_count"):
        match.seat_count = match.seats.count()
    html = render_to_string("game/_medallion.html", {"match": match, "oob": not added})
    if added:
        return format_html('<ul id="{}" hx-swap-oob="beforeend">{}</ul>', MEDALLIONS_ID, html)
    return html


def medallion_removed(match_id: int) -> str:
    return format_html('<li id="medallion-{}" hx-swap-oob="delete"></li>', match_id)


def game_line(text: str) -> str:
    """A game message of the Chat Log, as the engine words it ("* You draw ...")."""
    return format_html('<li class="log-line log-line--game">{}</li>', text)


def chat_line(line: MatchChatLine, *, viewer_id: int | None = None) -> str:
    """A line of player chat as ``viewer_id`` sees it: "Paladon: Hi", "Carol (to Bob): Hi",
    and a whisper in the rulebook's two forms."""
    sender = line.sender.username
    if line.kind == MatchChatKind.NOTICE:
        return format_html(
            '<li class="log-line log-line--game log-line--notice">* {}</li>', line.text
        )
    if line.kind == MatchChatKind.SAY_TO:
        body = format_html("<strong>{} (to {}):</strong> {}", sender, line.recipient, line.text)
    elif line.kind == MatchChatKind.WHISPER and viewer_id == line.sender_id:
        body = format_html("You whisper to {}, {}", line.recipient, line.text)
    elif line.kind == MatchChatKind.WHISPER:
        body = format_html("{} whispers to you, {}", sender, line.text)
    else:
        body = format_html("<strong>{}:</strong> {}", sender, line.text)
    return format_html(
        '<li class="log-line log-line--chat log-line--{}" data-sender="{}">{}</li>',
        line.kind,
        line.sender_id,
        body,
    )


def appended(line: str) -> str:
    """A line (HTML made by this module: it may have crossed the channel layer as a plain
    string) added at the end of the Chat Log."""
    return format_html('<ol id="match-log" hx-swap-oob="beforeend">{}</ol>', mark_safe(line))  # noqa: S308


def notice_line(text: str, *, error: bool = False) -> str:
    """A line for one player alone: a command's answer, or why a line was refused."""
    kind = "error" if error else "notice"
    return appended(format_html('<li class="log-line log-line--{}">{}</li>', kind, text))


def challenge_toast(match: Match) -> str:
    """What the challenged player is told, on whatever page they are."""
    return render_to_string("game/_challenge_toast.html", {"match": match})


def resumed_toast(match: Match, player) -> str:
    return render_to_string("game/_resumed_toast.html", {"match": match, "player": player})
