"""A new player's first visit in headless Chromium: see what a starter deck holds, buy it
after confirming, open it with the card reveal, find it saved as a deck; Buy disabled when
credits run short; a card's page with the copies owned, Want and Add to a deck."""

import re

import pytest
from playwright.sync_api import expect

from collection.decks.models import Deck, DeckCard
from collection.models import CardOwnership, Product, ProductKind
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.mark.slow
def test_a_new_player_buys_opens_and_plays_a_starter_deck(page, screenshot, catalog):
    player = UserFactory(username="Rookie")
    starter = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype="jedi")
    booster = Product.objects.get(kind=ProductKind.BOOSTER_PACK)
    log_in(page, "Rookie")
    expect(page.locator(".topbar__credits")).to_have_text("1000 credits")

    # The Store: the starter deck's page shows its avatar, deck list and how it plays.
    page.goto("/store/")
    page.get_by_role("link", name="See its avatar and deck list").first.click()
    page.goto(f"/store/{starter.pk}/")
    expect(page.get_by_role("heading", name=starter.name)).to_be_visible()
    expect(page.locator(".store-product__avatar")).to_contain_text("Avatar: Ilvara Senn")
    expect(page.locator(".store-product__plays")).to_contain_text("Ilvara Senn heals")
    screenshot("new-player-starter-page")

    # Buy asks for confirmation first; nothing is spent until it is given.
    page.get_by_role("button", name=f"Buy {starter.name}").click()
    expect(page.get_by_role("heading", name="Confirm your purchase")).to_be_visible()
    assert not player.owned_products.exists()
    screenshot("new-player-confirm")
    page.get_by_role("button", name=f"Confirm: spend {starter.price} credits").click()
    expect(page.locator(".messages")).to_contain_text(f"Bought 1 × {starter.name}.")
    expect(page.locator(".topbar__credits")).to_have_text(f"{1000 - starter.price} credits")

    # The Collection: Open, then the reveal turns the cards over, with Skip.
    page.get_by_role("link", name="Open it in your Collection").click()
    page.get_by_role("button", name=f"Open one {starter.name}").click()
    expect(page.get_by_role("heading", name="Opened 1 product")).to_be_visible()
    skip = page.get_by_role("button", name="Skip")
    expect(skip).to_be_visible()
    expect(page.locator(".opening")).to_have_class(re.compile("reveal--playing"))
    screenshot("new-player-reveal-turning")
    skip.click()
    expect(skip).to_be_hidden()
    expect(page.locator(".reveal-card.is-shown")).to_have_count(
        page.locator(".reveal-card").count()
    )
    expect(page.locator(".reveal__deck")).to_contain_text("Saved as a deck, ready to play")
    screenshot("new-player-reveal")

    # The deck is saved, named after the starter deck, and opens in the Deck Builder.
    deck = Deck.objects.get(owner=player)
    assert deck.name == "Jedi Starter Deck"
    page.goto(f"/decks/{deck.pk}/")
    expect(page.locator("#deck-name, [name=name]").first).to_have_value("Jedi Starter Deck")

    # Two boosters bought and opened with Open All, the rare turned over last of the plain cards
    # (a foil, in about one booster in six, comes after it).
    page.goto(f"/store/confirm/?product={booster.pk}&quantity=2")
    page.get_by_role("button", name=f"Confirm: spend {2 * booster.price} credits").click()
    page.goto("/collection/")
    screenshot("new-player-binder-unopened")
    page.get_by_role("button", name="Open All").click()
    expect(page.get_by_role("heading", name="Opened 2 products")).to_be_visible()
    for section in page.locator(".reveal").all():
        plain = section.locator(".reveal-card:not(:has(.foil))")
        expect(plain.last).to_have_class(re.compile("reveal-card--rare"))
    expect(page.locator(".opening")).to_have_class(re.compile("reveal--done"), timeout=15_000)


def test_buy_is_disabled_with_the_reason_when_credits_run_short(page, screenshot, catalog):
    UserFactory(username="Broke")
    starter = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype="sith")
    booster = Product.objects.get(kind=ProductKind.BOOSTER_PACK)
    from collection.models import Wallet

    Wallet.objects.filter(owner__username="Broke").update(credits=300)
    log_in(page, "Broke")

    page.goto("/store/")
    expect(page.get_by_role("button", name=f"Buy {starter.name}")).to_be_disabled()
    expect(page.locator(f"#why-not-{starter.pk}")).to_have_text(
        f"You have 300 credits: it costs {starter.price}."
    )
    expect(page.get_by_role("button", name=f"Buy {booster.name}")).to_be_enabled()
    screenshot("store-disabled-desktop")
    page.set_viewport_size(PHONE)
    screenshot("store-disabled-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_card_page_shows_copies_want_and_add_to_deck(page, screenshot, catalog):
    player = UserFactory(username="Builder")
    card = next(
        line.card
        for line in Product.objects.get(archetype="jedi").starter_cards.select_related("card")
        if line.card.card_type == "unit" and line.quantity == 2
    )
    CardOwnership.objects.create(owner=player, card=card, quantity=3)
    deck = Deck.objects.create(owner=player, name="Temple Guard")
    DeckCard.objects.create(deck=deck, card=card, quantity=2)
    log_in(page, "Builder")

    page.goto(card.get_absolute_url())
    expect(page.locator(".card-panel__owned")).to_have_text("You own 3 copies.")
    page.get_by_role("button", name=f"Want one more {card.title}").click()
    expect(page.locator(f"#numbers-{card.pk} .want__value")).to_have_text("1")
    page.get_by_label("Deck", exact=True).select_option(label="Temple Guard (2 in it)")
    page.get_by_role("button", name="Add 1 copy").click()
    expect(page.locator(".messages")).to_contain_text(
        f"Added 1 copy of {card.title} to \u201cTemple Guard\u201d: 3 in it now."
    )
    screenshot("card-page-desktop")
    page.get_by_role("button", name="Add 1 copy").click()
    expect(page.locator(".messages")).to_contain_text("All 3 copies")
    assert DeckCard.objects.get(deck=deck, card=card).quantity == 3
    assert CardOwnership.objects.get(owner=player, card=card).want == 1
    page.set_viewport_size(PHONE)
    screenshot("card-page-phone")
