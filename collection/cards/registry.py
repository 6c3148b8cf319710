"""What higher apps add to a card's page for a logged-in player.

The card page belongs to the cards app, below the collection and the decks: the collection
adds the copies the player owns and their Want, the decks app "add to a deck". Each registers
a panel at start-up; the page shows, in registration order, every panel whose context
function gives a context for this player and card.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class CardPanel:
    template: str
    # context(*, viewer, card): the panel's template context, or None to leave the panel out.
    context: Callable[..., dict | None]


card_panels: list[CardPanel] = []


def card_panel_register(panel: CardPanel) -> None:
    if any(registered.template == panel.template for registered in card_panels):
        raise ImproperlyConfigured(f"The card panel {panel.template} is registered twice.")
    card_panels.append(panel)
