"""Lobby chat: what a player types into a chat window (rulebook, "Lobby Chat" and "Chat Window
Commands").

``chat_submit`` is the one entry: a line that starts with a slash runs a registered command,
anything else is said to the lobby. Messages are stored (the lobby's history, moderation) and
delivered through the channel layer after commit; the lobby's sockets leave out what their player
ignores (tcgsite/lobbies/consumers.py), and a whisper or ping never reaches a player who ignores
its sender.
"""

import unicodedata
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import is_ignored, player_by_name
from tcgsite.errors import UserError
from tcgsite.lobbies import fragments
from tcgsite.lobbies.models import ChatKind, ChatMessage, ChatMute, Presence
from tcgsite.lobbies.places import Lobby, appears_in
from tcgsite.lobbies.registry import CommandContext, CommandLine, command_named
from tcgsite.lobbies.selectors import name_badges
from tcgsite.lobbies.services.presence import lobby_group
from tcgsite.realtime import send_on_commit, user_group

MAX_MESSAGE_LENGTH = 500
RATE_LIMIT_MESSAGES = 5
RATE_LIMIT_SECONDS = 5
ZERO_WIDTH_JOINER = "\u200d"


class ChatError(UserError):
    """A chat line that can't be sent; shown to its sender only."""


def chat_submit(*, user: User, lobby: str, text: str) -> list[CommandLine]:
    """Say ``text`` in ``lobby``'s chat window, or run the command it starts with. Returns the
    lines for the sender alone (a command's output); raises ChatError to refuse."""
    if lobby not in Lobby.values:
        raise ChatError("There is no such lobby.")
    text = clean_chat_text(text)
    if not text:
        return []
    if len(text) > MAX_MESSAGE_LENGTH:
        raise ChatError(
            f"Your message has {len(text)} characters; a message may have at most "
            f"{MAX_MESSAGE_LENGTH}. Nothing was sent."
        )
    if not text.startswith("/"):
        chat_say(user=user, lobby=lobby, text=text)
        return []
    name, _, arguments = text[1:].partition(" ")
    if not name:
        raise ChatError("Type a command after the slash; /help lists them.")
    command = command_named(name)
    if command is None:
        raise ChatError(f"There is no command /{name[:30]}; /help lists them.")
    if not command.available_in(lobby):
        raise ChatError(f"/{command.name} can't be used in the {Lobby(lobby).label}.")
    return command.handler(CommandContext(user=user, lobby=lobby), arguments.strip())


def chat_say(*, user: User, lobby: str, text: str) -> ChatMessage:
    return _post(user=user, lobby=lobby, kind=ChatKind.SAY, text=text)


def chat_emote(*, user: User, lobby: str, text: str) -> ChatMessage:
    """/me: "Demonstrator is demonstrating an emote." """
    if not text:
        raise ChatError("Type what you do after /me, as in: /me waves.")
    return _post(user=user, lobby=lobby, kind=ChatKind.EMOTE, text=text)


def chat_say_to(*, user: User, lobby: str, name: str, text: str) -> ChatMessage:
    """/sayto: "Carol (to Bob): Hello", seen by everyone in the lobby."""
    recipient = player_in_lobby(lobby=lobby, name=name, command="sayto")
    if not text:
        raise ChatError(f"Type what to say after the name, as in: /sayto {recipient} Hello")
    return _post(user=user, lobby=lobby, kind=ChatKind.SAY_TO, text=text, recipient=recipient)


def chat_whisper(*, user: User, lobby: str, name: str, text: str) -> ChatMessage:
    """/whisper: only the two players see it, in the rulebook's two forms."""
    recipient = player_in_lobby(lobby=lobby, name=name, command="whisper")
    if recipient.pk == user.pk:
        raise ChatError("You can't whisper to yourself.")
    if not text:
        raise ChatError(f"Type what to whisper after the name, as in: /whisper {recipient} Hello")
    return _post(user=user, lobby=lobby, kind=ChatKind.WHISPER, text=text, recipient=recipient)


def chat_ping(*, user: User, lobby: str, name: str) -> ChatMessage:
    """/ping: a sound and a line in the other player's chat window."""
    recipient = player_in_lobby(lobby=lobby, name=name, command="ping")
    if recipient.pk == user.pk:
        raise ChatError("You can't ping yourself.")
    if is_ignored(user=recipient, other=user):
        raise ChatError(f"{recipient} is not accepting pings from you.")
    if not recipient.preferences.request_attention:
        raise ChatError(f"{recipient} has turned pings off.")
    return _post(user=user, lobby=lobby, kind=ChatKind.PING, text="", recipient=recipient)


def player_in_lobby(*, lobby: str, name: str, command: str) -> User:
    """The player called ``name`` in ``lobby``'s User List, or a ChatError that says why not."""
    if not name:
        raise ChatError(f"Name a player after /{command}.")
    player = player_by_name(username=name)
    if player is None:
        raise ChatError(f"There is no player called {name[:40]}.")
    presence = Presence.objects.filter(user=player).first()
    if presence is None or not appears_in(lobby, room=presence.room, place=presence.place):
        raise ChatError(f"{player} is not in this lobby.")
    return player


def split_name(arguments: str) -> tuple[str, str]:
    """``"Bob Hello there"`` as ``("Bob", "Hello there")``."""
    name, _, rest = arguments.partition(" ")
    return name, rest.strip()


def mute_of(user: User):
    """The mute in force on ``user``, or None."""
    return ChatMute.objects.filter(user=user, until__gt=timezone.now()).order_by("-until").first()


def chat_speaker_check(*, user: User, lines, now) -> None:
    """Raise ChatError if ``user`` may not talk now: muted, or past the rate limit.
    ``lines`` are their lines of this chat (a lobby's, or a match's), with a ``sent_at``."""
    if mute := mute_of(user):
        reason = f" ({mute.reason})" if mute.reason else ""
        raise ChatError(
            f"You are muted until {mute.until:%Y-%m-%d %H:%M} UTC{reason}: "
            "you can read the chat but not talk."
        )
    recent = lines.filter(sent_at__gt=now - timedelta(seconds=RATE_LIMIT_SECONDS)).count()
    if recent >= RATE_LIMIT_MESSAGES:
        raise ChatError(
            f"You are talking too fast: at most {RATE_LIMIT_MESSAGES} messages in "
            f"{RATE_LIMIT_SECONDS} seconds. Wait a moment and send it again."
        )


def _post(
    *, user: User, lobby: str, kind: str, text: str, recipient: User | None = None
) -> ChatMessage:
    now = timezone.now()
    chat_speaker_check(user=user, lines=ChatMessage.objects.filter(sender=user), now=now)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            lobby=lobby, sender=user, kind=kind, text=text, recipient=recipient, sent_at=now
        )
        message.sender = User.objects.select_related("preferences").get(pk=user.pk)
        _deliver(message)
    return message


def _deliver(message: ChatMessage) -> None:
    sender_id = message.sender_id
    badges = name_badges(user_ids=fragments.chat_line_players(message))
    if message.kind in (ChatKind.SAY, ChatKind.EMOTE, ChatKind.SAY_TO):
        send_on_commit(
            group=lobby_group(message.lobby),
            message_type="lobby.chat",
            payload={
                "sender_id": sender_id,
                "line": fragments.chat_line(message, badges=badges),
            },
        )
        return
    recipient_id = message.recipient_id
    if message.kind == ChatKind.WHISPER:
        # The sender's own pages in this lobby show "You whisper to Bob, ..."; the recipient's
        # show it only if they don't ignore the sender.
        send_on_commit(
            group=user_group(sender_id),
            message_type="lobby.chat",
            payload={
                "lobby": message.lobby,
                "sender_id": sender_id,
                "line": fragments.chat_line(message, viewer_id=sender_id, badges=badges),
            },
        )
        if is_ignored(user=message.recipient, other=message.sender):
            return
    send_on_commit(
        group=user_group(recipient_id),
        message_type="lobby.chat",
        payload={
            "lobby": message.lobby,
            "sender_id": sender_id,
            "line": fragments.chat_line(message, viewer_id=recipient_id, badges=badges),
            "ping": message.kind == ChatKind.PING,
        },
    )


def clean_chat_text(text: str) -> str:
    """The text without control and format characters (a pasted newline becomes a space),
    except the joiner that emoji sequences need."""
    if not isinstance(text, str):
        raise ChatError("That message could not be read.")
    text = text.replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return "".join(
        ch for ch in text if ch == ZERO_WIDTH_JOINER or unicodedata.category(ch) not in ("Cc", "Cf")
    ).strip()
