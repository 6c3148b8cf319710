"""What live trades add to the lobbies (rulebook, "Trading with Other Players"): /trade in the
Trade Lobby's chat window, and the Trade entry of a name's menu in its User List."""

from django.urls import reverse

from collection.trades.selectors.live import live_session_open_for
from collection.trades.services.live import live_trade_request
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import is_ignored, player_by_name
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import (
    ChatCommand,
    CommandContext,
    MenuEntry,
    OpenPage,
    register_command,
    register_menu_entry,
)
from tcgsite.lobbies.services.chat import ChatError, split_name


def trade(context: CommandContext, arguments: str) -> list[str | OpenPage]:
    """/trade NAME: works exactly like the User List's Trade. A player still in a session is
    taken back to its Trade Screen, to finish it or return to the lobby from it."""
    current = live_session_open_for(player=context.user)
    if current is not None:
        other = current.partner if current.initiator_id == context.user.pk else current.initiator
        url = reverse("trades:live_screen", args=[current.pk])
        return [OpenPage(f"You are trading with {other.username}: back to your Trade Screen.", url)]
    name, _rest = split_name(arguments)
    if not name:
        raise ChatError("Name a player after /trade, as in: /trade Carol")
    partner = player_by_name(username=name)
    if partner is None:
        raise ChatError(f"There is no player called {name[:40]}.")
    live_trade_request(asker=context.user, partner=partner)
    return [f"You ask {partner.username} to trade; waiting for their answer."]


def trade_entry(viewer: User, target: User, lobby: str):
    """Trade, only in the Trade Lobby; not offered to a player who ignores the viewer."""
    if lobby != Lobby.TRADE or viewer.pk == target.pk or is_ignored(user=target, other=viewer):
        return None
    return "Trade", ("post", reverse("trades:live_request", args=[target.username]))


def register_live_trade_features() -> None:
    register_command(
        ChatCommand(
            "trade",
            "/trade NAME",
            "asks a player in the Trade Lobby to trade with you",
            trade,
            lobbies=frozenset({Lobby.TRADE}),
        )
    )
    register_menu_entry(MenuEntry("trade", trade_entry, order=5))
