"""Guilds and their members (rulebook, "Guilds"): creating a guild, inviting players and their
answer, leaving, kicking, officers and the Guild Message.

Every service locks the guild's row before it reads the guild's members, so two changes to one
guild happen one after the other (the 100th seat goes to one player); a player's own row is
locked after it, where the player's membership may change (the player in two guilds at once).
"""

import re
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from guilds import fragments
from guilds.models import MAX_MEMBERS, Guild, GuildInvitation, GuildMembership
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import is_ignored
from tcgsite.errors import UserError
from tcgsite.lobbies.models import Presence
from tcgsite.realtime import send_on_commit, user_group

NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 30
# Letters, digits, spaces and the marks of a name (O'Neill, Rogue-Squadron, St. Ives).
NAME_CHARACTERS = re.compile(r"[A-Za-z0-9 '.\-]+")
MESSAGE_MAX_LENGTH = 1000


class GuildError(UserError):
    """A guild action that can't be done; the message says why."""


@dataclass(frozen=True)
class Role:
    """What a player is to a guild: the permissions of the rulebook's "Officers"."""

    member: bool
    officer: bool
    leader: bool

    @property
    def manages(self) -> bool:
        """Invites, kicks and sets the Guild Message: the leader and the officers."""
        return self.leader or self.officer


def role_in(guild: Guild, user: User) -> Role:
    membership = GuildMembership.objects.filter(guild=guild, user=user).first()
    if membership is None:
        return Role(member=False, officer=False, leader=False)
    return Role(member=True, officer=membership.officer, leader=guild.leader_id == user.pk)


def guild_name_check(name: str) -> str:
    """The name as it will be stored, or a GuildError for the rule it breaks."""
    if not isinstance(name, str) or not name:
        raise GuildError("Type a name for your guild.")
    if name != name.strip():
        raise GuildError("A guild's name can't begin or end with a space.")
    if len(name) < NAME_MIN_LENGTH:
        raise GuildError(f"A guild's name needs at least {NAME_MIN_LENGTH} characters.")
    if len(name) > NAME_MAX_LENGTH:
        raise GuildError(
            f"A guild's name may have at most {NAME_MAX_LENGTH} characters; "
            f"this one has {len(name)}."
        )
    if not NAME_CHARACTERS.fullmatch(name):
        raise GuildError(
            "A guild's name may use only letters (A to Z), digits, spaces, apostrophes, "
            "hyphens and full stops."
        )
    if "  " in name:
        raise GuildError("A guild's name can't have two spaces in a row.")
    if not any(character.isalpha() for character in name):
        raise GuildError("A guild's name needs at least one letter.")
    if Guild.objects.filter(name__iexact=name).exists():
        raise GuildError(f"There is already a guild called {name}; choose another name.")
    return name


def guild_create(*, founder: User, name: str) -> Guild:
    """The founder creates a guild and leads it (rulebook, "Creating a Guild")."""
    name = guild_name_check(name)
    try:
        with transaction.atomic():
            _lock_users([founder.pk])
            if GuildMembership.objects.filter(user=founder).exists():
                raise GuildError("You can't create a guild while you are a member of one.")
            guild = Guild.objects.create(name=name, leader=founder)
            GuildMembership.objects.create(guild=guild, user=founder)
            GuildInvitation.objects.filter(invitee=founder).delete()
    except IntegrityError as clash:
        # Another guild took the name between the check and the commit.
        raise GuildError(f"There is already a guild called {name}; choose another name.") from clash
    return guild


def guild_invite(*, inviter: User, invitee: User) -> GuildInvitation:
    """The leader or an officer invites a player who is in no guild; the player gets a pop-up
    with the invitation and a link to the guild (rulebook, "Inviting Members")."""
    with transaction.atomic():
        guild = _locked_guild_of(inviter)
        if guild is None:
            raise GuildError("You are not in a guild, so you can't invite anyone to one.")
        if not role_in(guild, inviter).manages:
            raise GuildError("Only the guild's leader and officers can invite players.")
        if invitee.pk == inviter.pk:
            raise GuildError("You are already in your guild.")
        if GuildMembership.objects.filter(user=invitee).exists():
            if GuildMembership.objects.filter(user=invitee, guild=guild).exists():
                raise GuildError(f"{invitee} is already in {guild}.")
            raise GuildError(f"{invitee} is already in another guild.")
        if guild.memberships.count() >= MAX_MEMBERS:
            raise GuildError(f"{guild} is full: a guild has at most {MAX_MEMBERS} members.")
        if is_ignored(user=invitee, other=inviter):
            raise GuildError(f"{invitee} is not taking invitations from you.")
        if GuildInvitation.objects.filter(guild=guild, invitee=invitee).exists():
            raise GuildError(f"{invitee} already has an invitation to {guild}.")
        invitation = GuildInvitation.objects.create(
            guild=guild, invitee=invitee, invited_by=inviter
        )
        send_on_commit(
            group=user_group(invitee.pk),
            message_type="lobby.toast",
            payload={"sender_id": inviter.pk, "html": fragments.invitation_toast(invitation)},
        )
    return invitation


def guild_invitation_accept(*, invitation_id: int, user: User) -> Guild:
    """The invited player joins the guild, if it still has room."""
    with transaction.atomic():
        invitation = _invitation_for(invitation_id, user)
        guild = Guild.objects.select_for_update().filter(pk=invitation.guild_id).first()
        if guild is None:
            # Its last member left while this waited for the guild's lock.
            raise GuildError(f"{invitation.guild} was disbanded a moment ago; you joined no guild.")
        _lock_users([user.pk])
        if GuildMembership.objects.filter(user=user).exists():
            raise GuildError("You are already in a guild: leave it before you join another.")
        if guild.memberships.count() >= MAX_MEMBERS:
            raise GuildError(f"{guild} is full: a guild has at most {MAX_MEMBERS} members.")
        GuildMembership.objects.create(guild=guild, user=user)
        # A player in a guild can't be invited to any: the other invitations are moot.
        GuildInvitation.objects.filter(invitee=user).delete()
    return guild


def guild_invitation_decline(*, invitation_id: int, user: User) -> Guild:
    with transaction.atomic():
        invitation = _invitation_for(invitation_id, user)
        guild = invitation.guild
        invitation.delete()
    return guild


def guild_leave(*, user: User) -> Guild | None:
    """The player leaves their guild (rulebook, "Leaving a Guild"). A leader hands the guild
    to an officer, else to the longest-serving member; the last member's leaving disbands it.
    Returns the guild, or None when it was disbanded."""
    with transaction.atomic():
        guild = _locked_guild_of(user)
        if guild is None:
            raise GuildError("You are not in a guild.")
        GuildMembership.objects.filter(guild=guild, user=user).delete()
        if guild.leader_id != user.pk:
            return guild
        successor = (
            GuildMembership.objects.filter(guild=guild)
            .order_by("-officer", "joined_at", "pk")
            .first()
        )
        if successor is None:
            guild.delete()
            return None
        guild.leader_id = successor.user_id
        guild.save(update_fields=["leader"])
        # The leader leads: an officer who becomes leader is no longer counted as an officer.
        GuildMembership.objects.filter(pk=successor.pk).update(officer=False)
    return guild


def guild_kick(*, by: User, member: User) -> Guild:
    """The leader or an officer removes a member (rulebook, "Removing Players from Your
    Guild"); an officer can't remove the leader or another officer."""
    with transaction.atomic():
        guild = _locked_guild_of(by)
        if guild is None:
            raise GuildError("You are not in a guild.")
        role = role_in(guild, by)
        if not role.manages:
            raise GuildError("Only the guild's leader and officers can kick members.")
        if member.pk == by.pk:
            raise GuildError("You can't kick yourself; leave the guild instead.")
        target = role_in(guild, member)
        if not target.member:
            raise GuildError(f"{member} is not in {guild}.")
        if target.leader:
            raise GuildError("Nobody can kick the guild's leader.")
        if target.officer and not role.leader:
            raise GuildError("Only the guild's leader can kick an officer.")
        GuildMembership.objects.filter(guild=guild, user=member).delete()
        send_on_commit(
            group=user_group(member.pk),
            message_type="lobby.toast",
            payload={"sender_id": None, "html": fragments.kicked_toast(guild, by)},
        )
    return guild


def guild_officer_set(*, leader: User, member: User, officer: bool) -> GuildMembership:
    """The leader grants or revokes Guild Officer Status (rulebook, "Officers")."""
    with transaction.atomic():
        guild = _locked_guild_of(leader)
        if guild is None:
            raise GuildError("You are not in a guild.")
        if guild.leader_id != leader.pk:
            raise GuildError("Only the guild's leader can grant or revoke officer status.")
        if member.pk == leader.pk:
            raise GuildError("The leader leads the guild; officer status is for the others.")
        membership = GuildMembership.objects.filter(guild=guild, user=member).first()
        if membership is None:
            raise GuildError(f"{member} is not in {guild}.")
        if membership.officer == officer:
            state = "already" if officer else "not"
            raise GuildError(f"{member} is {state} an officer.")
        membership.officer = officer
        membership.save(update_fields=["officer"])
    return membership


def guild_message_set(*, by: User, text: str, broadcast: bool) -> int:
    """The leader or an officer sets the Guild Message: each member sees it in a pop-up at
    their next login; with ``broadcast``, the members online see it at once. Returns the
    number of members it was broadcast to."""
    if not isinstance(text, str):
        raise GuildError("That message could not be read.")
    text = text.strip()
    if len(text) > MESSAGE_MAX_LENGTH:
        raise GuildError(
            f"The Guild Message may have at most {MESSAGE_MAX_LENGTH} characters; "
            f"this one has {len(text)}."
        )
    now = timezone.now()
    with transaction.atomic():
        guild = _locked_guild_of(by)
        if guild is None:
            raise GuildError("You are not in a guild.")
        if not role_in(guild, by).manages:
            raise GuildError("Only the guild's leader and officers can set the Guild Message.")
        if broadcast and not text:
            raise GuildError("Type a message to send to the guild.")
        guild.message = text
        guild.message_changed_at = now
        guild.save(update_fields=["message", "message_changed_at"])
        GuildMembership.objects.filter(guild=guild, user=by).update(message_seen_at=now)
        if not broadcast:
            return 0
        online = list(
            GuildMembership.objects.filter(
                guild=guild, user_id__in=Presence.objects.values("user_id")
            )
            .exclude(user=by)
            .values_list("user_id", flat=True)
        )
        GuildMembership.objects.filter(guild=guild, user_id__in=online).update(message_seen_at=now)
        html = fragments.message_toast(guild, by=by)
        for member_id in online:
            send_on_commit(
                group=user_group(member_id),
                message_type="lobby.toast",
                payload={"sender_id": None, "html": html},
            )
    return len(online)


def guild_message_take(*, user: User) -> Guild | None:
    """The guild whose Guild Message a player whose page just opened is to see: one they
    have not seen, changed before they came online (this is their next login). None else.
    It is shown once: it is marked seen."""
    with transaction.atomic():
        # Only the membership's row: a page opening never waits on the guild's lock.
        membership = (
            GuildMembership.objects.select_for_update(of=("self",))
            .select_related("guild")
            .filter(user=user)
            .first()
        )
        if membership is None:
            return None
        guild = membership.guild
        changed_at = guild.message_changed_at
        if not guild.message or changed_at is None:
            return None
        if membership.message_seen_at is not None and membership.message_seen_at >= changed_at:
            return None
        online_since = (
            Presence.objects.filter(user=user).values_list("online_since", flat=True).first()
        )
        if online_since is not None and online_since < changed_at:
            return None  # set while this player was online: it waits for their next login
        membership.message_seen_at = timezone.now()
        membership.save(update_fields=["message_seen_at"])
    return guild


def _locked_guild_of(user: User) -> Guild | None:
    """The user's guild, its row locked; None if they are in none."""
    guild_id = GuildMembership.objects.filter(user=user).values_list("guild_id", flat=True).first()
    if guild_id is None:
        return None
    guild = Guild.objects.select_for_update().filter(pk=guild_id).first()
    # The player may have left between the two reads; the lock makes the second one true.
    if guild is None or not GuildMembership.objects.filter(guild=guild, user=user).exists():
        return None
    return guild


def _invitation_for(invitation_id: int, user: User) -> GuildInvitation:
    invitation = (
        GuildInvitation.objects.select_related("guild")
        .filter(pk=invitation_id, invitee=user)
        .first()
    )
    if invitation is None:
        raise GuildError(
            "That invitation is no longer open: its guild was disbanded, or you have answered "
            "it or joined a guild since."
        )
    return invitation


def _lock_users(user_ids: list[int]) -> None:
    list(
        User.objects.select_for_update()
        .filter(pk__in=user_ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
