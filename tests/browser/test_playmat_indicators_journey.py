"""The playmat's indicators in a browser (rulebook, THE GAME SCREEN): with eight units at a
quest, each exert symbol, target and link icon and keyword badge shows whole on its card, in
the part of it a later card does not cover, and inside the window; the Sentry count sits on
the avatar; the Phase Meter's icons are in a row, the current one lit; pointing at a linked
card lights the card it is linked to. Screenshots at 1280x720 and on a phone."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_playmat_journey import (
    PHONE,
    SMALL_DESKTOP,
    all_boxes,
    boxes,
    inside,
    open_playmat,  # noqa: F401 - the fixture
    overlap,
    scroll_size,
)
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match
from tests.game.test_playmat_indicators import every_indicator, ids

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each card of a selector and its indicators (marks and keyword badges), at one moment.
CARDS_AND_INDICATORS = """(selector) => [...document.querySelectorAll(selector)].map((card) => {
  const box = (element) => element.getBoundingClientRect().toJSON();
  return [box(card), [...card.querySelectorAll('.mat-mark, .mat-keyword')].map(box)];
})"""


@pytest.fixture
def indicators_game(catalog):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob)
    return match, every_indicator(match, carol)


def test_every_indicator_shows_whole_with_eight_units_at_a_quest(indicators_game, open_playmat):  # noqa: F811
    match, state = indicators_game
    carol = open_playmat(match, viewport=SMALL_DESKTOP)
    units = ".mat-quest--1 .mat-units--near .mat-card"

    for viewport in (SMALL_DESKTOP, PHONE):
        carol.set_viewport_size(viewport)
        name = f"{viewport['width']}x{viewport['height']}"
        carol.screenshot(path=str(ARTIFACTS / f"playmat-indicators-{name}.png"))
        carol.locator(".mat-quest--1").screenshot(
            path=str(ARTIFACTS / f"playmat-indicators-quest-{name}.png")
        )
        assert scroll_size(carol)["width"] == viewport["width"], name
        if viewport == SMALL_DESKTOP:
            assert scroll_size(carol) == viewport
        measured = carol.evaluate(CARDS_AND_INDICATORS, units)
        assert len(measured) == 8
        cards = [card for card, _ in measured]
        assert sum(len(indicators) for _, indicators in measured) == 7, name
        for n, (card, indicators) in enumerate(measured):
            for indicator in indicators:
                assert indicator["left"] >= card["left"] and indicator["top"] >= card["top"]
                assert inside(indicator, {"width": viewport["width"], "height": 10_000}), name
                for later in cards[n + 1 :]:
                    assert not overlap(indicator, later), (name, n, indicator, later)
        # The Sentry count on Carol's avatar, whole, beside no other indicator.
        ((_, sentries), (_, avatar)) = boxes(
            carol, ".mat-row--near .mat-sentries", ".mat-row--near .mat-avatar"
        )
        assert overlap(sentries, avatar) and sentries["width"] > 0, name
        phases = all_boxes(carol, ".phase-meter__phase")
        assert len(phases) == 4 and len({phase["top"] for phase in phases}) == 1, name
    carol.evaluate("document.querySelector('.mat-row--near').scrollIntoView({block: 'center'})")
    carol.screenshot(path=str(ARTIFACTS / "playmat-indicators-phone-avatar.png"))

    # Pointing at the Pathfinder lights Dark Bond, linked to it.
    carol.set_viewport_size(SMALL_DESKTOP)
    pathfinder, bond = ids(state, 0, "Padawan Pathfinder", "Dark Bond")
    carol.locator(f'.mat-card[data-card="{pathfinder}"]').hover()
    expect(carol.locator(f'.mat-card[data-card="{bond}"]')).to_have_class(
        "mat-card mat-card--ability is-marked-partner"
    )
    carol.screenshot(path=str(ARTIFACTS / "playmat-indicators-linked-pointed.png"))


def test_an_observer_sees_the_indicators_on_a_phone(indicators_game, open_playmat):  # noqa: F811
    """The target icons of the choice Carol is making show to whoever watches her game."""
    match, _ = indicators_game
    UserFactory(username="Dana")
    watcher = open_playmat(match, "Dana", viewport=PHONE)

    expect(watcher.locator(".mat-mark--choosable")).to_have_count(4)
    expect(watcher.locator(".mat-mark--linked")).to_have_count(2)
    watcher.screenshot(path=str(ARTIFACTS / "playmat-indicators-observer-phone.png"))
    watcher.locator(".mat-quests").screenshot(
        path=str(ARTIFACTS / "playmat-indicators-observer-phone-quests.png")
    )
    assert scroll_size(watcher)["width"] == PHONE["width"]
