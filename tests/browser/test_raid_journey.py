"""Two players raid a heroic encounter's boss beside two computer teammates, through the
pages, to the game's end (rulebook, Casual Lobby, "Creating a Match", "Play Format": "*Raid*
(a team of players versus a computer AI opponent)", "Number of Players": "the options change
to show the names of available Raids"; MULTIPLAYER GAMES, "Four-man Heroic Encounter";
"Info Button"; "Review Dialogs")."""

import pytest
from playwright.sync_api import expect

from game.encounters import ENCOUNTERS
from game.engine import api as engine
from game.models import Game, Match, MatchStatus
from game.selectors import game_state
from tests.browser.test_match_journey import open_as, playmat_menu  # noqa: F401 - the fixture
from tests.browser.test_team_match_journey import computers_think_fast, shot  # noqa: F401
from tests.game.conftest import player_with_deck, thinking_threads  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENCOUNTER = ENCOUNTERS[0]
CAROL, DORA, BOSS = 0, 1, 4
# More decisions than the heroes make in any game of the encounter: its victory conditions
# end it first.
DECISIONS_AT_MOST = 600
# The computers' plies come in bursts, each drawn on every page in turn: on a busy machine a
# page was seen a dozen plies behind the game, drawing one a second, still on its way.
CATCHING_UP_MS = 60_000


def read_dialogs(page) -> int:
    """Read every dialog of the encounter the page shows, by its Got it button."""
    read = 0
    dialog = page.locator(".tutorial-dialog--encounter")
    while dialog.count():
        index = dialog.get_attribute("data-encounter-dialog")
        dialog.get_by_role("button", name="Got it").click()
        expect(page.locator(f'[data-encounter-dialog="{index}"]')).to_have_count(0)
        read += 1
    return read


def play_to_the_end(match: Match, pages: dict) -> int:
    """Make the human heroes' decisions by each Prompt's first button, the computers deciding
    in between, until the game ends; how many were made."""
    made = 0
    watcher = next(iter(pages.values()))
    while made < DECISIONS_AT_MOST:
        game = Game.objects.filter(match=match).latest("number")
        if game.ended is not None:
            return made
        seat = engine.legal_actions(game_state(game)).seat
        if seat in pages:
            page = pages[seat]
            expect(page.locator(".prompt")).to_have_attribute(
                "data-ply", str(game.applied), timeout=CATCHING_UP_MS
            )
            read_dialogs(page)
            page.locator(".prompt__actions button:visible").first.click()
            made += 1
        expect(watcher.locator(".prompt")).not_to_have_attribute(
            "data-ply", str(game.applied), timeout=CATCHING_UP_MS
        )
    raise AssertionError(f"the raid went on past {DECISIONS_AT_MOST} decisions of its heroes")


def test_two_heroes_and_two_computer_teammates_raid_the_boss_to_the_end(
    open_as,  # noqa: F811 - the fixture
    computers_think_fast,  # noqa: F811 - the fixture
):
    carol, dora = player_with_deck("Carol", "jedi"), player_with_deck("Dora", "rebel")
    carol_page, dora_page = open_as(carol), open_as(dora)

    # Carol creates a Raid: the Number of Players list now names the raids.
    carol_page.get_by_role("button", name="Create", exact=True).click()
    dialog = carol_page.locator("#match-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Match Title").fill("Raid night")
    expect(dialog.get_by_label("Number of Players")).to_be_visible()
    expect(dialog.get_by_label("Raid", exact=False).last).to_be_hidden()
    dialog.get_by_label("Play Format").select_option("raid")
    expect(dialog.get_by_label("Number of Players")).to_be_hidden()
    raids = dialog.locator("#match-raid")
    expect(raids.locator("option")).to_have_count(len(ENCOUNTERS))
    raids.select_option(ENCOUNTER.slug)
    shot(carol_page, "raid-create")
    dialog.get_by_role("button", name="Create").click()
    expect(carol_page.locator(".launch__team")).to_have_count(2)
    expect(carol_page.locator(".launch__team").nth(1)).to_contain_text(ENCOUNTER.name)
    expect(carol_page.locator(".launch__player--open")).to_have_count(3)

    # Dora finds it in her Casual Lobby as a raid, 4 v 1, two seats of five taken (the
    # boss's is one), and joins: there is no team to choose.
    medallion = dora_page.locator(".medallion", has_text="Raid night")
    expect(medallion).to_contain_text(f"Raid · {ENCOUNTER.name}")
    expect(medallion).to_contain_text("4 v 1")
    expect(medallion).to_contain_text("2/5")
    medallion.get_by_role("button", name="Join Match").click()
    join = dora_page.locator("#match-dialog")
    expect(join.locator(".match-form__team")).to_have_count(0)
    join.get_by_role("button", name="Join").click()
    expect(dora_page.locator(".launch__team").first).to_contain_text("Dora")

    # Carol fills the two free heroes' seats with computer teammates; both get ready.
    carol_page.get_by_role("button", name="Fill empty seats with computer players").click()
    for page in (carol_page, dora_page):
        expect(page.locator(".launch__player--open")).to_have_count(0)
    shot(carol_page, "raid-launch")
    for page in (carol_page, dora_page):
        page.get_by_role("button", name="Ready to go").click()
    for page in (carol_page, dora_page):
        expect(page.locator(".playmat--team")).to_be_visible()
        expect(page.locator(".mini-map__player")).to_have_count(5)
        expect(page.locator(".mat-pair--near .mat-row")).to_have_count(4)
    match = Match.objects.get()
    assert match.status == MatchStatus.PLAYING

    # The encounter's first dialog greets every hero; each reads it at his own pace.
    for page in (carol_page, dora_page):
        expect(page.locator(".tutorial-dialog--encounter")).to_contain_text(
            ENCOUNTER.dialogs[0].title
        )
    shot(carol_page, "raid-dialog")
    read_dialogs(carol_page)
    expect(dora_page.locator(".tutorial-dialog--encounter")).to_be_visible()

    # The boss's avatar has the Info button: the encounter's victory conditions.
    carol_page.locator(f"#mat-row-seat{BOSS} .mat-avatar__info").click()
    conditions = carol_page.locator("#victory-conditions")
    expect(conditions).to_contain_text(ENCOUNTER.victory)
    shot(carol_page, "raid-victory-conditions")
    conditions.get_by_role("button", name="Close").click()

    # Review Dialogs lists the dialogs Carol read.
    playmat_menu(carol_page).get_by_role("menuitem", name="Review Dialogs…").click()
    expect(carol_page.locator("#review-dialogs")).to_contain_text(ENCOUNTER.dialogs[0].text)
    carol_page.locator("#review-dialogs").get_by_role("button", name="Close").click()

    # They play to the end; the computers play their turns and the boss its own.
    made = play_to_the_end(match, {CAROL: carol_page, DORA: dora_page})
    assert made > 0
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    game = match.games.get()
    heroes_won = match.team_of(game.winner_seat) == 0
    # The computers may have played many plies after the heroes' last decision: each page
    # shows the result once it has drawn every one of them.
    for page in (carol_page, dora_page):
        heading = page.locator(".match-result").get_by_role("heading")
        expect(heading).to_have_text("Victory" if heroes_won else "Defeat", timeout=30_000)
    shot(dora_page, "raid-end")
