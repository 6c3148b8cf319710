"""The playmat of a 2-versus-2 team game in a browser (rulebook, MULTIPLAYER GAMES): the four
players' screen fits a 1366x768 and a 1280x720 window without scrolling, the mini-map
recenters the playmat zoomed onto a player's area ("Mini-Map"), the mouse wheel zooms in and
out ("Zooming"), and the Whole playmat button shows it all again; in her raid, Carol exerts
her teammate's unit by double-clicking it ("Commanders"), and a zoomed-in playmat follows the
action."""

import re

import pytest
from playwright.sync_api import expect

from game.models import GameAction
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_playmat_journey import (  # noqa: F401 - the fixture
    DESKTOP,
    PHONE,
    SMALL_DESKTOP,
    all_boxes,
    boxes,
    inside,
    open_playmat,
    scroll_size,
    wait_until,
)
from tests.game.test_team_playmat import DORA, HAND, raid_with_doras_units, team_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Whether the field's zoom has settled (its transition over): its scale, read from the
# transform drawn.
ZOOM_SCALE = """(() => {
  const content = document.querySelector('[data-mat-field] > .mat-field__zoom');
  if (content.getAnimations().length) return null;
  return new DOMMatrix(getComputedStyle(content).transform).a;
})()"""


def zoom_scale(page) -> float | None:
    return page.evaluate(ZOOM_SCALE)


def test_the_team_playmat_fits_the_window_and_its_mini_map_zooms(catalog, open_playmat):  # noqa: F811
    match = team_match()
    page = open_playmat(match)

    for viewport in (DESKTOP, SMALL_DESKTOP):
        page.set_viewport_size(viewport)
        name = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(ARTIFACTS / f"team-playmat-{name}.png"))
        assert scroll_size(page) == viewport, name
        parts = (".mini-map", ".prompt", ".mat-hand", "#mat-quests", "#match-chat-input")
        rows = tuple(f"#mat-row-seat{seat}" for seat in range(4))
        for part, box in boxes(page, *parts, *rows):
            assert inside(box, viewport), (name, part, box)
        hand = all_boxes(page, ".mat-hand .mat-card")
        assert len(hand) == HAND
        for box in hand:
            assert inside(box, viewport), (name, box)

    # Dora on the mini-map: the playmat zooms in, her area in the middle of it.
    page.set_viewport_size(DESKTOP)
    page.locator(f'.mini-map__player[data-seat="{DORA}"] .mini-map__who').click()
    wait_until(page, f"({ZOOM_SCALE}) > 1.5")
    ((_, field), (_, dora)) = boxes(page, "[data-mat-field]", f"#mat-row-seat{DORA}")
    field_middle = (field["left"] + field["right"]) / 2
    assert abs((dora["left"] + dora["right"]) / 2 - field_middle) < field["width"] / 4
    assert dora["width"] > field["width"] / 2 * 1.5
    assert scroll_size(page) == DESKTOP
    page.screenshot(path=str(ARTIFACTS / "team-playmat-zoomed-on-dora.png"))

    # The whole playmat again; then the mouse wheel zooms in and back out.
    page.get_by_role("button", name="Whole playmat").click()
    wait_until(page, f"({ZOOM_SCALE}) === 1")
    page.mouse.move(field["left"] + field["width"] / 2, field["top"] + field["height"] / 2)
    page.mouse.wheel(0, -100)
    wait_until(page, f"({ZOOM_SCALE}) > 1")
    for _ in range(8):
        page.mouse.wheel(0, 100)
    wait_until(page, f"({ZOOM_SCALE}) === 1")
    expect(page.locator("[data-mat-field]")).not_to_have_class("mat-field is-zoomed")


def test_the_raid_commander_exerts_her_teammates_unit_from_the_playmat(catalog, open_playmat):  # noqa: F811
    match = team_match()
    state = raid_with_doras_units(match)
    page = open_playmat(match)
    ply = page.locator(".prompt").get_attribute("data-ply")
    expect(page.locator(".phase-meter__combat")).to_contain_text("Carol attacks, Bob defends")
    page.screenshot(path=str(ARTIFACTS / "team-playmat-raid-1366x768.png"))
    unit = state.quests[1].units[DORA][0]
    card = page.locator(f'.mat-side--near .mat-card--actionable[data-card="{unit}"]')

    card.dblclick()
    entries = page.locator("#card-actions [role=menuitem]")
    if entries.count():
        entries.first.click()

    expect(page.locator(".prompt")).not_to_have_attribute("data-ply", ply)
    done = GameAction.objects.filter(game__match=match).latest("number").action
    assert done["kind"] == "exert" and done["card"] == unit
    expect(page.locator(f'.mat-card[data-card="{unit}"]')).to_have_attribute("data-exerted", "1")

    # Zoomed in, the playmat follows the action: when Bob has answered, it is Carol's to
    # decide in the combat, and it recenters on the combat's quest ("the playmat scrolls to
    # the location of the action").
    page.locator(f'.mini-map__player[data-seat="{DORA}"] .mini-map__who').click()
    wait_until(page, f"({ZOOM_SCALE}) > 1.5")
    ply = page.locator(".prompt").get_attribute("data-ply")
    bob = open_playmat(match, username="Bob")
    bob.screenshot(path=str(ARTIFACTS / "team-playmat-raid-bob-1366x768.png"))
    bob.locator(".prompt__actions [data-action-kind=pass]").click()
    expect(page.locator(".prompt")).not_to_have_attribute("data-ply", ply)
    expect(page.locator('.mini-map__player[data-seat="0"]')).to_have_class(
        re.compile("is-deciding")
    )
    wait_until(page, f"({ZOOM_SCALE}) > 1.5")
    quest = state.quests[1].card
    ((_, field), (_, fought)) = boxes(page, "[data-mat-field]", f"#mat-quest-{quest}")
    middle = (field["top"] + field["bottom"]) / 2
    assert abs((fought["top"] + fought["bottom"]) / 2 - middle) < field["height"] / 4


def test_a_phone_shows_the_team_playmat_in_one_column_without_sideways_scrolling(
    catalog,
    open_playmat,  # noqa: F811
):
    match = team_match()
    page = open_playmat(match, viewport=PHONE)

    assert scroll_size(page)["width"] == PHONE["width"]
    expect(page.locator(".mini-map")).to_be_in_viewport()
    # The board's rows follow one another: none runs into the next.
    (_, quests), (_, near), (_, hand) = boxes(page, "#mat-quests", ".mat-pair--near", ".mat-hand")
    assert quests["bottom"] <= near["top"] and near["bottom"] <= hand["top"]
    expect(page.locator(".prompt__actions button").first).to_be_in_viewport()
    page.screenshot(path=str(ARTIFACTS / "team-playmat-phone.png"), full_page=True)
