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
from tests.browser.conftest import ARTIFACTS, confirm
from tests.browser.test_playmat_journey import (  # noqa: F401 - the fixture
    DESKTOP,
    LAPTOP,
    PHONE,
    SMALL_DESKTOP,
    all_boxes,
    boxes,
    inside,
    open_playmat,
    overlap,
    scroll_size,
    wait_until,
)
from tests.browser.test_raid_journey import read_dialogs
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck
from tests.game.test_raids import raid_begun
from tests.game.test_team_matches import four_ready
from tests.game.test_team_playmat import (
    DORA,
    HAND,
    LONG_NAMES,
    crowded_team_game,
    raid_with_doras_units,
    team_match,
)

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


# Where each part of a player's area is, by seat: the boxes of his row's name line and cards.
AREAS = """() => Object.fromEntries([...document.querySelectorAll('[id^="mat-row-seat"]')].map(
  (row) => [row.id.slice('mat-row-seat'.length),
    [...row.querySelectorAll('.mat-row__name, .mat-card')].map(
      (part) => part.getBoundingClientRect().toJSON())]))"""
# Each name shown on the playmat and the mini-map: its text, and whether it is drawn whole
# (nothing cut off by its box, nothing outside the box that holds it).
NAMES = """() => [...document.querySelectorAll('.mat-row__name, .mini-map__name')].map((name) => {
  const box = name.getBoundingClientRect();
  const holder = name.closest('.mat-row, .mini-map').getBoundingClientRect();
  return [name.firstChild.textContent.trim(), name.scrollWidth <= name.clientWidth + 1
    && box.left >= holder.left - 1 && box.right <= holder.right + 1];
})"""
# Each unit at a quest, by quest and side, in the order they are drawn (each over the last).
UNITS = """() => [...document.querySelectorAll('.mat-side')].map((side) =>
  [...side.querySelectorAll('.mat-card')].map((card) => [card.getBoundingClientRect().toJSON(),
    card.querySelector('.mat-card__face').getBoundingClientRect().toJSON()]))"""
# A unit at a quest is drawn at least this wide, as many as there are.
UNIT_WIDTH = 52
SIZES = (SMALL_DESKTOP, {"width": 1366, "height": 900}, LAPTOP)


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


@pytest.mark.parametrize("kind", ["team", "raid"])
def test_each_players_area_stays_readable_with_eight_units_at_a_quest(
    catalog,
    open_playmat,  # noqa: F811
    kind,
):
    """Issue 45: at 1280x720 to 1440x900 a four- or five-player playmat spilled over the
    left column and the Chat Log, a Raid's hero rows overlapped, units at a crowded quest
    shrank to 30 px, and names were cut ("Ayla1129…"). Late in a long game, eight units of
    the first player at a quest, every player's items and abilities out: for the seat's page
    and an observer's, at each size, the page does not scroll, no player's cards or name
    cover another's or leave the board, every unit is drawn at least 52 px wide and shows
    half of itself, and every name is whole."""
    people = [
        player_with_deck(name, archetype)
        for name, archetype in zip(LONG_NAMES, ("jedi", "sith", "rebel", "imperial"), strict=True)
    ]
    match = four_ready(*people) if kind == "team" else raid_begun(*people)
    crowded_team_game(match)
    names = [seat.player.username for seat in match.seats.order_by("seat")]
    UserFactory(username="Olwen_Watcher")

    for viewer in (LONG_NAMES[0], "Olwen_Watcher"):
        page = open_playmat(match, username=viewer)
        read_dialogs(page)
        for viewport in SIZES:
            page.set_viewport_size(viewport)
            wait_until(page, f"window.innerWidth === {viewport['width']}")
            # Over the Chat Log: a card under the pointer is drawn larger, and the site's
            # menu opens under it at the left edge.
            page.mouse.move(viewport["width"] - 40, viewport["height"] / 3)
            name = f"{kind}-{'seat' if viewer == LONG_NAMES[0] else 'observer'}-"
            name += f"{viewport['width']}x{viewport['height']}"
            page.screenshot(path=str(ARTIFACTS / f"crowded-playmat-{name}.png"))

            assert scroll_size(page) == viewport, name
            (_, board), (_, side), (_, chat) = boxes(
                page, ".playmat__board", ".playmat__side", ".match-chat"
            )
            areas = page.evaluate(AREAS)
            assert sorted(areas) == [str(seat) for seat in range(len(names))]
            for seat, parts in areas.items():
                for part in parts:
                    assert inside(part, viewport), (name, seat, part)
                    assert part["left"] >= board["left"] - 1, (name, seat, part)
                    assert part["right"] <= board["right"] + 1, (name, seat, part)
                    assert not overlap(part, side) and not overlap(part, chat), (name, seat)
                    for other, theirs in areas.items():
                        if other != seat:
                            assert not any(overlap(part, each) for each in theirs), (
                                name,
                                seat,
                                other,
                            )
            for seen, whole in page.evaluate(NAMES):
                assert seen in names and whole, (name, seen)
            units = page.evaluate(UNITS)
            assert max(len(side_units) for side_units in units) == 8, name
            for side_units in units:
                for n, (card, face) in enumerate(side_units):
                    assert min(face["width"], face["height"]) >= UNIT_WIDTH, (name, n, face)
                    shown = (
                        side_units[n + 1][0]["left"] if n + 1 < len(side_units) else card["right"]
                    ) - card["left"]
                    assert shown >= min(face["width"], face["height"]) / 2, (name, n, shown)
                    assert inside(card, viewport) and not overlap(card, chat), (name, card)
                    for parts in areas.values():
                        assert not any(overlap(card, part) for part in parts), (name, card)


def test_the_concede_window_says_so_when_the_teammate_leaves_while_it_is_open(
    catalog,
    open_playmat,  # noqa: F811
):
    """Issue 45: a Concede window opened before the teammate left still said he played on.
    Carol asks to concede; meanwhile Dave concedes from his page: her window now says her
    team loses, and conceding ends the game."""
    people = [
        player_with_deck(name, archetype)
        for name, archetype in (("Carol", "jedi"), ("Bob", "sith"), ("Dave", "rebel"))
    ]
    match = four_ready(*people, player_with_deck("Erin", "imperial"))
    carol, dave = open_playmat(match), open_playmat(match, username="Dave")
    asked = carol.locator("#confirm-dialog")

    carol.locator("[data-playmat-menu] summary").click()
    carol.get_by_role("menuitem", name="Concede (leave the game)").click()
    expect(asked).to_contain_text("your teammate Dave plays on alone against both opponents")
    dave.locator("[data-playmat-menu] summary").click()
    dave.get_by_role("menuitem", name="Concede (leave the game)").click()
    confirm(dave, "Concede and leave")

    expect(asked).to_contain_text("Dave has left already: your team loses it.")
    confirm(carol, "Concede and leave")
    expect(carol.locator(".match-result").get_by_role("heading")).to_have_text("Defeat")
