"""Two players and a guild, each in a browser context of their own (rulebook, "Guilds":
Creating a Guild, Inviting Members into Your Guild, the Guild Message of Settings, Guild Chat,
Removing Players from Your Guild; "User Lists": Invite to guild)."""

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
            base_url=live_server.url, viewport={"width": 1366, "height": 768}
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        log_in(page, name)
        return page

    yield open_
    for context in contexts:
        context.close()


def enter_casual(page):
    page.goto("/lobbies/casual/")
    expect(page.locator("#chat-status")).to_be_hidden()


def send(page, text):
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


def test_a_guild_is_created_joined_through_the_pop_up_told_its_message_and_a_member_kicked(
    open_as,
):
    leia, chewie = open_as("Leia"), open_as("Chewie")

    # Leia creates a guild from the Guilds window; a taken rule is explained in the dialog.
    leia.goto("/guilds/")
    leia.get_by_role("button", name="Create").click()
    leia.get_by_label("Guild name").fill(" Rebels")
    leia.get_by_role("dialog").get_by_role("button", name="Create").click()
    expect(leia.get_by_role("alert")).to_contain_text("can't begin or end with a space")
    leia.get_by_label("Guild name").fill("Rebel Alliance")
    leia.get_by_role("dialog").get_by_role("button", name="Create").click()
    expect(leia.get_by_role("heading", name="Rebel Alliance")).to_be_visible()
    expect(leia.locator(".lede")).to_contain_text("you are its leader")

    # She invites Chewie from the Casual Lobby's User List.
    enter_casual(chewie)
    enter_casual(leia)
    leia.locator('#user-list li[data-username="Chewie"] button').click(button="right")
    leia.get_by_role("menuitem", name="Invite to guild").click()
    expect(leia.locator("#user-menu")).to_contain_text("Chewie is invited to Rebel Alliance.")

    # Chewie's pop-up has the guild's link and his answer.
    invitation = chewie.locator("#toasts .toast").filter(has_text="invites you")
    expect(invitation).to_contain_text("Leia invites you to join the guild Rebel Alliance")
    expect(invitation.get_by_role("link", name="Rebel Alliance")).to_be_visible()
    chewie.screenshot(path=str(ARTIFACTS / "guild-invitation.png"))
    invitation.get_by_role("button", name="Accept").click()
    expect(chewie.locator("#toasts")).to_contain_text("Welcome to Rebel Alliance!")

    # Guild Chat: green, the guild's name first, from any chat window.
    send(leia, "/g Welcome aboard")
    line = chewie.locator("#chat-log .chat-line--guild")
    expect(line).to_contain_text("[Rebel Alliance] Leia: Welcome aboard")
    expect(line).to_have_css("color", "rgb(95, 211, 141)")

    # Leia broadcasts the Guild Message; Chewie, in the lobby, sees it at once.
    leia.goto("/guilds/")
    leia.get_by_role("link", name="Your guild: Rebel Alliance").click()
    leia.get_by_role("link", name="Settings").click()
    leia.get_by_label("Each member sees it in a pop-up at their next login.").fill(
        "Tournament on Friday at 20:00 UTC."
    )
    leia.get_by_label("Send to all logged in members of the guild immediately").check()
    leia.get_by_role("button", name="Save message").click()
    expect(leia.locator(".messages")).to_contain_text("sent now to the 1 member logged in")
    message = chewie.locator("#toasts .toast").filter(has_text="Guild Message of")
    expect(message).to_contain_text("Tournament on Friday at 20:00 UTC.")
    expect(message).to_contain_text("from Leia")
    chewie.screenshot(path=str(ARTIFACTS / "guild-message.png"))

    # The Members tab shows both online; Leia kicks Chewie, who is told.
    leia.get_by_role("link", name="Members").click()
    chewie_row = leia.locator('.guild-member[data-member="Chewie"]')
    expect(chewie_row).to_contain_text("In the Casual Lobby")
    leia.screenshot(path=str(ARTIFACTS / "guild-members.png"))
    leia.once("dialog", lambda dialog: dialog.accept())
    chewie_row.get_by_role("button", name="Kick from Guild").click()
    expect(leia.locator(".messages")).to_contain_text("Chewie is no longer in Rebel Alliance.")
    expect(leia.locator('.guild-member[data-member="Chewie"]')).to_have_count(0)
    expect(chewie.locator("#toasts")).to_contain_text("Leia removed you from the guild")
