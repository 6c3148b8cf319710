"""The Main Lobby's Daily quests panel (rulebook, "The Main Lobby"), as a player sees it at
1280x720 and on a 390-pixel phone: three quests with their bars, nothing cut off, nothing
scrolling sideways."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from collection.earnings.facts import GameFacts, MatchFacts, SeatFacts
from collection.earnings.quests import daily_quests
from collection.earnings.rates import rates
from collection.earnings.services import match_earnings_pay
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_won_match_today(player, opponent) -> None:
    match_earnings_pay(
        match=MatchFacts(
            match_id=1,
            day=timezone.now().date(),
            mode="casual",
            games=(GameFacts(turns=16, decided_by_play=True),),
            seats=(
                SeatFacts(
                    player_id=player.pk,
                    side=0,
                    archetype="jedi",
                    computer_level="",
                    won=True,
                    units_played=12,
                    tactics_played=3,
                    quests_completed=2,
                    raids=5,
                ),
                SeatFacts(
                    player_id=opponent.pk, side=1, archetype="sith", computer_level="", won=False
                ),
            ),
        )
    )


@pytest.mark.parametrize(
    ("name", "viewport"),
    [("1280x720", {"width": 1280, "height": 720}), ("phone", {"width": 390, "height": 844})],
)
def test_the_daily_quests_panel_shows_three_quests_whole(browser, live_server, name, viewport):
    carol = UserFactory(username="Carol")
    a_won_match_today(carol, UserFactory(username="Bob"))
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    page = context.new_page()
    log_in(page, "Carol")

    # The lobby's socket redraws its panels once it opens: the locator finds the panel anew.
    panel = page.locator("#daily-quests")
    expect(panel.get_by_role("heading", name="Daily quests")).to_be_visible()
    titles = [offered.quest.title for offered in daily_quests(timezone.now().date(), rates())]
    for title in titles:
        expect(panel.get_by_text(title, exact=True)).to_be_visible()
    expect(panel.locator("progress")).to_have_count(3)
    expect(panel).to_contain_text(f"Wins paid today: 1 of {rates().wins.daily_cap}")
    ARTIFACTS.mkdir(exist_ok=True)
    panel.screenshot(path=str(ARTIFACTS / f"daily-quests-{name}.png"))
    page.screenshot(path=str(ARTIFACTS / f"main-lobby-{name}.png"))
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1]
    for bar in panel.locator(".quest").all():
        box, inside = bar.bounding_box(), panel.bounding_box()
        assert inside["x"] <= box["x"] and box["x"] + box["width"] <= inside["x"] + inside["width"]
    context.close()
