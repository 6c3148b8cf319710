"""My openings: a player's own pack openings with their seeds, a Check that draws each pack
again from what it was drawn from, and the record to check it independently (README,
"Checking your openings")."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from collection import selectors
from collection.boosters import pool_card_ids
from collection.cards import selectors as card_selectors
from collection.models import Opening
from collection.services.opening import opening_check

PAGE_SIZE = 20


@login_required
@require_GET
def opening_list(request):
    openings = selectors.owner_opening_history(owner=request.user)
    page = Paginator(openings, PAGE_SIZE).get_page(request.GET.get("page"))
    cards = card_selectors.cards_by_id(
        card_ids={card_id for opening in page for card_id in opening.card_ids if opening.seed}
    )
    rows = [
        {
            "opening": opening,
            # (card, foil): the last ones of a pack's cards are its foils.
            "cards": [
                (cards[card_id], index >= len(opening.card_ids) - len(opening.foil_card_ids))
                for index, card_id in enumerate(opening.card_ids)
                if card_id in cards
            ]
            if opening.seed is not None
            else [],
        }
        for opening in page
    ]
    return render(request, "collection/openings.html", {"page": page, "rows": rows})


@login_required
@require_GET
def opening_check_result(request, opening_id):
    """Check: the opening drawn again from its seed and recorded recipe (reads only)."""
    opening = _own_opening_or_404(request, opening_id)
    template = "_opening_check.html" if request.htmx else "opening_check.html"
    return render(
        request,
        f"collection/{template}",
        {"opening": opening, "check": opening_check(opening=opening)},
    )


@login_required
@require_GET
def opening_record(request, opening_id):
    """Everything needed to draw the pack again elsewhere: seed, slots, pool, foil rate and
    cards."""
    opening = _own_opening_or_404(request, opening_id)
    recipe = opening.drawn_from
    pool_ids = [] if recipe is None else pool_card_ids(recipe.pool)
    cards = card_selectors.cards_by_id(card_ids=[*opening.card_ids, *pool_ids])
    record = {
        "opening": opening.pk,
        "product": opening.owned_product.product.name,
        "opened": opening.created.isoformat(),
        "seed": opening.seed,
        "cards": opening.card_ids,
        "foils": opening.foil_card_ids,
        "recipe": None
        if recipe is None
        else {
            "digest": recipe.digest,
            "slots": recipe.slots,
            "pool": recipe.pool,
            "foil_one_in": recipe.foil_one_in,
        },
        "titles": {
            card_id: f"{card.collector_info} {card.title}" for card_id, card in cards.items()
        },
    }
    response = JsonResponse(record, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="opening-{opening.pk}.json"'
    return response


def _own_opening_or_404(request, opening_id: int) -> Opening:
    opening = selectors.owner_opening(owner=request.user, opening_id=opening_id)
    if opening is None:
        raise Http404("There is no opening of yours with that number.")
    return opening
