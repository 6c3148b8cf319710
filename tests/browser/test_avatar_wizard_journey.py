"""Create Avatar and the Deckbuilding Wizard in headless Chromium."""

import json
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from collection.cards.models import Card
from collection.cards.services import set_files
from collection.decks.models import Deck
from collection.models import CardOwnership
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()


def choose(page, answer: str) -> None:
    """Tick the radio button whose label starts with ``answer``, once htmx has settled the
    step's form: its live preview listens only then."""
    choice = page.get_by_role("radio", name=re.compile(rf"^{re.escape(answer)}\b"))
    expect(choice).to_be_visible()
    expect(page.locator(".htmx-settling")).to_have_count(0)
    choice.check()


def give_starter_deck(player, archetype: str) -> None:
    """Own the cards of the set file's starter deck of ``archetype``."""
    data = json.loads(set_files()[0].read_text(encoding="utf-8"))
    deck = data["starter_decks"][archetype]
    lines = {deck["avatar"]: 1, **dict.fromkeys(deck["quests"], 1), **deck["deck"]}
    cards = Card.objects.filter(card_set__number=data["set"]["number"], title__in=lines)
    CardOwnership.objects.bulk_create(
        CardOwnership(owner=player, card=card, quantity=lines[card.title]) for card in cards
    )


def test_create_an_avatar_step_by_step(page, screenshot, catalog):
    UserFactory(username="Maker")
    log_in(page, "Maker")
    page.goto(reverse("decks:avatar_create"))
    preview = page.locator("#avatar-preview")
    expect(page.get_by_role("heading", name="Create Avatar")).to_be_visible()
    expect(preview).to_contain_text("Unknown species")

    choose(page, "Zabrak")
    expect(preview).to_contain_text("Zabrak")  # the card changes with the choice
    screenshot("avatar-species")
    page.get_by_role("button", name="Next").click()

    expect(page.get_by_text("Select your gender.")).to_be_visible()
    choose(page, "Male")
    page.get_by_role("button", name="Next").click()

    expect(page.get_by_text("Select your career")).to_be_visible()
    choose(page, "Marauder")
    expect(preview).to_contain_text("Sith Marauder")
    expect(preview).to_contain_text("Striketrough")
    screenshot("avatar-career")
    page.get_by_role("button", name="Next").click()

    choose(page, "Relentless")
    expect(preview).to_contain_text("Relentless")
    page.get_by_role("button", name="Next").click()

    choose(page, "Dathomir")
    expect(preview).to_contain_text("Raised on blood-red Dathomir")
    page.get_by_role("button", name="Back").click()
    expect(page.get_by_text("How do you fight?")).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("^Relentless"))).to_be_checked()
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("radio", name=re.compile("^Dathomir"))).to_be_checked()
    page.get_by_role("button", name="Next").click()

    expect(page.get_by_label("Name", exact=True)).to_be_visible()
    expect(page.locator(".htmx-settling")).to_have_count(0)
    page.get_by_label("Name", exact=True).fill("R2")
    page.get_by_role("button", name="Create avatar").click()
    expect(page.get_by_role("alert")).to_contain_text("3 to 40 characters")
    # The refused form is swapped in by htmx, whose live preview listens once it has settled.
    expect(page.locator(".htmx-settling")).to_have_count(0)
    page.get_by_label("Name", exact=True).fill("Vex Tharn")
    expect(preview).to_contain_text("Vex Tharn")
    screenshot("avatar-name")
    page.get_by_role("button", name="Create avatar").click()

    expect(page.get_by_role("heading", name="My Avatars")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("Vex Tharn is now a card in your collection")
    screenshot("avatar-list")
    made = Card.objects.get(creator__username="Maker")
    assert (made.title, made.archetype, made.attack, made.health) == ("Vex Tharn", "sith", 3, 18)


def test_the_wizard_builds_a_deck_from_a_starter_decks_cards(page, screenshot, catalog):
    player = UserFactory(username="Builder")
    give_starter_deck(player, "sith")
    log_in(page, "Builder")
    page.goto(reverse("decks:deck_wizard"))
    expect(page.get_by_role("radio", name=re.compile("^Jedi"))).to_be_disabled()
    expect(page.get_by_text("Missing: no Jedi avatar")).to_be_visible()
    choose(page, "Sith")
    screenshot("wizard-archetype")
    page.get_by_role("button", name="Next").click()

    expect(page.get_by_role("radio", name=re.compile("^Vorsa Kel"))).to_be_checked()
    page.get_by_role("button", name="Next").click()

    expect(page.get_by_text("Choose one quest of each level.")).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("^Claim the Holocron"))).to_be_checked()
    screenshot("wizard-quests")
    page.get_by_role("button", name="Next").click()

    fill = page.locator("#wizard-fill")
    expect(fill).to_contain_text("Deck: 50 of 50 cards")
    # htmx binds the step's inputs as it settles, just after the step shows: a person never
    # types within those milliseconds, but a busy test machine's script can.
    expect(page.locator(".htmx-settling")).to_have_count(0)
    page.locator("input[name=mix_unit]").fill("95")
    expect(fill).to_contain_text("add up to 150%")
    page.locator("input[name=mix_unit]").fill("55")
    page.locator("input[name=mix_ability]").fill("22")
    expect(fill).to_contain_text("Deck: 50 of 50 cards")
    screenshot("wizard-mix")
    page.get_by_role("button", name="Next").click()

    page.get_by_label("Deck name").fill("Ashes of Dathomir")
    page.get_by_role("button", name="Save deck").click()
    deck_url = re.compile(r"/decks/\d+/$")
    expect(page).to_have_url(deck_url)
    deck = Deck.objects.get(owner=player)
    assert page.url.endswith(reverse("decks:deck_edit", args=[deck.pk]))
    assert deck.name == "Ashes of Dathomir"
    assert sum(deck.entries.values_list("quantity", flat=True)) == 55
    screenshot("wizard-saved")
