"""Keyboard use in headless Chromium: the Navigator is reachable with Tab (after a skip link),
and the filter dropdowns (rulebook, FILTERS & SEARCH OPTIONS) close on Escape and on a click
outside, their light on as soon as a filter is chosen."""

import pytest
from playwright.sync_api import expect

from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username, password=PASSWORD):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()


def focused(page) -> dict:
    return page.evaluate(
        """() => {
            const el = document.activeElement;
            return {text: el.textContent.trim(), id: el.id,
                    inNavigator: Boolean(el.closest('.navigator'))};
        }"""
    )


def test_tab_reaches_skip_link_then_the_navigator_with_exit_last(page, screenshot):
    UserFactory(username="Keyboarder")
    log_in(page, "Keyboarder")
    page.goto("/cards/")

    page.keyboard.press("Tab")
    assert focused(page)["text"] == "Skip to content"
    expect(page.get_by_role("link", name="Skip to content")).to_be_in_viewport()

    stops = []
    while True:
        page.keyboard.press("Tab")
        stop = focused(page)
        if not stop["inNavigator"]:
            break
        stops.append(stop["text"])
        if len(stops) == 1:
            # The first stop opens the Navigator, so the focused entry can be seen.
            expect(page.get_by_role("link", name="Main Lobby")).to_be_visible()
            screenshot("keyboard-navigator-open")
    assert stops[0] == "Main Lobby"
    assert {"Collection", "Deck Builder", "Card Browser", "Preferences", "Store"} <= set(stops)
    assert stops[-1].endswith("Exit") and not any(s.endswith("Exit") for s in stops[:-1])

    # The skip link jumps past the Navigator to the page's content.
    page.goto("/cards/")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "content"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "card-search"


@pytest.mark.parametrize("address", ["/cards/", "/collection/", "/decks/"])
def test_filter_dropdowns_close_on_escape_and_outside_click_and_light_up(page, catalog, address):
    UserFactory(username="Filterer")
    log_in(page, "Filterer")
    page.goto(address)
    dropdown = page.locator("details.dropdown", has=page.locator("summary", has_text="Rarity"))
    summary = dropdown.locator("summary")
    menu = dropdown.locator(".dropdown__menu")

    # Escape closes an open dropdown and leaves the focus on its button.
    summary.focus()
    page.keyboard.press("Enter")
    expect(menu).to_be_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"

    # A click outside closes it.
    summary.click()
    expect(menu).to_be_visible()
    page.locator("h1").click()
    expect(menu).to_be_hidden()

    # The light turns on the moment a filter is chosen, and off when none is.
    summary.click()
    expect(dropdown).not_to_have_class("dropdown dropdown--on")
    dropdown.get_by_label("Rare", exact=True).check()
    expect(dropdown).to_have_class("dropdown dropdown--on")
    dropdown.get_by_label("Rare", exact=True).uncheck()
    expect(dropdown).to_have_class("dropdown")
