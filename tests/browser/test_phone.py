"""A 390-pixel-wide phone: no page of the site scrolls sideways (tables scroll inside their own
box). Every page is visited as a demo player with cards, decks and unopened packs, and
photographed for a look."""

import json

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from collection.decks.models import Deck
from tcgsite.accounts.models import User
from tcgsite.navigation import SECTIONS
from tests.browser.conftest import ARTIFACTS
from tests.browser.settling import Settling
from tests.factories import PASSWORD, LimitedPoolFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def assert_fits(page, settling, screenshot, name: str) -> None:
    settling.wait()
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    screenshot(f"phone-{name}")
    assert widths[0] <= widths[1], f"{name} scrolls sideways: {widths[0]} px in {widths[1]}"


def site_pages(player: User) -> dict[str, str]:
    """Every page a player reaches: the Navigator's entries and the pages behind them."""
    pages = {entry.label: entry.url for section in SECTIONS for entry in section.entries}
    deck = Deck.objects.filter(owner=player).first()
    entries = "&".join(f"entry={e.card_id}x{e.quantity}" for e in deck.entries.all())
    a_card = deck.entries.select_related("card__card_set").first().card
    pool = LimitedPoolFactory(owner=player, cards={e.card: e.quantity for e in deck.entries.all()})
    pages.update(
        {
            "card browser table": reverse("cards:card_list") + "?view=table",
            "card page": a_card.get_absolute_url(),
            "collection table": reverse("collection:binder") + "?view=table",
            "saved deck": reverse("decks:deck_edit", args=[deck.pk]),
            "deck builder collection table": reverse("decks:deck_edit", args=[deck.pk])
            + "?view=table",
            "limited deck builder": reverse("decks:limited_builder", args=[pool.pk]),
            "deckbuilding wizard": reverse("decks:deck_wizard"),
            "create avatar": reverse("decks:avatar_create"),
            "test draw": reverse("game:test_draw") + "?" + entries,
            "preferences account": reverse("accounts:preferences", args=["account"]),
            "preferences avatar": reverse("accounts:preferences", args=["avatar"]),
            "preferences interface": reverse("accounts:preferences", args=["interface"]),
            "password": reverse("accounts:password_change"),
            "player page": reverse("accounts:player_info", args=["Paladon"]),
        }
    )
    return pages


@pytest.mark.slow
def test_no_page_scrolls_sideways_on_a_phone(browser, live_server, page, screenshot, catalog):
    call_command("demo")
    player = User.objects.get(username="Shochu")
    pages = site_pages(player)
    assert {"Card Browser", "Collection", "Deck Builder", "Store", "Preferences"} <= set(pages)
    page.set_viewport_size(PHONE)
    settling = Settling(page)

    for name in ("login", "signup"):
        page.goto(reverse(f"accounts:{name}"))
        assert_fits(page, settling, screenshot, name)

    page.goto(reverse("accounts:login"))
    page.get_by_label("Username").fill("Shochu")
    page.get_by_label("Password").fill(settings.DEMO_PLAYER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()

    for name, address in pages.items():
        response = page.goto(address)
        assert response.status == 200, name
        assert_fits(page, settling, screenshot, name.lower().replace(" ", "-"))

    # The deck container's Table View, and an open filter dropdown, fit too.
    page.goto(pages["saved deck"])
    page.locator("#deck-container").get_by_text("Table View").click()
    expect(page.locator("#deck-container table")).to_be_visible()
    assert_fits(page, settling, screenshot, "deck-table")
    page.goto(pages["Card Browser"])
    page.locator("summary", has_text="Keyword").click()
    expect(page.locator("details[open] .dropdown__menu")).to_be_in_viewport(ratio=1)
    assert_fits(page, settling, screenshot, "card-browser-dropdown")


def test_every_navigator_entry_can_be_reached_whole_on_a_phone(browser, live_server, catalog):
    """At 390x844 the open Navigator clipped "Sprint Leaderboard" and left Exit half below
    the fold (issue 33, point 8): scrolling the open Navigator with the wheel brings every
    entry, Exit last, whole into the window, its words inside the Navigator."""
    User.objects.create_user(username="Pocket", password=PASSWORD)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    page = context.new_page()
    page.goto(reverse("accounts:login"))
    page.get_by_label("Username").fill("Pocket")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()
    labels = page.locator(".navigator .nav-entries a, .navigator .nav-exit").all_inner_texts()
    labels = [label.strip() for label in labels]

    page.mouse.move(20, PHONE["height"] // 2)
    # The Navigator slides out and widens: its first entry is whole once it is open.
    page.wait_for_function(f"() => ({WHOLE_NAVIGATOR_ENTRIES})().includes({json.dumps(labels[0])})")
    seen_whole = []
    for _ in range(12):
        seen_whole += [label for label in whole_navigator_entries(page) if label not in seen_whole]
        if len(seen_whole) == len(labels):
            break
        page.mouse.wheel(0, 250)

    assert "Sprint Leaderboard" in labels and labels[-1].endswith("Exit")
    assert sorted(seen_whole) == sorted(labels)
    page.screenshot(path=str(ARTIFACTS / "phone-navigator-exit.png"))

    # A 1440x900 window shows them all at once, as before.
    page.set_viewport_size({"width": 1440, "height": 900})
    page.mouse.move(20, 450)
    page.wait_for_function(
        f"() => ({WHOLE_NAVIGATOR_ENTRIES})().length === {len(labels)}", timeout=5_000
    )
    assert sorted(whole_navigator_entries(page)) == sorted(labels)
    page.screenshot(path=str(ARTIFACTS / "navigator-open-1440x900.png"))
    context.close()


def whole_navigator_entries(page) -> list[str]:
    """The open Navigator's entries whole in the window and in the Navigator, their words
    not cut off (give or take the fraction of a pixel a scroll may leave)."""
    return page.evaluate(WHOLE_NAVIGATOR_ENTRIES)


WHOLE_NAVIGATOR_ENTRIES = """() => {
          const menu = document.querySelector('.navigator').getBoundingClientRect();
          return [...document.querySelectorAll('.navigator .nav-entries a, .navigator .nav-exit')]
            .filter((entry) => {
              const box = entry.getBoundingClientRect();
              return box.top >= -1 && box.bottom <= window.innerHeight + 1
                && box.left >= menu.left && box.right <= menu.right + 1
                && entry.scrollWidth <= entry.clientWidth;
            })
            .map((entry) => entry.innerText.trim());
        }"""
