"""Preferences seen in a browser (rulebook, PREFERENCES): each Hand Display Mode draws the
playmat's hand its own way, the site's sounds are fetched when a ping or a whisper arrives and
never while muted, and the Left Navigator Pulse pulses unless the system asks for reduced
motion."""

import pytest
from playwright.sync_api import expect

from tcgsite.accounts.models import Preferences
from tests.browser.conftest import ACTION_TIMEOUT_MS, ARTIFACTS
from tests.browser.test_journeys import log_in
from tests.browser.test_playmat_journey import (  # noqa: F401 - fixtures
    PHONE,
    SMALL_DESKTOP,
    crowded_game,
    open_playmat,
    wait_until,
)
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_CARD = "#mat-hand > li:nth-child({}) .mat-card"


def hand_scales(page) -> list[str]:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('#mat-hand > li .mat-card'))"
        ".map((card) => getComputedStyle(card).scale)"
    )


def settled_scale(page, card: str, scale: str) -> None:
    wait_until(page, f"getComputedStyle(document.querySelector('{card}')).scale === '{scale}'")


def width(page, selector: str) -> float:
    return page.evaluate(
        "(selector) => document.querySelector(selector).getBoundingClientRect().width", selector
    )


@pytest.mark.parametrize(
    ("mode", "pointed", "beside", "further"),
    [
        ("popup", "1.75", "none", "none"),
        ("fish_eye", "1.55", "1.25", "1.1"),
        ("full_card", "none", "none", "none"),
    ],
)
def test_each_hand_display_mode_draws_the_hand_its_way(  # noqa: F811
    crowded_game,  # noqa: F811
    open_playmat,  # noqa: F811
    mode,
    pointed,
    beside,
    further,
):
    """Popup: the pointed card pops up alone. Fish-eye: it swells, its neighbours less, the
    next ones less again. Full Card: nothing pops up; the hand's cards are drawn larger than
    the playmat's."""
    match, _ = crowded_game
    Preferences.objects.filter(user__username="Carol").update(hand_display_mode=mode)
    page = open_playmat(match, viewport=SMALL_DESKTOP)
    expect(page.locator(f'.match-page[data-hand-display="{mode}"]')).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"hand-{mode}-1280.png"))

    page.locator(HAND_CARD.format(4)).hover()
    settled_scale(page, HAND_CARD.format(4), pointed)
    settled_scale(page, HAND_CARD.format(3), beside)

    scales = hand_scales(page)
    assert scales[3] == pointed
    assert scales[2] == scales[4] == beside
    assert scales[1] == scales[5] == further
    assert scales[0] == scales[6] == "none"
    page.screenshot(path=str(ARTIFACTS / f"hand-{mode}-1280-pointed.png"))
    hand_card, unit = width(page, HAND_CARD.format(1)), width(page, ".mat-units .mat-card")
    if mode == "full_card":
        assert hand_card == pytest.approx(unit * 1.3, rel=0.02)
    else:
        assert hand_card == pytest.approx(unit, rel=0.02)
    # The whole game screen still fits the window: nothing scrolls.
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    phone = open_playmat(match, viewport=PHONE)
    phone.screenshot(path=str(ARTIFACTS / f"hand-{mode}-phone.png"), full_page=True)


@pytest.fixture
def open_as(browser, live_server, settings):
    """A player's page in a browser context of their own, with these Preferences."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    contexts = []

    def open_(name, *, reduced_motion="no-preference", **preferences):
        player = UserFactory(username=name)
        Preferences.objects.filter(user=player).update(**preferences)
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": 1280, "height": 720},
            reduced_motion=reduced_motion,
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        log_in(page, name)
        return page

    yield open_
    for context in contexts:
        context.close()


def in_casual_lobby(page) -> None:
    page.goto("/lobbies/casual/")
    expect(page.locator("#chat-status")).to_be_hidden()


def send(page, text):
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


# The sounds the page has fetched since it opened.
SOUNDS_FETCHED = (
    "performance.getEntriesByType('resource').map((entry) => entry.name)"
    ".filter((name) => name.includes('/sounds/'))"
)


def wait_for_sound(page, name: str) -> None:
    wait_until(page, f"{SOUNDS_FETCHED}.some((name) => name.endsWith('/sounds/{name}.mp3'))")


def test_a_ping_and_a_whisper_sound_and_a_muted_page_fetches_no_sound(open_as):
    carol = open_as("Carol", sound_volume=60, music_volume=0)
    bob = open_as("Bob")
    for page in (carol, bob):
        in_casual_lobby(page)
    assert carol.locator("script[data-sounds]").get_attribute("data-volume") == "60"
    assert carol.evaluate(SOUNDS_FETCHED) == []

    send(bob, "/ping Carol")
    expect(carol.locator("#chat-log")).to_contain_text("Bob pings you.")
    wait_for_sound(carol, "ping")
    send(bob, "/whisper Carol over here")
    expect(carol.locator("#chat-log")).to_contain_text("Bob whispers to you, over here")
    wait_for_sound(carol, "whisper")

    Preferences.objects.filter(user__username="Carol").update(mute_sounds=True)
    in_casual_lobby(carol)
    send(bob, "/ping Carol")
    send(bob, "/whisper Carol still there?")
    expect(carol.locator("#chat-log")).to_contain_text("Bob whispers to you, still there?")
    expect(carol.locator("#chat-log")).to_contain_text("Bob pings you.")
    assert carol.locator("script[src*=sounds]").count() == 0
    assert "sounds/" not in carol.content()
    assert carol.evaluate(SOUNDS_FETCHED) == []


@pytest.mark.parametrize(
    ("pulse", "reduced_motion", "animation"),
    [
        (True, "no-preference", "nav-pulse"),
        (True, "reduce", "none"),
        (False, "no-preference", "none"),
    ],
)
def test_the_left_navigator_pulses_when_asked_and_motion_is_welcome(
    open_as, pulse, reduced_motion, animation
):
    page = open_as("Carol", reduced_motion=reduced_motion, left_navigator_pulse=pulse)
    animation_name = page.evaluate(
        "getComputedStyle(document.querySelector('.navigator')).animationName"
    )
    assert animation_name == animation
    if pulse and animation != "none":
        page.screenshot(path=str(ARTIFACTS / "navigator-pulse.png"))


def test_the_preferences_pages_at_a_desktop_and_a_phone(open_as):
    page = open_as("Carol")
    for name in ("sound", "interface", "game"):
        page.goto(f"/preferences/{name}/")
        page.screenshot(path=str(ARTIFACTS / f"preferences-{name}-1280.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(ARTIFACTS / f"preferences-{name}-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.set_viewport_size(SMALL_DESKTOP)
    page.goto("/preferences/sound/")
    page.get_by_label("Mute all sound").check()
    page.get_by_role("button", name="Accept").click()
    expect(page.get_by_text("Sound saved.")).to_be_visible()
    assert page.locator("script[src*=sounds]").count() == 0


def test_a_lobbys_tips_hide_with_a_click_and_come_back_from_preferences(open_as):
    page = open_as("Carol")
    in_casual_lobby(page)
    tips = page.locator("#tips-casual_lobby")
    expect(tips).to_contain_text("Create opens the match window")
    page.screenshot(path=str(ARTIFACTS / "casual-lobby-tips-1280.png"), full_page=True)

    tips.get_by_role("button", name="Hide these tips").click()
    expect(tips).to_have_count(0)

    page.goto("/preferences/interface/")
    page.get_by_label("Casual Lobby").uncheck()
    page.get_by_role("button", name="Accept").click()
    expect(page.get_by_text("User Interface saved.")).to_be_visible()
    in_casual_lobby(page)
    expect(page.locator("#tips-casual_lobby")).to_be_visible()
    page.goto("/lobbies/trade/")
    expect(page.locator("#tips-trade_lobby")).to_contain_text("Posted Trades")
    page.screenshot(path=str(ARTIFACTS / "trade-lobby-tips-1280.png"), full_page=True)


def test_the_quest_filled_tip_shows_on_the_game_screen_and_hides_for_good(
    crowded_game,  # noqa: F811
    open_playmat,  # noqa: F811
):
    """The crowded position leaves two of Carol's level tokens at her level 2 quest."""
    match, _ = crowded_game
    page = open_playmat(match, viewport=SMALL_DESKTOP)
    tip = page.locator('[data-game-tip="quest_filled"]')
    expect(tip).to_be_visible()
    expect(page.locator('[data-game-tip="excessive_attack"]')).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "game-tip-quest-filled-1280.png"))

    tip.get_by_role("button", name="Hide these tips").click()
    expect(tip.locator(".tips")).to_have_count(0)
    assert Preferences.objects.get(user__username="Carol").hidden_tips == ["quest_filled"]


@pytest.mark.parametrize("music_volume", [40, 0])
def test_the_game_screen_fetches_its_music_only_with_a_music_volume(
    crowded_game,  # noqa: F811
    open_playmat,  # noqa: F811
    music_volume,
):
    match, _ = crowded_game
    Preferences.objects.filter(user__username="Carol").update(music_volume=music_volume)
    page = open_playmat(match, viewport=SMALL_DESKTOP)
    page.locator(".phase-meter").click()

    if music_volume:
        wait_for_sound(page, "music")
        assert page.locator("script[data-music]").get_attribute("data-music-volume") == "40"
    else:
        assert page.locator("script[data-music]").count() == 0
        assert not any("music" in name for name in page.evaluate(SOUNDS_FETCHED))
