"""What higher apps do inside the collection's own operations.

Opening a starter deck must leave a deck ready to play (rulebook, DECK BUILDER: "You can start
playing ... right away using any starter deck"), but saved decks belong to the decks app, above
this one. So decks registers a handler here at start-up, and opening runs every handler inside
the opening's ledger operation: the deck is saved with the cards, or neither is.
"""

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

# run(*, owner, product, card_ids): the starter deck's owner, its Product and the card ids it
# revealed, after the cards were added and before the transaction commits.
StarterOpenedHandler = Callable[..., object]

starter_opened_handlers: list[StarterOpenedHandler] = []


def starter_opened_register(handler: StarterOpenedHandler) -> None:
    if handler in starter_opened_handlers:
        raise ImproperlyConfigured(f"{handler.__qualname__} is registered twice.")
    starter_opened_handlers.append(handler)
