"""Three players and an on-demand Swiss tournament, each in a browser context of their own
(rulebook, "Tournaments Lobby"): they join the queue through its Join window, the full queue
starts the tournament and each paired player is taken to their match, one concedes, the
next round begins, a player drops through the timer's confirmation, and the final standings
show in Get Info."""

import re
import threading
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, confirm
from tests.browser.settling import Settling
from tests.browser.test_journeys import log_in
from tests.tournaments.conftest import entrant, on_demand_queue
from tournaments.models import Pairing, Tournament
from tournaments.services.queues import queue_join

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_as(browser, live_server, settings, catalog):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # No Celery worker runs beside the test's server: a match's end records the tournament
    # result at once, as in the embedded mode.
    settings.CELERY_TASK_ALWAYS_EAGER = True
    contexts = []
    problems = []

    def open_(player, viewport=None):
        context = browser.new_context(
            base_url=live_server.url, viewport=viewport or {"width": 1366, "height": 768}
        )
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        # A policy violation or a script error on any of the pages fails the journey.
        page.on(
            "console",
            lambda message: message.type == "error" and problems.append(message.text),
        )
        page.on("pageerror", lambda error: problems.append(str(error)))
        log_in(page, player.username)
        in_lobby(page, player)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert problems == []


def in_lobby(page, player):
    page.goto("/lobbies/tournaments/")
    # The socket's first message (the User List with the player in it) has arrived: the
    # panel it carries is in place.
    expect(page.locator("#user-list")).to_contain_text(player.username)


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def join(page, queue, *, by_double_click=False):
    row = page.locator(f'#tournament-queues tr[data-queue="{queue.pk}"]')
    if by_double_click:
        row.dblclick()
    else:
        row.get_by_role("button", name=f"Join queue {queue.pk}").click()
    dialog = page.locator("#tournament-dialog")
    expect(dialog.get_by_role("heading", name=f"Join queue {queue.pk}")).to_be_visible()
    expect(dialog.locator(".deck-choice--valid input")).to_be_checked()
    return dialog


def test_players_join_play_a_round_drop_and_read_the_standings(open_as):
    queue = on_demand_queue(title="Weeknight Swiss", max_players=3, rounds=2)
    han, leia, chewie = entrant("Han"), entrant("Leia", "sith"), entrant("Chewie", "rebel")
    pages = {player.username: open_as(player) for player in (han, leia, chewie)}

    # Han double-clicks the queue: Select Deck shows his starter deck with a green check.
    han_page = pages["Han"]
    row = han_page.locator(f'#tournament-queues tr[data-queue="{queue.pk}"]')
    expect(row).to_contain_text("Waiting")
    shot(han_page, "tournament-lobby")
    dialog = join(han_page, queue, by_double_click=True)
    shot(han_page, "tournament-join")
    dialog.get_by_role("button", name="Join", exact=True).click()
    expect(dialog).to_be_hidden()
    box = han_page.locator("#queue-box")
    expect(box).to_contain_text("Han")

    # Leia joins with the Join button; Han's box lists her as she arrives.
    leia_dialog = join(pages["Leia"], queue)
    leia_dialog.get_by_role("button", name="Join", exact=True).click()
    expect(box.locator("li")).to_have_count(2)
    expect(box).to_contain_text("Leia")
    expect(row.locator("td").nth(3)).to_have_text("2")
    shot(han_page, "tournament-queue-box")

    # Chewie fills the queue: the tournament begins, the paired players go to their match.
    chewie_dialog = join(pages["Chewie"], queue)
    chewie_dialog.get_by_role("button", name="Join", exact=True).click()
    expect(chewie_dialog).to_be_hidden()
    tournament = Tournament.objects.get(queue=queue)
    first = Pairing.objects.select_related("first__player", "second__player").get(
        tournament=tournament, round=1, second__isnull=False
    )
    winner, loser = first.first.player.username, first.second.player.username
    bye = ({"Han", "Leia", "Chewie"} - {winner, loser}).pop()
    for name in (winner, loser):
        expect(pages[name]).to_have_url(re.compile(f"/matches/{first.match_id}/$"))
    expect(pages[loser].locator(".phase-meter")).to_contain_text(
        f"Tournament {tournament.pk}, round 1"
    )
    timer = pages[loser].locator("#tournament-timer")
    expect(timer).to_contain_text("Round 1")
    expect(timer).to_contain_text(f"Tournament {tournament.pk}")
    expect(pages[bye].locator("#tournament-timer")).to_contain_text("Round 1")
    shot(pages[loser], "tournament-match")

    # The loser concedes: the round is over, the next begins (the bye's player against the
    # winner), and both are taken to the new match.
    # Its script listens for the right-click once the page has loaded (a busy machine shows
    # the server's page before it).
    pages[loser].wait_for_load_state("load")
    pages[loser].locator(".phase-meter").click(button="right")
    pages[loser].locator("[data-playmat-menu] [role=menu]").get_by_role(
        "menuitem", name="Concede"
    ).click()
    confirm(pages[loser], "Concede")
    # The round's result and the next round's pairing are tasks after the match's commit: a
    # busy machine takes its time, so the wait is for the pairing, up to a minute.
    second = None
    deadline = time.monotonic() + 60
    while second is None and time.monotonic() < deadline:
        second = (
            Pairing.objects.filter(tournament=tournament, round=2, second__isnull=False)
            .select_related("first__player", "second__player")
            .first()
        )
        if second is None:
            pages[bye].wait_for_timeout(200)
    assert second is not None
    players_two = {second.first.player.username, second.second.player.username}
    assert players_two == {winner, bye}
    for name in players_two:
        # Taken there by their sockets, which a busy machine serves late.
        expect(pages[name]).to_have_url(re.compile(f"/matches/{second.match_id}/$"), timeout=30_000)
    expect(pages[bye].locator("#tournament-timer")).to_contain_text("Round 2")

    # The loser of round one has the bye of round two: between rounds, back in the lobby
    # (rulebook, "Between Rounds"), where they read Get Info on the started tournament.
    expect(pages[loser]).to_have_url(re.compile("/lobbies/tournaments/$"))
    in_lobby(pages[loser], {"Han": han, "Leia": leia, "Chewie": chewie}[loser])
    started = pages[loser].locator(f'#tournaments-started tr[data-tournament="{tournament.pk}"]')
    expect(started).to_contain_text("Round 2")
    started.click(button="right")
    info = pages[loser].locator("#tournament-dialog")
    expect(info.get_by_role("heading", name=f"Tournament {tournament.pk}")).to_be_visible()
    expect(info).to_contain_text("Round 2 opponent")
    expect(info).to_contain_text("opponents' opponents' points")
    shot(pages[loser], "tournament-get-info")
    info.get_by_role("button", name="Close").click()

    # The bye's player drops through the timer's confirmation window.
    dropper = pages[bye]
    dropper.locator("#tournament-timer").get_by_role("button", name="Drop from Tournament").click()
    drop_window = dropper.locator("#drop-dialog")
    expect(drop_window).to_be_visible()
    shot(dropper, "tournament-drop")
    drop_window.get_by_role("button", name="Drop from Tournament").click()
    expect(dropper.get_by_text(f"You dropped from tournament {tournament.pk}")).to_be_visible()
    expect(dropper.locator("#tournament-timer")).to_be_hidden()

    # That ends the last round: the tournament concludes, and the standings show who won.
    pages[winner].locator("#toasts").get_by_role("link", name="Final standings").click()
    standings = pages[winner].locator(".tournament-info")
    expect(standings).to_contain_text("Final standings")
    expect(standings.locator("tbody tr").first).to_contain_text(winner)
    expect(standings).to_contain_text("Dropped")
    shot(pages[winner], "tournament-standings")
    assert Tournament.objects.get(pk=tournament.pk).status == "concluded"


def test_the_lobby_fits_a_phone_and_its_lists_scroll_in_their_box(open_as):
    for number in range(3):
        on_demand_queue(title=f"Phone queue {number}", max_players=8, reward_structure="3-2-1*")
    page = open_as(entrant("Rey"), viewport={"width": 390, "height": 844})
    scroll = page.locator(".tournament-table__scroll").first
    expect(scroll).to_be_visible()
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1] + 1
    assert scroll.evaluate("box => box.scrollWidth > box.clientWidth")
    shot(page, "tournament-lobby-phone")


def test_between_rounds_players_go_back_to_the_lobby_and_are_pulled_into_their_next_match(
    open_as,
):
    """Between Rounds: the players of a finished match go back to the Tournaments Lobby, where
    the Tournament Timer shows the round, the tournament and that they wait; one who left the
    lobby meanwhile is pulled back to it when the next round is ready, and both are taken from
    there into their matches."""
    from game.services.matches import match_concede

    def off_the_loop(service, **kwargs):
        # Off the test's thread, where Playwright's event loop runs: the service's messages
        # reach the pages' sockets as a request's would.
        worker = threading.Thread(target=service, kwargs=kwargs)
        worker.start()
        worker.join()

    def concede(match_id, player):
        off_the_loop(match_concede, match_id=match_id, player=player)

    queue = on_demand_queue(title="Between Rounds", max_players=4, rounds=2)
    players = [
        entrant(name, archetype)
        for name, archetype in (
            ("Han", "jedi"),
            ("Leia", "sith"),
            ("Chewie", "rebel"),
            ("Lando", "imperial"),
        )
    ]
    for player in players:
        off_the_loop(queue_join, queue_id=queue.pk, player=player, deck=player.deck)
    tournament = Tournament.objects.get(queue=queue)
    table_one, table_two = Pairing.objects.select_related("first__player", "second__player").filter(
        tournament=tournament, round=1
    )
    stays, returns = table_one.first.player, table_one.second.player
    pages = {player.username: open_as(player) for player in (stays, returns)}

    # Brought to the lobby by a round's call, a page follows on to the match the Timer links.
    for page in pages.values():
        settling = Settling(page)
        page.goto("/lobbies/tournaments/#round-call")
        expect(page).to_have_url(re.compile(f"/matches/{table_one.match_id}/$"))
        settling.wait()  # the match's socket is open: it hears what follows

    concede(table_one.match_id, returns)

    # The table's other match goes on: both are sent back to the lobby, one chooses to stay.
    stay_page, lobby_page = pages[stays.username], pages[returns.username]
    stay_page.locator("#toasts").get_by_role("button", name="Stay here").click()
    stay_page.goto("/")
    expect(lobby_page).to_have_url(re.compile("/lobbies/tournaments/$"))
    timer = lobby_page.locator("#tournament-timer")
    expect(timer).to_contain_text("Round 1")
    expect(timer).to_contain_text(f"Tournament {tournament.pk}")
    expect(timer).to_contain_text("Between rounds")
    expect(timer.locator("[data-left-ms]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    shot(lobby_page, "tournament-between-rounds")

    concede(table_two.match_id, table_two.second.player)

    round_two = {
        participant.player_id: row.match_id
        for row in Pairing.objects.select_related("first", "second").filter(
            tournament=tournament, round=2
        )
        for participant in (row.first, row.second)
    }
    for player in (stays, returns):
        expect(pages[player.username]).to_have_url(
            re.compile(f"/matches/{round_two[player.pk]}/$"), timeout=30_000
        )
    expect(lobby_page.locator("#tournament-timer")).to_contain_text("Round 2")
