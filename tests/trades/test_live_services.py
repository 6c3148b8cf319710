"""Live trades' services, tested directly (rulebook, Trade Lobby: "Trading with Other Players",
"Trade Screen"; "Chat Window Commands": /trade; "User Lists": Trade)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from collection.cards.filters import CardFilters
from collection.models import LedgerOperation, LedgerReason
from collection.services.ledger import ledger_operation
from collection.services.wants import want_set
from collection.trades.models import TradeSession, TradeSessionStatus, TradeSessionSwap
from collection.trades.selectors.live import live_binder_cards, live_binder_products, live_offer
from collection.trades.services.live import (
    REQUEST_WAIT,
    LiveTradeError,
    StaleOffer,
    live_trade_accept,
    live_trade_answer,
    live_trade_clear,
    live_trade_confirm,
    live_trade_leave,
    live_trade_offer_change,
    live_trade_request,
)
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.places import Lobby
from tests.factories import CardFactory, UserFactory
from tests.trades.live_helpers import (
    assert_ledger_matches_holdings,
    away_in,
    booster,
    cards,
    copies,
    give_cards,
    give_products,
    holdings,
    in_lobby,
    on_trade_screen,
    open_session,
    unopened,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(catalog):
    return UserFactory(username="Carol")


@pytest.fixture
def bob(catalog):
    return UserFactory(username="Bob")


def add(session, player, giver, card=None, product=None, delta=1):
    return live_trade_offer_change(
        session_id=session.pk,
        player=player,
        giver_id=giver.pk,
        delta=delta,
        card_id=card.pk if card else None,
        product_id=product.pk if product else None,
    )


def both_accept(session, first, second):
    session.refresh_from_db()
    live_trade_accept(session_id=session.pk, player=first, offer_version=session.offer_version)
    live_trade_accept(session_id=session.pk, player=second, offer_version=session.offer_version)
    session.refresh_from_db()
    return session.offer_version


# --- asking ---------------------------------------------------------------------------------


def test_a_request_pops_up_for_the_asked_player(carol, bob, django_capture_on_commit_callbacks):
    """Trading with Other Players: "The other player will receive a popup asking if he would
    like to trade"."""
    in_lobby(carol)
    in_lobby(bob)

    with django_capture_on_commit_callbacks() as callbacks:
        session = live_trade_request(asker=carol, partner=bob)

    assert session.status == TradeSessionStatus.REQUESTED
    assert len(callbacks) == 1
    assert callbacks[0].args[:2] == (f"user.{bob.pk}", "lobby.toast")
    payload = callbacks[0].args[2]
    assert payload["sender_id"] == carol.pk
    assert "Carol" in payload["html"] and "would like to trade" in payload["html"]


def test_an_accepted_request_opens_the_session_and_takes_the_asker_there(
    carol, bob, django_capture_on_commit_callbacks
):
    """ "If your offer is accepted, you and the other player are brought to the Trade Screen"."""
    in_lobby(carol)
    in_lobby(bob)
    session = live_trade_request(asker=carol, partner=bob)

    with django_capture_on_commit_callbacks() as callbacks:
        live_trade_answer(session_id=session.pk, player=bob, accept=True)

    session.refresh_from_db()
    assert session.status == TradeSessionStatus.OPEN
    (toast,) = [c.args for c in callbacks if c.args[0] == f"user.{carol.pk}"]
    assert f"/trades/live/{session.pk}/" in toast[2]["html"]
    assert "data-chat-opens" in toast[2]["html"]


def test_a_request_accepted_in_another_tab_is_accepted_once(carol, bob):
    """The pop-up shows on every page Bob has open: Accept in a second one takes him to the
    same Trade Screen; Decline there says he accepted already."""
    in_lobby(carol)
    in_lobby(bob)
    session = live_trade_request(asker=carol, partner=bob)
    live_trade_answer(session_id=session.pk, player=bob, accept=True)

    again = live_trade_answer(session_id=session.pk, player=bob, accept=True)

    assert again.pk == session.pk and again.status == TradeSessionStatus.OPEN
    with pytest.raises(LiveTradeError, match="You accepted Carol's trade request already"):
        live_trade_answer(session_id=session.pk, player=bob, accept=False)
    assert TradeSession.objects.get().status == TradeSessionStatus.OPEN


def test_a_declined_request_tells_the_asker_and_opens_nothing(
    carol, bob, django_capture_on_commit_callbacks
):
    in_lobby(carol)
    in_lobby(bob)
    session = live_trade_request(asker=carol, partner=bob)

    with django_capture_on_commit_callbacks() as callbacks:
        live_trade_answer(session_id=session.pk, player=bob, accept=False)

    session.refresh_from_db()
    assert session.status == TradeSessionStatus.DECLINED
    assert "declined" in callbacks[0].args[2]["html"]
    with pytest.raises(LiveTradeError, match="You declined Carol's trade request already"):
        live_trade_answer(session_id=session.pk, player=bob, accept=True)


def test_only_the_asked_player_answers(carol, bob):
    in_lobby(carol)
    in_lobby(bob)
    session = live_trade_request(asker=carol, partner=bob)

    with pytest.raises(LiveTradeError, match="no trade request of yours"):
        live_trade_answer(session_id=session.pk, player=carol, accept=True)


def test_you_cannot_trade_with_yourself(carol):
    in_lobby(carol)
    with pytest.raises(LiveTradeError, match="can't trade with yourself"):
        live_trade_request(asker=carol, partner=carol)


def test_an_ignored_player_cannot_ask_and_nothing_reaches_the_other(
    carol, bob, django_capture_on_commit_callbacks
):
    in_lobby(carol)
    in_lobby(bob)
    accounts.ignore_add(user=bob, other=carol)

    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(LiveTradeError, match="Bob is not taking trade requests from you"):
            live_trade_request(asker=carol, partner=bob)

    assert callbacks == []
    assert not TradeSession.objects.exists()


def test_a_player_outside_the_trade_lobby_cannot_be_asked(carol, bob):
    in_lobby(carol)
    in_lobby(bob, Lobby.CASUAL)
    with pytest.raises(LiveTradeError, match="Bob is not in the Trade Lobby"):
        live_trade_request(asker=carol, partner=bob)


def test_an_offline_player_cannot_be_asked(carol, bob):
    in_lobby(carol)
    with pytest.raises(LiveTradeError, match="Bob is not in the Trade Lobby"):
        live_trade_request(asker=carol, partner=bob)


def test_a_player_listed_in_the_trade_lobby_on_another_page_can_be_asked(carol, bob):
    in_lobby(carol)
    away_in(bob, Lobby.TRADE)
    assert live_trade_request(asker=carol, partner=bob).status == TradeSessionStatus.REQUESTED


def test_a_player_already_trading_cannot_be_asked(carol, bob, catalog):
    dave = UserFactory(username="Dave")
    open_session(bob, dave)
    on_trade_screen(bob)
    in_lobby(carol)
    with pytest.raises(LiveTradeError, match="Bob is already trading"):
        live_trade_request(asker=carol, partner=bob)
    with pytest.raises(LiveTradeError, match="You are trading with Dave"):
        live_trade_request(asker=bob, partner=carol)


def test_a_player_who_left_their_trade_screen_can_be_asked_and_that_session_ends(
    carol, bob, catalog
):
    """A Trade Screen closed without Return to Lobby leaves no player stuck "already
    trading": the next request ends that session."""
    dave = UserFactory(username="Dave")
    stale = open_session(bob, dave)
    away_in(bob, Lobby.TRADE)
    in_lobby(carol)

    asked = live_trade_request(asker=carol, partner=bob)

    stale.refresh_from_db()
    assert (stale.status, stale.ended_by) == (TradeSessionStatus.CLOSED, bob)
    assert asked.status == TradeSessionStatus.REQUESTED


def test_asking_twice_waits_for_the_first_answer(carol, bob):
    in_lobby(carol)
    in_lobby(bob)
    live_trade_request(asker=carol, partner=bob)
    with pytest.raises(LiveTradeError, match="asked Bob already"):
        live_trade_request(asker=carol, partner=bob)


def test_a_request_unanswered_for_a_minute_may_be_asked_again(carol, bob):
    in_lobby(carol)
    in_lobby(bob)
    first = live_trade_request(asker=carol, partner=bob)
    TradeSession.objects.filter(pk=first.pk).update(
        created_at=timezone.now() - REQUEST_WAIT - timedelta(seconds=1)
    )

    second = live_trade_request(asker=carol, partner=bob)

    first.refresh_from_db()
    assert first.status == TradeSessionStatus.DECLINED
    assert second.status == TradeSessionStatus.REQUESTED


def test_accepting_while_the_asker_trades_elsewhere_is_refused(carol, bob, catalog):
    dave = UserFactory(username="Dave")
    in_lobby(carol)
    in_lobby(bob)
    request = live_trade_request(asker=carol, partner=bob)
    in_lobby(dave)
    other = live_trade_request(asker=dave, partner=carol)
    live_trade_answer(session_id=other.pk, player=carol, accept=True)

    with pytest.raises(LiveTradeError, match="Carol's trade request has lapsed"):
        # Carol's open session voided her other requests.
        live_trade_answer(session_id=request.pk, player=bob, accept=True)


# --- the binder -----------------------------------------------------------------------------


def test_the_partners_binder_shows_only_cards_above_their_want_in_number_order(carol, bob):
    """Trade Screen: "You will see only cards that your trading partner owns and has listed
    as willing to trade away"; "in card number order within a set"."""
    first, second, third = cards(3)
    give_cards(bob, {third: 2, first: 1, second: 3})
    want_set(owner=bob, card=first, want=1)  # all wanted: not for trade
    want_set(owner=bob, card=second, want=1)

    shown = list(live_binder_cards(owner=bob, filters=CardFilters()))

    assert [card.pk for card in shown] == [second.pk, third.pk]
    assert [card.trade for card in shown] == [2, 2]


def test_an_avatar_the_partner_made_is_not_in_their_binder(carol, bob):
    avatar = CardFactory(card_type="avatar", creator=bob)
    (printed,) = cards(1)
    give_cards(bob, {avatar: 2, printed: 2})

    shown = live_binder_cards(owner=bob, filters=CardFilters())

    assert [card.pk for card in shown] == [printed.pk]


def test_the_binder_narrows_with_the_filters(carol, bob):
    first, second = cards(2)
    give_cards(bob, {first: 1, second: 1})

    shown = live_binder_cards(owner=bob, filters=CardFilters(text=second.title))

    assert [card.pk for card in shown] == [second.pk]


def test_unopened_products_are_offered_too(bob):
    give_products(bob, booster(), 2)
    (stack,) = live_binder_products(owner=bob)
    assert (stack.product, stack.count) == (booster(), 2)


# --- the offer ------------------------------------------------------------------------------


def test_each_player_sees_you_get_and_they_get_from_their_side(carol, bob):
    card, other = cards(2)
    give_cards(bob, {card: 2})
    give_cards(carol, {other: 1})
    session = open_session(carol, bob)

    add(session, carol, bob, card, delta=2)  # Carol takes two of Bob's
    add(session, bob, carol, other)  # Bob takes one of Carol's

    carols = live_offer(session_id=session.pk, viewer=carol)
    bobs = live_offer(session_id=session.pk, viewer=bob)
    assert [(i.card, i.quantity) for i in carols.you_get] == [(card, 2)]
    assert [(i.card, i.quantity) for i in carols.they_get] == [(other, 1)]
    assert [(i.card, i.quantity) for i in bobs.you_get] == [(other, 1)]
    assert [(i.card, i.quantity) for i in bobs.they_get] == [(card, 2)]


def test_never_more_copies_than_the_giver_has_to_trade(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 3})
    want_set(owner=bob, card=card, want=1)
    session = open_session(carol, bob)

    add(session, carol, bob, card, delta=2)
    with pytest.raises(LiveTradeError, match=r"Bob has 2 × .* to trade; the offer can't hold 3"):
        add(session, carol, bob, card)


def test_products_count_their_unopened_copies(carol, bob):
    give_products(bob, booster(), 1)
    session = open_session(carol, bob)

    add(session, carol, bob, product=booster())
    with pytest.raises(LiveTradeError, match="has 1 ×"):
        add(session, carol, bob, product=booster())


@pytest.mark.parametrize("delta", [0, 6, -6, True])
def test_one_to_five_copies_at_a_time(carol, bob, delta):
    (card,) = cards(1)
    give_cards(bob, {card: 9})
    session = open_session(carol, bob)
    with pytest.raises(LiveTradeError):
        add(session, carol, bob, card, delta=delta)


def test_removing_more_than_the_offer_holds_is_refused(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 2})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    with pytest.raises(LiveTradeError, match="not that many"):
        add(session, carol, bob, card, delta=-2)
    add(session, carol, bob, card, delta=-1)
    assert live_offer(session_id=session.pk, viewer=carol).is_empty


def test_a_third_player_can_neither_give_nor_change_the_offer(carol, bob):
    (card,) = cards(1)
    dave = UserFactory(username="Dave")
    give_cards(dave, {card: 2})
    give_cards(bob, {card: 2})
    session = open_session(carol, bob)

    with pytest.raises(LiveTradeError, match="Only the two players"):
        add(session, carol, dave, card)
    with pytest.raises(LiveTradeError, match="no such trade session"):
        add(session, dave, bob, card)


def test_an_avatar_a_player_made_is_not_tradeable(carol, bob):
    avatar = CardFactory(card_type="avatar", creator=bob)
    session = open_session(carol, bob)
    with pytest.raises(LiveTradeError, match="no such card"):
        add(session, carol, bob, avatar)


def test_any_change_after_an_acceptance_clears_both(carol, bob):
    """ "When both players click Accept, a confirmation dialog box will appear": only for the
    offer they accepted; a change clears the acceptances and the confirmations."""
    card, other = cards(2)
    give_cards(bob, {card: 3})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    version = both_accept(session, carol, bob)
    live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)

    add(session, bob, bob, card)

    session.refresh_from_db()
    assert session.offer_version == version + 1
    assert not (session.initiator_accepted or session.partner_accepted)
    assert not (session.initiator_confirmed or session.partner_confirmed)
    with pytest.raises(StaleOffer):
        live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)


def test_clear_empties_the_offer_and_clears_acceptances(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    live_trade_accept(session_id=session.pk, player=bob, offer_version=session.offer_version + 1)

    live_trade_clear(session_id=session.pk, player=carol)

    offer = live_offer(session_id=session.pk, viewer=carol)
    assert offer.is_empty and not offer.partner_accepted


def test_an_empty_offer_cannot_be_accepted(carol, bob):
    session = open_session(carol, bob)
    with pytest.raises(LiveTradeError, match="offer is empty"):
        live_trade_accept(session_id=session.pk, player=carol, offer_version=0)


def test_an_acceptance_for_an_older_offer_is_refused(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 2})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    with pytest.raises(StaleOffer, match="changed since"):
        live_trade_accept(session_id=session.pk, player=carol, offer_version=0)


def test_confirming_before_both_accept_is_refused(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    session.refresh_from_db()
    live_trade_accept(session_id=session.pk, player=carol, offer_version=session.offer_version)
    with pytest.raises(LiveTradeError, match="Both players accept"):
        live_trade_confirm(session_id=session.pk, player=carol, offer_version=session.offer_version)


# --- the swap -------------------------------------------------------------------------------


def test_both_confirmations_swap_the_offer_in_one_ledger_operation(
    carol, bob, django_capture_on_commit_callbacks
):
    """ "When both players click Accept on that dialog box, the trade is completed and players
    swap cards. You will each receive delivery windows indicating your new cards"."""
    card, other = cards(2)
    give_cards(bob, {card: 3})
    give_cards(carol, {other: 1})
    give_products(carol, booster(), 1)
    session = open_session(carol, bob)
    add(session, carol, bob, card, delta=2)
    add(session, bob, carol, other)
    add(session, bob, carol, product=booster())
    before = holdings(carol, bob)
    version = both_accept(session, carol, bob)

    first = live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)
    assert first.swap is None
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        done = live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)

    assert done.swap.number == 1 and not done.again
    assert (copies(carol, card), copies(bob, card)) == (2, 1)
    assert (copies(carol, other), copies(bob, other)) == (0, 1)
    assert (unopened(carol, booster()), unopened(bob, booster())) == (0, 1)
    assert holdings(carol, bob) == before
    assert_ledger_matches_holdings(carol, bob)
    operation = LedgerOperation.objects.get(reference=f"trade:{session.pk}:1")
    assert operation.reason == LedgerReason.TRADE
    assert {c.args[1] for c in callbacks} == {"trade.swapped"}
    # The delivery window: each sees what arrived.
    carols = live_offer(session_id=session.pk, viewer=carol)
    bobs = live_offer(session_id=session.pk, viewer=bob)
    assert [(i.card, i.quantity) for i in carols.delivered] == [(card, 2)]
    assert sorted(i.title for i in bobs.delivered) == sorted([other.title, booster().name])
    # "You may continue to process more trades": the session goes on, with an empty offer.
    assert carols.is_open and carols.is_empty and not carols.you_accepted
    assert carols.last_swap == 1


def test_a_confirmation_sent_again_swaps_once(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 2})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    version = both_accept(session, carol, bob)
    live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)
    live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)

    again = live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)
    also = live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)

    assert again.again and also.again and again.swap.number == 1
    assert (copies(carol, card), copies(bob, card)) == (1, 1)
    assert TradeSessionSwap.objects.filter(session=session).count() == 1
    assert_ledger_matches_holdings(carol, bob)


def test_a_second_swap_in_the_same_session_has_its_own_reference(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 2})
    session = open_session(carol, bob)
    for _ in range(2):
        add(session, carol, bob, card)
        version = both_accept(session, carol, bob)
        live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)
        live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)

    references = set(
        LedgerOperation.objects.filter(reason=LedgerReason.TRADE).values_list(
            "reference", flat=True
        )
    )
    assert references == {f"trade:{session.pk}:1", f"trade:{session.pk}:2"}
    assert copies(carol, card) == 2


def test_a_swap_whose_cards_are_gone_moves_nothing_and_the_session_goes_on(
    carol, bob, django_capture_on_commit_callbacks
):
    (card,) = cards(1)
    dave = UserFactory(username="Dave")
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    version = both_accept(session, carol, bob)
    live_trade_confirm(session_id=session.pk, player=bob, offer_version=version)
    # Bob's copy leaves his collection some other way before Carol confirms.
    with ledger_operation(owners=[bob, dave], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_move(sender=bob, receiver=dave, counts={card.pk: 1})

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with pytest.raises(LiveTradeError, match="did not go through: Bob no longer has"):
            live_trade_confirm(session_id=session.pk, player=carol, offer_version=version)

    assert (copies(carol, card), copies(bob, card), copies(dave, card)) == (0, 0, 1)
    assert not LedgerOperation.objects.filter(reference__startswith="trade:").exists()
    offer = live_offer(session_id=session.pk, viewer=carol)
    assert offer.is_open and not (offer.you_accepted or offer.partner_accepted)
    assert [(c.args[1], c.args[2]["message"]) for c in callbacks] == [
        (
            "trade.failed",
            f"The trade did not go through: Bob no longer has 1 × {card.title} (has 0).",
        )
    ]
    assert_ledger_matches_holdings(carol, bob, dave)


# --- ending ---------------------------------------------------------------------------------


def test_return_to_lobby_ends_the_session_for_both(carol, bob, django_capture_on_commit_callbacks):
    """ "To end a trade session ... select Return to Lobby"; the partner is told."""
    (card,) = cards(1)
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    add(session, carol, bob, card)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        live_trade_leave(session_id=session.pk, player=bob)

    assert [c.args[:2] for c in callbacks] == [(f"trade_session.{session.pk}", "trade.closed")]
    carols = live_offer(session_id=session.pk, viewer=carol)
    assert not carols.is_open and carols.ended_by_partner and carols.is_empty
    with pytest.raises(LiveTradeError, match="has ended"):
        add(session, carol, bob, card)
    # Both may trade again, with anyone.
    assert open_session(bob, carol).status == TradeSessionStatus.OPEN


def test_outsiders_cannot_end_a_session(carol, bob):
    session = open_session(carol, bob)
    with pytest.raises(LiveTradeError, match="no such trade session"):
        live_trade_leave(session_id=session.pk, player=UserFactory())


def test_the_offer_shows_who_has_accepted(carol, bob):
    (card,) = cards(1)
    give_cards(bob, {card: 1})
    session = open_session(carol, bob)
    add(session, carol, bob, card)
    session.refresh_from_db()
    live_trade_accept(session_id=session.pk, player=bob, offer_version=session.offer_version)

    offer = live_offer(session_id=session.pk, viewer=carol)
    assert (offer.you_accepted, offer.partner_accepted, offer.confirming) == (False, True, False)
