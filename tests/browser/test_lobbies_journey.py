"""Two and three players in the Casual Lobby, each in a browser context of their own (rulebook,
"Lobby Chat", "Chat Window Commands", "User Lists", the Friends entry of the Navigator)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, ARTIFACTS
from tests.browser.test_journeys import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_as(browser, live_server, settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    contexts = []

    def open_(name):
        UserFactory(username=name)
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 1280, "height": 900}
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        log_in(page, name)
        page.goto("/lobbies/casual/")
        expect(page.locator("#chat-status")).to_be_hidden()
        return page

    yield open_
    for context in contexts:
        context.close()


def send(page, text):
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


def row(page, name):
    return page.locator(f'#user-list li[data-username="{name}"]')


def test_players_chat_whisper_ignore_befriend_and_see_each_other_move(open_as):
    carol, bob, dave = open_as("Carol"), open_as("Bob"), open_as("Dave")
    for page in (carol, bob, dave):
        for name in ("Carol", "Bob", "Dave"):
            expect(row(page, name)).to_have_class("user-row user-row--here")
    expect(carol.locator("#user-count")).to_have_text("(3)")

    send(carol, "Hello from Carol")
    expect(bob.locator("#chat-log")).to_contain_text("Carol: Hello from Carol")
    expect(carol.locator("#chat-input")).to_have_value("")

    send(bob, "/me waves.")
    expect(carol.locator("#chat-log")).to_contain_text("Bob waves.")

    secret = "meet me in the Trade Lobby"
    send(carol, f"/whisper Bob {secret}")
    expect(carol.locator("#chat-log")).to_contain_text(
        "You whisper to Bob, meet me in the Trade Lobby"
    )
    expect(bob.locator("#chat-log")).to_contain_text(
        "Carol whispers to you, meet me in the Trade Lobby"
    )

    # Up recalls what Carol sent in this window, newest first.
    carol.locator("#chat-input").press("ArrowUp")
    expect(carol.locator("#chat-input")).to_have_value("/whisper Bob meet me in the Trade Lobby")
    carol.locator("#chat-input").press("ArrowUp")
    expect(carol.locator("#chat-input")).to_have_value("Hello from Carol")
    carol.locator("#chat-input").press("ArrowDown")
    carol.locator("#chat-input").press("ArrowDown")
    expect(carol.locator("#chat-input")).to_have_value("")

    # Dave ignores Bob with the name's menu: right-click here, the row's button below.
    row(dave, "Bob").locator("button").click(button="right")
    expect(dave.locator("#user-menu")).to_be_visible()
    dave.screenshot(path=str(ARTIFACTS / "lobby-user-menu.png"))
    dave.get_by_role("menuitem", name="Ignore").click()
    expect(dave.locator("#user-menu")).to_contain_text("Bob is now on your Ignore List")
    expect(dave.locator("#chat-log")).not_to_contain_text("Bob waves.")
    expect(dave.locator("#chat-log")).to_contain_text("Hello from Carol")
    send(bob, "Can anyone hear me?")
    expect(carol.locator("#chat-log")).to_contain_text("Bob: Can anyone hear me?")
    send(carol, "Only Carol and Bob")
    expect(dave.locator("#chat-log")).to_contain_text("Only Carol and Bob")
    expect(dave.locator("#chat-log")).not_to_contain_text("Can anyone hear me?")
    expect(dave.locator("#chat-log")).not_to_contain_text(secret)

    # The keyboard and touch path to the menu: the name is a button.
    dave.keyboard.press("Escape")
    row(dave, "Carol").locator("button").focus()
    dave.keyboard.press("Enter")
    # In the Casual Lobby, matches put Challenge first.
    expect(dave.get_by_role("menuitem", name="Challenge")).to_be_focused()
    dave.keyboard.press("ArrowDown")
    expect(dave.get_by_role("menuitem", name="Add to friends list")).to_be_focused()
    dave.keyboard.press("ArrowDown")
    dave.keyboard.press("ArrowDown")
    expect(dave.get_by_role("menuitem", name="Get info")).to_be_focused()
    dave.keyboard.press("Enter")
    expect(dave.locator("#player-dialog")).to_be_visible()
    expect(dave.locator("#player-dialog")).to_contain_text("Carol")
    dave.screenshot(path=str(ARTIFACTS / "lobby-get-info.png"))
    dave.keyboard.press("Escape")

    # Bob befriends Carol with a command; the Friends page shows her, online, and where.
    send(bob, "/addfriend Carol")
    expect(bob.locator("#chat-log")).to_contain_text("Carol is now on your Friends List.")

    # Carol opens the Deck Builder: her name turns red (busy) in the others' lists...
    carol.goto("/decks/")
    expect(row(bob, "Carol")).to_have_class("user-row user-row--busy")
    bob_friends = bob.context.new_page()
    bob_friends.goto("/friends/")
    expect(bob_friends.locator(".person")).to_contain_text("Carol")
    expect(bob_friends.locator(".person")).to_contain_text(
        "In the Deck Builder, listed in the Casual Lobby"
    )
    bob_friends.close()
    # ...and white again when she comes back.
    carol.goto("/lobbies/casual/")
    expect(row(bob, "Carol")).to_have_class("user-row user-row--here")
    bob.screenshot(path=str(ARTIFACTS / "lobby-casual.png"))
