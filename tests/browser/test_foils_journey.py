"""Foil cards in headless Chromium (README, "Foils"; rulebook, Game/Playmat, "Foil Effects"):
a foil copy shimmers in the binder while Foil Effects is on, stands still for a player who
asks for reduced motion, and is marked by its static badge alone once Foil Effects is off."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from collection.cards.models import Card
from collection.models import LedgerReason
from collection.services.ledger import CardChange, ledger_operation
from collection.trades.models import TradeSession, TradeSessionLine, TradeSessionStatus
from tcgsite.accounts.models import Preferences
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shimmer_animation(card) -> str:
    return card.evaluate("link => getComputedStyle(link, '::after').animationName")


def test_a_foil_shimmers_in_the_binder_until_foil_effects_is_turned_off(page, screenshot, catalog):
    player = UserFactory(username="Shiny")
    foil_card, plain_card = Card.objects.printed().order_by("card_set__number", "number")[:2]
    with ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=player, card_id=foil_card.pk, delta=1),
                CardChange(owner=player, card_id=foil_card.pk, delta=1, foil=True),
                CardChange(owner=player, card_id=plain_card.pk, delta=2),
            ]
        )
    Preferences.objects.filter(user=player).update(show_only_owned_cards=True)
    log_in(page, "Shiny")

    # Foil Effects is on by default: the foil copy's card shimmers and wears its badge.
    page.goto("/collection/")
    foil = page.locator(".binder-card .foil")
    expect(foil).to_have_count(1)
    expect(foil).to_have_class("foil foil--shimmer")
    expect(foil.locator(".foil-badge")).to_have_text("Foil")
    expect(foil.locator("img")).to_have_attribute("alt", foil_card.title)
    assert shimmer_animation(foil) == "foil-shimmer"
    expect(page.locator(".binder-card .foil-badge")).to_have_count(1)
    foil.scroll_into_view_if_needed()
    screenshot("foils-binder-shimmer")

    # A player who asks for reduced motion sees the sheen stand still.
    page.emulate_media(reduced_motion="reduce")
    assert shimmer_animation(foil) == "none"
    page.emulate_media(reduced_motion="no-preference")

    # Preferences → Game/Playmat: Foil Effects off; the badge alone marks the foil.
    page.goto("/preferences/game/")
    page.get_by_label("Foil Effects").uncheck()
    page.get_by_role("button", name="Accept").click()
    expect(page.get_by_label("Foil Effects")).not_to_be_checked()
    page.goto("/collection/")
    foil = page.locator(".binder-card .foil")
    expect(foil).to_have_class("foil")
    expect(foil.locator(".foil-badge")).to_have_text("Foil")
    assert shimmer_animation(foil) == "none"
    page.get_by_role("link", name="Table View").click()
    expect(page.locator(".results table .foil-badge")).to_have_count(1)
    screenshot("foils-binder-badge")


def test_a_foil_shows_in_the_deck_builder_and_is_offered_on_the_trade_screen(
    page, screenshot, catalog
):
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bobby")
    foil_card = Card.objects.printed().order_by("card_set__number", "number").first()
    with ledger_operation(owners=[carol], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=carol, card_id=foil_card.pk, delta=1),
                CardChange(owner=carol, card_id=foil_card.pk, delta=2, foil=True),
            ]
        )
    session = TradeSession.objects.create(
        initiator=carol, partner=bob, status=TradeSessionStatus.OPEN
    )

    log_in(page, "Carol")
    page.goto(reverse("decks:deck_builder"))
    tile = page.locator(".tile__foil.foil--shimmer")
    expect(tile).to_have_count(1)
    expect(tile.locator(".foil-badge")).to_have_text("Foil ×2")
    screenshot("foils-deck-builder")

    # Bobby's Trade Screen: Carol's binder has a plain tile and a foil tile; a double-click
    # on the foil puts one foil copy in You get, apart from the plain copy.
    page.context.clear_cookies()
    log_in(page, "Bobby")
    page.goto(reverse("trades:live_screen", args=[session.pk]))
    foil_tile = page.locator(".trade-item--foil")
    expect(foil_tile.locator(".foil--shimmer")).to_have_count(1)
    expect(foil_tile.locator(".trade-item__count")).to_have_text("2 foil to trade")
    foil_tile.dblclick()
    line = page.locator('.trade-area--get .trade-line[data-foil="1"]')
    expect(line).to_contain_text("1 ×")
    expect(line.locator(".foil-badge")).to_have_text("Foil")
    expect(page.locator(".trade-area--get .trade-line")).to_have_count(1)
    line = TradeSessionLine.objects.get(session=session)
    assert (line.card_id, line.foil, line.quantity) == (foil_card.pk, True, 1)
    screenshot("foils-trade-screen")
