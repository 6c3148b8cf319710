"""The Trade Screen of a live trade (rulebook, "Trade Screen") and the requests that change
it. Each action calls one service; with htmx it answers with the offer panel (the socket
brings the same change to the partner), without it returns to the screen."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
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
from collection.trades import fragments
from collection.trades.selectors.live import (
    live_binder_cards,
    live_binder_products,
    live_offer,
    live_session_open_for,
)
from collection.trades.services import live as services
from collection.trades.services.exchange import MAX_COPIES_AT_ONCE
from tcgsite.accounts.models import TipScreen
from tcgsite.accounts.selectors import player_by_name
from tcgsite.accounts.services import preferences_for
from tcgsite.errors import UserError
from tcgsite.inputs import MAX_ID, whole_number_or_none
from tcgsite.lobbies.places import Lobby

# Two rows of five cards: a binder page beside the offer at 1366 pixels.
BINDER_PAGE_SIZE = 10
TRADE_TIPS = (
    "Double-click a card to add one copy, or drag it to You get (from Your collection, to "
    "They get).",
    "Right-click a card, or press and hold it, to add or remove 1 to 5 copies at once.",
    "Double-click a card in the offer to take one copy out; Clear empties the offer.",
    "When both of you Accept, confirm in the dialog: the cards change hands at once.",
    "Right-click a blank space, or press Return to Lobby, to end the session.",
)
TABS = {"theirs": "live_screen", "mine": "live_screen_mine"}


@login_required
@require_POST
def live_request(request, username):
    """The User List's Trade: ask the player; the answer shows in the menu."""
    partner = player_by_name(username=username)
    if partner is None:
        raise Http404("There is no player of that name.")
    current = live_session_open_for(player=request.user)
    try:
        services.live_trade_request(asker=request.user, partner=partner)
    except UserError as refusal:
        result, failed = refusal.message, True
    else:
        result, failed = f"You ask {partner.username} to trade; waiting for their answer.", False
    if request.htmx:
        return render(
            request,
            "trades/live/_menu_result.html",
            {"result": result, "failed": failed, "current": current},
        )
    (messages.error if failed else messages.success)(request, result)
    return redirect(_trade_lobby_url())


@login_required
@require_POST
def live_answer(request, session_id):
    """Accept (to the Trade Screen) or decline a request, from its pop-up."""
    accept = request.POST.get("answer") == "accept"
    try:
        services.live_trade_answer(session_id=session_id, player=request.user, accept=accept)
    except UserError as refusal:
        messages.error(request, refusal.message)
        url = _trade_lobby_url()
    else:
        url = reverse("trades:live_screen", args=[session_id]) if accept else _trade_lobby_url()
    if request.htmx:
        return (
            HttpResponseClientRedirect(url)
            if accept
            else render(
                request, "trades/live/_menu_result.html", {"result": "Declined.", "failed": False}
            )
        )
    return redirect(url)


@login_required
@require_GET
def live_screen(request, session_id, tab):
    """The Trade Screen: the partner's binder (or, on the other tab, the player's own), with
    the card browser's Filter & Search, beside the offer."""
    offer = live_offer(session_id=session_id, viewer=request.user)
    if offer is None:
        raise Http404("There is no such trade session.")
    owner = offer.partner if tab == "theirs" else request.user
    sets = card_selectors.card_sets()
    filters = parse_card_filters(
        dict(request.GET.lists()), known_sets=[s.number for s in sets], collection=True
    )
    add_numeric_from_form(request, filters, attributes=NUMERIC_ATTRIBUTES + COLLECTION_ATTRIBUTES)
    page = Paginator(live_binder_cards(owner=owner, filters=filters), BINDER_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    filters_url = reverse(f"trades:{TABS[tab]}", args=[session_id])
    context = {
        "offer": offer,
        "tab": tab,
        "owner": owner,
        "filters": filters,
        "filters_url": filters_url,
        "page": page,
        "query": filters.querystring(),
        "products": live_binder_products(owner=owner) if page.number == 1 else [],
        "max_copies": range(1, MAX_COPIES_AT_ONCE + 1),
        "foil_effects": offer.foil_effects,
    }
    if request.htmx and request.htmx.target == "results":
        return render(request, "trades/live/_binder_results.html", context)
    preferences = preferences_for(user=request.user)
    context.update(
        tips=TRADE_TIPS,
        tips_screen=TipScreen.TRADE,
        show_tips=not preferences.hides_tips_on(TipScreen.TRADE),
        toggle_groups=toggle_groups(filters, sets),
        numeric_attributes=[
            *((name, name.replace("_", " ")) for name in NUMERIC_ATTRIBUTES),
            *((name, name) for name in COLLECTION_ATTRIBUTES),
        ],
        operators=OPERATORS,
        search_fields=[
            (key, label, key in filters.search_fields) for key, label in SEARCH_FIELDS.items()
        ],
    )
    if request.htmx and request.htmx.target == "trade-binder":
        return render(request, "trades/live/_binder.html", context)
    return render(request, "trades/live/screen.html", context)


@login_required
@require_POST
def live_offer_change(request, session_id):
    """Add or remove copies of a card or products: ``giver`` (the player's id or the
    partner's), ``card`` (with ``foil`` "1" for its foil copies) or ``product``, and
    ``delta`` (-5 to 5)."""
    giver_id = whole_number_or_none(request.POST.get("giver"), minimum=1, maximum=MAX_ID)
    card_id = whole_number_or_none(request.POST.get("card"), minimum=1, maximum=MAX_ID)
    product_id = whole_number_or_none(request.POST.get("product"), minimum=1, maximum=MAX_ID)
    delta = whole_number_or_none(
        request.POST.get("delta", "").lstrip("-"), minimum=1, maximum=MAX_COPIES_AT_ONCE
    )
    if giver_id is None or delta is None:
        return _answer(request, session_id, error="That change could not be read.")
    if request.POST.get("delta", "").strip().startswith("-"):
        delta = -delta
    return _act(
        request,
        session_id,
        lambda: services.live_trade_offer_change(
            session_id=session_id,
            player=request.user,
            giver_id=giver_id,
            delta=delta,
            card_id=card_id,
            product_id=product_id,
            foil=request.POST.get("foil") == "1",
        ),
    )


@login_required
@require_POST
def live_clear(request, session_id):
    return _act(
        request,
        session_id,
        lambda: services.live_trade_clear(session_id=session_id, player=request.user),
    )


@login_required
@require_POST
def live_accept(request, session_id):
    version = _offer_version(request)
    return _act(
        request,
        session_id,
        lambda: services.live_trade_accept(
            session_id=session_id, player=request.user, offer_version=version
        ),
    )


@login_required
@require_POST
def live_confirm(request, session_id):
    version = _offer_version(request)
    return _act(
        request,
        session_id,
        lambda: services.live_trade_confirm(
            session_id=session_id, player=request.user, offer_version=version
        ),
    )


@login_required
@require_POST
def live_leave(request, session_id):
    """Return to Lobby: the session ends for both players."""
    try:
        services.live_trade_leave(session_id=session_id, player=request.user)
    except UserError as refusal:
        messages.error(request, refusal.message)
    if request.htmx:
        return HttpResponseClientRedirect(_trade_lobby_url())
    return redirect(_trade_lobby_url())


def _offer_version(request) -> int:
    version = whole_number_or_none(request.POST.get("offer_version"), minimum=0, maximum=MAX_ID)
    return -1 if version is None else version


def _act(request, session_id, action):
    try:
        action()
    except UserError as refusal:
        return _answer(request, session_id, error=refusal.message)
    return _answer(request, session_id)


def _answer(request, session_id, *, error: str = ""):
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("trades:live_screen", session_id)
    offer = live_offer(session_id=session_id, viewer=request.user)
    if offer is None:
        raise Http404("There is no such trade session.")
    return HttpResponse(fragments.offer_panel(offer, oob=True, error=error))


def _trade_lobby_url() -> str:
    return reverse("lobbies:lobby", args=[Lobby.TRADE])
