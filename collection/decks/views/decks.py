"""The Deck Builder (rulebook, DECK BUILDER) and the Limited Deck Builder.

The collection container (Filters & Search over the cards the player may use) sits above the
deck container; between them the toolbar: New Deck, Open Deck, Save Deck, Tools (Validate,
Statistics, Test Draw, Export, Import) and Create Avatar. The deck under construction
travels with every request as ``entry`` values (see collection.decks.services.decks), so these
views keep no state: each reads the request, calls one service or selector, and renders.
"""

import math
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from collection.cards import selectors as card_selectors
from collection.cards.filtering import add_numeric_from_form, toggle_groups
from collection.cards.filters import (
    COLLECTION_ATTRIBUTES,
    OPERATORS,
    SEARCH_FIELDS,
    parse_card_filters,
)
from collection.cards.models import NUMERIC_ATTRIBUTES
from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, LimitedPool
from collection.decks.services import decks
from game.engine import deckrules
from tcgsite.accounts.models import TipScreen

PAGE_SIZES = {"graphic": 48, "table": 100}
DECK_VIEWS = {"graphic": "Graphic View", "table": "Table View"}
DECK_SORTS = {
    "": "Deck order",
    "title": "Title",
    "type": "Type",
    "cost": "Cost",
    "copies": "Copies",
}
COLLECTION_COLUMNS = (
    ("title", "Title", ""),
    ("type", "Type", ""),
    ("archetype", "Archetype", ""),
    ("cost", "Cost", "num"),
    ("attack", "Atk", "num"),
    ("defense", "Def", "num"),
    ("health", "HP", "num"),
    ("level", "Lvl", "num"),
    ("owned", "Own", "num"),
)
TYPE_COLOURS = {"unit": "#4ea8f2", "ability": "#b48cf2", "item": "#f2c14e", "tactic": "#5fd38d"}
DECK_BUILDER_TIPS = (
    "Double-click a card (or press Enter on it) to add one copy; the number box beside + and "
    "\u2212 adds or removes that many. Right-click a card to jump to its number box.",
    "Hover a card to see it large on the right.",
    "Tools \u2192 Validate checks the deck against every play format: click a red \u2717 to "
    "read what is wrong.",
    "Decks are saved on the server: Open Deck lists them wherever you log in.",
)
LIMITED_BUILDER_TIPS = (
    "Only the cards of this card pool are offered, up to the copies the pool holds.",
    "Save Deck beside the timer saves the deck; a deck that breaks the Limited rules is not "
    "saved, and the Deck Validator opens to say why.",
    "Double-click a card to add one copy; hover a card to see it large on the right.",
)


@dataclass(frozen=True)
class DeckState:
    """The deck under construction, as a request carries it."""

    builder: deck_selectors.BuilderDeck
    pool: LimitedPool | None
    deck: Deck | None
    view: str
    sort: str


# Pages ---------------------------------------------------------------------------------------


@login_required
@require_GET
def deck_builder(request):
    """A new, empty deck; ``entry`` values in the query prefill it (links from other tools)."""
    detour = _detour(request)
    if detour is not None:
        return detour
    counts, problems = deck_selectors.entries_parse(request.GET.getlist("entry"))
    return _builder_page(request, counts=counts, problems=problems)


@login_required
@require_GET
def deck_edit(request, deck_id):
    try:
        deck = deck_selectors.owner_deck(owner=request.user, deck_id=deck_id)
    except deck_selectors.DeckGone as gone:
        # Open Deck's list, or another tab, still showed it.
        messages.error(request, str(gone))
        return redirect("decks:deck_builder")
    except deck_selectors.DeckError as error:
        raise Http404(str(error)) from error
    pool = deck_selectors.deck_pool(deck=deck)
    if pool is not None:
        return redirect("decks:limited_builder", pool.pk)
    detour = _detour(request)
    if detour is not None:
        return detour
    return _builder_page(request, counts=deck_selectors.deck_counts(deck=deck), deck=deck)


@login_required
@require_GET
def limited_builder(request, pool_id):
    try:
        pool = deck_selectors.owner_pool(owner=request.user, pool_id=pool_id)
    except deck_selectors.DeckError as error:
        raise Http404(str(error)) from error
    counts = deck_selectors.deck_counts(deck=pool.deck) if pool.deck else {}
    return _builder_page(request, counts=counts, deck=pool.deck, pool=pool)


def _detour(request):
    """To the Limited Deck Builder, with the reason, when a gate keeps the player out of the
    normal Deck Builder (see ``collection.decks.registry``); None lets them in."""
    detour = deck_selectors.builder_detour(player=request.user)
    if detour is None:
        return None
    messages.info(request, detour.message)
    return redirect("decks:limited_builder", detour.pool_id)


def _builder_page(request, *, counts, deck=None, pool=None, problems=()):
    preferences = request.user.preferences
    filters, sets = _filters(request, pool)
    builder = deck_selectors.builder_deck(owner=request.user, counts=counts, pool=pool)
    state = DeckState(builder, pool, deck, view="graphic", sort="")
    problems = [*problems, *builder.problems]
    context = {
        **_collection_context(request, filters, state),
        # A deck prefilled from the query is not saved yet.
        **_deck_context(
            state,
            message=" ".join(problems),
            error=bool(problems),
            dirty=deck is None and bool(counts),
        ),
        "toggle_groups": toggle_groups(filters, sets),
        "numeric_attributes": [
            (name, name.replace("_", " ")) for name in NUMERIC_ATTRIBUTES + COLLECTION_ATTRIBUTES
        ],
        "operators": OPERATORS,
        "search_fields": [
            (key, label, key in filters.search_fields) for key, label in SEARCH_FIELDS.items()
        ],
        "deck_name": deck.name if deck else (pool.name if pool else ""),
        "deadline": _deadline(pool) if pool else None,
        "test_draw_url": reverse("game:test_draw"),
        "deck_card_size": preferences.card_size_deck,
        "tips": LIMITED_BUILDER_TIPS if pool else DECK_BUILDER_TIPS,
        "tips_screen": TipScreen.DECK_BUILDER,
        "show_tips": not preferences.hides_tips_on(TipScreen.DECK_BUILDER),
    }
    return render(request, "decks/deck_builder.html", context)


# The collection container ------------------------------------------------------------------


@login_required
@require_GET
def builder_collection(request):
    """The collection container's cards for the filters; page 2 on appends to page 1."""
    state, problem = _deck_state(request, request.GET)
    filters, _sets = _filters(request, state.pool)
    if problem:
        filters.errors.append(problem)
    context = _collection_context(request, filters, state)
    if context["page"].number > 1:
        return render(request, "decks/_deck_collection_items.html", context)
    return render(request, "decks/_deck_collection.html", context)


def _filters(request, pool):
    sets = card_selectors.card_sets()
    # A Limited pool's copies are not collection numbers, so those filters are for the
    # collection only.
    filters = parse_card_filters(
        dict(request.GET.lists()), known_sets=[s.number for s in sets], collection=pool is None
    )
    add_numeric_from_form(request, filters, attributes=NUMERIC_ATTRIBUTES + COLLECTION_ATTRIBUTES)
    return filters, sets


def _collection_context(request, filters, state: DeckState) -> dict:
    cards = deck_selectors.builder_collection(owner=request.user, filters=filters, pool=state.pool)
    page = Paginator(cards, PAGE_SIZES[filters.view]).get_page(request.GET.get("page"))
    in_deck = state.builder.counts
    for card in page:
        card.in_deck = in_deck.get(card.pk, 0)
        card.left = max(card.owned - card.in_deck, 0)
    query = filters.querystring()
    return {
        "change_url": reverse("decks:deck_change"),
        "filters": filters,
        "page": page,
        "query": query,
        "pool": state.pool,
        "graphic_query": filters.querystring(view="graphic"),
        "table_query": filters.querystring(view="table"),
        "collection_columns": [
            {
                "label": label,
                "css": css,
                "sorted": key == filters.sort,
                "query": filters.sort_toggle(key),
            }
            for key, label, css in COLLECTION_COLUMNS
            if state.pool is None or key != "owned"
        ],
        "card_size": request.user.preferences.card_size_collection,
        "foil_effects": request.user.preferences.foil_effects,
    }


# The deck container ------------------------------------------------------------------------


@login_required
@require_GET
def deck_container(request):
    """The deck container again, in another view or order."""
    state, problem = _deck_state(request, request.GET)
    dirty = bool(request.GET.get("dirty"))
    return _render_container(request, state, message=problem, error=bool(problem), dirty=dirty)


@login_required
@require_POST
def deck_change(request):
    """Add or remove copies of one card (double-click, Enter, or the copies box)."""
    state, problem = _deck_state(request, request.POST)
    dirty = bool(request.POST.get("dirty"))
    if problem:
        return _render_container(request, state, message=problem, error=True, dirty=dirty)
    try:
        builder, message = deck_selectors.builder_deck_change(
            owner=request.user,
            builder=state.builder,
            card_id=request.POST.get("card", ""),
            copies=request.POST.get("copies", "1"),
            operation=request.POST.get("op", ""),
            pool=state.pool,
        )
    except deck_selectors.DeckError as error:
        return _render_container(request, state, message=str(error), error=True, dirty=dirty)
    state = DeckState(builder, state.pool, state.deck, state.view, state.sort)
    return _render_container(request, state, message=message, dirty=True)


@login_required
@require_POST
def deck_save(request):
    """Save Deck: the deck container comes back with what the save did."""
    state, problem = _deck_state(request, request.POST)
    if problem:
        return _render_container(
            request, state, message=problem, error=True, dirty=True, saving=True
        )
    try:
        saved = decks.deck_save(
            owner=request.user,
            name=request.POST.get("name", ""),
            counts=state.builder.counts,
            deck_id=state.deck.pk if state.deck else None,
            pool=state.pool,
        )
    except deck_selectors.DeckInvalid as invalid:
        # Rulebook: in the Limited Deck Builder the Deck Validator opens to explain.
        response = _render_container(
            request, state, message=str(invalid), error=True, dirty=True, saving=True
        )
        validator = render(
            request,
            "decks/_deck_validate.html",
            {"validations": [invalid.validation], "oob": True},
        )
        response.content += validator.content
        response["HX-Trigger-After-Swap"] = "open-tool"
        return response
    except deck_selectors.DeckError as error:
        return _render_container(
            request, state, message=str(error), error=True, dirty=True, saving=True
        )
    if not request.htmx:
        messages.success(request, _saved_message(saved))
        return redirect(_deck_url(saved.deck, state.pool))
    state = DeckState(state.builder, state.pool, saved.deck, state.view, state.sort)
    response = _render_container(request, state, message=_saved_message(saved), saving=True)
    response["HX-Push-Url"] = _deck_url(saved.deck, state.pool)
    return response


@login_required
@require_GET
def deck_open_menu(request):
    """Open Deck's list, loaded when the menu opens so that it includes decks just saved."""
    return render(
        request,
        "decks/_deck_open_menu.html",
        {
            "saved_decks": deck_selectors.owner_decks(owner=request.user),
            "open_pools": deck_selectors.owner_pools(owner=request.user),
        },
    )


@login_required
@require_POST
def deck_delete(request, deck_id):
    try:
        name = decks.deck_delete(owner=request.user, deck_id=deck_id)
    except deck_selectors.DeckError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Deleted the deck \u201c{name}\u201d.")
    if request.htmx:
        return HttpResponseClientRedirect(reverse("decks:deck_builder"))
    return redirect("decks:deck_builder")


def _deck_state(request, params) -> tuple[DeckState, str]:
    """The deck under construction in ``params``, and a message for what could not be read."""
    counts, problems = deck_selectors.entries_parse(params.getlist("entry"))
    pool = deck = None
    try:
        if params.get("pool"):
            pool = deck_selectors.owner_pool(owner=request.user, pool_id=params["pool"])
        if params.get("deck") and pool is None:
            deck = deck_selectors.owner_deck(owner=request.user, deck_id=params["deck"])
            # A Limited pool's deck is built from its pool, whichever page sends it.
            pool = deck_selectors.deck_pool(deck=deck)
        elif pool is not None:
            deck = pool.deck
    except deck_selectors.DeckGone as gone:
        # The container comes back without the deck's number, so a save makes a new deck.
        problems.append(f"{gone} Save Deck keeps these cards as a new deck.")
    except deck_selectors.DeckError as error:
        problems.append(str(error))
    builder = deck_selectors.builder_deck(owner=request.user, counts=counts, pool=pool)
    view = params.get("deck_view", "graphic")
    sort = params.get("deck_sort", "")
    state = DeckState(
        builder,
        pool,
        deck,
        view=view if view in DECK_VIEWS else "graphic",
        sort=sort if sort in DECK_SORTS else "",
    )
    return state, " ".join([*problems, *builder.problems])


def _render_container(request, state: DeckState, *, message="", error=False, saving=False, **extra):
    """The deck container; for htmx, the toolbar's Save Deck status too: what a save
    (``saving``) did, or cleared by any other change."""
    context = _deck_context(state, message=message, error=error, **extra)
    context["deck_card_size"] = request.user.preferences.card_size_deck
    response = render(request, "decks/_deck_container.html", context)
    if request.htmx:
        status = {"save_message": message if saving else "", "save_error": error, "oob": True}
        response.content += render_to_string("decks/_deck_save_status.html", status).encode()
    return response


def _deck_context(state: DeckState, *, message="", error=False, dirty=False) -> dict:
    builder = state.builder
    levels = {line.card.level for line in builder.quests}
    # Empty slots show what each part still needs: an avatar, a quest of each missing level.
    parts = [
        ("Avatar", builder.avatar, 1, [] if builder.avatar else ["Avatar"]),
        (
            "Quests",
            builder.quests,
            len(deckrules.QUEST_LEVELS),
            [f"Level {level}" for level in deckrules.QUEST_LEVELS if level not in levels],
        ),
        ("Deck", builder.deck, None, []),
    ]
    return {
        "change_url": reverse("decks:deck_change"),
        "builder": builder,
        "parts": [
            {
                "label": label,
                "lines": _sorted_lines(lines, state.sort),
                "count": sum(line.copies for line in lines),
                "wanted": wanted,
                "slots": slots,
            }
            for label, lines, wanted, slots in parts
        ],
        "pool": state.pool,
        "deck": state.deck,
        "deck_view": state.view,
        "deck_sort": state.sort,
        "deck_sorts": DECK_SORTS.items(),
        "deck_views": DECK_VIEWS.items(),
        "cost_groups": _cost_groups(builder.deck),
        "total": sum(line.copies for line in builder.lines),
        "min_deck_size": deckrules.MIN_DECK_SIZE,
        "message": message,
        "error": error,
        "dirty": dirty,
    }


def _sorted_lines(lines, sort):
    keys = {
        "title": lambda line: line.card.title.casefold(),
        "type": lambda line: (line.card.card_type, line.card.title.casefold()),
        "cost": lambda line: (line.card.cost is None, line.card.cost or 0, line.card.title),
        "copies": lambda line: (-line.copies, line.card.title.casefold()),
    }
    return sorted(lines, key=keys[sort]) if sort else lines


def _cost_groups(lines) -> list[dict]:
    """The compact deck list's groups: one per cost, cheapest first, with its copies."""
    groups: dict[int | None, list] = {}
    for line in _sorted_lines(lines, "cost"):
        groups.setdefault(line.card.cost, []).append(line)
    return [
        {"cost": cost, "count": sum(line.copies for line in group), "lines": group}
        for cost, group in groups.items()
    ]


def _saved_message(saved: deck_selectors.SavedDeck) -> str:
    action = "Saved" if saved.created else "Saved changes to"
    text = f"{action} \u201c{saved.deck.name}\u201d."
    if saved.invalid_for:
        formats = ", ".join(saved.invalid_for)
        return f"{text} Not valid yet for {formats}: Tools \u2192 Validate shows why."
    if saved.valid_for:
        return f"{text} Valid for {', '.join(saved.valid_for)}."
    return text


def _deck_url(deck: Deck, pool) -> str:
    if pool is not None:
        return reverse("decks:limited_builder", args=[pool.pk])
    return reverse("decks:deck_edit", args=[deck.pk])


# Tools -------------------------------------------------------------------------------------


@login_required
@require_GET
def deck_validate(request):
    """Validate: the deck under construction against every play format, rule by rule."""
    state, problem = _deck_state(request, request.GET)
    validations = deck_selectors.builder_validations(builder=state.builder)
    return render(
        request,
        "decks/_deck_validate.html",
        {"validations": validations, "problem": problem},
    )


@login_required
@require_GET
def deck_statistics(request):
    """Statistics: Ratios (a pie of card types) and Costs (bars of types by cost)."""
    state, problem = _deck_state(request, request.GET)
    statistics = deckrules.deck_statistics(state.builder.deck_list)
    return render(
        request,
        "decks/_deck_statistics.html",
        {
            "statistics": statistics,
            "problem": problem,
            "slices": _pie_slices(statistics),
            "bars": _cost_bars(statistics),
            "ratios": [
                (share, share.card_type.capitalize(), TYPE_COLOURS[share.card_type])
                for share in statistics.types
            ],
            "type_labels": [(t, t.capitalize(), TYPE_COLOURS[t]) for t in deckrules.DECK_TYPES],
        },
    )


@login_required
@require_GET
def deck_export(request):
    """Export: the deck as a plain-text list, to copy or download."""
    state, problem = _deck_state(request, request.GET)
    name = request.GET.get("name", "").strip()[:80]
    text = deckrules.export_text(state.builder.deck_list, name=name)
    if request.GET.get("download"):
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        filename = "".join(c for c in name if c.isalnum() or c in " -_").strip() or "deck"
        response["Content-Disposition"] = f'attachment; filename="{filename}.txt"'
        return response
    return render(
        request,
        "decks/_deck_export.html",
        {"text": text, "problem": problem, "download_query": request.GET.urlencode()},
    )


@login_required
def deck_import(request):
    """Import: a pasted deck list replaces the deck under construction (not saved yet)."""
    if request.method != "POST":
        return render(request, "decks/_deck_import.html", {})
    state, problem = _deck_state(request, request.POST)
    text = request.POST.get("text", "")
    try:
        imported = deck_selectors.deck_import(owner=request.user, text=text, pool=state.pool)
    except deck_selectors.DeckError as error:
        return render(request, "decks/_deck_import.html", {"text": text, "error": error})
    builder = deck_selectors.builder_deck(
        owner=request.user, counts=imported.counts, pool=state.pool
    )
    state = DeckState(builder, state.pool, state.deck, state.view, state.sort)
    copies = sum(imported.counts.values())
    context = {
        "text": text,
        "imported": imported,
        "copies": copies,
        "oob_container": True,
        **_deck_context(
            state,
            message=f"Imported {copies} card{'s' if copies != 1 else ''}.",
            dirty=True,
        ),
        "deck_card_size": request.user.preferences.card_size_deck,
    }
    return render(request, "decks/_deck_import.html", context)


# Charts, drawn on the server as SVG --------------------------------------------------------

PIE_RADIUS = 90
PIE_CENTRE = 100
BAR_WIDTH = 34
BAR_GAP = 14
BAR_HEIGHT = 150


def _pie_slices(statistics: deckrules.DeckStatistics) -> list[dict]:
    """One SVG path per card type present, clockwise from twelve o'clock."""
    slices = []
    start = 0.0
    shares = [share for share in statistics.types if share.count]
    for share in shares:
        sweep = share.count / statistics.total
        end = start + sweep
        slice_ = {"share": share, "colour": TYPE_COLOURS[share.card_type], "full": sweep == 1}
        if not slice_["full"]:
            x1, y1 = _pie_point(start)
            x2, y2 = _pie_point(end)
            large = 1 if sweep > 0.5 else 0
            slice_["path"] = (
                f"M{PIE_CENTRE},{PIE_CENTRE} L{x1:.2f},{y1:.2f} "
                f"A{PIE_RADIUS},{PIE_RADIUS} 0 {large} 1 {x2:.2f},{y2:.2f} Z"
            )
        # Percentages sit inside slices wide enough to hold them.
        if sweep >= 0.07:
            lx, ly = _pie_point(start + sweep / 2, radius=PIE_RADIUS * 0.62)
            slice_["label"] = {"x": f"{lx:.1f}", "y": f"{ly:.1f}"}
        slices.append(slice_)
        start = end
    return slices


def _pie_point(fraction: float, radius: float = PIE_RADIUS) -> tuple[float, float]:
    angle = 2 * math.pi * fraction - math.pi / 2
    return PIE_CENTRE + radius * math.cos(angle), PIE_CENTRE + radius * math.sin(angle)


def _cost_bars(statistics: deckrules.DeckStatistics) -> dict:
    """Stacked bars, one per cost, each split by card type, scaled to the tallest."""
    tallest = max((row.total for row in statistics.costs), default=0) or 1
    bars = []
    for index, row in enumerate(statistics.costs):
        x = 30 + index * (BAR_WIDTH + BAR_GAP)
        top = 20 + BAR_HEIGHT
        segments = []
        for card_type in deckrules.DECK_TYPES:
            count = row.counts[card_type]
            if not count:
                continue
            height = BAR_HEIGHT * count / tallest
            top -= height
            segments.append(
                {
                    "y": f"{top:.1f}",
                    "height": f"{height:.1f}",
                    "colour": TYPE_COLOURS[card_type],
                    "title": f"{count} {card_type}{'s' if count != 1 else ''}",
                }
            )
        bars.append(
            {
                "row": row,
                "x": x,
                "centre": x + BAR_WIDTH / 2,
                "segments": segments,
                "top": f"{top - 5:.1f}",
                "label": "\u2013" if row.cost is None else row.cost,
            }
        )
    width = 30 + max(len(bars), 1) * (BAR_WIDTH + BAR_GAP) + 10
    return {
        "bars": bars,
        "width": width,
        "bar_width": BAR_WIDTH,
        "baseline": 20 + BAR_HEIGHT,
        "label_y": 20 + BAR_HEIGHT + 16,
        "height": 20 + BAR_HEIGHT + 40,
    }


# Helpers -----------------------------------------------------------------------------------


def _deadline(pool: LimitedPool) -> dict:
    """The Limited Deck Builder's timer; the page's script counts it down from here."""
    remaining = max(int((pool.deadline - timezone.now()).total_seconds()), 0)
    hours, rest = divmod(remaining, 3600)
    text = f"{hours}:{rest // 60:02}:{rest % 60:02}" if hours else f"{rest // 60}:{rest % 60:02}"
    return {"at": pool.deadline, "seconds": remaining, "text": text}
