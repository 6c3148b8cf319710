"""The Playmat menu's Settings (rulebook, PREFERENCES, User Interface, "Game/Playmat"): the
same settings as Preferences → Game/Playmat, saved from the match without leaving it."""

import pytest
from django.urls import reverse

from game.services import matches
from tcgsite.accounts.models import Preferences
from tcgsite.inputs import MAX_ID
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def settings_url(match) -> str:
    return reverse("game:playmat_settings", args=[match.pk])


@pytest.fixture
def passes(monkeypatch):
    """The players the settings asked to pass for at once."""
    asked = []
    monkeypatch.setattr(
        matches,
        "match_pass_if_out_of_actions",
        lambda *, match_id, player: asked.append((match_id, player.username)),
    )
    return asked


def test_the_players_page_has_the_settings_window_and_an_observers_has_none(client, carol, bob):
    match = start_match(carol, bob)
    client.force_login(carol)
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert 'id="playmat-settings"' in page and "data-opens-playmat-settings" in page
    assert 'data-auto-select="0"' in page  # off until the player turns it on

    client.force_login(UserFactory(username="Watcher"))
    watching = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert 'id="playmat-settings"' not in watching


def test_settings_saved_from_the_match_come_back_as_the_window_and_keep(client, carol, bob, passes):
    match = start_match(carol, bob)
    client.force_login(carol)

    answer = client.post(
        settings_url(match),
        {
            "auto_select_first_action": "on",
            "card_warnings": "on",
            "hand_display_mode": "popup",
            "card_size_playmat": "medium",
        },
        **HTMX,
    )

    html = answer.content.decode()
    assert answer.status_code == 200 and "Saved." in html
    assert 'data-auto-select="1"' in html
    # The cards keep their size and Card Warnings stays on: nothing to redraw.
    assert "HX-Refresh" not in answer
    saved = Preferences.objects.get(user=carol)
    assert (saved.auto_select_first_action, saved.pass_when_out_of_actions) == (True, False)
    assert passes == []


def test_a_new_card_size_redraws_the_page(client, carol, bob, passes):
    match = start_match(carol, bob)
    client.force_login(carol)

    answer = client.post(
        settings_url(match), {"hand_display_mode": "popup", "card_size_playmat": "large"}, **HTMX
    )

    assert answer["HX-Refresh"] == "true"
    assert Preferences.objects.get(user=carol).card_size_playmat == "large"


def test_card_warnings_turned_off_redraws_the_page(client, carol, bob, passes):
    """The Prompt shown carries the questions of Card Warnings as the preference stood."""
    match = start_match(carol, bob)
    client.force_login(carol)

    answer = client.post(
        settings_url(match), {"hand_display_mode": "popup", "card_size_playmat": "medium"}, **HTMX
    )

    assert answer["HX-Refresh"] == "true"
    assert Preferences.objects.get(user=carol).card_warnings is False


def test_a_new_hand_display_mode_redraws_the_page_and_the_same_one_does_not(
    client, carol, bob, passes
):
    match = start_match(carol, bob)
    client.force_login(carol)
    settings = {
        "hand_display_mode": "full_card",
        "card_warnings": "on",
        "card_size_playmat": "medium",
    }

    answer = client.post(settings_url(match), settings, **HTMX)

    assert answer["HX-Refresh"] == "true"
    assert Preferences.objects.get(user=carol).hand_display_mode == "full_card"
    assert "HX-Refresh" not in client.post(settings_url(match), settings, **HTMX)


def test_turning_pass_when_out_of_actions_on_asks_to_pass_at_once_only_then(
    client, carol, bob, passes
):
    match = start_match(carol, bob)
    client.force_login(carol)
    on = {
        "pass_when_out_of_actions": "on",
        "hand_display_mode": "popup",
        "card_size_playmat": "medium",
    }

    client.post(settings_url(match), on, **HTMX)
    client.post(settings_url(match), on, **HTMX)  # already on
    client.post(
        settings_url(match), {"hand_display_mode": "popup", "card_size_playmat": "medium"}, **HTMX
    )  # off

    assert passes == [(match.pk, "Carol")]


def test_a_refused_setting_is_said_and_nothing_is_saved(client, carol, bob, passes):
    match = start_match(carol, bob)
    client.force_login(carol)

    answer = client.post(
        settings_url(match),
        {
            "pass_when_out_of_actions": "on",
            "hand_display_mode": "popup",
            "card_size_playmat": "huge",
        },
        **HTMX,
    )

    assert answer.status_code == 200 and "nothing was saved" in answer.content.decode()
    assert Preferences.objects.get(user=carol).pass_when_out_of_actions is False
    assert passes == []
    # Without htmx: back to the match, told so.
    answer = client.post(
        settings_url(match),
        {"hand_display_mode": "popup", "card_size_playmat": "huge"},
        follow=True,
    )
    assert answer.redirect_chain[-1][0] == reverse("game:match_page", args=[match.pk])
    assert "nothing was saved" in answer.content.decode()


def test_settings_for_a_match_number_out_of_range_are_saved_and_lead_to_the_lobby(client, player):
    answer = client.post(
        reverse("game:playmat_settings", args=[MAX_ID + 1]),
        {
            "pass_when_out_of_actions": "on",
            "hand_display_mode": "popup",
            "card_size_playmat": "small",
        },
    )

    assert answer.status_code == 302 and answer["Location"] == reverse("lobby")
    assert Preferences.objects.get(user=player).card_size_playmat == "small"
