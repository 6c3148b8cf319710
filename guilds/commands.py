"""The chat commands guilds add to every lobby's chat window (rulebook, "Guilds"): /guild opens
the Guilds window, /guildinvite NAME, /leaveguild, /guildkick NAME, and /g MESSAGE for Guild
Chat. A match's Chat Log takes /g too (game/services/chat.py)."""

from django.urls import reverse

from guilds.selectors import guild_of
from guilds.services.chat import guild_chat_say
from guilds.services.guilds import GuildError, guild_invite, guild_kick, guild_leave
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import player_by_name
from tcgsite.lobbies.registry import ChatCommand, CommandContext, OpenPage, register_command
from tcgsite.lobbies.services.chat import ChatError, split_name


def guild(context: CommandContext, arguments: str) -> list[OpenPage]:
    own = guild_of(user_id=context.user.pk)
    if own is None:
        return [OpenPage("The Guilds window: every guild, by rank.", reverse("guilds:guild_list"))]
    url = reverse("guilds:guild_detail", args=[own.pk])
    return [OpenPage(f"Your guild, {own.name}.", url)]


def guildinvite(context: CommandContext, arguments: str) -> list[str]:
    invitee = _named_player(arguments, "guildinvite")
    invitation = _refusal_as_chat_error(guild_invite, inviter=context.user, invitee=invitee)
    return [f"{invitee} is invited to {invitation.guild}; they get a pop-up to answer."]


def leaveguild(context: CommandContext, arguments: str) -> list[str]:
    left = _refusal_as_chat_error(guild_leave, user=context.user)
    if left is None:
        return ["You left your guild; it had no other member, so it is disbanded."]
    return [f"You left {left}."]


def guildkick(context: CommandContext, arguments: str) -> list[str]:
    member = _named_player(arguments, "guildkick")
    kicked_from = _refusal_as_chat_error(guild_kick, by=context.user, member=member)
    return [f"{member} is no longer in {kicked_from}."]


def g(context: CommandContext, arguments: str) -> list[str]:
    guild_chat_say(user=context.user, text=arguments)
    return []


def _named_player(arguments: str, command: str) -> User:
    name, _rest = split_name(arguments)
    if not name:
        raise ChatError(f"Name a player after /{command}.")
    player = player_by_name(username=name)
    if player is None:
        raise ChatError(f"There is no player called {name[:40]}.")
    return player


def _refusal_as_chat_error(service, **arguments):
    try:
        return service(**arguments)
    except GuildError as refusal:
        raise ChatError(refusal.message) from refusal


GUILD_COMMANDS = (
    ChatCommand("guild", "/guild", "opens the Guilds window, or your guild's details", guild),
    ChatCommand(
        "guildinvite",
        "/guildinvite NAME",
        "invites a player in no guild to yours (leader and officers)",
        guildinvite,
    ),
    ChatCommand("leaveguild", "/leaveguild", "leaves your guild", leaveguild),
    ChatCommand(
        "guildkick",
        "/guildkick NAME",
        "removes a member from your guild (leader and officers)",
        guildkick,
    ),
    ChatCommand("g", "/g MESSAGE", "says MESSAGE to the members of your guild, in green", g),
)


def register_guild_commands() -> None:
    for command in GUILD_COMMANDS:
        register_command(command)
