"""The Deck Builder journey in headless Chromium: build a deck from owned cards, validate it,
fix it, save it, test-draw a hand, export it and import it back."""

import re

import pytest
from playwright.sync_api import expect

from collection.cards.models import Card
from collection.decks.models import Deck
from collection.models import CardOwnership, Product
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username, password=PASSWORD):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()


def filter_by_type(page, card_type: str, owned: dict) -> None:
    """Card Type filter: only ``card_type`` on (rulebook, FILTERS & SEARCH OPTIONS)."""
    page.locator("summary", has_text="Card Type").click()
    for box in page.locator("input[name=type]").all():
        box.set_checked(box.get_attribute("value") == card_type)
    page.keyboard.press("Escape")
    expected = sum(1 for card in owned if card.card_type == card_type)
    expect(page.locator("#collection-results .tile")).to_have_count(expected)
    # htmx listens on swapped-in tiles (double-click adds) only once they have settled.
    expect(page.locator(".htmx-settling")).to_have_count(0)


def collection_tile(page, title: str):
    return page.locator("#collection-results .tile", has=page.get_by_alt_text(title, exact=True))


def open_tool(page, name: str):
    page.locator(".toolbar summary", has_text="Tools").click()
    page.get_by_role("button", name=name, exact=True).click()
    dialog = page.locator("#tool-dialog")
    expect(dialog.locator(".tool__title")).to_have_text(name)
    return dialog


def close_tool(page):
    page.locator("#tool-dialog").get_by_role("button", name="Close").click()
    expect(page.locator("#tool-dialog")).not_to_be_visible()


def test_build_validate_save_draw_export_and_import_a_deck(page, screenshot, catalog):
    # Given the site's play formats and a player who owns the Jedi starter deck's cards,
    # and one Sith tactic.
    player = UserFactory(username="DeckBuilder")
    starter = Product.objects.get(kind="starter_deck", archetype="jedi").starter_cards.all()
    owned = {line.card: line.quantity for line in starter.select_related("card")}
    sith_tactic = Card.objects.filter(archetype="sith", card_type="tactic").first()
    owned[sith_tactic] = 1
    CardOwnership.objects.bulk_create(
        CardOwnership(owner=player, card=card, quantity=quantity)
        for card, quantity in owned.items()
    )
    avatar = next(card for card in owned if card.card_type == "avatar")
    quests = [card for card in owned if card.card_type == "quest"]
    others = {
        card: copies for card, copies in owned.items() if card.card_type not in ("avatar", "quest")
    }

    log_in(page, "DeckBuilder")
    page.goto("/decks/")
    expect(page.get_by_role("heading", name="Deck Builder")).to_be_visible()
    expect(page.locator("#collection-results .results__count")).to_have_text(str(len(owned)))

    # Double-click adds one copy: the avatar and the four quests.
    filter_by_type(page, "avatar", owned)
    collection_tile(page, avatar.title).locator("img").dblclick()
    expect(page.locator("#deck-status")).to_have_text(f"Added 1 copy of {avatar.title}.")
    expect(collection_tile(page, avatar.title).locator('[data-op="add"]')).to_be_disabled()
    filter_by_type(page, "quest", owned)
    for quest in quests:
        collection_tile(page, quest.title).locator("img").dblclick()
        expect(page.locator("#deck-status")).to_contain_text(quest.title)
    expect(page.locator(".deck-summary")).to_contain_text("Quests 4/4")

    # Choose a number of copies: every copy owned of the other cards, in Table View.
    page.locator("#collection-results").get_by_role("link", name="Table View").click()
    expect(page.locator("#collection-results .builder-table")).to_be_visible()
    for card_type in ("unit", "ability", "item", "tactic"):
        filter_by_type(page, card_type, owned)
        for card, copies in others.items():
            if card.card_type != card_type:
                continue
            row = page.locator("#collection-results tr.tile", has_text=card.title)
            row.get_by_label(f"Number of copies of {card.title}").fill(str(copies))
            row.get_by_role("button", name=f"Add copies of {card.title}").click()
            expect(row.locator(".js-in-deck")).to_have_text(str(copies))
            expect(row.get_by_role("button", name=f"Add copies of {card.title}")).to_be_disabled()
    deck_size = sum(others.values())
    expect(page.locator(".deck-summary")).to_contain_text(f"Deck {deck_size}/50+")
    screenshot("deck-builder-building")

    # Validate: the Sith tactic breaks the archetype rule; a click on the red X says why.
    dialog = open_tool(page, "Validate")
    expect(dialog.locator(".validator__tab").first).to_contain_text("Standard")
    failure = dialog.locator(".validator__panel").first.locator(".rule--fail")
    expect(failure).to_have_count(1)
    expect(failure).to_contain_text("Cards with an archetype match your avatar's archetype")
    explanation = failure.locator(".rule__explanation")
    expect(explanation).not_to_be_visible()
    failure.locator("summary").click()
    expect(explanation).to_be_visible()
    expect(explanation).to_contain_text(f"'{sith_tactic.title}' is sith, not jedi")
    screenshot("deck-builder-validate")
    close_tool(page)

    # Fix it: remove the Sith tactic from the deck container; the deck is now legal.
    page.locator("#deck-container").get_by_role(
        "button", name=f"Remove one {sith_tactic.title}"
    ).click()
    expect(page.locator("#deck-status")).to_have_text(f"Removed 1 copy of {sith_tactic.title}.")
    dialog = open_tool(page, "Validate")
    expect(dialog.locator(".validator__tab").first).to_have_class(re.compile("validator__tab--ok"))
    expect(dialog.locator(".validator__panel").first).to_contain_text(
        "This deck is legal for Standard."
    )
    close_tool(page)

    # Save Deck: decks live on the server.
    page.get_by_label("Deck name").fill("Temple Guard")
    page.get_by_role("button", name="Save Deck").click()
    expect(page.locator("#deck-status")).to_contain_text("Saved \u201cTemple Guard\u201d.")
    deck = Deck.objects.get(owner=player, name="Temple Guard")
    expect(page).to_have_url(re.compile(rf"/decks/{deck.pk}/$"))
    assert sum(deck.entries.values_list("quantity", flat=True)) == 1 + 4 + deck_size - 1

    # Test Draw: an opening hand of six; discard one, draw one, shuffle and redraw.
    dialog = open_tool(page, "Test Draw")
    hand = dialog.locator(".hand__card")
    expect(hand).to_have_count(6)
    hand.first.click()
    expect(hand).to_have_count(5)
    expect(dialog.locator(".discards")).to_be_visible()
    dialog.get_by_role("button", name="Draw", exact=True).click()
    expect(hand).to_have_count(6)
    expect(dialog.locator(".test-draw__left")).to_have_text(str(deck_size - 1 - 7))
    screenshot("deck-builder-test-draw")
    dialog.get_by_role("button", name="Shuffle & Redraw").click()
    expect(hand).to_have_count(6)
    expect(dialog.locator(".test-draw__left")).to_have_text(str(deck_size - 1 - 6))
    expect(dialog.locator(".discards")).to_have_count(0)
    close_tool(page)

    # Export, then import the list into a new deck (a made-up line is reported, not fatal).
    dialog = open_tool(page, "Export")
    text = dialog.locator("#export-text").input_value()
    assert text.startswith("# Temple Guard\n\nAvatar\n1 ") and "\nDeck\n" in text
    close_tool(page)
    page.locator(".toolbar").get_by_role("link", name="New Deck").click()
    expect(page.locator(".deck-summary")).to_contain_text("Deck 0/50+")
    dialog = open_tool(page, "Import")
    dialog.get_by_label("Deck list to import").fill(text + "2 Droid That Never Was\n")
    dialog.get_by_role("button", name="Import").click()
    expect(dialog.locator(".import-problems")).to_contain_text(
        "\u201c2 Droid That Never Was\u201d: no card has this title."
    )
    screenshot("deck-builder-import")
    close_tool(page)
    expect(page.locator(".deck-summary")).to_contain_text(f"Deck {deck_size - 1}/50+")
    expect(page.locator(".deck-summary")).to_contain_text("Quests 4/4")
    screenshot("deck-builder-imported")
