"""My openings in headless Chromium: from the Collection to the list of the player's own
openings, where Check draws a pack again from its seed and its recorded recipe."""

import pytest
from playwright.sync_api import expect

from collection.models import Opening, Product, ProductKind
from collection.services.opening import products_open
from collection.services.store import product_grant
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_checks_their_openings_seed(page, screenshot, catalog):
    player = UserFactory(username="Opener")
    booster = Product.objects.get(kind=ProductKind.BOOSTER_PACK)
    starter = Product.objects.filter(kind=ProductKind.STARTER_DECK).first()
    items = [
        *product_grant(owner=player, product=starter, quantity=1),
        *product_grant(owner=player, product=booster, quantity=2),
    ]
    products_open(owner=player, owned_product_ids=[item.pk for item in items])
    opening = Opening.objects.filter(seed__isnull=False).order_by("pk").first()
    log_in(page, "Opener")

    page.goto("/collection/")
    page.get_by_role("link", name="My openings").click()
    expect(page.get_by_role("heading", name="My openings")).to_be_visible()
    row = page.locator(f"#opening-{opening.pk}")
    expect(row).to_contain_text(str(opening.seed))
    expect(row.locator(".opening-row__cards li")).to_have_count(15)
    expect(page.locator(".opening-row")).to_have_count(3)

    row.get_by_role("link", name="Check").click()
    expect(row.locator(".opening-check")).to_contain_text("Matches.")
    screenshot("openings-desktop")

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    row = page.locator(f"#opening-{opening.pk}")
    row.get_by_role("link", name="Check").click()
    expect(row.locator(".opening-check")).to_contain_text("Matches.")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    screenshot("openings-phone")
