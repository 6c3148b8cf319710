"""Game pages. For now the Deck Builder's Test Draw, which shuffles with the engine's shuffle.

The Deck Builder (collection) loads Test Draw with htmx: collection must not import from
game, but game may read collection's deck selectors.
"""

import secrets
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_GET

from collection.decks import selectors as deck_selectors
from game.engine.shuffle import shuffled

OPENING_HAND = 6  # rulebook, DECK BUILDER, Test Draw: "a sample opening hand of six cards"
MAX_SEED = 2**48


@dataclass(frozen=True)
class Draw:
    """A test draw kept in the URL: the shuffle's seed, the positions (in the shuffled deck)
    of the discarded cards, and how many cards were drawn after the opening hand."""

    seed: int
    discarded: tuple[int, ...] = ()
    drawn: int = 0

    @property
    def shown(self) -> int:
        return OPENING_HAND + self.drawn

    def query(self, **changes) -> str:
        values = {"seed": self.seed, "drawn": self.drawn, "discarded": self.discarded, **changes}
        query = QueryDict(mutable=True)
        query["seed"] = str(values["seed"])
        query["drawn"] = str(values["drawn"])
        query.setlist("discard", [str(position) for position in values["discarded"]])
        return query.urlencode()


@login_required
@require_GET
def test_draw(request):
    """Test Draw: click a card to discard it, Draw for one more, Shuffle & Redraw to restart."""
    counts, problems = deck_selectors.entries_parse(request.GET.getlist("entry"))
    builder = deck_selectors.builder_deck(owner=request.user, counts=counts)
    # The deck part only: the avatar and the quests are not shuffled into the draw deck.
    library = [line.card for line in builder.deck for _ in range(line.copies)]
    draw, problem = _read_draw(request.GET, len(library))
    order = shuffled(library, draw.seed)
    shown = min(draw.shown, len(order))
    hand = [
        {
            "position": position,
            "card": order[position],
            "discard": draw.query(discarded=(*draw.discarded, position)),
        }
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
            "draw_query": draw.query(drawn=draw.drawn + 1) if shown < len(order) else "",
            "problems": [*problems, *builder.problems, *([problem] if problem else [])],
        },
    )


def _read_draw(params, library_size: int) -> tuple[Draw, str]:
    """The draw in the query; a fresh shuffle when there is none or it can't be read."""
    fresh = Draw(seed=secrets.randbelow(MAX_SEED))
    seed = params.get("seed", "")
    if not seed:
        return fresh, ""
    drawn = params.get("drawn", "0")
    discarded = params.getlist("discard")
    readable = (
        seed.isdigit()
        and len(seed) <= 15
        and drawn.isdigit()
        and len(drawn) <= 4
        and all(position.isdigit() and len(position) <= 4 for position in discarded)
    )
    if readable:
        draw = Draw(int(seed), tuple(dict.fromkeys(int(p) for p in discarded)), int(drawn))
        in_hand = min(draw.shown, library_size)
        if draw.shown <= max(library_size, OPENING_HAND) and all(
            position < in_hand for position in draw.discarded
        ):
            return draw, ""
    return fresh, "That test draw could not be read, so the deck was shuffled anew."
