"""What the features above the lobbies add to every chat window and User List.

Chat commands and the entries of a name's menu are registered at start-up, each by the app that
owns them (the lobbies' own in ``LobbiesConfig.ready``; matches add /joingame and
Challenge, guilds /g and Invite to guild), so the chat code never imports those apps. So are
the badges a name carries (tournaments add Sprint medals, and the green of a player entered in
a tournament). The registries are filled once while Django starts and only read afterwards.
"""

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from django.utils.html import format_html
from django.utils.safestring import SafeString

from tcgsite.accounts.models import User


@dataclass(frozen=True)
class CommandContext:
    """Who typed a command, and in which chat window."""

    user: User
    lobby: str


@dataclass(frozen=True)
class OpenPage:
    """A line of a command's answer that also takes its player to ``url``: a window (shown in
    the lobby's match window where the lobby has one, else as a page) or a page."""

    text: str
    url: str
    window: bool = False


CommandLine = str | OpenPage


@dataclass(frozen=True)
class ChatCommand:
    name: str
    usage: str
    help: str
    # Runs the command; returns the lines shown to the player who typed it (plain text, or a
    # line that opens a page).
    handler: Callable[[CommandContext, str], list[CommandLine]]
    aliases: tuple[str, ...] = ()
    # The lobbies whose chat windows offer it; empty: all of them.
    lobbies: frozenset[str] = field(default_factory=frozenset)

    def available_in(self, lobby: str) -> bool:
        return not self.lobbies or lobby in self.lobbies


@dataclass(frozen=True)
class MenuEntry:
    """One entry of the menu a name in a User List opens.

    ``build(viewer, target, lobby)`` returns the entry's label and action for that pair of
    players, or None where the entry does not apply (Trade outside the Trade Lobby, Remove from
    friends list for someone who is not a friend). An action is ``("post", url)``, sent with
    htmx, or ``("dialog", url)``, whose page opens in a dialog.
    """

    key: str
    build: Callable[[User, User, str], tuple[str, tuple[str, str]] | None]
    order: int = 100


@dataclass(frozen=True)
class LobbyPanel:
    """A part of a lobby's page that a feature above the lobbies fills, above its chat (the
    Casual Lobby's Match Medallions).

    ``render(viewer)`` returns the panel's HTML for that player; its outermost element has
    an id, so the lobby's socket can swap the whole panel in again after a missed message.
    The feature changes it live by sending the lobby's group a ``lobby.panel`` message
    (``lobby_panel_message``). ``windows`` names the template of the windows the panel's
    buttons open (a dialog and its body), which the page shows beside the panel and the
    socket never sends: a panel swapped in would replace a window being opened that instant.
    """

    key: str
    lobby: str
    render: Callable[[User], str]
    windows: str = ""


@dataclass(frozen=True)
class NameBadge:
    """What features add to a player's name wherever a lobby shows it: ``html`` after the name
    (a medal, built with ``format_html``), and ``classes`` on the name itself."""

    html: SafeString = field(default_factory=lambda: format_html(""))
    classes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.html or self.classes)

    def __add__(self, other: "NameBadge") -> "NameBadge":
        return NameBadge(
            html=format_html("{}{}", self.html, other.html), classes=self.classes + other.classes
        )


# Given the ids of the players a list or a chat line names, a provider returns the badge of
# each that has one, in a constant number of queries however many ids it is given.
NameBadgeProvider = Callable[[Collection[int]], dict[int, NameBadge]]

_commands: dict[str, ChatCommand] = {}
_menu: dict[str, MenuEntry] = {}
_panels: dict[str, LobbyPanel] = {}
_badges: dict[str, NameBadgeProvider] = {}


def register_command(command: ChatCommand) -> None:
    for name in (command.name, *command.aliases):
        if name in _commands:
            raise ValueError(f"the chat command /{name} is registered twice")
        _commands[name] = command


def command_named(name: str) -> ChatCommand | None:
    return _commands.get(name.lower())


def commands_in(lobby: str) -> list[ChatCommand]:
    """The commands available in ``lobby``'s chat window, each once, by name."""
    unique = {command.name: command for command in _commands.values()}
    return sorted(
        (command for command in unique.values() if command.available_in(lobby)),
        key=lambda command: command.name,
    )


def register_menu_entry(entry: MenuEntry) -> None:
    if entry.key in _menu:
        raise ValueError(f"the menu entry {entry.key!r} is registered twice")
    _menu[entry.key] = entry


def menu_entries() -> list[MenuEntry]:
    return sorted(_menu.values(), key=lambda entry: (entry.order, entry.key))


def register_lobby_panel(panel: LobbyPanel) -> None:
    if panel.key in _panels:
        raise ValueError(f"the lobby panel {panel.key!r} is registered twice")
    _panels[panel.key] = panel


def lobby_panels(lobby: str) -> list[LobbyPanel]:
    return [panel for panel in _panels.values() if panel.lobby == lobby]


def lobby_panel_message(
    html: str, *, visible_to: Iterable[int] | None = None, hidden_from: Iterable[int] = ()
) -> dict:
    """The payload of a ``lobby.panel`` message: HTML (swapped in out of band) for the sockets
    of the players in ``visible_to`` (None: everybody) except those in ``hidden_from``."""
    return {
        "html": html,
        "visible_to": None if visible_to is None else sorted(visible_to),
        "hidden_from": sorted(hidden_from),
    }


def sees_panel_message(message: dict, user_id: int) -> bool:
    visible_to = message.get("visible_to")
    return (visible_to is None or user_id in visible_to) and user_id not in message.get(
        "hidden_from", ()
    )


def register_name_badges(key: str, provider: NameBadgeProvider) -> None:
    if key in _badges:
        raise ValueError(f"the name badges {key!r} are registered twice")
    _badges[key] = provider


def name_badge_providers() -> list[NameBadgeProvider]:
    return [_badges[key] for key in sorted(_badges)]
