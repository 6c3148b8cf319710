"""Live one-on-one trades of the Trade Lobby (rulebook, "Trading with Other Players", "Trade
Screen"): ask a player to trade, answer, build an offer together, accept it, confirm it, swap,
and go on trading until one of the two returns to the lobby.

Every writer locks the session row first, so two requests on one session, from any web
process, run one after the other. The offer has a version that every change raises; an
acceptance or a confirmation holds for the version it was given for, and any change clears
them all. A swap is one ledger operation with the reference ``trade:<session>:<n>`` and is
recorded per offer version (``TradeSessionSwap``), so a confirmation sent twice, replayed or
racing its partner's swaps once; a confirmation for an offer already swapped answers with that
swap and moves nothing.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from collection.cards.models import Card
from collection.models import CardOwnership, LedgerReason, OwnedProduct, Product
from collection.services.ledger import LedgerError, ledger_operation
from collection.trades import fragments
from collection.trades.models import (
    TradeSession,
    TradeSessionLine,
    TradeSessionStatus,
    TradeSessionSwap,
)
from collection.trades.services.exchange import MAX_COPIES_AT_ONCE, TradeItem, items_move
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import is_ignored
from tcgsite.errors import UserError
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.places import Lobby, Place
from tcgsite.realtime import send_on_commit, user_group

# How long a request waits for its answer before its player may ask again.
REQUEST_WAIT = timedelta(minutes=1)


class LiveTradeError(UserError):
    """A request of a live trade that can't be done; the message is shown to its player."""


class StaleOffer(LiveTradeError):
    """An acceptance or confirmation given for an offer that has changed since."""


@dataclass(frozen=True)
class Confirmed:
    """What a confirmation did: ``swap`` is the swap it completed (or had completed before,
    for a confirmation sent again); None while the partner has not confirmed yet."""

    session: TradeSession
    swap: TradeSessionSwap | None
    again: bool = False


def session_group(session_id: int) -> str:
    """The group of both players' Trade Screen sockets."""
    return f"trade_session.{session_id}"


# --- asking ---------------------------------------------------------------------------------


def live_trade_request(*, asker: User, partner: User) -> TradeSession:
    """Ask ``partner`` to trade (/trade or the User List's Trade): they get a pop-up to
    accept or decline, on whatever page they are."""
    if partner.pk == asker.pk:
        raise LiveTradeError("You can't trade with yourself.")
    if is_ignored(user=partner, other=asker):
        raise LiveTradeError(f"{partner.username} is not taking trade requests from you.")
    presence = Presence.objects.filter(user=partner).first()
    if presence is None or presence.room != Lobby.TRADE:
        raise LiveTradeError(f"{partner.username} is not in the Trade Lobby.")
    with transaction.atomic():
        # Both players' rows, in id order, serialise requests and answers that involve them.
        _players_lock(asker, partner)
        _refuse_if_trading(asker, partner)
        asked = TradeSession.objects.filter(
            initiator=asker, partner=partner, status=TradeSessionStatus.REQUESTED
        )
        if asked.filter(created_at__gt=timezone.now() - REQUEST_WAIT).exists():
            raise LiveTradeError(f"You have asked {partner.username} already: wait for an answer.")
        # A request left unanswered that long (its pop-up closed with its page) is asked anew.
        asked.update(status=TradeSessionStatus.DECLINED, updated_at=timezone.now())
        session = TradeSession.objects.create(initiator=asker, partner=partner)
        send_on_commit(
            group=user_group(partner.pk),
            message_type="lobby.toast",
            payload={"sender_id": asker.pk, "html": fragments.request_toast(session)},
        )
    return session


def live_trade_answer(*, session_id: int, player: User, accept: bool) -> TradeSession:
    """The asked player accepts (both go to the Trade Screen) or declines (the asker is told)."""
    asked = TradeSession.objects.filter(pk=session_id, partner=player).first()
    if asked is None:
        raise LiveTradeError("There is no trade request of yours to answer here.")
    with transaction.atomic():
        # The players first, then the session, as a request locks them: a request asked
        # again while this one is answered waits rather than deadlocks.
        _players_lock(asked.initiator, player)
        session = _session_locked(session_id)
        if accept and session.status == TradeSessionStatus.OPEN:
            return session  # accepted in another tab: the Trade Screen again
        if session.status != TradeSessionStatus.REQUESTED:
            raise LiveTradeError(_answered_message(session, player))
        asker = session.initiator
        if accept:
            _refuse_if_trading(player, asker)
            session.status = TradeSessionStatus.OPEN
        else:
            session.status = TradeSessionStatus.DECLINED
            session.ended_by = player
        session.updated_at = timezone.now()
        session.save(update_fields=["status", "ended_by", "updated_at"])
        toast = fragments.accepted_toast(session) if accept else fragments.declined_toast(session)
        send_on_commit(
            group=user_group(asker.pk),
            message_type="lobby.toast",
            payload={"sender_id": player.pk, "html": toast},
        )
        if accept:
            # Any other request either of them has left unanswered is void now.
            TradeSession.objects.filter(
                Q(initiator__in=[asker, player]) | Q(partner__in=[asker, player]),
                status=TradeSessionStatus.REQUESTED,
            ).update(status=TradeSessionStatus.DECLINED, updated_at=timezone.now())
    return session


def _answered_message(session: TradeSession, player: User) -> str:
    """Why the asked player's answer comes too late: the pop-up stayed while the request
    was withdrawn, answered in another tab, or made void by another trade."""
    asker = session.initiator.username
    if session.status == TradeSessionStatus.CLOSED and session.ended_by_id == session.initiator_id:
        return f"{asker} withdrew the trade request."
    if session.status == TradeSessionStatus.DECLINED and session.ended_by_id == player.pk:
        return f"You declined {asker}'s trade request already."
    if session.status == TradeSessionStatus.DECLINED:
        # Made void by a trade either player began, or by the asker asking again.
        return f"{asker}'s trade request has lapsed."
    return f"You accepted {asker}'s trade request already: Return to Lobby ends the session."


def live_trade_leave(*, session_id: int, player: User) -> TradeSession:
    """Return to Lobby: the session ends for both, and the partner is told. Also withdraws a
    request not answered yet. Leaving a session that has ended already changes nothing."""
    with transaction.atomic():
        session = _session_locked(session_id)
        _refuse_if_outsider(session, player)
        if session.status in (TradeSessionStatus.CLOSED, TradeSessionStatus.DECLINED):
            return session
        _session_close(session, ended_by=player)
    return session


def _session_close(session: TradeSession, *, ended_by: User) -> None:
    session.status = TradeSessionStatus.CLOSED
    session.ended_by = ended_by
    session.updated_at = timezone.now()
    session.save(update_fields=["status", "ended_by", "updated_at"])
    session.lines.all().delete()
    _announce(session, "trade.closed")


# --- the offer ------------------------------------------------------------------------------


def live_trade_offer_change(
    *,
    session_id: int,
    player: User,
    giver_id: int,
    delta: int,
    card_id: int | None = None,
    product_id: int | None = None,
    foil: bool = False,
) -> TradeSession:
    """Add (``delta`` > 0) or remove copies of a card (its foil copies with ``foil``, apart
    from its plain ones), or unopened products of one kind, that ``giver_id`` (the player or
    their partner) gives: 1 to 5 at a time, never more than the giver has to trade. Clears
    both acceptances."""
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
        raise LiveTradeError("Add or remove a whole number of copies.")
    if abs(delta) > MAX_COPIES_AT_ONCE:
        raise LiveTradeError(f"Add or remove at most {MAX_COPIES_AT_ONCE} copies at a time.")
    if (card_id is None) == (product_id is None):
        raise LiveTradeError("Choose a card or a product.")
    if foil and card_id is None:
        raise LiveTradeError("Only a card has foil copies.")
    with transaction.atomic():
        session = _open_session_locked(session_id, player)
        if giver_id not in (session.initiator_id, session.partner_id):
            raise LiveTradeError("Only the two players of this trade give anything in it.")
        giver = session.initiator if giver_id == session.initiator_id else session.partner
        giver_lines = TradeSessionLine.objects.filter(
            session=session, giver_id=giver_id, card_id=card_id, product_id=product_id
        )
        line = giver_lines.filter(foil=foil).first()
        now = line.quantity if line is not None else 0
        wanted = now + delta
        if wanted < 0:
            raise LiveTradeError("There are not that many copies in the offer to remove.")
        if delta > 0:
            # The card's other finish, offered too, uses up copies above Want as well.
            other = giver_lines.filter(foil=not foil).first()
            title, available = _tradeable_count(
                giver,
                card_id=card_id,
                product_id=product_id,
                foil=foil,
                offered_otherwise=other.quantity if other is not None else 0,
            )
            if wanted > available:
                whose = "You have" if giver_id == player.pk else f"{giver.username} has"
                raise LiveTradeError(
                    f"{whose} {available} × {title} to trade; the offer can't hold {wanted}."
                )
        if line is None:
            line = TradeSessionLine(
                session=session,
                giver=giver,
                card_id=card_id,
                product_id=product_id,
                foil=foil,
                quantity=0,
            )
        if wanted == 0:
            line.delete()
        else:
            line.quantity = wanted
            line.save()
        _offer_changed(session)
    return session


def live_trade_clear(*, session_id: int, player: User) -> TradeSession:
    """Clear: the present proposal is cancelled entirely."""
    with transaction.atomic():
        session = _open_session_locked(session_id, player)
        if session.lines.exists():
            session.lines.all().delete()
            _offer_changed(session)
    return session


def live_trade_accept(*, session_id: int, player: User, offer_version: int) -> TradeSession:
    """Accept the offer as it stands at ``offer_version``; when both have, the confirmation
    dialog opens for both."""
    with transaction.atomic():
        session = _open_session_locked(session_id, player)
        _refuse_if_stale(session, offer_version)
        if not session.lines.exists():
            raise LiveTradeError("The offer is empty: add what you give or get first.")
        field = _own_flag(session, player, "accepted")
        if not getattr(session, field):
            setattr(session, field, True)
            session.updated_at = timezone.now()
            session.save(update_fields=[field, "updated_at"])
            _announce(session, "trade.changed")
    return session


def live_trade_confirm(*, session_id: int, player: User, offer_version: int) -> Confirmed:
    """Accept in the confirmation dialog. The second confirmation swaps the offer: both
    players' holdings are locked, checked again and moved in one ledger operation. If either
    no longer holds what they give, nothing moves, both acceptances are cleared and the
    player is told why; the session goes on."""
    refusal = None
    with transaction.atomic():
        session = _session_locked(session_id)
        _refuse_if_outsider(session, player)
        done = TradeSessionSwap.objects.filter(session=session, offer_version=offer_version)
        if swap := done.first():
            return Confirmed(session=session, swap=swap, again=True)
        if session.status != TradeSessionStatus.OPEN:
            raise LiveTradeError("This trade session has ended.")
        _refuse_if_stale(session, offer_version)
        if not (session.initiator_accepted and session.partner_accepted):
            raise LiveTradeError("Both players accept the offer before confirming it.")
        field = _own_flag(session, player, "confirmed")
        setattr(session, field, True)
        session.updated_at = timezone.now()
        if not (session.initiator_confirmed and session.partner_confirmed):
            session.save(update_fields=[field, "updated_at"])
            _announce(session, "trade.changed")
            return Confirmed(session=session, swap=None)
        try:
            swap = _swap(session)
        except LedgerError as error:
            refusal = LiveTradeError(f"The trade did not go through: {error.message}")
            _flags_clear(session)
            session.save()
            _announce(session, "trade.failed", message=refusal.message)
    if refusal is not None:
        raise refusal
    return Confirmed(session=session, swap=swap)


def _swap(session: TradeSession) -> TradeSessionSwap:
    lines = list(session.lines.all())
    number = session.trades_completed + 1
    given = {
        giver.pk: [
            TradeItem(
                quantity=line.quantity,
                card_id=line.card_id,
                product_id=line.product_id,
                foil=line.foil,
            )
            for line in lines
            if line.giver_id == giver.pk
        ]
        for giver in (session.initiator, session.partner)
    }
    # The reference and the swap row commit together: a reference written before raises
    # LedgerOperationDone and nothing moves twice.
    with ledger_operation(
        owners=[session.initiator, session.partner],
        reason=LedgerReason.TRADE,
        reference=f"trade:{session.pk}:{number}",
    ) as ledger:
        note = f"Live trade {session.pk}, swap {number}"
        for sender, receiver in (
            (session.initiator, session.partner),
            (session.partner, session.initiator),
        ):
            if given[sender.pk]:
                items_move(
                    ledger=ledger,
                    sender=sender,
                    receiver=receiver,
                    items=given[sender.pk],
                    note=note,
                )
    swap = TradeSessionSwap.objects.create(
        session=session,
        number=number,
        offer_version=session.offer_version,
        items=[
            {
                "giver": line.giver_id,
                "card": line.card_id,
                "foil": line.foil,
                "product": line.product_id,
                "quantity": line.quantity,
            }
            for line in lines
        ],
    )
    session.lines.all().delete()
    session.trades_completed = number
    session.offer_version += 1
    _flags_clear(session)
    session.save()
    _announce(session, "trade.swapped", swap=swap.number)
    return swap


# --- helpers --------------------------------------------------------------------------------


def _players_lock(*players: User) -> None:
    # FOR NO KEY UPDATE: the ledger's rows that point at these players (taking a key share
    # lock on them) are not held up.
    players_ids = [player.pk for player in players]
    list(User.objects.select_for_update(no_key=True).filter(pk__in=players_ids).order_by("pk"))


def _refuse_if_trading(player: User, other: User) -> None:
    """Refuse a session between two players while either is in an open one."""
    open_sessions = TradeSession.objects.filter(status=TradeSessionStatus.OPEN)
    mine = open_sessions.filter(Q(initiator=player) | Q(partner=player)).first()
    if mine is not None:
        partner = mine.partner if mine.initiator_id == player.pk else mine.initiator
        raise LiveTradeError(
            f"You are trading with {partner.username}: return to the lobby from that Trade "
            "Screen first."
        )
    theirs = open_sessions.filter(Q(initiator=other) | Q(partner=other)).first()
    if theirs is None:
        return
    if Presence.objects.filter(user=other, place=Place.TRADING).exists():
        raise LiveTradeError(f"{other.username} is already trading with someone.")
    # They left that Trade Screen (closed it, or went to another page) without returning to
    # the lobby: that session is over, and its other player is told as if they had returned.
    _session_close(_session_locked(theirs.pk), ended_by=other)


def _session_locked(session_id: int) -> TradeSession:
    # Only the session's row: locking its players' rows too (select_related) would hold up
    # the ledger's writes for them, which wait on nothing of ours, into a deadlock.
    session = (
        TradeSession.objects.select_for_update(of=("self",))
        .filter(pk=session_id)
        .select_related("initiator", "partner")
        .first()
    )
    if session is None:
        raise LiveTradeError("There is no such trade session.")
    return session


def _open_session_locked(session_id: int, player: User) -> TradeSession:
    session = _session_locked(session_id)
    _refuse_if_outsider(session, player)
    if session.status != TradeSessionStatus.OPEN:
        raise LiveTradeError("This trade session has ended.")
    return session


def _refuse_if_outsider(session: TradeSession, player: User) -> None:
    if player.pk not in (session.initiator_id, session.partner_id):
        raise LiveTradeError("There is no such trade session.")


def _refuse_if_stale(session: TradeSession, offer_version: int) -> None:
    if offer_version != session.offer_version:
        raise StaleOffer("The offer has changed since: look at it again before accepting.")


def _own_flag(session: TradeSession, player: User, what: str) -> str:
    return f"{'initiator' if player.pk == session.initiator_id else 'partner'}_{what}"


def _flags_clear(session: TradeSession) -> None:
    session.initiator_accepted = session.partner_accepted = False
    session.initiator_confirmed = session.partner_confirmed = False


def _offer_changed(session: TradeSession) -> None:
    session.offer_version += 1
    _flags_clear(session)
    session.updated_at = timezone.now()
    session.save()
    _announce(session, "trade.changed")


def _tradeable_count(
    giver: User,
    *,
    card_id: int | None,
    product_id: int | None,
    foil: bool = False,
    offered_otherwise: int = 0,
) -> tuple[str, int]:
    """The title of the card or product, and how many of it ``giver`` has to trade: copies
    above their Want (rulebook, COLLECTION MANAGER: Trade), of the one finish (plain or
    ``foil``) and less those of the other finish ``offered_otherwise``; or unopened
    products."""
    if card_id is not None:
        card = Card.objects.printed().filter(pk=card_id).first()
        if card is None:
            raise LiveTradeError("There is no such card to trade.")
        ownership = CardOwnership.objects.filter(owner=giver, card=card).first()
        if ownership is None:
            return card.title, 0
        held = ownership.foil if foil else ownership.plain
        available = max(min(held, ownership.trade - offered_otherwise), 0)
        return (f"{card.title} (foil)" if foil else card.title), available
    product = Product.objects.filter(pk=product_id).first()
    if product is None:
        raise LiveTradeError("There is no such product to trade.")
    available = OwnedProduct.objects.filter(
        owner=giver, product=product, opened__isnull=True
    ).count()
    return product.name, available


def _announce(session: TradeSession, message_type: str, **payload) -> None:
    send_on_commit(
        group=session_group(session.pk),
        message_type=message_type,
        payload={"session_id": session.pk, "offer_version": session.offer_version, **payload},
    )
