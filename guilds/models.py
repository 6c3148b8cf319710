from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

# Rulebook, "Guilds": "Each guild can have up to 100 players."
MAX_MEMBERS = 100


class Guild(models.Model):
    """A player-made group (rulebook, "Guilds"). Its leader is one of its members."""

    name = models.CharField(max_length=30)
    leader = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="guilds_led"
    )
    # The Guild Message: a pop-up for each member at their next login after it changes.
    message = models.TextField(blank=True)
    message_changed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="guild_name_unique_ignoring_case",
                violation_error_message="A guild with that name already exists.",
            ),
        ]

    def __str__(self):
        return self.name


class GuildMembership(models.Model):
    """A player's place in their one guild."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="memberships")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guild_membership"
    )
    officer = models.BooleanField(default=False)
    joined_at = models.DateTimeField(default=timezone.now)
    # When the member last saw the Guild Message (its login pop-up, or its broadcast).
    message_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        indexes = [models.Index(fields=["guild", "joined_at"], name="guild_member_seniority")]

    def __str__(self):
        return f"{self.user} in {self.guild}"


class GuildInvitation(models.Model):
    """An invitation waiting for its player's answer."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guild_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["guild", "invitee"], name="one_invitation_per_guild"),
        ]

    def __str__(self):
        return f"{self.invitee} invited to {self.guild}"


class GuildChatLine(models.Model):
    """A line of Guild Chat (/g), kept so the chat rules (the rate limit) and moderation reach
    it as they reach the lobbies' chat."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="chat_lines")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guild_chat_lines"
    )
    text = models.TextField()
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["sender", "-sent_at"], name="guild_chat_sender_recent")]

    def __str__(self):
        return f"{self.sender} to {self.guild}: {self.text[:40]}"
