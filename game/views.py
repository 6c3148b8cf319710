"""Game pages. For now the Deck Builder's Test Draw, which shuffles with the engine's shuffle.

The Deck Builder (collection) loads Test Draw with htmx: collection must not import from
game, but game may read collection's deck selectors.
"""

import secrets
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from collection.decks import selectors as deck_selectors
from game.engine.deckrules import MAX_COPIES
from game.engine.shuffle import shuffled
from tcgsite.inputs import whole_number_or_none, whole_numbers

OPENING_HAND = 6  # rulebook, DECK BUILDER, Test Draw: "a sample opening hand of six cards"
MAX_SEED = 2**48
DRAW_UNREADABLE = "That test draw could not be read, so the deck was shuffled anew."
COPIES_CAPPED = (
    f"Test Draw shuffles at most {MAX_COPIES} copies of a card, as many as a deck may hold."
)


@dataclass(frozen=True)
class Draw:
    """A test draw kept in the page: the shuffle's seed, the positions (in the shuffled deck)
    of the discarded cards, and how many cards were drawn after the opening hand."""

    seed: int
    discarded: tuple[int, ...] = ()
    drawn: int = 0

    @property
    def shown(self) -> int:
        return OPENING_HAND + self.drawn

    @property
    def fields(self) -> list[tuple[str, int]]:
        """The draw as hidden fields, sent again with each click (a click adds ``discard``
        or ``draw``), so each answer holds the draw once, not once per card."""
        return [
            ("seed", self.seed),
            ("drawn", self.drawn),
            *(("discard", position) for position in self.discarded),
        ]


@login_required
@require_GET
def test_draw(request):
    """Test Draw: click a card to discard it, Draw for one more, Shuffle & Redraw to restart."""
    counts, problems = deck_selectors.entries_parse(request.GET.getlist("entry"))
    builder = deck_selectors.builder_deck(owner=request.user, counts=counts)
    # The deck part only: the avatar and the quests are not shuffled into the draw deck. A
    # deck may hold four copies of a card (rulebook, Deck Building), which bounds the work.
    library = [line.card for line in builder.deck for _ in range(min(line.copies, MAX_COPIES))]
    if any(line.copies > MAX_COPIES for line in builder.deck):
        problems.append(COPIES_CAPPED)
    draw, problem = _read_draw(request.GET, len(library))
    order = shuffled(library, draw.seed)
    shown = min(draw.shown, len(order))
    hand = [
        {"position": position, "card": order[position]}
        for position in range(shown)
        if position not in draw.discarded
    ]
    return render(
        request,
        "game/_test_draw.html",
        {
            "hand": hand,
            "discard_pile": [order[position] for position in draw.discarded],
            "library_left": len(order) - shown,
            "deck_size": len(order),
            "draw_fields": draw.fields,
            "can_draw": shown < len(order),
            "problems": [*problems, *builder.problems, *([problem] if problem else [])],
        },
    )


def _read_draw(params, library_size: int) -> tuple[Draw, str]:
    """The draw the page sent, one more card drawn for ``draw``; a fresh shuffle when there is
    none or it can't be read. Every number is bounded by the deck: no request draws more
    cards than the deck holds."""
    fresh = Draw(seed=secrets.randbelow(MAX_SEED))
    if not params.get("seed"):
        return fresh, ""
    seed = whole_number_or_none(params["seed"], minimum=0, maximum=MAX_SEED)
    most_drawn = max(library_size - OPENING_HAND, 0)
    drawn = whole_number_or_none(params.get("drawn", "0"), minimum=0, maximum=most_drawn)
    in_hand = min(OPENING_HAND + (drawn or 0), library_size)
    discarded = whole_numbers(params.getlist("discard"), minimum=0, maximum=in_hand - 1)
    if seed is None or drawn is None or discarded is None:
        return fresh, DRAW_UNREADABLE
    if params.get("draw") and drawn < most_drawn:
        drawn += 1
    return Draw(seed, tuple(dict.fromkeys(discarded)), drawn), ""
