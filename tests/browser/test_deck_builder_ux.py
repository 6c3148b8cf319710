"""The Deck Builder as a new player meets it, in headless Chromium: unsaved edits survive a
reload and a visit elsewhere, leaving warns, the deck is also a compact list by cost, Large
cards leave room for more than one row, and Import takes the deck's name from its header."""

import time

import pytest
from playwright.sync_api import expect

from collection.decks.models import Deck
from collection.models import CardOwnership, Product
from tcgsite.accounts.models import Preferences
from tests.browser.conftest import ARTIFACTS
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
DRAFTS = "Object.keys(localStorage).filter((key) => key.startsWith('deck-builder-draft:'))"


def log_in(page, username, password=PASSWORD):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Main Lobby")).to_be_visible()


def player_with_jedi_starter(username: str) -> dict:
    """A player who owns the Jedi starter deck's cards; returns them with their copies."""
    player = UserFactory(username=username)
    starter = Product.objects.get(kind="starter_deck", archetype="jedi").starter_cards.all()
    owned = {line.card: line.quantity for line in starter.select_related("card")}
    CardOwnership.objects.bulk_create(
        CardOwnership(owner=player, card=card, quantity=quantity)
        for card, quantity in owned.items()
    )
    return owned


def prefilled_builder(owned: dict) -> str:
    return "/decks/?" + "&".join(f"entry={card.pk}x{copies}" for card, copies in owned.items())


def avatar_of(owned: dict):
    return next(card for card in owned if card.card_type == "avatar")


def add_avatar(page, owned: dict) -> None:
    avatar = avatar_of(owned)
    page.locator(
        "#collection-results .tile", has=page.get_by_alt_text(avatar.title, exact=True)
    ).locator("img").dblclick()
    expect(page.locator("#deck-status")).to_have_text(f"Added 1 copy of {avatar.title}.")
    # The page knows its deck has unsaved changes once the deck's own box is swapped in.
    expect(page.locator("#deck-container")).to_have_attribute("data-dirty", "true")


def test_reload_keeps_unsaved_edits_and_saving_clears_the_draft(page, screenshot, catalog):
    owned = player_with_jedi_starter("Drafter")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
    log_in(page, "Drafter")
    page.goto("/decks/")
    expect(page.locator("#draft-notice")).to_be_hidden()

    # Given an avatar added and a name typed, not saved.
    add_avatar(page, owned)
    page.get_by_label("Deck name").fill("Temple Draft")

    # When the page is reloaded, the browser first asks, then the edits come back.
    page.reload()
    assert dialogs == ["beforeunload"]
    expect(page.locator("#draft-notice")).to_be_visible()
    expect(page.locator("#draft-notice")).to_contain_text("Restored unsaved changes")
    expect(page.locator("#deck-container .deck-summary")).to_contain_text("Avatar 1/1")
    expect(page.get_by_label("Deck name")).to_have_value("Temple Draft")
    screenshot("deck-builder-draft-restored")

    # Saving clears the draft; a reload then neither asks nor restores anything.
    page.get_by_role("button", name="Save Deck").click()
    expect(page.locator("#deck-status")).to_contain_text("Saved \u201cTemple Draft\u201d")
    assert page.evaluate(DRAFTS) == []
    deck = Deck.objects.get(name="Temple Draft")
    expect(page).to_have_url(f"/decks/{deck.pk}/")
    page.reload()
    assert dialogs == ["beforeunload"]
    expect(page.locator("#draft-notice")).to_be_hidden()
    expect(page.locator("#deck-container .deck-summary")).to_contain_text("Avatar 1/1")


def test_leaving_by_the_navigator_warns_and_the_draft_waits_until_discarded(
    page, screenshot, catalog
):
    owned = player_with_jedi_starter("Wanderer")
    log_in(page, "Wanderer")
    page.goto("/decks/")
    add_avatar(page, owned)

    # The Navigator asks first; staying keeps the page as it is.
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.locator(".navigator").hover()
    collection = page.locator(".navigator").get_by_role("link", name="Collection")
    expect(collection).to_be_visible()
    # The question comes a moment after the click: wait for it, not only for the page as it is;
    # on a busy machine the click alone (the Navigator still sliding out) takes seconds.
    with page.expect_event("dialog", timeout=30_000):
        collection.click()
    expect(page.locator("#deck-container .deck-summary")).to_contain_text("Avatar 1/1")
    assert "unsaved changes" in questions[0]
    expect(page).to_have_url("/decks/")

    # Leaving anyway, then coming back by the Navigator, brings the edits back.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".navigator").hover()
    page.locator(".navigator").get_by_role("link", name="Collection").click()
    expect(page.get_by_role("heading", name="Collection Manager")).to_be_visible()
    page.locator(".navigator").hover()
    page.locator(".navigator").get_by_role("link", name="Deck Builder").click()
    expect(page.locator("#draft-notice")).to_be_visible()
    expect(page.locator("#deck-container .deck-summary")).to_contain_text("Avatar 1/1")

    # Discard drops them for good.
    page.locator("#draft-notice").get_by_role("button", name="Discard").click()
    expect(page.locator("#deck-container .deck-summary")).to_contain_text("Avatar 0/1")
    expect(page.locator("#draft-notice")).to_be_hidden()
    assert page.evaluate(DRAFTS) == []
    page.locator(".navigator").hover()
    page.locator(".navigator").get_by_role("link", name="Collection").click()
    expect(page.get_by_role("heading", name="Collection Manager")).to_be_visible()


def test_the_deck_is_also_a_compact_list_grouped_by_cost(page, screenshot, catalog):
    owned = player_with_jedi_starter("Lister")
    log_in(page, "Lister")
    page.goto(prefilled_builder(owned))

    deck_cards = {c: n for c, n in owned.items() if c.card_type not in ("avatar", "quest")}
    expected = {}
    for card, copies in deck_cards.items():
        expected[card.cost] = expected.get(card.cost, 0) + copies
    groups = page.locator("#deck-list .deck-list__cost-group")
    expect(groups).to_have_count(len(expected))
    shown = {}
    for text in groups.all_inner_texts():
        label, count = text.rsplit(maxsplit=1)
        shown[label] = int(count)
    assert shown == {f"Cost {cost}": count for cost, count in sorted(expected.items())}
    assert list(shown) == [f"Cost {cost}" for cost in sorted(expected)]  # cheapest first
    expect(page.locator("#deck-list")).to_contain_text(f"Deck list {sum(owned.values())} cards")
    screenshot("deck-builder-compact-list")

    # The list follows the deck: removing a copy there updates its group.
    cheapest = min(expected)
    line = page.locator("#deck-list .deck-list__line").filter(
        has_text=next(c.title for c in deck_cards if c.cost == cheapest)
    )
    line.hover()
    line.get_by_role("button", name="Remove one").click()
    expect(page.locator("#deck-list .deck-list__cost-group").first).to_have_text(
        f"Cost {cheapest} {expected[cheapest] - 1}"
    )


ROWS_IN_VIEW = """([cards, box]) => {
    const area = document.querySelector(box).getBoundingClientRect();
    const top = Math.max(area.top, 0), bottom = Math.min(area.bottom, window.innerHeight);
    const rows = new Set();
    document.querySelectorAll(cards).forEach((card) => {
        const r = card.getBoundingClientRect();
        const whole = r.top >= top - 1 && r.bottom <= bottom + 1;
        if (r.height > 50 && whole) rows.add(Math.round(r.top));
    });
    return rows.size;
}"""


def test_large_cards_leave_more_than_one_row_in_both_areas(page, screenshot, catalog):
    owned = player_with_jedi_starter("BigCards")
    Preferences.objects.filter(user__username="BigCards").update(
        card_size_collection="large", card_size_deck="large"
    )
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, "BigCards")
    page.goto(prefilled_builder(owned))
    page.wait_for_load_state("networkidle")

    collection = ["#collection-results .tile__face", "#collection-scroll"]
    assert page.evaluate(ROWS_IN_VIEW, collection) >= 2
    screenshot("deck-builder-large-collection")
    page.locator("#deck-container").scroll_into_view_if_needed()
    page.wait_for_load_state("networkidle")
    deck = [".deck-part--deck .deck-card__face", "#deck-container .box-scroll"]
    assert page.evaluate(ROWS_IN_VIEW, deck) >= 2
    # Save Deck stays at hand wherever the page is scrolled.
    expect(page.get_by_role("button", name="Save Deck")).to_be_in_viewport()


def test_import_names_the_deck_after_the_header(page, catalog):
    owned = player_with_jedi_starter("Importer")
    log_in(page, "Importer")
    page.goto("/decks/")
    page.locator(".toolbar summary", has_text="Tools").click()
    page.get_by_role("button", name="Import", exact=True).click()
    dialog = page.locator("#tool-dialog")
    dialog.get_by_label("Deck list to import").fill(
        f"# Padawan Practice\n1 {avatar_of(owned).title}\n"
    )
    dialog.get_by_role("button", name="Import", exact=True).click()
    expect(dialog.locator(".deck-status")).to_contain_text("named \u201cPadawan Practice\u201d")
    expect(page.get_by_label("Deck name")).to_have_value("Padawan Practice")
    expect(page.locator("#deck-container .deck-summary")).to_contain_text("Avatar 1/1")


def test_the_saved_message_shows_where_the_player_is_looking(page, catalog):
    """At 1440x900 the Deck Builder's "Saved ..." came below the window (issue 33, point 8):
    after Save Deck the message is beside the button, inside the window; the next change of
    the deck clears it."""
    owned = player_with_jedi_starter("Saver")
    page.set_viewport_size(LAPTOP)
    log_in(page, "Saver")
    page.goto(prefilled_builder(owned))
    page.get_by_label("Deck name").fill("Temple Keeper")

    page.get_by_role("button", name="Save Deck").click()

    saved = page.locator("#deck-save-status")
    expect(saved).to_contain_text("Saved \u201cTemple Keeper\u201d.")
    box = saved.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= LAPTOP["width"], box
    page.screenshot(path=str(ARTIFACTS / "deck-builder-saved-1440x900.png"))
    page.locator("#deck-container").get_by_role("button", name="Remove one").first.click()
    expect(page.locator("#deck-status")).to_contain_text("Removed 1 copy")
    expect(saved).to_be_empty()

    # On a phone too.
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Save Deck").click()
    expect(saved).to_contain_text("Saved changes to \u201cTemple Keeper\u201d.")
    expect(saved).to_be_in_viewport()
    box = saved.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    page.screenshot(path=str(ARTIFACTS / "deck-builder-saved-phone.png"))


def held_answers(page, pattern: str) -> list:
    """Holds the requests matching ``pattern`` until the test lets each go on."""
    held = []
    page.route(pattern, lambda route: held.append(route))
    return held


def until_held(page, held: list) -> None:
    # Playwright runs the route handler while the test waits.
    deadline = time.monotonic() + 20
    while not held:
        assert time.monotonic() < deadline, "the request never came"
        page.wait_for_timeout(20)


def test_a_tool_closed_while_its_answer_was_on_its_way_stays_closed(page, catalog):
    """Test Draw reopened by itself when its answer landed after the player had closed it
    (issue 45, point 9; rulebook, Deck Builder, Test Draw): the tool opens when it is picked,
    and an answer only fills it."""
    owned = player_with_jedi_starter("Closer")
    log_in(page, "Closer")
    page.goto(prefilled_builder(owned))
    dialog = page.locator("#tool-dialog")
    hand = dialog.locator(".hand__card")
    held = held_answers(page, "**/game/test-draw/**")

    # A Draw clicked, then Close: the seventh card comes into a closed tool.
    page.locator(".toolbar summary", has_text="Tools").click()
    page.get_by_role("button", name="Test Draw", exact=True).click()
    until_held(page, held)
    held.pop().continue_()
    expect(hand).to_have_count(6)
    dialog.get_by_role("button", name="Draw", exact=True).click()
    until_held(page, held)
    dialog.get_by_role("button", name="Close").click()
    held.pop().continue_()
    expect(hand).to_have_count(7)
    expect(dialog).to_be_hidden()

    # Picked from Tools, Test Draw opens at once and says it is loading; closed before the
    # hand comes, it stays closed when the hand comes.
    page.locator(".toolbar summary", has_text="Tools").click()
    page.get_by_role("button", name="Test Draw", exact=True).click()
    expect(dialog.get_by_role("status")).to_have_text("Loading…")
    until_held(page, held)
    dialog.get_by_role("button", name="Close").click()
    held.pop().continue_()
    expect(hand).to_have_count(6)
    expect(dialog).to_be_hidden()
