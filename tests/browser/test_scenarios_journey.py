"""A player's first scenario (rulebook, "Scenarios"): from the Main Lobby's Play entry to the
Scenarios map, Scenario 1 begun with their Rebel starter deck, its dialogs, its victory
conditions behind the opponent avatar's Info button (rulebook, "Info Button"), Review Dialogs,
a win through the playmat, the match's finishing task run twice, and the reward card in the
binder once; on the map Scenario 1 is won and Scenario 2 open."""

import re

import pytest
from playwright.sync_api import expect

from collection.cards.models import Card
from collection.models import CardOwnership
from game.models import Match
from game.scenarios import scenario_numbered
from tcgsite.celery import task_named
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory
from tests.game.conftest import starter_deck, thinking_threads  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def computer_thinks_fast(settings, thinking_threads):  # noqa: F811 - the fixture
    """The computer opponent's decisions, made by the web process's background threads after a
    pause short enough for a test; in production mode too, where no Celery worker runs beside
    the test's server (the match's finishing task runs there as well)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.COMPUTER_PAUSE_SECONDS = 0.05


def act(page, selector: str, *, text: str | None = None) -> None:
    """Click the Prompt's button ``selector`` (with ``text`` in its label) once it is the
    player's decision, and wait for the socket to show the next one (the ply moves on)."""
    button = page.locator(f".prompt__actions {selector}")
    if text is not None:
        button = button.filter(has_text=text)
    expect(button.first).to_be_visible()
    ply = page.locator(".prompt").get_attribute("data-ply")
    button.first.click()
    expect(page.locator(".prompt")).not_to_have_attribute("data-ply", ply)


def read_dialog(page, title: str) -> None:
    dialog = page.locator(".tutorial-dialog")
    expect(dialog).to_contain_text(title)
    dialog.get_by_role("button", name="Got it").click()
    expect(dialog).to_have_count(0)


def test_a_player_wins_scenario_one_and_finds_its_reward_once_in_the_binder(
    page, screenshot, catalog, computer_thinks_fast
):
    player = UserFactory(username="Rhen")
    deck = starter_deck(player, "rebel")
    reward = Card.objects.get(title=scenario_numbered(1).reward, creator=None)
    log_in(page, "Rhen")

    # Play → Scenarios: two chapters, each opening with its first scenario. The lobby's
    # socket first (its panels are drawn anew when it connects).
    expect(page.locator("#chat-status")).to_be_hidden()
    page.locator("#play-panel").get_by_role("link", name=re.compile("^Scenarios")).click()
    # A busy machine may take a while to serve the map the first time.
    expect(page).to_have_url(re.compile(r"/scenarios/$"), timeout=20_000)
    expect(page.get_by_role("heading", name="Scenarios", exact=True)).to_be_visible()
    expect(page.locator(".scenario-world")).to_have_count(10)
    expect(page.locator('.scenario-world[data-state="open"]')).to_have_count(2)
    expect(page.locator('.scenario-world[data-state="locked"]')).to_have_count(8)
    chosen = page.locator("#scenario-1")
    expect(chosen).to_contain_text(f"Reward card: {reward.title}")
    expect(page.locator("#scenario-2")).to_contain_text("Win Scenario 1 to open it.")
    screenshot("scenarios-map")
    expect(chosen.get_by_label("Your deck")).to_have_value(str(deck.pk))
    chosen.get_by_role("button", name="Play").click()

    # The playmat: the first dialog; the Info button shows the victory conditions.
    expect(page.locator(".playmat")).to_be_visible()
    expect(page.locator(".tutorial-dialog")).to_contain_text("Scenario 1 · 1 of 2")
    screenshot("scenarios-first-dialog")
    page.locator(".mat-avatar__info").click()
    conditions = page.locator("#victory-conditions")
    expect(conditions).to_contain_text("Drive the patrol out of Dunewater")
    conditions.get_by_role("button", name="Close").click()
    expect(conditions).to_be_hidden()
    read_dialog(page, "The patrol")

    # The raid the dialogs tell of: the Ryloth fighter attacks, the Gunner adds its bonus.
    act(page, 'button[data-action-kind="raid"]')
    read_dialog(page, "Hit hard")
    page.locator("[data-playmat-menu] summary").click()
    page.get_by_role("menuitem", name="Review Dialogs…").click()
    review = page.locator("#review-dialogs")
    expect(review).to_contain_text("The patrol")
    expect(review).to_contain_text("Hit hard")
    review.get_by_role("button", name="Close").click()
    act(page, 'button[data-action-kind="exert"]', text="Ryloth Resistance Fighter")
    act(page, 'button[data-action-kind="pass"]')
    act(page, 'button[data-action-kind="exert"]', text="Repeater Gunner")

    result = page.locator(".match-result")
    expect(result.get_by_role("heading", name="Scenario won")).to_be_visible()
    expect(result).to_contain_text(f"Reward card earned: {reward.title}")
    screenshot("scenarios-won")

    # The match's finishing task, run again twice, grants nothing more.
    match = Match.objects.get(scenario=1)
    for _ in range(2):
        task_named("game.match_finished").apply(kwargs={"match_id": match.pk}, throw=True)
    assert CardOwnership.objects.get(owner=player, card=reward).quantity == 1

    # The binder holds one copy of the reward card.
    page.goto(f"/collection/?q={reward.title.replace(' ', '+')}&in=title")
    expect(page.locator(f"#numbers-{reward.pk} .numbers__qty")).to_have_text("1")
    screenshot("scenarios-reward-in-binder")

    # The map: Scenario 1 won, Scenario 2 open.
    page.goto("/scenarios/")
    expect(page.locator('.scenario-world[data-scenario="1"]')).to_have_attribute(
        "data-state", "won"
    )
    expect(page.locator('.scenario-world[data-scenario="2"]')).to_have_attribute(
        "data-state", "open"
    )
    expect(page.locator("#scenario-1")).to_contain_text("Won")
    screenshot("scenarios-map-after-a-win")
