"""Main journeys in headless Chromium: sign up, log in, search the cards, preferences."""

import re

import pytest
from playwright.sync_api import expect

from collection.cards.models import Card
from tcgsite.accounts.models import Preferences
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username, password=PASSWORD):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()


def test_sign_up_log_out_and_log_in(page, screenshot):
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("NewPadawan")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()
    expect(page.get_by_text("Player Tips")).to_be_visible()
    screenshot("lobby")

    page.locator(".navigator").hover()
    page.get_by_role("button", name="Exit").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()

    log_in(page, "newpadawan")
    expect(page.locator(".whoami")).to_contain_text("NewPadawan")


def test_search_cards_with_numeric_filter_and_text(page, screenshot, catalog):
    UserFactory(username="Browser")
    log_in(page, "Browser")
    page.locator(".navigator").hover()
    page.get_by_role("link", name="Card Browser").click()
    expect(page.get_by_role("heading", name="Card Browser")).to_be_visible()

    page.get_by_role("link", name="Table View").click()
    expect(page.locator(".card-table")).to_be_visible()
    page.get_by_label("Attribute").select_option("cost")
    page.get_by_label("Operator").select_option(">=")
    page.get_by_label("Value").fill("4")
    page.get_by_role("button", name="Add filter").click()
    expect(page.locator(".chip")).to_contain_text("cost >= 4")
    expected = Card.objects.filter(cost__gte=4).count()
    expect(page.locator(".results__count")).to_contain_text(f"{expected} card")
    costs = page.locator(".card-table tbody td:nth-child(6)").all_inner_texts()
    assert costs and all(int(cost) >= 4 for cost in costs)
    expect(page).to_have_url(re.compile(r"num=cost%3E%3D4"))

    target = Card.objects.filter(cost__gte=4).order_by("number").first()
    word = max(target.title.split(), key=len)
    page.get_by_label("Search cards").fill(word)
    expect(page).to_have_url(re.compile(rf"q={re.escape(word)}"))
    expect(page.locator(".card-table")).to_contain_text(target.title)
    screenshot("card-browser-table")

    page.get_by_label("Value").fill("abc")
    page.get_by_role("button", name="Add filter").click()
    expect(page.locator(".filter-errors")).to_contain_text("whole number")

    page.get_by_role("link", name=target.title).first.click()
    expect(page.get_by_role("heading", name=target.title)).to_be_visible()
    expect(page.locator(".card-page__face svg")).to_be_visible()
    screenshot("card-page")


def test_graphic_view_shows_card_faces(page, screenshot, catalog):
    UserFactory(username="Looker")
    log_in(page, "Looker")
    page.goto("/cards/?type=unit&archetype=jedi")
    expect(page.locator(".card-grid img").first).to_be_visible()
    screenshot("card-browser-graphic")


def test_change_a_preference_and_see_it_kept(page, screenshot):
    user = UserFactory(username="Tinkerer")
    log_in(page, "Tinkerer")
    page.goto("/preferences/interface/")
    page.get_by_label("Deck Builder deck").select_option("large")
    page.get_by_label("Show only cards I own").check()
    page.get_by_role("button", name="Accept").click()
    expect(page.get_by_text("User Interface saved.")).to_be_visible()

    page.reload()
    expect(page.get_by_label("Deck Builder deck")).to_have_value("large")
    expect(page.get_by_label("Show only cards I own")).to_be_checked()
    screenshot("preferences-interface")
    preferences = Preferences.objects.get(user=user)
    assert preferences.card_size_deck == "large"
    assert preferences.show_only_owned_cards is True
