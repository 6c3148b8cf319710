"""The chat commands of the rulebook's "Chat Window Commands" that the lobbies own.

Each handler parses its arguments, calls a service and returns the lines its sender sees.
"""

from django.utils import timezone

from tcgsite.accounts import services as accounts
from tcgsite.accounts.selectors import player_by_name
from tcgsite.lobbies.registry import ChatCommand, CommandContext, commands_in, register_command
from tcgsite.lobbies.services.chat import (
    ChatError,
    chat_emote,
    chat_ping,
    chat_say_to,
    chat_whisper,
    player_in_lobby,
    split_name,
)


def time(context: CommandContext, arguments: str) -> list[str]:
    now = timezone.now()
    return [f"Server time: {now:%A} {now.day} {now:%B %Y, %H:%M:%S} UTC. Scheduled events use it."]


def me(context: CommandContext, arguments: str) -> list[str]:
    chat_emote(user=context.user, lobby=context.lobby, text=arguments)
    return []


def sayto(context: CommandContext, arguments: str) -> list[str]:
    name, text = split_name(arguments)
    chat_say_to(user=context.user, lobby=context.lobby, name=name, text=text)
    return []


def whisper(context: CommandContext, arguments: str) -> list[str]:
    name, text = split_name(arguments)
    chat_whisper(user=context.user, lobby=context.lobby, name=name, text=text)
    return []


def ping(context: CommandContext, arguments: str) -> list[str]:
    name, _text = split_name(arguments)
    message = chat_ping(user=context.user, lobby=context.lobby, name=name)
    return [f"You ping {message.recipient}."]


def ignore(context: CommandContext, arguments: str) -> list[str]:
    other = _any_player(arguments, "ignore")
    if accounts.ignore_add(user=context.user, other=other):
        return [f"{other} is now on your Ignore List: you won't see their messages."]
    return [f"{other} is already on your Ignore List."]


def unignore(context: CommandContext, arguments: str) -> list[str]:
    other = _any_player(arguments, "unignore")
    if accounts.ignore_remove(user=context.user, other=other):
        return [f"{other} is no longer on your Ignore List."]
    return [f"{other} is not on your Ignore List."]


def addfriend(context: CommandContext, arguments: str) -> list[str]:
    name, _rest = split_name(arguments)
    friend = player_in_lobby(lobby=context.lobby, name=name, command="addfriend")
    if accounts.friend_add(user=context.user, friend=friend):
        return [f"{friend} is now on your Friends List."]
    return [f"{friend} is already on your Friends List."]


def removefriend(context: CommandContext, arguments: str) -> list[str]:
    name, _rest = split_name(arguments)
    friend = player_in_lobby(lobby=context.lobby, name=name, command="removefriend")
    if accounts.friend_remove(user=context.user, friend=friend):
        return [f"{friend} is no longer on your Friends List."]
    return [f"{friend} is not on your Friends List."]


def help_(context: CommandContext, arguments: str) -> list[str]:
    lines = ["Commands you can use in this window:"]
    for command in commands_in(context.lobby):
        aliases = "".join(f" or /{alias}" for alias in command.aliases)
        lines.append(f"{command.usage}{aliases}: {command.help}")
    lines.append("Up and Down arrows recall the messages you typed.")
    return lines


def _any_player(arguments: str, command: str):
    name, _rest = split_name(arguments)
    if not name:
        raise ChatError(f"Name a player after /{command}.")
    player = player_by_name(username=name)
    if player is None:
        raise ChatError(f"There is no player called {name[:40]}.")
    return player


BUILT_IN = (
    ChatCommand("time", "/time", "the server's time, which scheduled events use", time),
    ChatCommand("me", "/me TEXT", "shows your name followed by TEXT, as an action", me),
    ChatCommand("ignore", "/ignore NAME", "adds a player to your Ignore List", ignore),
    ChatCommand("unignore", "/unignore NAME", "takes a player off your Ignore List", unignore),
    ChatCommand(
        "addfriend",
        "/addfriend NAME",
        "adds a player in this lobby to your Friends List",
        addfriend,
    ),
    ChatCommand(
        "removefriend",
        "/removefriend NAME",
        "takes a player in this lobby off your Friends List",
        removefriend,
    ),
    ChatCommand(
        "sayto",
        "/sayto NAME TEXT",
        "says TEXT to everyone, marked for a player in this lobby",
        sayto,
        aliases=("st",),
    ),
    ChatCommand(
        "whisper",
        "/whisper NAME TEXT",
        "sends TEXT privately to a player in this lobby",
        whisper,
        aliases=("w", "msg"),
    ),
    ChatCommand("ping", "/ping NAME", "beeps a player in this lobby to get their attention", ping),
    ChatCommand("help", "/help", "lists the commands of this window", help_, aliases=("?",)),
)


def register_built_in_commands() -> None:
    for command in BUILT_IN:
        register_command(command)
