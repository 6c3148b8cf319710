"""What guilds do when the lobbies tell them something: a page opening shows the Guild
Message to a member at their next login (rulebook, "Settings")."""

from guilds import fragments
from guilds.services.guilds import guild_message_take
from tcgsite.lobbies.consumers import page_opened


def guild_message_at_login(sender, *, user, **kwargs) -> str:
    guild = guild_message_take(user=user)
    return "" if guild is None else fragments.message_popup(guild)


def connect_receivers() -> None:
    page_opened.connect(guild_message_at_login, dispatch_uid="guilds.guild_message_at_login")
