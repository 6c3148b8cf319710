"""What the decks app tells the apps above it.

A Sealed tournament (tournaments, above decks) learns here that a player saved a deck from
the card pool it gave them: rulebook, Limited Deck Builder, "click the Save Deck button near
this timer to signal you are ready to begin".
"""

from django.dispatch import Signal

# Sent after the commit of a saved Limited deck, with ``pool_id`` and ``owner_id``; the deck
# was valid in the Limited format when it was saved (an invalid one is never saved).
limited_deck_saved = Signal()
