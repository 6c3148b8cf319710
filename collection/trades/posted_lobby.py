"""What posted trades add to the lobbies: /ptrade and the Trade Lobby's Posted Trades button."""

from django.template.loader import render_to_string
from django.urls import reverse

from tcgsite.accounts.models import User
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import (
    ChatCommand,
    CommandContext,
    LobbyPanel,
    OpenPage,
    register_command,
    register_lobby_panel,
)


def ptrade(context: CommandContext, arguments: str) -> list[OpenPage]:
    """Rulebook, "Posted Trades": "Type /ptrade into the chat"."""
    return [OpenPage("Opening the posted trades.", reverse("trades:posted_board"), window=True)]


def posted_trades_panel(viewer: User) -> str:
    """The Trade Lobby's Posted Trades button."""
    return render_to_string("trades/posted/_lobby_panel.html", {"user": viewer})


def register_posted_trade_features() -> None:
    register_command(
        ChatCommand(
            "ptrade",
            "/ptrade",
            "opens the posted trades",
            ptrade,
            lobbies=frozenset({Lobby.TRADE}),
        )
    )
    register_lobby_panel(LobbyPanel("posted_trades", Lobby.TRADE, posted_trades_panel))
