"""Reads of live trades: a player's session, the Trade Screen's binder (only what a player
offers for trade: cards with a Trade value of one or more, and unopened products) and the
offer both players see, each from their own side."""

from dataclasses import dataclass, field

from django.db.models import Count, F, Q, QuerySet
from django.db.models.functions import Least

from collection.cards.filters import CardFilters
from collection.cards.models import Card
from collection.models import OwnedProduct, Product
from collection.selectors import SHELF_ORDER, collection_cards
from collection.trades.models import (
    TradeSession,
    TradeSessionLine,
    TradeSessionStatus,
    TradeSessionSwap,
)
from tcgsite.accounts.models import User


@dataclass(frozen=True)
class OfferItem:
    """Copies of a card (foil copies with ``foil``), or unopened products of one kind, in an
    offer or a delivery."""

    quantity: int
    card: Card | None = None
    product: Product | None = None
    foil: bool = False

    @property
    def title(self) -> str:
        return self.card.title if self.card is not None else self.product.name

    @property
    def key(self) -> str:
        if self.card is None:
            return f"product-{self.product.pk}"
        return f"card-{self.card.pk}-foil" if self.foil else f"card-{self.card.pk}"


@dataclass(frozen=True)
class LiveOffer:
    """The session as ``viewer`` sees it: what they get, what they give, who has accepted
    and confirmed, and what their last swap delivered to them."""

    session: TradeSession
    viewer: User
    partner: User
    you_get: list[OfferItem]
    they_get: list[OfferItem]
    you_accepted: bool
    partner_accepted: bool
    you_confirmed: bool
    partner_confirmed: bool
    delivered: list[OfferItem] = field(default_factory=list)
    last_swap: int = 0
    # The viewer's Foil Effects preference: foils shimmer in the offer and the delivery.
    foil_effects: bool = True

    @property
    def is_open(self) -> bool:
        return self.session.status == TradeSessionStatus.OPEN

    @property
    def is_empty(self) -> bool:
        return not (self.you_get or self.they_get)

    @property
    def confirming(self) -> bool:
        """Both accepted: the confirmation dialog is open."""
        return self.is_open and self.you_accepted and self.partner_accepted

    @property
    def ended_by_partner(self) -> bool:
        return self.session.ended_by_id == self.partner.pk


def live_session_for(*, session_id: int, viewer: User) -> TradeSession | None:
    """The session, if ``viewer`` is one of its two players."""
    return (
        TradeSession.objects.filter(Q(initiator=viewer) | Q(partner=viewer), pk=session_id)
        .select_related("initiator__preferences", "partner__preferences", "ended_by")
        .first()
    )


def live_session_open_for(*, player: User) -> TradeSession | None:
    """The session ``player`` is trading in now, if any: they are taken back to it."""
    return (
        TradeSession.objects.filter(
            Q(initiator=player) | Q(partner=player), status=TradeSessionStatus.OPEN
        )
        .select_related("initiator", "partner")
        .first()
    )


def live_offer(*, session_id: int, viewer: User) -> LiveOffer | None:
    session = live_session_for(session_id=session_id, viewer=viewer)
    if session is None:
        return None
    mine = session.initiator_id == viewer.pk
    partner = session.partner if mine else session.initiator
    lines = list(
        TradeSessionLine.objects.filter(session=session).select_related(
            "card__card_set", "product__card_set"
        )
    )
    you_get = _items(line for line in lines if line.giver_id == partner.pk)
    they_get = _items(line for line in lines if line.giver_id == viewer.pk)
    last = TradeSessionSwap.objects.filter(session=session).order_by("-number").first()
    delivered = _delivered(last, viewer) if last is not None else []
    return LiveOffer(
        session=session,
        viewer=viewer,
        partner=partner,
        you_get=you_get,
        they_get=they_get,
        you_accepted=session.initiator_accepted if mine else session.partner_accepted,
        partner_accepted=session.partner_accepted if mine else session.initiator_accepted,
        you_confirmed=session.initiator_confirmed if mine else session.partner_confirmed,
        partner_confirmed=session.partner_confirmed if mine else session.initiator_confirmed,
        delivered=delivered,
        last_swap=last.number if last is not None else 0,
        foil_effects=_foil_effects(session.initiator if mine else session.partner),
    )


def _foil_effects(player: User) -> bool:
    """The player's Foil Effects (their preferences read with the session), on by default."""
    preferences = getattr(player, "preferences", None)
    return preferences.foil_effects if preferences is not None else True


def _items(lines) -> list[OfferItem]:
    items = [
        OfferItem(line.quantity, card=line.card, product=line.product, foil=line.foil)
        for line in lines
    ]
    return sorted(
        items,
        key=lambda item: (
            (0, item.card.card_set.number, item.card.number, item.foil, "")
            if item.card is not None
            else (1, SHELF_ORDER.index(item.product.kind), 0, False, item.product.name)
        ),
    )


def _delivered(swap: TradeSessionSwap, viewer: User) -> list[OfferItem]:
    """What ``swap`` brought ``viewer``: the items their partner gave."""
    received = [row for row in swap.items if row["giver"] != viewer.pk]
    cards = Card.objects.select_related("card_set").in_bulk(
        {row["card"] for row in received if row["card"]}
    )
    products = Product.objects.select_related("card_set").in_bulk(
        {row["product"] for row in received if row["product"]}
    )
    return _items(
        TradeSessionLine(
            quantity=row["quantity"],
            card=cards.get(row["card"]) if row["card"] else None,
            product=products.get(row["product"]) if row["product"] else None,
            # Swaps recorded before foils name none.
            foil=row.get("foil", False),
        )
        for row in received
    )


def live_binder_cards(*, owner: User, filters: CardFilters) -> QuerySet[Card]:
    """The cards ``owner`` offers for trade (a Trade value of one or more), narrowed by the
    filters, in card number order within a set unless the filters sort otherwise; each with
    the Collection Manager's numbers (``trade``: how many copies they may give), and of
    those, ``plain_trade`` plain and ``foil_trade`` foil copies (offered apart; together
    they may give ``trade``)."""
    # The avatars a player made are theirs alone: never traded.
    cards = collection_cards(owner=owner, filters=filters, only_owned=True)
    return (
        cards.filter(trade__gt=0)
        .exclude(creator=owner)
        .annotate(
            plain_trade=Least(F("owned") - F("foils"), F("trade")),
            foil_trade=Least(F("foils"), F("trade")),
        )
    )


@dataclass(frozen=True)
class ProductStack:
    product: Product
    count: int


def live_binder_products(*, owner: User) -> list[ProductStack]:
    """``owner``'s unopened products, one stack per product, in the Store's shelf order."""
    counts = (
        OwnedProduct.objects.filter(owner=owner, opened__isnull=True)
        .values("product")
        .annotate(count=Count("pk"))
        .order_by()
    )
    by_product = {row["product"]: row["count"] for row in counts}
    products = Product.objects.filter(pk__in=by_product).select_related("card_set")
    return sorted(
        (ProductStack(product, by_product[product.pk]) for product in products),
        key=lambda stack: (SHELF_ORDER.index(stack.product.kind), stack.product.name),
    )
