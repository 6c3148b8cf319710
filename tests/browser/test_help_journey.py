"""Help in headless Chromium (rulebook, Main Lobby, "Help"): from the Main Lobby to the rules,
the search box, a glossary entry and back to its section; readable on a phone."""

import pytest
from playwright.sync_api import expect

from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(page, username, password=PASSWORD):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()


def test_a_player_reads_the_rules_searches_and_follows_a_term(page, screenshot):
    UserFactory(username="Learner")
    log_in(page, "Learner")
    page.get_by_role("link", name="Help The rules of the game").click()
    expect(page.get_by_role("heading", name="Help", exact=True)).to_be_visible()
    screenshot("help-home")

    page.get_by_role("link", name="Combat", exact=True).first.click()
    expect(page.get_by_role("heading", name="Combat", exact=True)).to_be_visible()
    expect(page.locator(".help__toc [aria-current]")).to_have_text("Combat")
    screenshot("help-combat")

    page.get_by_role("searchbox", name="Search Help").fill("sentry")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("status")).to_contain_text("for “sentry”")
    page.locator(".help__results a").first.click()
    expect(page.get_by_role("heading", name="Sentry")).to_be_visible()
    expect(page.locator(".help__definition")).to_contain_text("joins the combat")
    screenshot("help-term")

    page.get_by_role("link", name="Combat", exact=True).last.click()
    expect(page.get_by_role("heading", name="Combat", exact=True)).to_be_visible()


def test_help_fits_a_phone_without_logging_in(browser, live_server, screenshot):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    phone = context.new_page()
    for address in (
        "/help/",
        "/help/rules/tournaments/",
        "/help/glossary/",
        "/help/search/?q=raid",
    ):
        phone.goto(address)
        expect(phone.get_by_role("searchbox", name="Search Help")).to_be_visible()
        widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"{address} scrolls sideways: {widths}"
    phone.screenshot(path="test-artifacts/phone-help-search.png", full_page=True)
    context.close()
