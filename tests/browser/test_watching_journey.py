"""Watching a match from the Casual Lobby (rulebook, Casual Lobby: "An area showing matches in
progress", "Joining a Match": "Another number will appear below this if the match has
observers", "Observing Matches"): a match that begins shows in progress on every lobby page,
one player observes it from its medallion, and another sees the observers' number change."""

import pytest
from playwright.sync_api import expect

from game.models import MatchStructure
from game.services.matches import MatchSettings, match_create, match_join
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_match_journey import open_as  # noqa: F401 - the fixture
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_match_in_progress_is_observed_from_its_medallion_and_counted(
    open_as,  # noqa: F811 - the fixture
):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    fred = player_with_deck("Fred", "rebel")
    match_create(host=fred, deck=fred.deck, settings=MatchSettings(title="Fred's open table"))
    dave_page, erin_page = (
        open_as(UserFactory(username="Dave")),
        open_as(UserFactory(username="Erin")),
    )
    for page in (dave_page, erin_page):
        expect(page.locator("#running-matches")).to_contain_text("No match you may watch")

    # Carol and Bob get ready on the Match Launch screen: the match begins, and shows in
    # progress on both lobby pages at once.
    match = match_create(
        host=carol,
        deck=carol.deck,
        settings=MatchSettings(title="Duel of the Fates", structure=MatchStructure.BEST_OF_THREE),
    )
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    for player in (carol, bob):
        page = open_as(player)
        page.goto(f"/matches/{match.pk}/")
        page.get_by_role("button", name="Ready to go").click()
    medallions = {page: page.locator(f"#running-{match.pk}") for page in (dave_page, erin_page)}
    for medallion in medallions.values():
        expect(medallion).to_contain_text("Carol vs Bob")
        expect(medallion).to_contain_text("game 1 of 3")
        expect(medallion.locator(".medallion__observers")).to_have_count(0)
    erin_medallion = medallions[erin_page]

    # Match Info tells who plays with what.
    erin_medallion.get_by_role("button", name="Match Info").click()
    dialog = erin_page.locator("#match-dialog")
    expect(dialog).to_contain_text("Carol")
    expect(dialog).to_contain_text("Bob")
    dialog.get_by_role("button", name="Close").click()

    # Dave observes from the medallion; Erin's lobby counts him.
    medallions[dave_page].get_by_role("link", name="Observe Match").click()
    expect(dave_page.get_by_text("You are observing")).to_be_visible()
    expect(dave_page.locator(".mat-hand")).to_have_count(0)
    expect(erin_medallion.locator(".medallion__observers")).to_have_text("1 observer")
    erin_page.set_viewport_size({"width": 1280, "height": 720})
    erin_page.screenshot(path=str(ARTIFACTS / "casual-lobby-in-progress.png"))
    erin_page.set_viewport_size({"width": 390, "height": 844})
    expect(erin_medallion.get_by_role("link", name="Observe Match")).to_be_in_viewport()
    assert erin_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    erin_page.screenshot(path=str(ARTIFACTS / "casual-lobby-in-progress-phone.png"))

    # Stop Observing takes Dave back to the lobby, and the number goes from Erin's page.
    dave_page.get_by_role("link", name="Stop Observing").click()
    expect(dave_page.locator(f"#running-{match.pk}")).to_be_visible()
    expect(erin_medallion.locator(".medallion__observers")).to_have_count(0)
