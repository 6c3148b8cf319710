"""The Collection Manager: the binder of a player's products and cards (rulebook, COLLECTION
MANAGER), opening products, and the Want numbers under every card."""

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from collection import selectors
from collection.cards import selectors as card_selectors
from collection.cards.filtering import (
    CARD_TABLE_COLUMNS,
    add_numeric_from_form,
    table_columns,
    toggle_groups,
)
from collection.cards.filters import (
    COLLECTION_ATTRIBUTES,
    OPERATORS,
    SEARCH_FIELDS,
    parse_card_filters,
)
from collection.cards.models import NUMERIC_ATTRIBUTES, Card, Rarity
from collection.models import Opening, ProductKind
from collection.services.opening import MAX_OPEN_AT_ONCE, OpeningError
from collection.services.opening import products_open as open_products
from collection.services.wants import MAX_WANT, WantError, want_set
from collection.templatetags.binder import render_binder_cards
from tcgsite.accounts.models import TipScreen
from tcgsite.accounts.services import preferences_for
from tcgsite.inputs import MAX_ID, whole_numbers

TABLE_PAGE_SIZE = 100
# Whole rows of cards at the site's width: six small, four medium or three large a row.
GRAPHIC_PAGE_SIZES = {"small": 18, "medium": 16, "large": 12}
WANT_MESSAGE = f"Want must be a whole number from 0 to {MAX_WANT}."
UNKNOWN_PRODUCTS_MESSAGE = "Some of those products are not in your collection."

TABLE_COLUMNS = (
    *CARD_TABLE_COLUMNS,
    ("owned", "Qty", "num collection-col"),
    ("want", "Want", "want-col collection-col"),
    ("trade", "Trade", "num collection-col"),
    ("need", "Need", "num collection-col"),
)
COLLECTION_TIPS = (
    "New, unopened products wait at the top of your binder: press Open on one, or Open All.",
    "Set Want with − and +: copies above your Want count as Trade, and only those are shown to "
    "trade partners.",
    "The Numeric filter knows your collection too: \u201cneed > 0\u201d lists the cards you still "
    "miss, \u201ctrade >= 1\u201d the ones you offer.",
    "Preferences → User Interface decides whether cards you don't own appear in the binder.",
)
KIND_PLURALS = {
    ProductKind.STARTER_DECK: "starter decks",
    ProductKind.BOOSTER_PACK: "booster packs",
    ProductKind.EVENT_PASS: "event passes",
}
COLLECTION_LABELS = {"owned": "owned (Qty)", "want": "want", "trade": "trade", "need": "need"}


class WantForm(forms.Form):
    # The range is the service's to check; the form only reads a whole number.
    want = forms.IntegerField(error_messages={"required": WANT_MESSAGE, "invalid": WANT_MESSAGE})


@login_required
@require_GET
def binder(request):
    sets = card_selectors.card_sets()
    filters = parse_card_filters(
        dict(request.GET.lists()), known_sets=[s.number for s in sets], collection=True
    )
    add_numeric_from_form(request, filters, attributes=NUMERIC_ATTRIBUTES + COLLECTION_ATTRIBUTES)
    preferences = preferences_for(user=request.user)
    cards = selectors.collection_cards(
        owner=request.user, filters=filters, only_owned=preferences.show_only_owned_cards
    )
    card_size = preferences.card_size_collection
    page_size = TABLE_PAGE_SIZE if filters.view == "table" else GRAPHIC_PAGE_SIZES[card_size]
    page = Paginator(cards, page_size).get_page(request.GET.get("page"))
    # This page's canonical address: pushed to the address bar after an htmx swap, and where
    # a Want change made without JavaScript returns to.
    back_pairs = filters.query_pairs() + ([("page", str(page.number))] if page.number > 1 else [])
    context = {
        "filters": filters,
        "page": page,
        "query": filters.querystring(),
        "graphic_query": filters.querystring(view="graphic"),
        "table_query": filters.querystring(view="table"),
        "table_columns": table_columns(filters, TABLE_COLUMNS),
        "card_size": card_size,
        "only_owned": preferences.show_only_owned_cards,
        "binder_url": f"{request.path}?{urlencode(back_pairs)}" if back_pairs else request.path,
        "max_want": MAX_WANT,
        "foil_effects": preferences.foil_effects,
    }
    if request.htmx and request.htmx.target == "results":
        response = render(request, "collection/_binder_results.html", context)
        response["HX-Push-Url"] = context["binder_url"]
        return response
    unopened = _unopened_groups(request.user)
    openable_ids = [
        owned_id for group in unopened if group["product"].opens for owned_id in group["ids"]
    ]
    context.update(
        unopened=unopened,
        open_all_ids=openable_ids[:MAX_OPEN_AT_ONCE],
        openable_count=len(openable_ids),
        tips=COLLECTION_TIPS,
        tips_screen=TipScreen.COLLECTION,
        show_tips=not preferences.hides_tips_on(TipScreen.COLLECTION),
        totals=selectors.collection_totals(owner=request.user),
        toggle_groups=toggle_groups(filters, sets),
        numeric_attributes=[
            *((name, name.replace("_", " ")) for name in NUMERIC_ATTRIBUTES),
            *COLLECTION_LABELS.items(),
        ],
        operators=OPERATORS,
        search_fields=[
            (key, label, key in filters.search_fields) for key, label in SEARCH_FIELDS.items()
        ],
    )
    return render(request, "collection/binder.html", context)


def _unopened_groups(owner) -> list[dict]:
    """The player's unopened products, one group per product in the Store's shelf order, with
    their ids, oldest first: Open opens the oldest, Open All the first ones that can be opened
    at once."""
    groups: dict[int, dict] = {}
    for item in selectors.unopened_products(owner=owner):
        group = groups.setdefault(item.product_id, {"product": item.product, "ids": []})
        group["ids"].append(item.pk)
    for group in groups.values():
        group["count"] = len(group["ids"])
        group["first_id"] = group["ids"][0]
        product = group["product"]
        group["kind_label"] = (
            product.get_kind_display().lower()
            if group["count"] == 1
            else KIND_PLURALS[product.kind]
        )
    return sorted(
        groups.values(), key=lambda group: selectors.SHELF_ORDER.index(group["product"].kind)
    )


@login_required
@require_POST
def want_change(request, card_id):
    """Set a card's Want from the − and + buttons; htmx swaps just that card's numbers."""
    back_to = _binder_url(request)
    card = selectors.collection_card(owner=request.user, card_id=card_id)
    form = WantForm(request.POST)
    error = ""
    if card is None:
        error = "There is no such card."
    elif not form.is_valid():
        error = form.errors["want"][0]
    else:
        try:
            want_set(owner=request.user, card=card, want=form.cleaned_data["want"])
        except WantError as want_error:
            error = str(want_error)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(back_to)
    if card is None:
        return render(request, "collection/_binder_error.html", {"error": error})
    html = render_binder_cards(
        request,
        [selectors.collection_card(owner=request.user, card_id=card.pk)],
        "table" if request.POST.get("view") == "table" else "numbers",
        want_error=error,
        binder_url=back_to,
        max_want=MAX_WANT,
        foil_effects=preferences_for(user=request.user).foil_effects,
    )
    return HttpResponse(html)


def _binder_url(request) -> str:
    """Where to return after a change: the binder page (with its filters) or the card page
    the player was on."""
    url = request.POST.get("next", "")
    pages = (reverse("collection:binder"), reverse("cards:card_list"))
    if url.startswith(pages) and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return reverse("collection:binder")


@login_required
@require_POST
def products_open(request):
    ids = whole_numbers(request.POST.getlist("open"), minimum=1, maximum=MAX_ID)
    if ids is None:
        messages.error(request, UNKNOWN_PRODUCTS_MESSAGE)
        return redirect("collection:binder")
    try:
        reveals = open_products(owner=request.user, owned_product_ids=ids)
    except OpeningError as error:
        messages.error(request, str(error))
        return redirect("collection:binder")
    if all(reveal.already_opened for reveal in reveals):
        messages.info(request, "Already opened: here is what they revealed.")
    query = urlencode([("id", reveal.owned_product.pk) for reveal in reveals])
    return redirect(f"{reverse('collection:opening_reveal')}?{query}")


@login_required
@require_GET
def opening_reveal(request):
    """What opening products revealed, per product, the cards the player lacked marked New."""
    ids = whole_numbers(request.GET.getlist("id"), minimum=1, maximum=MAX_ID)
    openings = selectors.owner_openings(
        owner=request.user, owned_product_ids=ids or [], limit=MAX_OPEN_AT_ONCE
    )
    if not openings:
        messages.error(request, "There is no opened product of yours to show there.")
        return redirect("collection:binder")
    cards = card_selectors.cards_by_id(
        card_ids={card_id for opening in openings for card_id in opening.card_ids}
    )
    preferences = preferences_for(user=request.user)
    return render(
        request,
        "collection/opening.html",
        {
            "reveals": [_reveal(opening, cards) for opening in openings],
            "card_size": preferences.card_size_collection,
            "foil_effects": preferences.foil_effects,
            "has_foil": any(opening.foil_card_ids for opening in openings),
        },
    )


def _reveal(opening: Opening, cards: dict[int, Card]) -> dict:
    """One product's cards in reveal order, the rares last (the pack's prize, turned over
    last) and a foil after them, copies of a card shown once with their count."""
    plain_count = len(opening.card_ids) - len(opening.foil_card_ids)
    copies: dict[int, int] = {}
    for card_id in opening.card_ids[:plain_count]:
        copies[card_id] = copies.get(card_id, 0) + 1
    foils: dict[int, int] = {}
    for card_id in opening.foil_card_ids:
        foils[card_id] = foils.get(card_id, 0) + 1
    new = set(opening.new_card_ids)
    order = sorted(copies, key=lambda card_id: cards[card_id].rarity == Rarity.RARE)
    entries = [(card_id, copies[card_id], False) for card_id in order]
    entries += [(card_id, count, True) for card_id, count in foils.items()]
    return {
        "owned_product": opening.owned_product,
        "card_count": len(opening.card_ids),
        "new_count": len(new),
        "cards": [
            {
                "card": cards[card_id],
                "copies": count,
                "foil": foil,
                "new": card_id in new,
                "rare": cards[card_id].rarity == Rarity.RARE,
            }
            for card_id, count, foil in entries
        ],
    }
