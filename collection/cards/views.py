import hashlib

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.views.decorators.http import require_GET

from collection.cards import selectors
from collection.cards.filtering import (
    CARD_TABLE_COLUMNS,
    add_numeric_from_form,
    table_columns,
    toggle_groups,
)
from collection.cards.filters import OPERATORS, SEARCH_FIELDS, parse_card_filters
from collection.cards.glossary import GLOSSARY, glossary_url
from collection.cards.models import NUMERIC_ATTRIBUTES, Card
from collection.cards.registry import card_panels

# How long a browser uses a card face it has without asking again (seconds).
FACE_MAX_AGE = 24 * 60 * 60
PAGE_SIZES = {"graphic": 24, "table": 100}
CARD_SIZES = ("small", "medium", "large")
ATTRIBUTE_LABELS = (
    ("cost", "Cost"),
    ("attack", "Attack"),
    ("defense", "Defense"),
    ("damage_bonus", "Damage bonus"),
    ("health", "Health"),
    ("level", "Level"),
)


@require_GET
def card_list(request):
    sets = selectors.card_sets()
    filters = parse_card_filters(dict(request.GET.lists()), known_sets=[s.number for s in sets])
    add_numeric_from_form(request, filters)
    cards = selectors.cards_filtered(filters=filters)
    page = Paginator(cards, PAGE_SIZES[filters.view]).get_page(request.GET.get("page"))
    context = {
        "filters": filters,
        "page": page,
        "query": filters.querystring(),
        "graphic_query": filters.querystring(view="graphic"),
        "table_query": filters.querystring(view="table"),
        "table_columns": table_columns(filters, CARD_TABLE_COLUMNS),
        "card_size": _card_size(request),
    }
    if request.htmx and request.htmx.target == "results":
        response = render(request, "cards/_card_results.html", context)
        query = context["query"]
        response["HX-Push-Url"] = f"{request.path}?{query}" if query else request.path
        return response
    context.update(
        toggle_groups=toggle_groups(filters, sets),
        numeric_attributes=[(name, name.replace("_", " ")) for name in NUMERIC_ATTRIBUTES],
        operators=OPERATORS,
        search_fields=[
            (key, label, key in filters.search_fields) for key, label in SEARCH_FIELDS.items()
        ],
    )
    return render(request, "cards/card_list.html", context)


def _card_size(request) -> str:
    if request.user.is_authenticated:
        return request.user.preferences.card_size_collection
    return "medium"


@require_GET
def card_detail(request, set_number, number):
    card = _card_or_404(request, set_number, number)
    previous, following = selectors.card_neighbours(card=card)
    return render(
        request,
        "cards/card_detail.html",
        {
            "card": card,
            "face": selectors.card_face(card=card, size="large"),
            "attributes": [
                (label, getattr(card, name))
                for name, label in ATTRIBUTE_LABELS
                if getattr(card, name) is not None
            ],
            "glossary": [
                (name, GLOSSARY[name], glossary_url(name))
                for name in card.keyword_names
                if name in GLOSSARY
            ],
            "previous": previous,
            "next": following,
            "panels": _panels(request.user, card),
        },
    )


def _panels(viewer, card: Card) -> list[tuple[str, dict]]:
    """What the higher apps show a logged-in player beside the card (see registry.py)."""
    if not viewer.is_authenticated:
        return []
    panels = []
    for panel in card_panels:
        context = panel.context(viewer=viewer, card=card)
        if context is not None:
            panels.append((panel.template, context))
    return panels


@require_GET
def card_face(request, set_number, number):
    card = _card_or_404(request, set_number, number)
    face = selectors.card_face(card=card, size=face_size(request))
    # A player-made avatar's face is for its creator and staff: no shared cache may keep it.
    return face_response(request, face, private=bool(card.creator_id))


def face_size(request) -> str:
    """The size a face is asked for at (``?size=``), medium unless one of CARD_SIZES."""
    size = request.GET.get("size", "medium")
    return size if size in CARD_SIZES else "medium"


def face_response(request, face: str, *, private: bool) -> HttpResponse:
    """A card face's SVG, kept a day by the browser (and, unless ``private``, shared caches).
    The face changes only with the card's data (a set file loaded again, a staff edit) or its
    drawing: its own hash is its version. A page redrawn by the socket finds it in the
    browser's cache, and a day later asks again and gets 304 Not Modified while unchanged."""
    etag = quote_etag(hashlib.sha256(face.encode()).hexdigest()[:32])
    response = get_conditional_response(request, etag=etag) or HttpResponse(
        face, content_type="image/svg+xml"
    )
    response["ETag"] = etag
    response["Cache-Control"] = f"{'private' if private else 'public'}, max-age={FACE_MAX_AGE}"
    return response


def _card_or_404(request, set_number: int, number: int) -> Card:
    card = selectors.card_by_number(set_number=set_number, number=number, viewer=request.user)
    if card is None:
        raise Http404("There is no card with that number.")
    return card
