"""Foils in live trades (README, "Foils"; rulebook, "Trade Screen"): a player offers a card's
foil copies apart from its plain copies, the swap moves the foil as a foil, and every copy is
conserved; the Trade Screen shows the foil in the binder, the offer and the delivery."""

import pytest
from django.urls import reverse

from collection.cards.filters import CardFilters
from collection.models import CardOwnership, ItemEntry, LedgerReason
from collection.services.ledger import CardChange, ledger_operation
from collection.services.wants import want_set
from collection.trades.models import TradeSessionLine
from collection.trades.selectors.live import live_binder_cards, live_offer
from collection.trades.services.live import (
    LiveTradeError,
    live_trade_accept,
    live_trade_confirm,
    live_trade_offer_change,
)
from tcgsite.accounts.models import Preferences
from tests.factories import UserFactory
from tests.trades.live_helpers import (
    assert_ledger_matches_holdings,
    cards,
    holdings,
    open_session,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(catalog):
    return UserFactory(username="Carol")


@pytest.fixture
def bob(catalog):
    return UserFactory(username="Bob")


@pytest.fixture
def card(catalog):
    return cards(1)[0]


def give(owner, card, *, plain=0, foil=0) -> None:
    with ledger_operation(owners=[owner], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=owner, card_id=card.pk, delta=plain),
                CardChange(owner=owner, card_id=card.pk, delta=foil, foil=True),
            ]
        )


def counts(owner, card) -> tuple[int, int]:
    """(copies, of them foils)."""
    row = CardOwnership.objects.filter(owner=owner, card=card).first()
    return (row.quantity, row.foil) if row else (0, 0)


def offer(session, player, giver, card, delta=1, *, foil=False):
    return live_trade_offer_change(
        session_id=session.pk,
        player=player,
        giver_id=giver.pk,
        delta=delta,
        card_id=card.pk,
        foil=foil,
    )


def swap(session, first, second):
    session.refresh_from_db()
    version = session.offer_version
    for player in (first, second):
        live_trade_accept(session_id=session.pk, player=player, offer_version=version)
    for player in (first, second):
        confirmed = live_trade_confirm(session_id=session.pk, player=player, offer_version=version)
    return confirmed.swap


def test_a_foil_and_a_plain_copy_of_one_card_are_offered_as_two_lines(carol, bob, card):
    give(carol, card, plain=2, foil=1)
    session = open_session(carol, bob)

    offer(session, carol, carol, card, foil=True)
    offer(session, carol, carol, card)

    lines = TradeSessionLine.objects.filter(session=session).order_by("foil")
    assert [(line.card_id, line.foil, line.quantity) for line in lines] == [
        (card.pk, False, 1),
        (card.pk, True, 1),
    ]
    seen = live_offer(session_id=session.pk, viewer=bob)
    assert [(item.card.pk, item.foil) for item in seen.you_get] == [
        (card.pk, False),
        (card.pk, True),
    ]


def test_a_foil_offer_never_holds_more_foils_than_the_giver_has(carol, bob, card):
    give(carol, card, plain=3, foil=1)
    session = open_session(carol, bob)
    offer(session, carol, carol, card, foil=True)

    with pytest.raises(LiveTradeError, match=r"You have 1 × .* \(foil\) to trade"):
        offer(session, carol, carol, card, foil=True)


def test_foil_and_plain_lines_together_stay_within_the_copies_above_want(carol, bob, card):
    """Two copies above Want: a foil and a plain copy may go, not a third."""
    give(carol, card, plain=3, foil=1)
    want_set(owner=carol, card=card, want=2)
    session = open_session(carol, bob)
    offer(session, carol, carol, card, foil=True)
    offer(session, carol, carol, card)

    with pytest.raises(LiveTradeError, match="You have 1 × "):
        offer(session, carol, carol, card)


def test_trading_a_foil_moves_the_foil_and_conserves_every_copy(carol, bob, card):
    give(carol, card, plain=2, foil=2)
    give(bob, card, plain=1)
    before = holdings(carol, bob)
    session = open_session(carol, bob)
    offer(session, carol, carol, card, foil=True)
    offer(session, bob, bob, card)

    done = swap(session, carol, bob)

    assert counts(carol, card) == (4, 1)
    assert counts(bob, card) == (1, 1)
    assert holdings(carol, bob) == before
    assert_ledger_matches_holdings(carol, bob)
    moved = ItemEntry.objects.filter(operation__reference=f"trade:{session.pk}:1", foil=True)
    assert sorted((entry.owner_id, entry.delta) for entry in moved) == sorted(
        [(carol.pk, -1), (bob.pk, 1)]
    )
    foil_line = {"giver": carol.pk, "card": card.pk, "foil": True, "product": None, "quantity": 1}
    assert foil_line in done.items
    delivered = live_offer(session_id=session.pk, viewer=bob).delivered
    assert [(item.card.pk, item.foil, item.quantity) for item in delivered] == [(card.pk, True, 1)]


def test_a_swap_whose_foil_is_gone_moves_nothing(carol, bob, card):
    give(carol, card, plain=1, foil=1)
    session = open_session(carol, bob)
    offer(session, carol, carol, card, foil=True)
    # The foil leaves another way before the swap (as a trade with someone else would).
    with ledger_operation(owners=[carol], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(changes=[CardChange(owner=carol, card_id=card.pk, delta=-1, foil=True)])

    with pytest.raises(LiveTradeError, match=r"no longer has 1 × .* \(foil\) \(has 0\)"):
        swap(session, carol, bob)

    assert counts(carol, card) == (1, 0) and counts(bob, card) == (0, 0)


def test_the_binder_offers_plain_and_foil_copies_apart(carol, card):
    give(carol, card, plain=1, foil=2)
    want_set(owner=carol, card=card, want=1)

    (row,) = live_binder_cards(owner=carol, filters=CardFilters()).filter(pk=card.pk)

    assert (row.trade, row.plain_trade, row.foil_trade) == (2, 1, 2)


@pytest.mark.parametrize(("foil_effects", "shimmers"), [(True, True), (False, False)])
def test_the_trade_screen_shows_the_foil_in_the_binder_and_the_offer(
    client, carol, bob, card, foil_effects, shimmers
):
    give(carol, card, plain=1, foil=1)
    session = open_session(carol, bob)
    offer(session, carol, carol, card, foil=True)
    Preferences.objects.filter(user=bob).update(foil_effects=foil_effects)
    client.force_login(bob)

    page = client.get(reverse("trades:live_screen", args=[session.pk])).content.decode()

    # The binder: a plain tile and a foil tile; the offer: the foil line.
    assert page.count('data-foil="1"') == 2
    assert "1 foil to trade" in page
    assert page.count('class="foil-badge"') == 2
    assert ("foil--shimmer" in page) is shimmers
