"""The Chat Log's card names and Card Warnings in a browser (rulebook, THE GAME SCREEN, "Game
Messages": a click on an underlined card name magnifies the card; PREFERENCES, Game/Playmat,
"Card Warnings": a warning before a card's restriction replaces one in play). Carol (the
Imperial starter deck) has Officer's Sidearm in play and Regulation Blaster Rifle in her hand:
playing the rifle destroys the sidearm (tests/game/test_card_warnings.py)."""

import re

import pytest
from playwright.sync_api import expect

from game.models import Game
from game.services.matches import match_concede
from tests.browser.conftest import ARTIFACTS, confirm
from tests.browser.test_playmat_journey import (  # noqa: F401 - open_playmat: the fixture
    PHONE,
    SMALL_DESKTOP,
    latest_state,
    open_playmat,
    wait_until,
)
from tests.factories import UserFactory
from tests.game.conftest import play_at_random, player_with_deck, start_match
from tests.game.test_card_warnings import IN_PLAY, REPLACING, imperial_match, sidearm_to_replace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RIFLE_PLAY = f'.prompt__actions [data-action-kind="play"][data-warning*="{REPLACING}"]'


def magnified(page, title: str) -> None:
    """The card ``title`` is magnified from its face, then put away with a click."""
    zoom = page.locator("#card-zoom")
    expect(zoom).to_be_visible()
    expect(zoom.locator("img")).to_have_attribute("alt", title)
    expect(zoom.locator("img")).to_have_attribute("src", re.compile(r"\.svg\?size=large$"))
    wait_until(page, "document.querySelector('#card-zoom img').naturalWidth > 0")


def test_a_card_named_in_the_log_is_magnified_for_a_player_and_an_observer(
    catalog,
    open_playmat,  # noqa: F811 - the fixture
):
    match, _, _ = imperial_match()
    sidearm_to_replace(match)
    UserFactory(username="Dana")
    carol = open_playmat(match, "Carol", viewport=SMALL_DESKTOP)
    dana = open_playmat(match, "Dana", viewport=PHONE)

    carol.locator(RIFLE_PLAY).click()
    confirm(carol, "Play it")

    for page in (carol, dana):
        sidearm = page.locator("#match-log .log-card", has_text=IN_PLAY)
        expect(sidearm).to_have_count(1)
        expect(page.locator("#match-log")).to_contain_text(f"{IN_PLAY} is destroyed.")
        sidearm.scroll_into_view_if_needed()
        sidearm.click()
        magnified(page, IN_PLAY)
    carol.screenshot(path=str(ARTIFACTS / "chat-log-magnified-1280x720.png"))
    dana.screenshot(path=str(ARTIFACTS / "chat-log-magnified-phone.png"))
    carol.keyboard.press("Escape")
    expect(carol.locator("#card-zoom")).to_be_hidden()
    # The keyboard reaches a name too: Tab to it, Enter.
    rifle = carol.locator("#match-log .log-card", has_text=REPLACING).first
    rifle.focus()
    carol.keyboard.press("Enter")
    magnified(carol, REPLACING)
    carol.keyboard.press("Escape")
    carol.screenshot(path=str(ARTIFACTS / "chat-log-cards-1280x720.png"))
    dana.keyboard.press("Escape")
    dana.locator("#match-log").scroll_into_view_if_needed()
    dana.screenshot(path=str(ARTIFACTS / "chat-log-cards-phone.png"))


def test_a_card_named_in_a_replays_log_is_magnified(
    catalog,
    open_playmat,  # noqa: F811 - the fixture
):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob)
    play_at_random(match, 30, seed=5)
    match_concede(match_id=match.pk, player=bob)
    UserFactory(username="Dana")
    page = open_playmat(match, "Dana", viewport=SMALL_DESKTOP)

    page.goto(f"/matches/{match.pk}/replay/")

    name = page.locator("#match-log .log-card").first
    title = name.inner_text()
    name.click()
    magnified(page, title)
    page.screenshot(path=str(ARTIFACTS / "replay-log-magnified-1280x720.png"))
    page.wait_for_timeout(450)  # a click at once would be the end of a long press
    page.locator("#card-zoom").click()
    expect(page.locator("#card-zoom")).to_be_hidden()


def test_card_warnings_ask_before_the_rifle_replaces_the_sidearm(
    catalog,
    open_playmat,  # noqa: F811 - the fixture
):
    """Cancel plays nothing; a double-click on the rifle in the hand asks again, and Play it
    plays it: the sidearm is destroyed."""
    match, _, _ = imperial_match()
    sidearm_to_replace(match)
    page = open_playmat(match, "Carol", viewport=SMALL_DESKTOP)
    dialog = page.locator("#confirm-dialog")
    ply = page.locator(".prompt").get_attribute("data-ply")

    page.locator(RIFLE_PLAY).click()

    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"your {IN_PLAY} will be destroyed")
    page.screenshot(path=str(ARTIFACTS / "card-warning-1280x720.png"))
    confirm(page, "Cancel")

    rifle_id = page.locator(RIFLE_PLAY).get_attribute("data-action-card")
    page.locator(f'.mat-hand .mat-card[data-card="{rifle_id}"]').dblclick()
    expect(dialog).to_contain_text(IN_PLAY)
    confirm(page, "Play it")

    expect(page.locator(".prompt")).not_to_have_attribute("data-ply", ply)
    expect(page.locator("#match-log")).to_contain_text(f"{IN_PLAY} is destroyed.")
    assert latest_state(match).seats[0].items == [int(rifle_id)]
    # One play in all: Cancel sent nothing.
    assert Game.objects.get(match=match).applied == 1


def test_with_card_warnings_off_the_rifle_is_played_at_once(
    catalog,
    open_playmat,  # noqa: F811 - the fixture
):
    match, carol, _ = imperial_match()
    sidearm_to_replace(match)
    carol.preferences.card_warnings = False
    carol.preferences.save()
    page = open_playmat(match, "Carol", viewport=PHONE)
    play = page.locator('.prompt__actions [data-action-kind="play"]', has_text=REPLACING)

    play.click()

    expect(page.locator("#match-log")).to_contain_text(f"{IN_PLAY} is destroyed.")
    expect(page.locator("#confirm-dialog")).to_be_hidden()


def test_the_card_warning_fits_a_phone(
    catalog,
    open_playmat,  # noqa: F811 - the fixture
):
    """The question fits a phone's width."""
    match, _, _ = imperial_match()
    sidearm_to_replace(match)
    page = open_playmat(match, "Carol", viewport=PHONE)

    page.locator(RIFLE_PLAY).click()

    box = page.locator("#confirm-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "card-warning-phone.png"))
    confirm(page, "Cancel")


def test_card_warnings_turned_on_from_the_playmats_settings_asks_at_once(
    catalog,
    open_playmat,  # noqa: F811 - the fixture
):
    """The playmat's Settings… offer Card Warnings; saved, the page is drawn anew and the
    rifle's play asks."""
    match, carol, _ = imperial_match()
    sidearm_to_replace(match)
    carol.preferences.card_warnings = False
    carol.preferences.save()
    page = open_playmat(match, "Carol", viewport=SMALL_DESKTOP)
    expect(page.locator(RIFLE_PLAY)).to_have_count(0)

    page.locator("[data-playmat-menu] summary").click()
    page.get_by_role("menuitem", name="Settings…").click()
    settings = page.locator("#playmat-settings")
    settings.get_by_label("Card Warnings").check()
    page.screenshot(path=str(ARTIFACTS / "playmat-settings-card-warnings-1280x720.png"))
    box = settings.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= SMALL_DESKTOP["height"]
    # The whole window shows, its Accept button too, with nothing to scroll to.
    assert settings.evaluate("dialog => dialog.scrollHeight <= dialog.clientHeight")
    accept = settings.get_by_role("button", name="Accept").bounding_box()
    assert accept["y"] + accept["height"] <= SMALL_DESKTOP["height"]
    settings.get_by_role("button", name="Accept").click()

    expect(page.locator(RIFLE_PLAY)).to_have_count(1)
    expect(settings).to_be_hidden()
    page.locator(RIFLE_PLAY).click()
    expect(page.locator("#confirm-dialog")).to_contain_text(IN_PLAY)
    confirm(page, "Cancel")
