"""The HTML of live trades: the pop-ups of the Trade Lobby (a request, its answer) sent to a
player's sockets on whatever page they are, and the Trade Screen's live parts, which its
socket swaps in by id (``hx-swap-oob``)."""

from django.template.loader import render_to_string

from collection.trades.models import TradeSession
from collection.trades.selectors.live import LiveOffer


def request_toast(session: TradeSession) -> str:
    """What the asked player is told: who asks, with Accept and Decline."""
    return render_to_string("trades/live/_request_toast.html", {"session": session})


def accepted_toast(session: TradeSession) -> str:
    """What the asker is told when the request is accepted; its link opens the Trade Screen
    at once (static/js/lobby.js opens a ``data-chat-opens`` link when it arrives)."""
    return render_to_string("trades/live/_accepted_toast.html", {"session": session})


def declined_toast(session: TradeSession) -> str:
    return render_to_string("trades/live/_declined_toast.html", {"session": session})


def offer_panel(offer: LiveOffer, *, oob: bool, error: str = "") -> str:
    """The You get and They get areas, the acceptances and the confirmation dialog."""
    return render_to_string(
        "trades/live/_offer.html", {"offer": offer, "oob": oob, "trade_error": error}
    )


def delivery_window(offer: LiveOffer) -> str:
    """The delivery window of the swap just made: what arrived for this player."""
    return render_to_string("trades/live/_delivery.html", {"offer": offer})
