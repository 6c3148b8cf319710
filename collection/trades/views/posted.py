"""Posted trades (rulebook, "Posted Trades", "Guild-Only Trades"): the board, a listing with
Accept and Close, the delivery window, My Trades, and the Create screen (a special Trade
Screen whose Their tab holds 4 copies of every card)."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from collection.cards import selectors as card_selectors
from collection.cards.filters import parse_card_filters
from collection.cards.models import CardType, Rarity
from collection.trades.selectors import posted as selectors
from collection.trades.services.exchange import MAX_COPIES_AT_ONCE, TradeItem
from collection.trades.services.posted import (
    MAX_ITEMS_A_SIDE,
    MAX_WANTED_COPIES,
    PostedTradeClosed,
    PostedTradeError,
    posted_trade_accept,
    posted_trade_create,
    posted_trade_withdraw,
)
from tcgsite.inputs import object_id, whole_number_or_none

BOARD_PAGE_SIZE = 50
HISTORY_PAGE_SIZE = 50
BINDER_PAGE_SIZE = 18
MAX_SEARCH_LENGTH = 80
# Far above what a side may hold; the service says what the limits are.
MAX_QUANTITY = 9999


@dataclass(frozen=True)
class BoardPage:
    """One page of the board, newest first, and where the next (older) one starts. Pages
    follow trade numbers, not page numbers: the board may hold many thousand trades, and
    finding page 20 by number would test every trade before it for "can accept"."""

    object_list: list
    before: int | None
    older_than: int | None

    @classmethod
    def of(cls, trades, before: int | None) -> "BoardPage":
        rows = list(trades[: BOARD_PAGE_SIZE + 1])
        older_than = rows[BOARD_PAGE_SIZE - 1].pk if len(rows) > BOARD_PAGE_SIZE else None
        return cls(rows[:BOARD_PAGE_SIZE], before, older_than)


@login_required
@require_GET
def posted_board(request):
    """The posted trades window: every trade on offer, searched as the player types."""
    search = request.GET.get("q", "").strip()[:MAX_SEARCH_LENGTH]
    only_acceptable = request.GET.get("can") == "1"
    before = object_id(request.GET.get("before"))
    trades = selectors.posted_trade_board(
        viewer=request.user, search=search, only_acceptable=only_acceptable, before=before
    )
    context = {
        "page": BoardPage.of(trades, before),
        "search": search,
        "only_acceptable": only_acceptable,
    }
    if request.htmx and request.htmx.target == "posted-results":
        return render(request, "trades/posted/_board_results.html", context)
    if request.htmx and request.htmx.target == "match-dialog-body":  # /ptrade in a lobby
        return render(request, "trades/posted/_board_window.html", context)
    return render(request, "trades/posted/board.html", context)


@login_required
@require_GET
def posted_detail(request, trade_id):
    try:
        context = _detail_context(request, trade_id)
    except PostedTradeClosed as closed:
        return _back_to_board(request, closed.message)
    if context is None:
        raise Http404("There is no such posted trade, or it is not for you to see.")
    return render(request, "trades/posted/detail.html", context)


@login_required
@require_POST
def posted_accept(request, trade_id):
    """Accept: the server checks both sides still hold the items, then swaps them; the
    accepter sees the delivery window. A refusal is shown on the listing, or on the board
    when the trade has left it meanwhile (accepted by another player, or withdrawn)."""
    try:
        posted_trade_accept(trade_id=trade_id, taker=request.user)
    except PostedTradeError as error:
        try:
            context = _detail_context(request, trade_id)
        except PostedTradeClosed:
            context = None
        if context is None:
            return _back_to_board(request, error.message)
        context["error"] = error.message
        return render(request, "trades/posted/detail.html", context, status=409)
    return redirect("trades:posted_delivery", trade_id)


@login_required
@require_GET
def posted_delivery(request, trade_id):
    """The delivery window: what arrived in the accepter's collection."""
    trade = selectors.posted_trade_accepted_by(trade_id=trade_id, taker=request.user)
    if trade is None:
        raise Http404("You did not accept that trade.")
    return render(request, "trades/posted/delivery.html", {"trade": trade})


@login_required
@require_POST
def posted_withdraw(request, trade_id):
    try:
        posted_trade_withdraw(trade_id=trade_id, poster=request.user)
    except PostedTradeError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Posted trade {trade_id} is withdrawn.")
    return redirect("trades:posted_mine")


@login_required
@require_GET
def posted_mine(request):
    """My Trades: what the player posted, accepted and withdrew."""
    history = selectors.posted_trade_history(player=request.user)
    return render(
        request,
        "trades/posted/mine.html",
        {"page": Paginator(history, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))},
    )


@login_required
@require_http_methods(["GET", "POST"])
def posted_create(request):
    """The Create screen; Accept posts the trade shown in You get and They get."""
    offer, want, error = [], [], ""
    guild_only = False
    if request.method == "POST":
        guild_only = request.POST.get("guild_only") == "1"
        try:
            offer = _items_from(request.POST.getlist("offer"))
            want = _items_from(request.POST.getlist("want"))
            trade = posted_trade_create(
                poster=request.user, offer=offer, want=want, guild_only=guild_only
            )
        except PostedTradeError as error_raised:
            error = error_raised.message
        else:
            messages.success(request, f"Your trade is posted as number {trade.pk}.")
            return redirect("trades:posted_detail", trade.pk)
    return render(
        request,
        "trades/posted/create.html",
        {
            "error": error,
            "you_get": selectors.proposal_lines(items=want),
            "they_get": selectors.proposal_lines(items=offer),
            "guild_only": guild_only,
            "in_guild": selectors.viewer_guild_id(viewer=request.user) is not None,
            "copies_menu": range(1, MAX_COPIES_AT_ONCE + 1),
            **_binder_context(request, tab="their"),
        },
    )


@login_required
@require_GET
def posted_binder(request):
    """One page of the Create screen's binder, on its Their or Your tab."""
    tab = "your" if request.GET.get("tab") == "your" else "their"
    return render(
        request,
        "trades/posted/_binder.html",
        _binder_context(request, tab=tab),
    )


def _binder_context(request, *, tab: str) -> dict:
    sets = card_selectors.card_sets()
    filters = parse_card_filters(dict(request.GET.lists()), known_sets=[s.number for s in sets])
    if tab == "your":
        cards = selectors.your_binder_cards(owner=request.user, filters=filters)
        products = selectors.binder_products(owner=request.user)
    else:
        cards = selectors.their_binder_cards(filters=filters)
        products = selectors.binder_products(owner=None)
    page = Paginator(cards, BINDER_PAGE_SIZE).get_page(request.GET.get("page"))
    return {
        "tab": tab,
        "page": page,
        "products": products if page.number == 1 else [],
        "filters": filters,
        "query": filters.querystring(),
        "sets": sets,
        "card_types": CardType.choices,
        "rarities": Rarity.choices,
        "max_wanted": MAX_WANTED_COPIES,
        "foil_effects": request.user.preferences.foil_effects,
    }


def _back_to_board(request, message: str):
    messages.error(request, message)
    return redirect("trades:posted_board")


def _detail_context(request, trade_id) -> dict | None:
    trade = selectors.posted_trade_for(trade_id=trade_id, viewer=request.user)
    if trade is None:
        return None
    return {"trade": trade, "own": trade.poster_id == request.user.pk}


def _items_from(values: list[str]) -> list[TradeItem]:
    """Items as the Create screen sends them: ``card:<id>:<copies>``, ``foil:<id>:<copies>``
    (a card's foil copies) or ``product:<id>:<count>``."""
    if len(values) > MAX_ITEMS_A_SIDE:
        raise PostedTradeError(f"A side holds at most {MAX_ITEMS_A_SIDE} different items.")
    items = []
    for value in values:
        kind, _, rest = value.partition(":")
        raw_id, _, raw_quantity = rest.partition(":")
        item_id = object_id(raw_id)
        quantity = whole_number_or_none(raw_quantity, minimum=1, maximum=MAX_QUANTITY)
        if kind not in ("card", "foil", "product") or item_id is None or quantity is None:
            raise PostedTradeError("That trade proposal could not be read; build it again.")
        if kind == "product":
            items.append(TradeItem(quantity=quantity, product_id=item_id))
        else:
            items.append(TradeItem(quantity=quantity, card_id=item_id, foil=kind == "foil"))
    return items
