"""Foils in posted trades (README, "Foils"; rulebook, "Posted Trades"): a poster offers a
card's foil copies apart from its plain ones, the Create screen's Your tab shows them as a
tile of their own, and accepting the trade moves the foil as a foil, conserving every copy."""

import pytest
from django.urls import reverse

from collection.models import CardOwnership, LedgerReason
from collection.services.ledger import CardChange, ledger_operation
from collection.trades.models import PostedTradeLine
from collection.trades.selectors.posted import posted_trade_board
from collection.trades.services.exchange import TradeItem
from collection.trades.services.posted import (
    PostedTradeError,
    posted_trade_accept,
    posted_trade_create,
)
from tcgsite.accounts.models import Preferences
from tests.factories import UserFactory
from tests.trades.posted_helpers import cards

pytestmark = pytest.mark.django_db


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


@pytest.fixture
def poster(catalog):
    return UserFactory(username="Poster")


@pytest.fixture
def taker(catalog):
    return UserFactory(username="Taker")


def test_accepting_a_posted_foil_moves_the_foil_and_conserves_every_copy(poster, taker):
    shiny, common = cards(2)
    give(poster, shiny, plain=1, foil=1)
    give(taker, common, plain=2)
    trade = posted_trade_create(
        poster=poster,
        offer=[TradeItem(quantity=1, card_id=shiny.pk, foil=True)],
        want=[TradeItem(quantity=2, card_id=common.pk)],
    )
    assert [(line.card_id, line.foil) for line in trade.offered_lines()] == [(shiny.pk, True)]

    outcome = posted_trade_accept(trade_id=trade.pk, taker=taker)

    assert counts(poster, shiny) == (1, 0) and counts(taker, shiny) == (1, 1)
    assert counts(poster, common) == (2, 0) and counts(taker, common) == (0, 0)
    assert [line.item_name for line in outcome.taker_received] == [f"{shiny.title} (foil)"]


def test_a_foil_can_only_be_posted_by_a_player_who_holds_it(poster):
    shiny, common = cards(2)
    give(poster, shiny, plain=3)

    with pytest.raises(PostedTradeError, match=r"1 × .* \(foil\) \(has 0\)"):
        posted_trade_create(
            poster=poster,
            offer=[TradeItem(quantity=1, card_id=shiny.pk, foil=True)],
            want=[TradeItem(quantity=1, card_id=common.pk)],
        )


def test_a_trade_wanting_a_foil_is_acceptable_only_to_a_holder_of_one(poster, taker):
    shiny, common = cards(2)
    give(poster, common, plain=1)
    give(taker, shiny, plain=4)
    trade = posted_trade_create(
        poster=poster,
        offer=[TradeItem(quantity=1, card_id=common.pk)],
        want=[TradeItem(quantity=1, card_id=shiny.pk, foil=True)],
    )
    assert not posted_trade_board(viewer=taker).get(pk=trade.pk).can_accept

    give(taker, shiny, foil=1)

    assert posted_trade_board(viewer=taker).get(pk=trade.pk).can_accept


def test_the_create_screen_posts_a_foil_from_its_own_tile(client, poster):
    shiny, common = cards(2)
    give(poster, shiny, plain=1, foil=1)
    client.force_login(poster)

    binder = client.get(reverse("trades:posted_binder"), {"tab": "your"}).content.decode()
    response = client.post(
        reverse("trades:posted_create"),
        {"offer": [f"foil:{shiny.pk}:1"], "want": [f"card:{common.pk}:1"]},
    )

    assert f'data-item="foil:{shiny.pk}"' in binder and f'data-item="card:{shiny.pk}"' in binder
    assert "foil--shimmer" in binder
    assert response.status_code == 302
    line = PostedTradeLine.objects.get(side="offer")
    assert (line.card_id, line.foil, line.quantity) == (shiny.pk, True, 1)


def test_with_foil_effects_off_the_create_screen_marks_the_foil_with_its_badge(client, poster):
    (shiny,) = cards(1)
    give(poster, shiny, foil=1)
    Preferences.objects.filter(user=poster).update(foil_effects=False)
    client.force_login(poster)

    binder = client.get(reverse("trades:posted_binder"), {"tab": "your"}).content.decode()

    assert 'class="foil-badge"' in binder and "foil--shimmer" not in binder
    assert f'data-item="card:{shiny.pk}"' not in binder  # no plain copy to offer
