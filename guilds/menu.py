"""What guilds add to a name's menu in a User List (rulebook, "User Lists"): Invite to guild,
for a player in no guild when you lead or are an officer of one; Kick from guild, for a member
of your guild you may remove."""

from django.urls import reverse

from guilds.selectors import memberships_of
from tcgsite.accounts.models import User
from tcgsite.lobbies.registry import MenuEntry, register_menu_entry


def invite_to_guild(viewer: User, target: User, lobby: str):
    if viewer.pk == target.pk:
        return None
    memberships = memberships_of(user_ids=(viewer.pk, target.pk))
    own = memberships.get(viewer.pk)
    if own is None or target.pk in memberships:
        return None
    if not (own.officer or own.guild.leader_id == viewer.pk):
        return None
    return "Invite to guild", (
        "post",
        reverse("guilds:guild_invite_player", args=[target.username]),
    )


def kick_from_guild(viewer: User, target: User, lobby: str):
    if viewer.pk == target.pk:
        return None
    memberships = memberships_of(user_ids=(viewer.pk, target.pk))
    own, theirs = memberships.get(viewer.pk), memberships.get(target.pk)
    if own is None or theirs is None or own.guild_id != theirs.guild_id:
        return None
    leads = own.guild.leader_id == viewer.pk
    if theirs.user_id == own.guild.leader_id or not (leads or own.officer):
        return None
    if theirs.officer and not leads:
        return None
    return "Kick from guild", ("post", reverse("guilds:guild_kick", args=[target.username]))


def register_guild_menu_entries() -> None:
    register_menu_entry(MenuEntry("invite_to_guild", invite_to_guild, order=70))
    register_menu_entry(MenuEntry("kick_from_guild", kick_from_guild, order=75))
