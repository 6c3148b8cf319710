"""Reads of posted trades: the board (rulebook, "Posted Trades"), one listing, a player's own
history, and the two binders of the Create screen (a special Trade Screen whose Their tab
holds 4 copies of every card)."""

from dataclasses import dataclass

from django.db.models import (
    BooleanField,
    Count,
    Exists,
    F,
    Func,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce

from collection.cards.filters import CardFilters
from collection.cards.models import Card
from collection.cards.selectors import cards_narrowed
from collection.models import CardOwnership, OwnedProduct, Product
from collection.selectors import SHELF_ORDER, collection_cards
from collection.trades.models import PostedTrade, PostedTradeLine, PostedTradeStatus, TradeSide
from collection.trades.services.exchange import TradeItem, items_merged
from collection.trades.services.posted import (
    MAX_WANTED_COPIES,
    PostedTradeClosed,
    closed_message,
)
from guilds.selectors import guild_id_of
from tcgsite.accounts.models import User

MAX_SEARCH_WORDS = 6
LINE_FIELDS = (
    "trade_id",
    "side",
    "quantity",
    "foil",
    "card__title",
    "card__number",
    "card__card_set__number",
    "product__name",
)


def posted_trade_board(
    *, viewer: User, search: str = "", only_acceptable: bool = False, before: int | None = None
) -> QuerySet[PostedTrade]:
    """The open trades of other players that ``viewer`` may see (Guild-Only ones of their own
    guild only; none of a player either of them ignores), newest first, each with
    ``can_accept`` (the viewer holds everything it wants) and its lines. ``search`` keeps
    trades with a card title or product name containing each word; ``before`` those posted
    before that trade (the next page)."""
    trades = _visible_open_trades(viewer).exclude(poster=viewer).order_by("-pk")
    if before is not None:
        trades = trades.filter(pk__lt=before)
    for word in search.split()[:MAX_SEARCH_WORDS]:
        trades = trades.filter(
            Exists(
                PostedTradeLine.objects.filter(trade=OuterRef("pk")).filter(
                    Q(card__title__icontains=word) | Q(product__name__icontains=word)
                )
            )
        )
    trades = _with_can_accept(trades, viewer, only_acceptable=only_acceptable)
    return _with_lines(trades.select_related("poster", "guild"))


def posted_trade_for(*, trade_id: int, viewer: User) -> PostedTrade | None:
    """One trade as ``viewer`` may see it: their own, one they accepted, or an open one the
    board would show them (ignored players' included, so the refusal can be explained).
    One the board showed them until another player accepted it or its poster withdrew it
    raises ``PostedTradeClosed``, saying so."""
    mine = Q(poster=viewer) | Q(accepted_by=viewer)
    # One filter rather than two querysets joined with |: the same rows (no join, so no
    # DISTINCT), but combining querysets copies and relabels their subqueries, which made
    # this one query cost more CPU to build than most pages' whole work.
    visible = PostedTrade.objects.filter(
        mine | _open_to_guild(guild_id_of(user_id=viewer.pk)), pk=trade_id
    )
    trades = _with_can_accept(visible, viewer)
    trade = _with_lines(trades.select_related("poster", "accepted_by", "guild")).first()
    if trade is None:
        closed = (
            PostedTrade.objects.filter(pk=trade_id)
            .exclude(status=PostedTradeStatus.OPEN)
            .filter(Q(guild__isnull=True) | Q(guild_id=guild_id_of(user_id=viewer.pk)))
            .first()
        )
        if closed is not None:
            raise PostedTradeClosed(closed_message(closed, viewer=viewer))
    return trade


def posted_trade_accepted_by(*, trade_id: int, taker: User) -> PostedTrade | None:
    """A trade ``taker`` accepted, for its delivery window."""
    return (
        _with_lines(PostedTrade.objects.select_related("poster"))
        .filter(pk=trade_id, accepted_by=taker, status=PostedTradeStatus.ACCEPTED)
        .first()
    )


def posted_trade_history(*, player: User) -> QuerySet[PostedTrade]:
    """Every trade the player posted or accepted, the latest change first."""
    return _with_lines(
        PostedTrade.objects.filter(Q(poster=player) | Q(accepted_by=player))
        .select_related("poster", "accepted_by", "guild")
        .annotate(changed_at=Coalesce("closed_at", "created_at"))
        .order_by("-changed_at", "-pk")
    )


def viewer_guild_id(*, viewer: User) -> int | None:
    """The Create screen offers Guild-Only to a guild's members."""
    return guild_id_of(user_id=viewer.pk)


# --- the Create screen ----------------------------------------------------------------------


@dataclass(frozen=True)
class ProposalLine:
    """One item of a proposal being built, named for the You get / They get lists."""

    key: str
    name: str
    quantity: int
    is_product: bool


def their_binder_cards(*, filters: CardFilters) -> QuerySet[Card]:
    """The Their tab: every printed card, each shown as 4 plain copies (``owned`` and
    ``plain``; ``foils`` 0)."""
    return cards_narrowed(Card.objects.printed(), filters).annotate(
        owned=Value(MAX_WANTED_COPIES, output_field=IntegerField()),
        plain=Value(MAX_WANTED_COPIES, output_field=IntegerField()),
        foils=Value(0, output_field=IntegerField()),
    )


def your_binder_cards(*, owner: User, filters: CardFilters) -> QuerySet[Card]:
    """The Your tab: the printed cards the player owns, with ``owned`` copies each, of
    them ``plain`` plain and ``foils`` foil copies (offered apart)."""
    return (
        collection_cards(owner=owner, filters=filters, only_owned=True)
        .printed()
        .annotate(plain=F("owned") - F("foils"))
    )


def binder_products(*, owner: User | None) -> list[tuple[Product, int]]:
    """Products for the binder's top row: with ``owner``, their unopened ones and how many;
    without, every product as 4 (the Their tab)."""
    order = {kind: index for index, kind in enumerate(SHELF_ORDER)}
    if owner is None:
        held = [(product, MAX_WANTED_COPIES) for product in Product.objects.all()]
    else:
        counts = dict(
            OwnedProduct.objects.filter(owner=owner, opened__isnull=True)
            .values("product")
            .annotate(held=Count("pk"))
            .values_list("product", "held")
        )
        held = [(product, counts[product.pk]) for product in Product.objects.filter(pk__in=counts)]
    return sorted(held, key=lambda pair: (order.get(pair[0].kind, 9), pair[0].name))


def proposal_lines(*, items: list[TradeItem]) -> list[ProposalLine]:
    """The items of a proposal, named, cards by title then products."""
    items = items_merged(items)
    titles = dict(
        Card.objects.printed()
        .filter(pk__in=[item.card_id for item in items if item.card_id])
        .values_list("pk", "title")
    )
    names = dict(
        Product.objects.filter(
            pk__in=[item.product_id for item in items if item.product_id]
        ).values_list("pk", "name")
    )
    lines = [
        ProposalLine(
            f"{'foil' if item.foil else 'card'}:{item.card_id}",
            f"{titles[item.card_id]} (foil)" if item.foil else titles[item.card_id],
            item.quantity,
            False,
        )
        for item in items
        if item.card_id in titles
    ] + [
        ProposalLine(f"product:{item.product_id}", names[item.product_id], item.quantity, True)
        for item in items
        if item.product_id in names
    ]
    return sorted(lines, key=lambda line: (line.is_product, line.name))


# --- helpers --------------------------------------------------------------------------------


def _open_to_guild(guild_id: int | None) -> Q:
    """Open trades for everyone, or for the members of the guild ``guild_id``."""
    return Q(status=PostedTradeStatus.OPEN) & (Q(guild__isnull=True) | Q(guild_id=guild_id))


def _visible_open_trades(viewer: User) -> QuerySet[PostedTrade]:
    ignores = User.ignored.through.objects
    return (
        PostedTrade.objects.filter(_open_to_guild(guild_id_of(user_id=viewer.pk)))
        .exclude(poster_id__in=ignores.filter(from_user_id=viewer.pk).values("to_user_id"))
        .exclude(poster_id__in=ignores.filter(to_user_id=viewer.pk).values("from_user_id"))
    )


def _with_can_accept(
    trades: QuerySet[PostedTrade], viewer: User, *, only_acceptable: bool = False
) -> QuerySet[PostedTrade]:
    """Annotate ``can_accept``, tested in the database: the trade wants nothing the viewer
    lacks. With ``only_acceptable``, keep only those trades.

    The test counts the wanted lines the viewer lacks, trade by trade, rather than asking
    NOT EXISTS of them: PostgreSQL turns a NOT EXISTS into a scan of every wanted line on
    the board, where a count is probed for each trade as the board index yields them, up to
    the page's last. Within CASE the filter's row estimate stays high enough for PostgreSQL
    to walk that index in order rather than sort every open trade.
    """
    # CASE WHEN lacking_lines = 0 ...: written as one expression over the count rather than
    # Case(When(lacking_lines=0)), whose lookup resolved (copied) the whole subquery again each
    # time the query was compiled, the most CPU of the board's page.
    acceptable = Func(
        F("lacking_lines"),
        template="CASE WHEN %(expressions)s = 0 THEN TRUE ELSE FALSE END",
        output_field=BooleanField(),
    )
    trades = trades.alias(lacking_lines=_lines_lacking(viewer))
    if only_acceptable:
        return (
            trades.alias(acceptable=acceptable)
            .filter(acceptable=True)
            .annotate(can_accept=Value(True, output_field=BooleanField()))
        )
    return trades.annotate(can_accept=acceptable)


def _lines_lacking(viewer: User) -> Subquery:
    """How many of a trade's wanted lines ask for more plain copies of a card, more foil
    copies, or more unopened products of a kind, than the viewer holds."""
    held_copies = CardOwnership.objects.filter(
        owner=viewer,
        card=OuterRef("card"),
        quantity__gte=F("foil") + OuterRef("quantity"),
    )
    held_foils = CardOwnership.objects.filter(
        owner=viewer, card=OuterRef("card"), foil__gte=OuterRef("quantity")
    )
    held_products = (
        OwnedProduct.objects.filter(owner=viewer, product=OuterRef("product"), opened__isnull=True)
        .order_by()
        .values("product")
        .annotate(held=Count("pk"))
        .values("held")
    )
    lacking = (
        PostedTradeLine.objects.filter(trade=OuterRef("pk"), side=TradeSide.WANT)
        .alias(
            copies_held=Exists(held_copies),
            foils_held=Exists(held_foils),
            products_held=Coalesce(Subquery(held_products), 0),
        )
        .filter(
            Q(card__isnull=False, foil=False, copies_held=False)
            | Q(card__isnull=False, foil=True, foils_held=False)
            | Q(product__isnull=False, products_held__lt=F("quantity"))
        )
    )
    # COUNT without GROUP BY: one row, 0 when the viewer lacks nothing.
    return Subquery(
        lacking.order_by().annotate(count=Func(F("pk"), function="COUNT")).values("count"),
        output_field=IntegerField(),
    )


def _with_lines(trades: QuerySet[PostedTrade]) -> QuerySet[PostedTrade]:
    return trades.prefetch_related(
        Prefetch(
            "lines",
            # Only what a listing shows: a card's rules (JSON) would be read for nothing.
            queryset=PostedTradeLine.objects.select_related("card__card_set", "product")
            .only(*LINE_FIELDS)
            .order_by(F("product").asc(nulls_first=True), "card__title", "product__name"),
        )
    )
