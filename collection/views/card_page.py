"""The collection's panel on a card's page: the copies the player owns, and their Want."""

from collection import selectors
from collection.services.wants import MAX_WANT


def card_page_numbers(*, viewer, card) -> dict | None:
    """Quantity, Want and Trade or Need, as under the card in the binder; nothing for a card
    the player can't collect (another player's avatar)."""
    numbered = selectors.collection_card(owner=viewer, card_id=card.pk)
    if numbered is None:
        return None
    return {"card": numbered, "binder_url": card.get_absolute_url(), "max_want": MAX_WANT}
