"""Two players play a 2-versus-2 team game against two computer players through the pages
(rulebook, Casual Lobby, "Creating a Match", "Number of Players": "a multiplayer 2-versus-2
team game for 4 players"; "Launching Matches"; MULTIPLAYER GAMES): Carol creates it, Dora
joins her team from another browser, Carol fills the other team with computer players, both
get ready and play; Carol concedes and leaves while Dora plays on ("Leaving the Game"), then
Dora concedes and both see the winning side named ("Winning the Game"). In a raid, the
attacking commander chooses which opposing avatar to attack ("Attacking Raid Commander")."""

import pytest
from playwright.sync_api import expect

from game.engine import api as engine
from game.models import Game, Match, MatchStatus
from game.selectors import game_state
from tests.browser.conftest import ARTIFACTS, confirm
from tests.browser.test_match_journey import open_as, playmat_menu  # noqa: F401 - the fixture
from tests.browser.test_playmat_journey import wait_until
from tests.game.conftest import player_with_deck, thinking_threads  # noqa: F401 - the fixture
from tests.game.test_team_playmat import latest_state, team_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAROL, DORA = 0, 2
# Decisions of Carol's and Dora's to make by the Prompt's buttons before Carol leaves, and
# of Dora's after.
DECISIONS_TOGETHER = 14
DECISIONS_ALONE = 4


@pytest.fixture
def computers_think_fast(settings, thinking_threads):  # noqa: F811 - the fixture
    """The computer players' turns, played by the web process's background threads with no
    pause (each step of a test waits for the pages to show the game moved on); in production
    mode too, where no Celery worker runs beside the test's server."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.COMPUTER_PAUSE_SECONDS = 0


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    wait_until(page, "[...document.images].every((image) => image.complete)")
    page.screenshot(path=str(ARTIFACTS / f"ui-{name}.png"))


def play(match: Match, pages: dict, decisions: int) -> None:
    """Make ``decisions`` of the human seats ``pages`` by each Prompt's first button; the
    computer players decide in between. Each step waits for the pages to show the game moved
    on."""
    made = 0
    watcher = next(iter(pages.values()))
    while made < decisions:
        game = Game.objects.filter(match=match).latest("number")
        assert game.ended is None, game.win_reason
        seat = engine.legal_actions(game_state(game)).seat
        if seat in pages:
            page = pages[seat]
            expect(page.locator(".prompt")).to_have_attribute("data-ply", str(game.applied))
            page.locator(".prompt__actions button:visible").first.click()
            made += 1
        expect(watcher.locator(".prompt")).not_to_have_attribute(
            "data-ply", str(game.applied), timeout=20_000
        )


def concede(page, what_happens: str) -> None:
    """Concede from the Playmat menu, its confirmation saying ``what_happens``."""
    playmat_menu(page).get_by_role("menuitem", name="Concede (leave the game)").click()
    expect(page.locator("#confirm-dialog")).to_contain_text(what_happens)
    confirm(page, "Concede and leave")


def test_a_team_game_created_joined_filled_with_computers_played_and_conceded(
    open_as,  # noqa: F811 - the fixture
    computers_think_fast,
):
    carol, dora = player_with_deck("Carol", "jedi"), player_with_deck("Dora", "rebel")
    carol_page, dora_page = open_as(carol), open_as(dora)

    # Carol creates a 2-versus-2 team game: Number of Players, 4.
    carol_page.get_by_role("button", name="Create", exact=True).click()
    dialog = carol_page.locator("#match-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Match Title").fill("Team duel")
    dialog.get_by_label("Number of Players").select_option("4")
    shot(carol_page, "create")
    dialog.get_by_role("button", name="Create").click()
    expect(carol_page.locator(".launch__team")).to_have_count(2)
    expect(carol_page.locator(".launch__player--open")).to_have_count(3)

    # Dora finds it in her Casual Lobby as a 2 v 2 with one seat of four taken, and joins
    # Carol's team.
    medallion = dora_page.locator(".medallion", has_text="Team duel")
    expect(medallion).to_contain_text("2 v 2")
    expect(medallion).to_contain_text("1/4")
    medallion.get_by_role("button", name="Join Match").click()
    join = dora_page.locator("#match-dialog")
    expect(join.locator(".match-form__team")).to_have_count(3)
    join.locator('input[name="team"][value="1"]').check()
    shot(dora_page, "join")
    join.get_by_role("button", name="Join").click()
    expect(dora_page.locator(".launch__team").first).to_contain_text("Dora")
    expect(carol_page.locator(".launch__team").first).to_contain_text("Dora")
    expect(dora_page.get_by_role("button", name="Ready to go")).to_be_disabled()
    expect(dora_page.get_by_role("button", name="Fill empty seats")).to_have_count(0)
    shot(carol_page, "launch-waiting")

    # Carol, the host, fills the other team with computer players, ready at once.
    carol_page.get_by_role("button", name="Fill empty seats with computer players").click()
    for page in (carol_page, dora_page):
        expect(page.locator(".launch__player--open")).to_have_count(0)
        expect(page.locator(".launch__player--ready")).to_have_count(2)
    expect(carol_page.get_by_role("button", name="Fill empty seats")).to_have_count(0)
    shot(carol_page, "launch")

    # Both get ready: the game begins.
    for page in (carol_page, dora_page):
        page.get_by_role("button", name="Ready to go").click()
    for page in (carol_page, dora_page):
        expect(page.locator(".playmat--team")).to_be_visible()
        expect(page.locator(".mini-map__player")).to_have_count(4)
    match = Match.objects.get()
    assert match.status == MatchStatus.PLAYING

    # They play several turns by the Prompt's buttons; the computers play theirs.
    play(match, {CAROL: carol_page, DORA: dora_page}, DECISIONS_TOGETHER)
    turn = latest_state(match).turn
    assert turn > 1, "the computers played their turns too"
    shot(dora_page, "mid-game")

    # Carol concedes: she leaves the game, which goes on for Dora.
    concede(carol_page, "your teammate Dora plays on alone against both opponents")
    expect(carol_page.locator(".prompt")).to_contain_text("You have left this game.")
    expect(carol_page.locator(".prompt")).to_contain_text("It goes on for the others")
    left_mark = dora_page.locator('.mini-map__player[data-seat="0"] .mini-map__mark--left')
    expect(left_mark).to_be_visible()
    expect(dora_page.locator("#mat-row-seat0")).to_contain_text("Left the game")
    play(match, {DORA: dora_page}, DECISIONS_ALONE)
    shot(carol_page, "left")

    # Dora concedes too: the other team wins, and both are told who.
    concede(dora_page, "Carol has left already: your team loses it")
    computers = " and ".join(
        seat.player.username for seat in match.seats.order_by("seat") if seat.seat % 2
    )
    for page in (carol_page, dora_page):
        result = page.locator(".match-result")
        expect(result.get_by_role("heading")).to_have_text("Defeat")
        expect(result).to_contain_text(
            f"{computers} win the game by the last opposing player leaving the game"
        )
        expect(page.locator(".prompt")).to_contain_text(f"{computers} win the game")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    shot(dora_page, "end")


def test_the_raid_commander_chooses_which_opposing_avatar_to_attack(open_as):  # noqa: F811
    """MULTIPLAYER GAMES, "Attacking Raid Commander": Carol raids the quest where Dora's units
    are; she chooses Bob's or Evan's avatar, a button each; then both teammates' screens name
    her the attacker and Bob the defender."""
    match = team_match()
    state = latest_state(match)
    quest = state.definitions[state.cards[state.quests[1].card].definition]["title"]
    carol_page = open_as(match.seats.get(seat=CAROL).player)
    dora_page = open_as(match.seats.get(seat=DORA).player)
    for page in (carol_page, dora_page):
        page.goto(f"/matches/{match.pk}/")
        expect(page.locator(".playmat--team")).to_be_visible()

    prompt = carol_page.locator(".prompt__actions")
    attacking_evan = prompt.get_by_role("button", name=f"Raid {quest}, attacking Evan")
    expect(attacking_evan).to_be_visible()
    attacking_evan.scroll_into_view_if_needed()
    expect(dora_page.locator(".prompt")).to_contain_text("Waiting for Carol")
    shot(carol_page, "raid-choice")
    prompt.get_by_role("button", name=f"Raid {quest}, attacking Bob").click()

    for page in (carol_page, dora_page):
        expect(page.locator(".phase-meter__combat")).to_contain_text("Carol attacks, Bob defends")
