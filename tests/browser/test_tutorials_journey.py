"""A newcomer's first game (rulebook, "Tutorials"): signed up, they find the Tutorials from the
Main Lobby's Play entry, choose one on the map, read its dialogs beside the parts of the
playmat they speak of, see its victory conditions behind the opponent avatar's Info button,
win it through the playmat, and find their progress kept on the map and in the lobby."""

import re
import time

import pytest
from playwright.sync_api import expect

from game.models import TutorialProgress
from game.services.scenarios import scenario_start
from game.services.tutorials import tutorial_start
from game.tutorials import COMBAT_TOTALS, FIRST_QUEST, HAND, PHASE_METER, PROMPT
from tests.browser.test_journeys import log_in
from tests.browser.test_playmat_journey import wait_until
from tests.factories import PASSWORD, UserFactory
from tests.game.conftest import starter_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_DESKTOP = {"width": 1280, "height": 720}


def inside_window(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def settles_inside_window(page, selector: str, timeout: float = 10) -> None:
    """Wait until ``selector`` is placed wholly inside the window: the socket's first message
    swaps the screen in anew, and the dialog is placed again after it."""
    deadline = time.monotonic() + timeout
    while not inside_window(page, selector):
        assert time.monotonic() < deadline, f"{selector} never settled inside the window"
        page.wait_for_timeout(100)


def play_from_the_prompt(page, selector: str) -> None:
    """Click the Prompt's button ``selector`` and wait for the socket to show the next
    decision (the Prompt's ply moves on)."""
    ply = page.locator(".prompt").get_attribute("data-ply")
    page.locator(f".prompt__actions {selector}").first.click()
    expect(page.locator(".prompt")).not_to_have_attribute("data-ply", ply)


def test_a_newcomer_finds_plays_and_completes_a_tutorial(page, screenshot, catalog):
    page.set_viewport_size(SMALL_DESKTOP)
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("Nell")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    # The Main Lobby's Play entry leads a new player to the Tutorials first; so do the tips.
    play = page.locator("#play-panel")
    expect(play.locator(".play-choice--first")).to_contain_text("Tutorials")
    expect(play).to_contain_text("0 of 6 completed")
    expect(page.locator(".tips").get_by_role("link", name="Open the Tutorials")).to_be_visible()
    screenshot("tutorials-main-lobby")
    play.get_by_role("link", name=re.compile("^Tutorials")).click()

    # The map: a world per tutorial; choosing one shows what it teaches and its Play button.
    expect(page.get_by_role("heading", name="Tutorials", exact=True)).to_be_visible()
    expect(page.locator(".tutorial-map__world")).to_have_count(6)
    screenshot("tutorials-map")
    page.locator(".tutorial-map__world").first.click()
    chosen = page.locator("#tutorial-power-and-cards")
    expect(chosen).to_contain_text("Have a unit at a quest, an item and an ability")
    chosen.get_by_role("button", name="Play").click()

    # The playmat: the first dialog stands beside the avatar it speaks of, which glows.
    expect(page.locator(".playmat")).to_be_visible()
    dialog = page.locator(".tutorial-dialog")
    expect(dialog).to_contain_text("Your avatar and your power")
    expect(page.locator('[data-zone="avatar-0"]')).to_have_class(re.compile("tutorial-target"))
    settles_inside_window(page, ".tutorial-dialog")
    screenshot("tutorials-first-dialog")
    dialog.get_by_role("button", name="Got it").click()
    expect(dialog).to_contain_text("Your hand")
    expect(page.locator('[data-zone="hand"]')).to_have_class(re.compile("tutorial-target"))

    # The opponent avatar's Info button shows the victory conditions.
    page.locator(".mat-avatar__info").click()
    conditions = page.locator("#victory-conditions")
    expect(conditions).to_be_visible()
    expect(conditions).to_contain_text("Have a unit at a quest, an item and an ability")
    conditions.get_by_role("button", name="Close").click()
    expect(conditions).to_be_hidden()

    # Review Dialogs, from the playmat's menu, lists the dialogs read so far.
    page.locator("[data-playmat-menu] summary").click()
    page.get_by_role("menuitem", name="Review Dialogs…").click()
    review = page.locator("#review-dialogs")
    expect(review).to_contain_text("Your avatar and your power")
    expect(review).not_to_contain_text("Items and abilities")
    review.get_by_role("button", name="Close").click()

    # The lesson, played through the playmat: a unit to a quest, then the item and the ability.
    dialog.get_by_role("button", name="Got it").click()
    expect(dialog).to_have_count(0)
    play_from_the_prompt(page, 'button[data-action-kind="play"][data-action-quest]')
    expect(dialog).to_contain_text("Items and abilities")
    expect(page.locator('[data-zone="items-0"]')).to_have_class(re.compile("tutorial-target"))
    dialog.get_by_role("button", name="Got it").click()
    expect(dialog).to_have_count(0)
    play_from_the_prompt(page, 'button[data-action-kind="play"]:not([data-action-quest])')
    page.locator(
        '.prompt__actions button[data-action-kind="play"]:not([data-action-quest])'
    ).first.click()

    result = page.locator(".match-result")
    expect(result.get_by_role("heading", name="Tutorial complete")).to_be_visible()
    expect(result).to_contain_text("the tutorial's goal is reached")
    screenshot("tutorials-complete")
    assert TutorialProgress.objects.filter(player__username="Nell").count() == 1

    # The progress is kept: on the map, and in the Main Lobby.
    result.get_by_role("link", name="Tutorials map").click()
    expect(page.locator(".tutorial-progress")).to_contain_text("1 of 6")
    expect(page.locator("#tutorial-power-and-cards")).to_contain_text("Completed")
    expect(page.locator(".tutorial-map__world--done")).to_have_count(1)
    page.goto("/")
    expect(page.locator("#play-panel")).to_contain_text("1 of 6 completed")

    # On a phone, the next tutorial's dialog stays inside the window, beside its quest meter.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/tutorials/")
    page.locator("#tutorial-quests-and-levels").get_by_role("button", name="Play").click()
    dialog = page.locator(".tutorial-dialog")
    expect(dialog).to_contain_text("The Quest Phase")
    expect(dialog).to_have_class(re.compile("is-placed"))
    settles_inside_window(page, ".tutorial-dialog")
    screenshot("tutorials-phone-dialog")


# Boxes that overlap, as the page lays them out: [[selector, index], ...].
COVERED = """([dialog, parts]) => {
  const box = document.querySelector(dialog).getBoundingClientRect();
  const covered = [];
  for (const part of parts) {
    document.querySelectorAll(part).forEach((element, index) => {
      const other = element.getBoundingClientRect();
      const width = Math.min(box.right, other.right) - Math.max(box.left, other.left);
      const height = Math.min(box.bottom, other.bottom) - Math.max(box.top, other.top);
      if (width > 0 && height > 0) covered.push([part, index]);
    });
  }
  return covered;
}"""


@pytest.mark.parametrize(
    ("guided", "step", "title", "spoken_of"),
    [
        ("raids-and-combat", "raid", "Combat actions", (PROMPT, PHASE_METER, COMBAT_TOTALS)),
        ("scenario-1", None, "The patrol", (FIRST_QUEST,)),
    ],
)
def test_a_dialog_covers_neither_what_it_speaks_of_nor_the_prompt_and_the_hand(
    page, screenshot, catalog, guided, step, title, spoken_of
):
    """Issue 45, point 12 (rulebook, "Tutorials"): "Combat actions" covered the Phase Meter
    and "The patrol" the hand. At 1280x720 a dialog stands clear of the parts of the playmat it
    speaks of and of where the player answers it, the Prompt and the hand."""
    player = UserFactory(username="Nell")
    player.deck = starter_deck(player, "rebel")
    page.set_viewport_size(SMALL_DESKTOP)
    page.add_init_script(
        "document.addEventListener('htmx:wsAfterMessage', () => { window.swapped = true; })"
    )
    log_in(page, "Nell")
    if guided.startswith("scenario-"):
        match = scenario_start(player=player, number=1, deck_id=player.deck.pk)
    else:
        match = tutorial_start(player=player, slug=guided)
    page.goto(f"/matches/{match.pk}/")
    # Polled with evaluate: wait_for_function evaluates its string, which the policy forbids.
    wait_until(page, "window.swapped === true", timeout=20)
    dialog = page.locator(".tutorial-dialog")
    if step is not None:  # the dialog before, then the step it asks for
        dialog.get_by_role("button", name="Got it").click()
        expect(dialog).to_have_count(0)
        play_from_the_prompt(page, f'button[data-action-kind="{step}"]')
    expect(dialog).to_contain_text(title)
    expect(dialog).to_have_class(re.compile("is-placed"))

    screenshot(f"dialog-clear-{guided}")
    assert page.evaluate(COVERED, [".tutorial-dialog", [*spoken_of, PROMPT, HAND]]) == []
    assert inside_window(page, ".tutorial-dialog")


def test_at_1280_by_720_every_play_button_is_on_the_first_screen_and_a_world_chooses(
    page, screenshot, catalog
):
    """Issue 45, point 13 (rulebook, "Tutorials": "a map will appear ... Click on one to
    select it"): the six Play buttons were below the first screen, and a world clicked only
    scrolled to its card. Now each is in the window, and a world clicked opens its lesson in
    the list beside the map without scrolling; its Play begins it."""
    UserFactory(username="Nell")
    page.set_viewport_size(SMALL_DESKTOP)
    log_in(page, "Nell")
    page.goto("/tutorials/")
    plays = page.locator(".tutorial-card").get_by_role("button", name=re.compile("^Play"))
    expect(plays).to_have_count(6)
    for index in range(6):
        assert inside_window(page, f".tutorial-card:nth-child({index + 1}) button")

    for index, world in enumerate(page.locator(".tutorial-map__world").all()):
        world.click()
        card = page.locator(".tutorial-card").nth(index)
        expect(card).to_have_class(re.compile("is-chosen"))
        expect(card.locator(".tutorial-card__details")).to_be_visible()
        expect(page.locator(".tutorial-card__details:visible")).to_have_count(1)
        assert page.evaluate("window.scrollY") == 0
        assert inside_window(page, f".tutorial-card:nth-child({index + 1})")
    screenshot("tutorials-map-1280x720")

    page.locator(".tutorial-card").nth(3).get_by_role("button", name=re.compile("^Play")).click()
    expect(page.locator(".tutorial-dialog")).to_contain_text("Raid")
