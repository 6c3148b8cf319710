"""Two players create, join, get ready and play a casual match through the pages while a third
watches (rulebook, Casual Lobby: "Creating a Match", "Joining a Match", "Observing Matches",
"Launching Matches"; THE GAME SCREEN)."""

import re
import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from game.engine import api as engine
from game.models import Game, Match, MatchStatus
from game.selectors import game_state
from tests.browser.conftest import ACTION_TIMEOUT_MS, ARTIFACTS, confirm
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_as(browser, live_server, settings, catalog):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    contexts = []

    def open_(player):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 1366, "height": 768}
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        log_in(page, player.username)
        page.goto("/lobbies/casual/")
        expect(page.locator("#chat-status")).to_be_hidden()
        return page

    yield open_
    for context in contexts:
        context.close()


def playmat_menu(page):
    """The Playmat menu, opened as the rulebook says: right-click the open playmat (its script
    listens once the page has loaded)."""
    page.wait_for_load_state("load")
    page.locator(".phase-meter").click(button="right")
    menu = page.locator("[data-playmat-menu] [role=menu]")
    expect(menu).to_be_visible()
    return menu


def concede(page):
    playmat_menu(page).get_by_role("menuitem", name="Concede").click()
    confirm(page, "Concede")


def hidden_card_ids(match) -> set[int]:
    state = game_state(Game.objects.filter(match=match).latest("number"))
    return {card for seat in state.seats for card in seat.hand + seat.deck + seat.quest_pile}


def test_create_join_ready_play_observe_and_concede(open_as):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    dave = UserFactory(username="Dave")
    carol_page, bob_page = open_as(carol), open_as(bob)

    # Carol creates a match; it appears at once in Bob's Casual Lobby.
    carol_page.get_by_role("button", name="Create", exact=True).click()
    dialog = carol_page.locator("#match-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Match Title").fill("Friendly duel")
    dialog.get_by_role("button", name="Create").click()
    expect(carol_page.get_by_text("Waiting for an opponent")).to_be_visible()
    medallion = bob_page.locator(".medallion", has_text="Friendly duel")
    expect(medallion).to_contain_text("1/2")

    # Bob joins; both reach the Match Launch screen and get ready.
    medallion.get_by_role("button", name="Join Match").click()
    bob_page.locator("#match-dialog").get_by_role("button", name="Join").click()
    expect(bob_page.get_by_role("button", name="Ready to go")).to_be_enabled()
    expect(carol_page.locator(".launch__player", has_text="Bob")).to_contain_text("Not ready")
    # They talk on the Match Launch screen's chat.
    carol_page.locator("#match-chat-input").fill("Good luck!")
    carol_page.locator("#match-chat-input").press("Enter")
    expect(bob_page.locator("#match-log")).to_contain_text("Carol: Good luck!")
    carol_page.get_by_role("button", name="Ready to go").click()
    expect(bob_page.locator(".launch__player", has_text="Carol")).to_contain_text("Ready")
    carol_page.screenshot(path=str(ARTIFACTS / "match-launch.png"))
    bob_page.get_by_role("button", name="Ready to go").click()
    for page in (carol_page, bob_page):
        expect(page.locator(".playmat")).to_be_visible()
        expect(page.locator(".mat-hand .mat-card")).to_have_count(6)

    # Dave observes: the public view, no hand, no hidden card.
    match = Match.objects.get()
    dave_page = open_as(dave)
    dave_page.goto(f"/matches/{match.pk}/")
    expect(dave_page.get_by_text("You are observing")).to_be_visible()
    expect(dave_page.locator(".mat-hand")).to_have_count(0)

    # They play by the Prompt's buttons; each decision reaches everybody's screen.
    pages = {0: carol_page, 1: bob_page}
    for _ in range(12):
        game = Game.objects.filter(match=match).latest("number")
        seat = engine.legal_actions(game_state(game)).seat
        button = pages[seat].locator(".prompt__actions button").first
        expect(button).to_be_visible()
        button.click()
        expect(dave_page.locator("#match-log li")).not_to_have_count(0)
        for page in (carol_page, bob_page, dave_page):
            expect(page.locator(".prompt")).not_to_have_attribute("data-ply", str(game.applied))
    # The Chat Log keeps the talk among the game messages; its filter shows one or the other.
    chat_line = bob_page.locator("#match-log .log-line--chat", has_text="Good luck!")
    expect(chat_line).to_be_visible()
    bob_page.get_by_role("button", name="Showing chat and game messages").click()
    expect(bob_page.locator("#match-log .log-line--game").first).to_be_hidden()
    bob_page.get_by_role("button", name="Showing player chat only").click()
    expect(chat_line).to_be_hidden()
    carol_page.screenshot(path=str(ARTIFACTS / "match-playmat.png"))
    dave_page.screenshot(path=str(ARTIFACTS / "match-observer.png"))
    shown = {int(card) for card in re.findall(r'data-card="(\d+)"', dave_page.content())}
    assert shown and not shown & hidden_card_ids(match)

    # Bob concedes from the Playmat menu, opened by right-clicking the playmat: the match ends
    # for all three, and its seed is revealed.
    concede(bob_page)
    for page in (carol_page, bob_page, dave_page):
        expect(page.locator(".prompt")).to_contain_text("Carol wins the match")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.winner == carol
    result = dave_page.locator(".match-result")
    expect(result.get_by_role("heading", name="Carol wins")).to_be_visible()
    expect(result).to_contain_text(str(Game.objects.get(match=match).seed))
    expect(carol_page.locator(".match-result").get_by_role("heading")).to_have_text("Victory")
    expect(bob_page.locator(".match-result").get_by_role("heading")).to_have_text("Defeat")


def test_a_timed_match_is_lost_on_time(open_as):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    # A clock of 10 seconds each, shorter than the Create window offers, to see it run out.
    match = start_match(carol, bob, time_limit=20)
    pages = [open_as(carol), open_as(bob)]
    for page in pages:
        page.goto(f"/matches/{match.pk}/")
        # The clock runs on the page; on a machine so busy that opening the pages took the
        # first player's 10 seconds, the page opens on the match already lost on time.
        running_or_lost = page.locator(".clock--running").or_(
            page.locator(".prompt", has_text="ran out of time")
        )
        expect(running_or_lost).to_have_count(1)

    for page in pages:
        expect(page.locator(".prompt")).to_contain_text("ran out of time", timeout=30_000)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.end_reason.endswith("ran out of time")


def test_a_page_whose_clock_reaches_zero_first_asks_until_the_flag_falls(open_as):
    """A page's countdown can reach zero before the server's clock does (it ticks a second at
    a time from whenever it began): the page asks again until the server ends the match,
    with no periodic sweep to rely on (none runs beside the tests)."""
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob, time_limit=20)
    page = open_as(carol)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator(".clock--running")).to_have_count(1)

    # Seconds early: the next tick shows zero while the server's clock still runs.
    page.evaluate("document.querySelector('[data-clock-running]').dataset.clockMs = '1000'")

    expect(page.locator(".prompt")).to_contain_text("ran out of time", timeout=30_000)


def test_f5_passes_and_a_double_clicked_card_does_what_it_can(open_as):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    # A second item of a restriction would ask first (Card Warnings, tested on its own in
    # tests/browser/test_chat_log_cards_journey.py): this game's plays are random.
    for player in (carol, bob):
        player.preferences.card_warnings = False
        player.preferences.save()
    match = start_match(carol, bob)
    pages = {0: open_as(carol), 1: open_as(bob)}
    for page in pages.values():
        page.goto(f"/matches/{match.pk}/")
        expect(page.locator(".playmat")).to_be_visible()
    used = {"F5": 0, "double-click": 0}

    for _ in range(80):
        if all(used.values()):
            break
        game = Game.objects.filter(match=match).latest("number")
        seat = engine.legal_actions(game_state(game)).seat
        page = pages[seat]
        prompt = page.locator(".prompt")
        expect(prompt).to_have_attribute("data-ply", str(game.applied))
        buttons = page.locator(".prompt__actions button")
        expect(buttons.first).to_be_visible()
        if page.locator('.prompt__actions [data-action-kind="pass"]').count():
            page.keyboard.press("F5")
            used["F5"] += 1
        else:
            cards = [
                button.get_attribute("data-action-card")
                for button in buttons.all()
                if button.get_attribute("data-action-card")
            ]
            on_mat = [
                card for card in cards if page.locator(f'.mat-card[data-card="{card}"]').count()
            ]
            if on_mat:
                # A player's pointer leaves the last card it played: the hand card that slid
                # under it since would otherwise stay raised over its neighbours.
                page.mouse.move(0, 0)
                page.locator(f'.mat-card[data-card="{on_mat[0]}"]').dblclick()
                if cards.count(on_mat[0]) > 1:  # a unit's quests: the player chooses
                    page.locator("#card-actions").get_by_role("menuitem").first.click()
                used["double-click"] += 1
            else:
                buttons.first.click()
        expect(prompt).not_to_have_attribute("data-ply", str(game.applied))

    assert used["F5"] and used["double-click"], used


def test_a_best_of_three_with_the_losers_choice_and_a_reload_mid_match(open_as, settings):
    # Long enough that the choice is still there when a busy machine shows it; the pause that
    # is let pass is then ended by hand (below), not waited for.
    settings.MATCH_NEXT_GAME_SECONDS = 120
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob, structure=3)
    carol_page, bob_page = open_as(carol), open_as(bob)
    for page in (carol_page, bob_page):
        page.goto(f"/matches/{match.pk}/")
        expect(page.locator(".match-score")).to_contain_text("Carol 0 – Bob 0")

    # Bob loses the first game and chooses to go first in the second.
    concede(bob_page)
    expect(carol_page.locator(".playmat-note--between")).to_contain_text(
        "Bob lost the last game and chooses who goes first"
    )
    bob_page.get_by_role("button", name="I go first").click()
    for page in (carol_page, bob_page):
        expect(page.locator(".phase-meter")).to_contain_text("game 2")
        expect(page.locator(".match-score")).to_contain_text("Carol 1 – Bob 0")
    assert Game.objects.get(match=match, number=2).first_seat == 1

    # A reload mid-match shows the game as it stands.
    game = Game.objects.get(match=match, number=2)
    seat = engine.legal_actions(game_state(game)).seat
    deciding = {0: carol_page, 1: bob_page}[seat]
    deciding.locator(".prompt__actions button").first.click()
    expect(deciding.locator(".prompt")).not_to_have_attribute("data-ply", "0")
    carol_page.reload()
    applied = Game.objects.get(pk=game.pk).applied
    expect(carol_page.locator(".prompt")).to_have_attribute("data-ply", str(applied))
    expect(carol_page.locator(".mat-hand .mat-card")).not_to_have_count(0)

    # Carol loses the second game and lets the pause pass: she goes first in the third.
    concede(carol_page)
    expect(carol_page.get_by_role("button", name="I go first")).to_be_visible()
    # The pause runs out: the page's countdown asks the server (as it does at zero).
    Match.objects.filter(pk=match.pk).update(next_game_at=timezone.now())
    carol_page.locator("#clock-out").dispatch_event("click")
    for page in (carol_page, bob_page):
        expect(page.locator(".phase-meter")).to_contain_text("game 3", timeout=10_000)
    assert Game.objects.get(match=match, number=3).first_seat == 0

    concede(bob_page)
    for page in (carol_page, bob_page):
        expect(page.locator(".prompt")).to_contain_text("Carol wins the match")


def test_a_draw_offered_from_the_playmat_menu_and_accepted(open_as):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob)
    carol_page, bob_page = open_as(carol), open_as(bob)
    for page in (carol_page, bob_page):
        page.goto(f"/matches/{match.pk}/")

    playmat_menu(carol_page).get_by_role("menuitem", name="Offer a draw").click()
    expect(carol_page.locator(".playmat-note--offer")).to_contain_text("You offered a draw.")
    offer = bob_page.locator(".playmat-note--offer")
    expect(offer).to_contain_text("Carol offers a draw.")
    expect(bob_page.locator("#match-log")).to_contain_text("* Carol offers a draw.")
    bob_page.screenshot(path=str(ARTIFACTS / "match-draw-offer.png"))
    offer.get_by_role("button", name="Accept").click()

    for page in (carol_page, bob_page):
        expect(page.locator(".prompt")).to_contain_text("drawn by agreement")
    match.refresh_from_db()
    assert (match.status, match.winner) == (MatchStatus.FINISHED, None)


class HeldLobbyFrames:
    """The Casual Lobby's socket with what the server sends held back until ``release``: the
    moment between a click on the page as loaded and the socket's first frame, made long."""

    def __init__(self):
        self.socket = None
        self.held: list = []
        self.released = False

    def route(self, socket) -> None:
        self.socket = socket
        socket.connect_to_server().on_message(self._from_server)

    def _from_server(self, message) -> None:
        if self.released:
            self.socket.send(message)
        else:
            self.held.append(message)

    def release(self) -> None:
        self.released = True
        for message in self.held:
            self.socket.send(message)


def until(page, condition, timeout: float = 10) -> None:
    """Wait for ``condition``, a state this test's handlers of Playwright's events record:
    they run while Playwright waits."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(20)


@pytest.mark.parametrize("form_arrives", ["before the first frame", "after the first frame"])
def test_create_clicked_before_the_lobby_socket_first_draws_opens_a_usable_window(
    browser, live_server, settings, catalog, form_arrives
):
    """The lobby socket's first frame draws the Matches area anew: the Create window it would
    replace lives beside it, so a click in that instant is not lost."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    carol = player_with_deck("Carol", "jedi")
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 768})
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    page = context.new_page()
    log_in(page, carol.username)
    frames, forms = HeldLobbyFrames(), []
    page.route_web_socket(re.compile(r"/ws/lobby/casual/$"), frames.route)
    if form_arrives == "after the first frame":
        page.route("**/casual/create/", lambda route: forms.append(route))
    page.goto("/lobbies/casual/")
    dialog = page.locator("#match-dialog")

    page.get_by_role("button", name="Create", exact=True).click()
    if form_arrives == "before the first frame":
        expect(dialog.get_by_label("Match Title")).to_be_visible()
    else:
        until(page, lambda: forms)
    frames.release()
    expect(page.locator("#user-count")).to_have_text("(1)")  # the first frame is in
    if forms:
        forms[0].continue_()
        page.unroute("**/casual/create/")  # the window's own Create goes straight through

    expect(dialog.get_by_label("Match Title")).to_be_visible()
    dialog.get_by_label("Match Title").fill("Quick one")
    dialog.get_by_role("button", name="Create").click()
    expect(page.get_by_text("Waiting for an opponent")).to_be_visible()
    context.close()
