"""The chat commands matches add to every lobby's chat window (rulebook, "Chat Window
Commands"): /joingame and /observegame take a match's number, /resume opens the adjourned
games whose opponents are in the lobby. Each answers with a line that opens the window or
page it leads to."""

from urllib.parse import urlencode

from django.urls import reverse

from game.models import Match
from game.selectors import (
    NotAllowedToWatch,
    match_info,
    match_unjoinable,
    may_watch,
    open_matches,
    resumable_matches,
)
from tcgsite.inputs import object_id
from tcgsite.lobbies.registry import ChatCommand, CommandContext, OpenPage, register_command
from tcgsite.lobbies.services.chat import ChatError


def joingame(context: CommandContext, arguments: str) -> list[OpenPage]:
    match = _numbered_match(arguments, "joingame")
    if match.seats.filter(player=context.user).exists():
        return [_to_match_page(match, f"You are in match {match.pk}: here it is.")]
    if gone := match_unjoinable(match):
        raise ChatError(gone)
    if all(open_match.pk != match.pk for open_match in open_matches(viewer=context.user)):
        raise ChatError(f"Match {match.pk} is not open to you.")
    url = reverse("game:match_join", args=[match.pk])
    return [OpenPage(f"Joining match {match.pk}, {match.title}: choose your deck.", url, True)]


def observegame(context: CommandContext, arguments: str) -> list[OpenPage]:
    match = _numbered_match(arguments, "observegame")
    try:
        seat = may_watch(match=match, viewer=context.user)
    except NotAllowedToWatch as refusal:
        raise ChatError(f"Match {match.pk}: {refusal.message}") from refusal
    if seat is not None:
        return [_to_match_page(match, f"You are playing in match {match.pk}: here it is.")]
    return [_to_match_page(match, f"Observing match {match.pk}, {match.title}.")]


def resume(context: CommandContext, arguments: str) -> list[str | OpenPage]:
    matches = resumable_matches(player=context.user, lobby=context.lobby)
    if not matches:
        return ["You have no adjourned game whose opponents are all in this lobby."]
    count = f"{len(matches)} adjourned game{'s' if len(matches) > 1 else ''}"
    url = f"{reverse('game:adjourned_matches')}?{urlencode({'lobby': context.lobby})}"
    return [OpenPage(f"You have {count} to resume here.", url, True)]


def _numbered_match(arguments: str, command: str) -> Match:
    match_id = object_id(arguments.strip().lstrip("#"))
    if match_id is None:
        raise ChatError(f"Type the number on the match's medallion, as in: /{command} 127")
    match = match_info(match_id=match_id)
    if match is None:
        raise ChatError(f"There is no match {match_id}.")
    return match


def _to_match_page(match: Match, text: str) -> OpenPage:
    return OpenPage(text, reverse("game:match_page", args=[match.pk]))


MATCH_COMMANDS = (
    ChatCommand("joingame", "/joingame N", "joins match N, if it has a free seat", joingame),
    ChatCommand("observegame", "/observegame N", "observes match N", observegame),
    ChatCommand(
        "resume",
        "/resume",
        "lists your adjourned games whose opponents are in this lobby, to resume or delete",
        resume,
    ),
)


def register_match_commands() -> None:
    for command in MATCH_COMMANDS:
        register_command(command)
