"""Preferences show only settings that do something today (rulebook, PREFERENCES, User
Interface): each setting the form offers is checked here to change what a page shows."""

import re
from html import unescape

import pytest
from django.urls import reverse

from collection.cards.models import Card
from game.services.decision_sql import decision_reads
from tcgsite.accounts.forms import GamePlaymatForm, SoundForm, UserInterfaceForm
from tcgsite.accounts.models import Preferences, TipScreen
from tcgsite.lobbies.places import Lobby, Place
from tcgsite.lobbies.selectors import shows_arrivals
from tcgsite.lobbies.services.chat import ChatError, chat_ping
from tcgsite.lobbies.services.presence import presence_open
from tests.factories import CardOwnershipFactory, UserFactory
from tests.game.conftest import player_with_deck, start_match, starter_deck
from tests.game.test_card_warnings import IN_PLAY, sidearm_to_replace

pytestmark = pytest.mark.django_db

TIP_PAGES = {
    TipScreen.MAIN: ("lobby", ()),
    TipScreen.COLLECTION: ("collection:binder", ()),
    TipScreen.DECK_BUILDER: ("decks:deck_builder", ()),
    TipScreen.TRADE_LOBBY: ("lobbies:lobby", (Lobby.TRADE,)),
    TipScreen.CASUAL_LOBBY: ("lobbies:lobby", (Lobby.CASUAL,)),
}


def set_preference(user, **values) -> None:
    Preferences.objects.filter(user=user).update(**values)


def binder_count(client) -> int:
    return client.get(reverse("collection:binder")).context["page"].paginator.count


def check_show_only_owned_cards(client, user):
    CardOwnershipFactory(owner=user, card=Card.objects.first())
    set_preference(user, show_only_owned_cards=True)
    assert binder_count(client) == 1
    set_preference(user, show_only_owned_cards=False)
    assert binder_count(client) == Card.objects.count()


def check_hidden_tips(client, user):
    """Every screen's tips hide from Preferences (the Trade screen's and the game screen's:
    tests/accounts/test_player_tips.py)."""
    for screen, (name, args) in TIP_PAGES.items():
        page = reverse(name, args=args)
        set_preference(user, hidden_tips=[])
        assert f'id="tips-{screen}"' in client.get(page).content.decode(), screen
        set_preference(user, hidden_tips=[screen])
        assert f'id="tips-{screen}"' not in client.get(page).content.decode(), screen


def check_left_navigator_pulse(client, user):
    """Left Navigator Pulse: the page's body is marked to pulse its Navigator (site.css)."""
    for pulse in (True, False):
        set_preference(user, left_navigator_pulse=pulse)
        page = client.get(reverse("lobby")).content.decode()
        assert ('class="with-nav nav-pulse"' in page) is pulse
        assert 'class="with-nav' in page


def check_card_size_collection(client, user):
    CardOwnershipFactory(owner=user, card=Card.objects.first())
    set_preference(user, card_size_collection="large")
    assert "card-grid--large" in client.get(reverse("cards:card_list")).content.decode()
    assert "card-grid--large" in client.get(reverse("collection:binder")).content.decode()
    assert "tiles--large" in client.get(reverse("decks:deck_builder")).content.decode()
    set_preference(user, card_size_collection="small")
    assert "card-grid--small" in client.get(reverse("cards:card_list")).content.decode()
    assert "tiles--small" in client.get(reverse("decks:deck_builder")).content.decode()


def check_card_size_deck(client, user):
    set_preference(user, card_size_deck="large")
    assert "deck-cards--large" in client.get(reverse("decks:deck_builder")).content.decode()
    set_preference(user, card_size_deck="medium")
    assert "deck-cards--medium" in client.get(reverse("decks:deck_builder")).content.decode()


def check_lobby_messages(client, user):
    """Lobby Messages: arrivals and departures shown in the lobby's chat."""
    set_preference(user, lobby_messages=True)
    assert shows_arrivals(user_id=user.pk)
    set_preference(user, lobby_messages=False)
    assert not shows_arrivals(user_id=user.pk)


def check_request_attention(client, user):
    """Request Attention: receive pings from other players."""
    pinger = UserFactory(username="Pinger")
    presence_open(user=user, channel_name="test.pinged", place=Place.CASUAL)
    presence_open(user=pinger, channel_name="test.pinger", place=Place.CASUAL)
    set_preference(user, request_attention=False)
    with pytest.raises(ChatError, match="turned pings off"):
        chat_ping(user=pinger, lobby=Lobby.CASUAL, name=user.username)
    set_preference(user, request_attention=True)
    assert chat_ping(user=pinger, lobby=Lobby.CASUAL, name=user.username).recipient == user


EFFECTS = {
    "lobby_messages": check_lobby_messages,
    "request_attention": check_request_attention,
    "left_navigator_pulse": check_left_navigator_pulse,
    "show_only_owned_cards": check_show_only_owned_cards,
    "hidden_tips": check_hidden_tips,
    "card_size_collection": check_card_size_collection,
    "card_size_deck": check_card_size_deck,
}


def match_of(user):
    """A match ``user`` plays (seat 0) against another player, its first game begun."""
    user.deck = starter_deck(user, "jedi")
    return start_match(user, player_with_deck("Opponent", "sith"))


def check_pass_when_out_of_actions(client, user):
    """Pass When Out of Actions: the match's decisions read it with the seat."""
    match = match_of(user)
    for autopass in (True, False):
        set_preference(user, pass_when_out_of_actions=autopass)
        _match, seats, _game = decision_reads(match.pk)
        assert seats[0].autopass is autopass


def check_auto_select_first_action(client, user):
    """Auto-Select First Action: the match page's script reads it from its Settings form."""
    page = reverse("game:match_page", args=[match_of(user).pk])
    for auto_select, flag in ((True, "1"), (False, "0")):
        set_preference(user, auto_select_first_action=auto_select)
        assert f'data-auto-select="{flag}"' in client.get(page).content.decode()


def check_hand_display_mode(client, user):
    """Hand Display Mode: the match page marks the mode its hand is drawn in
    (static/css/match.css; tests/browser/test_preferences_journey.py sees each)."""
    page = reverse("game:match_page", args=[match_of(user).pk])
    for mode in ("popup", "fish_eye", "full_card"):
        set_preference(user, hand_display_mode=mode)
        assert f'data-hand-display="{mode}"' in client.get(page).content.decode()


def check_card_size_playmat(client, user):
    page = reverse("game:match_page", args=[match_of(user).pk])
    for size in ("large", "small"):
        set_preference(user, card_size_playmat=size)
        assert f'data-card-size="{size}"' in client.get(page).content.decode()


def check_foil_effects(client, user):
    """Foil Effects: on, a foil copy shimmers in the binder; off, its badge alone marks it."""
    CardOwnershipFactory(owner=user, card=Card.objects.first(), quantity=2, foil=1)
    set_preference(user, show_only_owned_cards=True)
    for on in (True, False):
        set_preference(user, foil_effects=on)
        page = client.get(reverse("collection:binder")).content.decode()
        assert 'class="foil-badge"' in page
        assert ("foil--shimmer" in page) is on


def check_card_warnings(client, user):
    """Card Warnings: the match page's play of an item whose restriction would destroy one in
    play asks first, naming it (tests/game/test_card_warnings.py)."""
    user.deck = starter_deck(user, "imperial")
    match = start_match(user, player_with_deck("Opponent", "sith"))
    sidearm_to_replace(match)
    page = reverse("game:match_page", args=[match.pk])
    for on in (True, False):
        set_preference(user, card_warnings=on)
        shown = client.get(page).content.decode()
        assert ("data-warning=" in shown) is on
        assert (f"your {IN_PLAY}" in unescape(shown)) is on


GAME_EFFECTS = {
    "hand_display_mode": check_hand_display_mode,
    "foil_effects": check_foil_effects,
    "pass_when_out_of_actions": check_pass_when_out_of_actions,
    "card_warnings": check_card_warnings,
    "auto_select_first_action": check_auto_select_first_action,
    "card_size_playmat": check_card_size_playmat,
}


def test_the_game_playmat_form_offers_exactly_the_settings_with_an_effect():
    assert set(GamePlaymatForm.base_fields) == set(GAME_EFFECTS)
    assert {name for _title, names in GamePlaymatForm.sections for name in names} == set(
        GAME_EFFECTS
    )


@pytest.mark.parametrize("name", GAME_EFFECTS)
def test_each_game_playmat_setting_changes_the_match(client, player, catalog, name):
    GAME_EFFECTS[name](client, player)


def test_the_game_playmat_page_saves_its_settings_and_auto_select_starts_off(client, player):
    """Auto-Select First Action is an option the player turns on (rulebook, Game/Playmat)."""
    url = reverse("accounts:preferences", args=["game"])
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="auto_select_first_action"' in page.content.decode()
    assert Preferences.objects.get(user=player).auto_select_first_action is False

    answer = client.post(
        url,
        {
            "hand_display_mode": "fish_eye",
            "pass_when_out_of_actions": "on",
            "auto_select_first_action": "on",
            "card_size_playmat": "large",
        },
        follow=True,
    )

    assert "Game/Playmat saved." in answer.content.decode()
    saved = Preferences.objects.get(user=player)
    assert (saved.pass_when_out_of_actions, saved.auto_select_first_action) == (True, True)
    assert (saved.card_size_playmat, saved.hand_display_mode) == ("large", "fish_eye")
    answer = client.post(url, {"card_size_playmat": "huge"})
    assert "nothing was saved" in answer.content.decode()
    assert Preferences.objects.get(user=player).pass_when_out_of_actions is True


def test_the_form_offers_exactly_the_settings_with_an_effect():
    """A setting joins the form with a check of its effect below, never before."""
    assert set(UserInterfaceForm.base_fields) == set(EFFECTS)
    assert {name for _title, names in UserInterfaceForm.sections for name in names} == set(EFFECTS)


@pytest.mark.parametrize("name", EFFECTS)
def test_each_offered_setting_changes_a_page(client, player, catalog, name):
    EFFECTS[name](client, player)


def test_settings_without_an_effect_are_not_on_the_page(client, player):
    page = client.get(reverse("accounts:preferences", args=["interface"])).content.decode()
    for elsewhere in ("hand_display_mode", "card_size_playmat", "sound_volume"):
        assert f'name="{elsewhere}"' not in page


def test_every_screen_with_tips_can_have_them_shown_again(client, player):
    """Rulebook, Hide Player Tips: the eight screens, each a box of its own; clearing a box
    and accepting shows that screen's tips again."""
    page = client.get(reverse("accounts:preferences", args=["interface"])).content.decode()
    for screen in TipScreen.values:
        assert f'name="hidden_tips" value="{screen}"' in page, screen
    set_preference(player, hidden_tips=TipScreen.values)

    client.post(
        reverse("accounts:preferences", args=["interface"]),
        {
            "hidden_tips": [TipScreen.MAIN],
            "card_size_collection": "medium",
            "card_size_deck": "small",
            "lobby_messages": "on",
            "request_attention": "on",
        },
    )

    assert Preferences.objects.get(user=player).hidden_tips == [TipScreen.MAIN]


# Sound (rulebook, PREFERENCES, Sound): the page's sounds follow each setting, and a muted
# page names no sound at all.
SOUND_FILES = ("your_turn", "raid", "whisper", "game_end", "ping")


def sound_addresses(page: str) -> set[str]:
    # Production mode serves static files under hashed names: sounds/ping.<hash>.mp3.
    return {
        name
        for name in (*SOUND_FILES, "music")
        if re.search(rf"sounds/{name}(\.[0-9a-f]+)?\.mp3", page)
    }


def check_mute_sounds(client, user):
    """Muted, no page names a sound or loads the script that plays them: the Main Lobby, a
    lobby with chat (whispers, pings) and a match's game screen."""
    urls = (
        reverse("lobby"),
        reverse("lobbies:lobby", args=[Lobby.CASUAL]),
        reverse("game:match_page", args=[match_of(user).pk]),
    )
    set_preference(user, mute_sounds=True, sound_volume=100, music_volume=100)
    for url in urls:
        page = client.get(url).content.decode()
        assert "sounds/" not in page and "sounds.js" not in page, url
    set_preference(user, mute_sounds=False)
    for url in urls:
        assert sound_addresses(client.get(url).content.decode()) == {*SOUND_FILES, "music"}


def check_sound_volume(client, user):
    set_preference(user, sound_volume=35, music_volume=0)
    page = client.get(reverse("lobby")).content.decode()
    assert 'data-volume="35"' in page and sound_addresses(page) == set(SOUND_FILES)
    set_preference(user, sound_volume=0, music_volume=20)
    assert sound_addresses(client.get(reverse("lobby")).content.decode()) == {"music"}


def check_music_volume(client, user):
    set_preference(user, sound_volume=0, music_volume=45)
    page = client.get(reverse("lobby")).content.decode()
    assert 'data-music-volume="45"' in page and sound_addresses(page) == {"music"}
    set_preference(user, music_volume=0)
    assert "sounds.js" not in client.get(reverse("lobby")).content.decode()


SOUND_EFFECTS = {
    "mute_sounds": check_mute_sounds,
    "sound_volume": check_sound_volume,
    "music_volume": check_music_volume,
}


def test_the_sound_form_offers_exactly_the_settings_with_an_effect():
    assert set(SoundForm.base_fields) == set(SOUND_EFFECTS)
    assert {name for _title, names in SoundForm.sections for name in names} == set(SOUND_EFFECTS)


@pytest.mark.parametrize("name", SOUND_EFFECTS)
def test_each_sound_setting_changes_the_pages(client, player, catalog, name):
    SOUND_EFFECTS[name](client, player)


def test_the_sound_page_saves_and_refuses_a_volume_out_of_range(client, player):
    url = reverse("accounts:preferences", args=["sound"])
    assert 'type="range"' in client.get(url).content.decode()

    answer = client.post(url, {"sound_volume": "40", "music_volume": "0", "mute_sounds": "on"})

    assert answer.status_code == 302
    saved = Preferences.objects.get(user=player)
    assert (saved.sound_volume, saved.music_volume, saved.mute_sounds) == (40, 0, True)
    answer = client.post(url, {"sound_volume": "140", "music_volume": "-1"})
    assert "nothing was saved" in answer.content.decode()
    assert Preferences.objects.get(user=player).sound_volume == 40


def test_the_sounds_are_few_and_small_with_their_licences_listed():
    from django.conf import settings

    sounds = settings.BASE_DIR / "static" / "sounds"
    licences = (sounds / "LICENSES.md").read_text()
    for name in (*SOUND_FILES, "music"):
        assert f"`{name}.mp3`" in licences
        assert (sounds / f"{name}.mp3").stat().st_size < 30_000
