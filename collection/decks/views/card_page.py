"""The decks app's panel on a card's page: add a copy to one of the player's decks."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from collection.decks import selectors as deck_selectors
from collection.decks.services import decks


def card_page_decks(*, viewer, card) -> dict:
    """The player's decks, the one saved last first (the deck they have open), with the
    copies of the card each holds, and how many copies they own."""
    owned = deck_selectors.card_supply(owner=viewer, card_ids=[card.pk]).counts.get(card.pk, 0)
    in_decks = deck_selectors.card_in_decks(owner=viewer, card=card)
    return {
        "card": card,
        "owned": owned,
        "decks": [
            {"deck": deck, "copies": in_decks.get(deck.pk, 0)}
            for deck in deck_selectors.owner_decks(owner=viewer)
        ],
        "new_deck_url": f"{reverse('decks:deck_builder')}?entry={card.pk}x1",
    }


@login_required
@require_POST
def deck_card_add(request, card_id):
    card = deck_selectors.usable_card(owner=request.user, card_id=card_id)
    if card is None:
        raise Http404("There is no such card.")
    try:
        deck, copies = decks.deck_card_add(
            owner=request.user, deck_id=request.POST.get("deck"), card=card
        )
    except deck_selectors.DeckError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            format_html(
                'Added 1 copy of {} to \u201c{}\u201d: {} in it now. <a href="{}">Open it in the '
                "Deck Builder</a>",
                card.title,
                deck.name,
                copies,
                reverse("decks:deck_edit", args=[deck.pk]),
            ),
        )
    return redirect(card.get_absolute_url())
