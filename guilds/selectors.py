"""Reads of guild membership that the apps above guilds need (guild-only matches, posted
trades and chat) as well as the guild pages."""

from dataclasses import dataclass

from django.db.models import Count, Sum
from django.db.models.functions import Coalesce, Lower

from guilds.models import MAX_MEMBERS, Guild, GuildInvitation, GuildMembership
from tcgsite.accounts.models import User
from tcgsite.lobbies.selectors import Whereabouts, whereabouts_of


def guild_of(*, user_id: int) -> Guild | None:
    membership = GuildMembership.objects.select_related("guild").filter(user_id=user_id).first()
    return membership.guild if membership else None


def guild_id_of(*, user_id: int) -> int | None:
    return (
        GuildMembership.objects.filter(user_id=user_id).values_list("guild_id", flat=True).first()
    )


def are_guildmates(*, user_id: int, other_id: int) -> bool:
    guild_id = guild_id_of(user_id=user_id)
    return guild_id is not None and (
        user_id == other_id
        or GuildMembership.objects.filter(guild_id=guild_id, user_id=other_id).exists()
    )


def memberships_of(*, user_ids) -> dict[int, GuildMembership]:
    """The memberships of these players that exist (with their guilds), by player."""
    memberships = GuildMembership.objects.select_related("guild").filter(user_id__in=user_ids)
    return {membership.user_id: membership for membership in memberships}


def guild_member_ids(*, guild_id: int) -> list[int]:
    return list(GuildMembership.objects.filter(guild_id=guild_id).values_list("user_id", flat=True))


@dataclass(frozen=True)
class RankedGuild:
    """A row of the All Guilds list (rulebook, "All Guilds")."""

    rank: int
    guild: Guild
    member_count: int
    total_rating: int


def guild_rankings(*, friends_of: User | None = None) -> list[RankedGuild]:
    """Every guild, ranked by the combined ratings of its members (equal totals share a
    rank); with ``friends_of``, only the guilds holding one of that player's friends, each at
    its rank among all guilds (rulebook, "Friends' Guilds")."""
    guilds = (
        Guild.objects.select_related("leader")
        .annotate(
            member_count=Count("memberships"),
            total_rating=Coalesce(Sum("memberships__user__rating"), 0),
        )
        .order_by("-total_rating", Lower("name"))
    )
    wanted = None
    if friends_of is not None:
        wanted = set(
            GuildMembership.objects.filter(user_id__in=friends_of.friends.values("pk")).values_list(
                "guild_id", flat=True
            )
        )
    ranked, rank, previous = [], 0, None
    for position, guild in enumerate(guilds, start=1):
        if guild.total_rating != previous:
            rank, previous = position, guild.total_rating
        if wanted is None or guild.pk in wanted:
            ranked.append(RankedGuild(rank, guild, guild.member_count, guild.total_rating))
    return ranked


def invitations_of(*, user: User) -> list[GuildInvitation]:
    """The invitations waiting for the player's answer, newest first."""
    return list(
        GuildInvitation.objects.filter(invitee=user)
        .select_related("guild", "invited_by")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class GuildMember:
    membership: GuildMembership
    is_leader: bool
    whereabouts: Whereabouts
    # Whether the page's viewer may kick this member: the leader anyone else, an officer the
    # members who are neither leader nor officer.
    kickable: bool

    @property
    def user(self) -> User:
        return self.membership.user

    @property
    def rank_label(self) -> str:
        if self.is_leader:
            return "Leader"
        return "Officer" if self.membership.officer else "Member"


@dataclass(frozen=True)
class GuildPage:
    """What the guild's details show its viewer (rulebook, "Viewing Your Guild Details")."""

    guild: Guild
    members: list[GuildMember]
    viewer_membership: GuildMembership | None
    invitation: GuildInvitation | None
    invited: list[GuildInvitation]

    @property
    def officers(self) -> list[GuildMember]:
        return [member for member in self.members if member.membership.officer]

    @property
    def total_rating(self) -> int:
        return sum(member.user.rating for member in self.members)

    @property
    def average_rating(self) -> int:
        return round(self.total_rating / len(self.members)) if self.members else 0

    @property
    def online_count(self) -> int:
        return sum(1 for member in self.members if member.whereabouts.online)

    @property
    def is_member(self) -> bool:
        return self.viewer_membership is not None

    @property
    def is_leader(self) -> bool:
        return self.is_member and self.guild.leader_id == self.viewer_membership.user_id

    @property
    def manages(self) -> bool:
        """The viewer may invite, kick and set the Guild Message: the leader, an officer."""
        return self.is_leader or (self.is_member and self.viewer_membership.officer)

    @property
    def is_full(self) -> bool:
        return len(self.members) >= MAX_MEMBERS


def guild_page(*, guild_id: int, viewer: User) -> GuildPage | None:
    guild = Guild.objects.select_related("leader").filter(pk=guild_id).first()
    if guild is None:
        return None
    memberships = list(
        GuildMembership.objects.filter(guild=guild)
        .select_related("user__preferences")
        .order_by("joined_at", "pk")
    )
    viewer_membership = next(
        (membership for membership in memberships if membership.user_id == viewer.pk), None
    )
    viewer_leads = viewer.pk == guild.leader_id
    viewer_manages = viewer_membership is not None and (viewer_leads or viewer_membership.officer)
    where = whereabouts_of([membership.user_id for membership in memberships])
    members = []
    for membership in memberships:
        is_leader = membership.user_id == guild.leader_id
        kickable = (
            viewer_manages
            and not is_leader
            and membership.user_id != viewer.pk
            and (viewer_leads or not membership.officer)
        )
        members.append(GuildMember(membership, is_leader, where[membership.user_id], kickable))
    # The leader first, then the officers, then the others, each by seniority.
    members.sort(key=lambda member: (not member.is_leader, not member.membership.officer))
    invitation = (
        GuildInvitation.objects.filter(guild=guild, invitee=viewer)
        .select_related("invited_by")
        .first()
    )
    invited = []
    if viewer_manages:
        invited = list(
            GuildInvitation.objects.filter(guild=guild)
            .select_related("invitee", "invited_by")
            .order_by("-created_at", "-pk")
        )
    return GuildPage(guild, members, viewer_membership, invitation, invited)
