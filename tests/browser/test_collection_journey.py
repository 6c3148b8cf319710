"""The collection journey in headless Chromium: buy a booster in the Store, open it in the
Collection Manager, see the revealed cards, then set a Want in the binder."""

import re

import pytest
from playwright.sync_api import expect

from collection.models import CardOwnership, Product, ProductKind
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_buy_open_and_want_a_card(page, screenshot, catalog):
    player = UserFactory(username="Collector")
    booster = Product.objects.get(kind=ProductKind.BOOSTER_PACK)
    log_in(page, "Collector")

    # The Store: buy a booster; the first one registers the account.
    page.goto("/store/")
    expect(page.get_by_role("heading", name="Online Store")).to_be_visible()
    page.get_by_role("button", name=f"Buy {booster.name}").click()
    page.get_by_role("button", name=f"Confirm: spend {booster.price} credits").click()
    expect(page.locator(".messages")).to_contain_text(f"Bought 1 × {booster.name}.")
    expect(page.locator(".registration")).to_contain_text("Registered player")
    screenshot("collection-store")

    # The Collection: the unopened booster comes first; open it.
    page.get_by_role("link", name="Open it in your Collection").click()
    expect(page.get_by_role("heading", name="Collection Manager")).to_be_visible()
    expect(page.locator(".unopened")).to_contain_text("1 unopened booster pack")
    screenshot("collection-binder-unopened")
    page.get_by_role("button", name=f"Open one {booster.name}").click()

    # The reveal: 15 cards, all new to a first-time collector.
    expect(page.get_by_role("heading", name="Opened 1 product")).to_be_visible()
    expect(page.locator(".reveal-card")).to_have_count(15)
    expect(page.locator(".reveal-card .new-badge")).to_have_count(15)
    expect(page.locator(".opening")).to_have_class(re.compile("reveal--done"), timeout=10_000)
    screenshot("collection-opening")

    # The binder: only the cards owned, through the collection's own numeric filter.
    page.get_by_role("link", name="Go to your binder").click()
    page.get_by_label("Attribute").select_option("owned")
    page.get_by_label("Operator").select_option(">=")
    page.get_by_label("Value").fill("1")
    page.get_by_role("button", name="Add filter").click()
    expect(page.locator(".results__count")).to_contain_text("15 cards")
    expect(page).to_have_url(re.compile(r"num=owned%3E%3D1"))
    expect(page.locator(".binder-card--unowned")).to_have_count(0)

    # Want: + saves at once and swaps only that card's numbers, with no page load.
    first = (
        CardOwnership.objects.filter(owner=player)
        .select_related("card")
        .order_by("card__number")
        .first()
        .card
    )
    numbers = page.locator(f"#numbers-{first.pk}")
    expect(numbers).to_contain_text("Trade1")
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_role("button", name=f"Want one more {first.title}").click()
    expect(numbers.locator(".want__value")).to_have_text("1")
    expect(numbers).to_contain_text("Trade0")
    page.get_by_role("button", name=f"Want one more {first.title}").click()
    expect(numbers.locator(".want__value")).to_have_text("2")
    expect(numbers).to_contain_text("Need1")
    assert page.evaluate("window.stillTheSamePage") is True
    assert CardOwnership.objects.get(owner=player, card=first).want == 2
    screenshot("collection-binder-want")

    page.get_by_role("link", name="Table View").click()
    expect(page.locator(f"#row-{first.pk} .want__value")).to_have_text("2")
    screenshot("collection-binder-table")
