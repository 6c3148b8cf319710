"""Posted trades (rulebook, "Posted Trades", "Guild-Only Trades"): a player posts what they
offer and what they want; the first other player who accepts, and still holds what is
wanted, completes the swap in one ledger operation.

Posting checks that the poster holds what they offer but reserves nothing. Acceptance locks
the trade's row, so that of several players accepting at once one wins and the others find
it accepted, then checks both sides again under the locks of both players' wallets and
swaps the items in one ledger operation (whose reference ``ptrade:<id>`` would also refuse a
second swap).
"""

from dataclasses import dataclass

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from collection.cards.models import Card
from collection.models import LedgerReason, Product
from collection.services.ledger import LedgerOperationDone, ledger_operation
from collection.trades.models import PostedTrade, PostedTradeLine, PostedTradeStatus, TradeSide
from collection.trades.services.exchange import TradeItem, items_lacking, items_merged, items_move
from guilds.selectors import guild_id_of
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import is_ignored
from tcgsite.errors import UserError
from tcgsite.realtime import send_on_commit, user_group

# Rulebook, "Posted Trades": "the Their collection tab will display a collection of 4 copies
# of every card", so a poster asks for at most 4 of anything.
MAX_WANTED_COPIES = 4
MAX_OFFERED_COPIES = 99
MAX_ITEMS_A_SIDE = 30
MAX_OPEN_TRADES = 50


class PostedTradeError(UserError):
    """A posted trade that can't be posted, accepted or withdrawn; the message says why."""


class PostedTradeClosed(PostedTradeError):
    """The trade left the board (accepted or withdrawn) before this request reached it: the
    player is told on the board, since the listing is no longer theirs to see."""


@dataclass(frozen=True)
class PostedTradeOutcome:
    """An accepted trade, with what each side received (for the delivery window)."""

    trade: PostedTrade
    taker_received: list[PostedTradeLine]
    poster_received: list[PostedTradeLine]


def posted_trade_create(
    *, poster: User, offer: list[TradeItem], want: list[TradeItem], guild_only: bool = False
) -> PostedTrade:
    """Post a trade: ``offer`` is what the poster gives, ``want`` what they ask for."""
    offer, want = items_merged(offer), items_merged(want)
    if not offer or not want:
        raise PostedTradeError(
            "A posted trade names both sides: add what you get (Their tab) and what they get "
            "(Your tab)."
        )
    for side, items in (("They get", offer), ("You get", want)):
        if len(items) > MAX_ITEMS_A_SIDE:
            raise PostedTradeError(f"{side} holds at most {MAX_ITEMS_A_SIDE} different items.")
    _check_items_exist(offer + want)
    if any(item.quantity > MAX_WANTED_COPIES for item in want):
        raise PostedTradeError(f"Ask for at most {MAX_WANTED_COPIES} copies of each item.")
    if any(item.quantity > MAX_OFFERED_COPIES for item in offer):
        raise PostedTradeError(f"Offer at most {MAX_OFFERED_COPIES} copies of each item.")
    guild_id = guild_id_of(user_id=poster.pk) if guild_only else None
    if guild_only and guild_id is None:
        raise PostedTradeError("Only a guild's members can post a Guild-Only trade.")
    with transaction.atomic():
        # The poster's row serialises their postings, so the limit holds.
        User.objects.select_for_update().get(pk=poster.pk)
        open_count = PostedTrade.objects.filter(
            poster=poster, status=PostedTradeStatus.OPEN
        ).count()
        if open_count >= MAX_OPEN_TRADES:
            raise PostedTradeError(
                f"You have {MAX_OPEN_TRADES} open posted trades; withdraw one to post another."
            )
        if lacking := items_lacking(owner=poster, items=offer):
            raise PostedTradeError(f"You don't have everything you offer: {', '.join(lacking)}.")
        trade = PostedTrade.objects.create(poster=poster, guild_id=guild_id)
        PostedTradeLine.objects.bulk_create(
            PostedTradeLine(
                trade=trade,
                side=side,
                card_id=item.card_id,
                product_id=item.product_id,
                foil=item.foil,
                quantity=item.quantity,
            )
            for side, items in ((TradeSide.OFFER, offer), (TradeSide.WANT, want))
            for item in items
        )
    return trade


def posted_trade_accept(*, trade_id: int, taker: User) -> PostedTradeOutcome:
    """Complete an open trade: the poster's offer goes to ``taker``, what they want comes
    back. Exactly one of several players accepting at once succeeds."""
    trade = PostedTrade.objects.select_related("poster").filter(pk=trade_id).first()
    if trade is None:
        raise PostedTradeError("That posted trade no longer exists.")
    poster = trade.poster
    if poster.pk == taker.pk:
        raise PostedTradeError("This is your own trade: withdraw it from My Trades instead.")
    if trade.guild_id is not None and guild_id_of(user_id=taker.pk) != trade.guild_id:
        raise PostedTradeError("That posted trade is for its poster's guild only.")
    if is_ignored(user=poster, other=taker):
        raise PostedTradeError(f"{poster.username} is not trading with you.")
    if is_ignored(user=taker, other=poster):
        raise PostedTradeError(
            f"You ignore {poster.username}: take them off your Ignore List to trade."
        )
    lines = list(trade.lines.select_related("card", "product"))
    offer = [_item(line) for line in lines if line.side == TradeSide.OFFER]
    want = [_item(line) for line in lines if line.side == TradeSide.WANT]
    note = f"Posted trade {trade.pk}"
    with transaction.atomic():
        # The trade's row first: of several players accepting at once, the first to lock it
        # swaps the items and the others, waiting here, find it accepted without queueing on
        # the players' wallets. No other path locks a posted trade after a wallet.
        locked = PostedTrade.objects.select_for_update().get(pk=trade.pk)
        if locked.status != PostedTradeStatus.OPEN:
            raise PostedTradeClosed(closed_message(locked, viewer=taker))
        try:
            with ledger_operation(
                owners=[poster, taker], reason=LedgerReason.TRADE, reference=f"ptrade:{trade.pk}"
            ) as ledger:
                if lacking := items_lacking(owner=taker, items=want):
                    raise PostedTradeError(
                        f"You don't have what the trade asks: {', '.join(lacking)}."
                    )
                if lacking := items_lacking(owner=poster, items=offer):
                    raise PostedTradeError(
                        f"{poster.username} no longer has everything offered "
                        f"({', '.join(lacking)}); nothing was traded."
                    )
                items_move(ledger=ledger, sender=poster, receiver=taker, items=offer, note=note)
                items_move(ledger=ledger, sender=taker, receiver=poster, items=want, note=note)
        except LedgerOperationDone:
            raise PostedTradeClosed(closed_message(locked, viewer=taker)) from None
        locked.status = PostedTradeStatus.ACCEPTED
        locked.accepted_by = taker
        locked.closed_at = timezone.now()
        locked.save(update_fields=["status", "accepted_by", "closed_at"])
        locked.poster = poster
        outcome = PostedTradeOutcome(
            trade=locked,
            taker_received=[line for line in lines if line.side == TradeSide.OFFER],
            poster_received=[line for line in lines if line.side == TradeSide.WANT],
        )
        send_on_commit(
            group=user_group(poster.pk),
            message_type="lobby.toast",
            payload={
                "sender_id": taker.pk,
                "html": render_to_string(
                    "trades/posted/_accepted_toast.html", {"outcome": outcome, "taker": taker}
                ),
            },
        )
    return outcome


def posted_trade_withdraw(*, trade_id: int, poster: User) -> PostedTrade:
    """Take an open trade off the board; only its poster may."""
    with transaction.atomic():
        trade = PostedTrade.objects.select_for_update().filter(pk=trade_id).first()
        if trade is None or trade.poster_id != poster.pk:
            raise PostedTradeError("You have no such posted trade.")
        if trade.status != PostedTradeStatus.OPEN:
            raise PostedTradeClosed(closed_message(trade, viewer=poster))
        trade.status = PostedTradeStatus.WITHDRAWN
        trade.closed_at = timezone.now()
        trade.save(update_fields=["status", "closed_at"])
    return trade


def closed_message(trade: PostedTrade, *, viewer: User) -> str:
    """Why ``viewer``'s request found the trade off the board (a trade still marked open has
    just been swapped by another acceptance: its ledger operation exists)."""
    withdrawn = trade.status == PostedTradeStatus.WITHDRAWN
    if trade.poster_id == viewer.pk:
        if withdrawn:
            return f"You have withdrawn posted trade {trade.pk} already."
        return f"{trade.accepted_by} accepted posted trade {trade.pk} before you withdrew it."
    if withdrawn:
        return f"Posted trade {trade.pk} was just withdrawn by its poster; nothing moved."
    if trade.accepted_by_id == viewer.pk:
        # Their own second click, or a request resent after the first went through.
        return f"You have accepted posted trade {trade.pk} already."
    return f"Posted trade {trade.pk} was just accepted by another player; nothing moved."


def _item(line: PostedTradeLine) -> TradeItem:
    return TradeItem(
        quantity=line.quantity, card_id=line.card_id, product_id=line.product_id, foil=line.foil
    )


def _check_items_exist(items: list[TradeItem]) -> None:
    card_ids = {item.card_id for item in items if item.card_id is not None}
    product_ids = {item.product_id for item in items if item.product_id is not None}
    # Player-made avatars are not collectable by anyone else, so never tradeable.
    if Card.objects.printed().filter(pk__in=card_ids).count() != len(card_ids):
        raise PostedTradeError("Some of those cards can't be traded.")
    if Product.objects.filter(pk__in=product_ids).count() != len(product_ids):
        raise PostedTradeError("Some of those products don't exist.")
