"""Player chat in a match's Chat Log (rulebook, THE GAME SCREEN, "Talking to Other Players"):
lines for everyone watching, /st to direct one at a player, /whisper for the two alone.

The lobbies' rules hold here too: at most 500 characters, 5 lines in 5 seconds, nothing from
a muted player, and an ignored player's lines never reach the one ignoring them (the sockets
leave them out, as in the lobbies)."""

from django.db import transaction
from django.utils import timezone

from game import fragments
from game.models import Match, MatchChatKind, MatchChatLine
from game.selectors import NotAllowedToWatch, may_watch
from game.services.matches import match_group
from guilds.services.chat import guild_chat_say
from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tcgsite.lobbies.services.chat import (
    MAX_MESSAGE_LENGTH,
    chat_speaker_check,
    clean_chat_text,
)
from tcgsite.realtime import send_on_commit, user_group

WHISPER_COMMANDS = frozenset({"whisper", "w", "msg"})
SAY_TO_COMMANDS = frozenset({"st", "sayto"})
HELP = (
    "In a match's Chat Log: type to talk to everyone here; /st NAME message directs it at a "
    "player, for all to see; /whisper NAME message (or /w, /msg) is for that player alone; "
    "/g message talks to your guild's members."
)


class MatchChatError(UserError):
    pass


def match_chat_submit(*, match_id: int, user: User, text: object) -> list[str]:
    """Say ``text`` in the match's Chat Log, or run its command. Returns lines for the
    sender alone; raises MatchChatError to refuse."""
    match = Match.objects.select_related("host").filter(pk=match_id).first()
    if match is None:
        raise MatchChatError("There is no such match.")
    try:
        may_watch(match=match, viewer=user)
    except NotAllowedToWatch as refusal:
        raise MatchChatError(refusal.message) from refusal
    text = clean_chat_text(text)
    if not text:
        return []
    if len(text) > MAX_MESSAGE_LENGTH:
        raise MatchChatError(
            f"Your message has {len(text)} characters; a message may have at most "
            f"{MAX_MESSAGE_LENGTH}. Nothing was sent."
        )
    if not text.startswith("/"):
        _post(match, user, MatchChatKind.SAY, text)
        return []
    name, _, arguments = text[1:].partition(" ")
    command = name.lower()
    if command in ("help", "?"):
        return [HELP]
    if command in SAY_TO_COMMANDS | WHISPER_COMMANDS:
        target_name, _, said = arguments.strip().partition(" ")
        recipient = _player_of(match, target_name, command)
        said = said.strip()
        if not said:
            raise MatchChatError(f"Type a message after the name, as in: /{command} {recipient} Hi")
        if command in WHISPER_COMMANDS:
            if recipient.pk == user.pk:
                raise MatchChatError("You can't whisper to yourself.")
            _post(match, user, MatchChatKind.WHISPER, said, recipient)
        else:
            _post(match, user, MatchChatKind.SAY_TO, said, recipient)
        return []
    if command == "g":
        # Guild Chat reaches the sender's guild wherever its members are, not this match.
        guild_chat_say(user=user, text=arguments)
        return []
    raise MatchChatError(f"There is no command /{name[:30]} in a match; /help lists them.")


def _player_of(match: Match, name: str, command: str) -> User:
    if not name:
        raise MatchChatError(f"Name a player after /{command}.")
    seat = match.seats.select_related("player").filter(player__username__iexact=name).first()
    if seat is None:
        raise MatchChatError(f"{name[:40]} is not playing in this match.")
    return seat.player


def match_notice(match: Match, player: User, text: str) -> MatchChatLine:
    """A line the match itself tells everyone watching it about ``player`` ("* Carol offers
    a draw."), in the Chat Log with the game messages; in the caller's transaction."""
    line = MatchChatLine.objects.create(
        match=match, sender=player, kind=MatchChatKind.NOTICE, text=text, sent_at=timezone.now()
    )
    _deliver(match, line)
    return line


def _post(match: Match, user: User, kind: str, text: str, recipient: User | None = None):
    now = timezone.now()
    said = MatchChatLine.objects.filter(sender=user).exclude(kind=MatchChatKind.NOTICE)
    chat_speaker_check(user=user, lines=said, now=now)
    with transaction.atomic():
        line = MatchChatLine.objects.create(
            match=match, sender=user, kind=kind, text=text, recipient=recipient, sent_at=now
        )
        _deliver(match, line)
    return line


def _deliver(match: Match, line: MatchChatLine) -> None:
    """After the commit: a whisper to its two players, any other line to the match's page.
    The sockets leave out lines of players their viewer ignores, but never the match's own
    notices (no sender is given for them)."""
    if line.kind == MatchChatKind.WHISPER:
        for viewer in (line.sender, line.recipient):
            send_on_commit(
                group=user_group(viewer.pk),
                message_type="match.chat",
                payload={
                    "match_id": match.pk,
                    "sender_id": line.sender_id,
                    "line": fragments.chat_line(line, viewer_id=viewer.pk),
                },
            )
        return
    send_on_commit(
        group=match_group(match.pk),
        message_type="match.chat",
        payload={
            "match_id": match.pk,
            "sender_id": None if line.kind == MatchChatKind.NOTICE else line.sender_id,
            "line": fragments.chat_line(line),
        },
    )
