from django.conf import settings
from django.db import models
from django.utils import timezone

from tcgsite.lobbies.places import Lobby, Place


class ChatKind(models.TextChoices):
    SAY = "say", "Said"
    EMOTE = "me", "/me"
    SAY_TO = "sayto", "/sayto"
    WHISPER = "whisper", "/whisper"
    PING = "ping", "/ping"


# What every player in the lobby sees; whispers and pings reach one player only.
PUBLIC_KINDS = (ChatKind.SAY, ChatKind.EMOTE, ChatKind.SAY_TO)


class ChatMessage(models.Model):
    """A line said in a lobby's chat window, kept for the lobby's history and for moderation."""

    lobby = models.CharField(max_length=12, choices=Lobby.choices)
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    kind = models.CharField(max_length=8, choices=ChatKind.choices, default=ChatKind.SAY)
    # The player a /sayto, /whisper or /ping is meant for.
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages_received",
        null=True,
        blank=True,
    )
    text = models.TextField(blank=True)
    sent_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["lobby", "-sent_at"], name="chat_lobby_recent"),
            models.Index(fields=["sender", "-sent_at"], name="chat_sender_recent"),
        ]

    def __str__(self):
        return f"{self.sender} in the {self.get_lobby_display()}: {self.text[:40]}"


class ChatMute(models.Model):
    """A staff decision: the player may not talk in any chat window until ``until``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    until = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    muted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chat_mutes_given",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "-until"], name="chat_mute_current")]

    def __str__(self):
        return f"{self.user} muted until {self.until:%Y-%m-%d %H:%M}"


class Connection(models.Model):
    """One open page of a player: a socket on some web process, alive while its process
    refreshes ``seen_at`` (tcgsite/lobbies/services/presence.py)."""

    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lobby_connections"
    )
    place = models.CharField(max_length=12, choices=Place.choices)
    opened_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "closed_at"], name="connection_user_open")]

    def __str__(self):
        return f"{self.user} {self.get_place_display()}"


class Presence(models.Model):
    """A player as the User Lists show them now; no row: offline."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="presence",
    )
    room = models.CharField(max_length=12, choices=Lobby.choices)
    place = models.CharField(max_length=12, choices=Place.choices)
    online_since = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"{self.user} {self.get_place_display()}"
