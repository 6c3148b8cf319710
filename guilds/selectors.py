"""Reads of guild membership that the apps above guilds need (guild-only matches, posted
trades and chat) as well as the guild pages."""

from guilds.models import Guild, GuildMembership


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


def guild_member_ids(*, guild_id: int) -> list[int]:
    return list(GuildMembership.objects.filter(guild_id=guild_id).values_list("user_id", flat=True))
