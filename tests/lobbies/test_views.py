"""Lobby pages, a name's menu, the Friends page and chat moderation in the admin."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tcgsite.lobbies.models import ChatMessage, ChatMute
from tcgsite.lobbies.services.chat import chat_say
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def carol(client):
    user = UserFactory(username="Carol")
    client.force_login(user)
    return user


@pytest.mark.parametrize("lobby", ["casual", "trade", "tournaments"])
def test_each_lobby_page_has_its_chat_and_user_list(client, carol, lobby):
    page = client.get(reverse("lobbies:lobby", args=[lobby])).content.decode()
    assert f'ws-connect="/ws/lobby/{lobby}/"' in page
    assert 'id="chat-log"' in page and 'id="user-list"' in page
    assert "/ws/presence/" not in page  # the chat socket keeps the player present


def test_the_main_lobby_has_its_chat_and_other_pages_a_presence_socket(client, carol):
    assert 'ws-connect="/ws/lobby/main/"' in client.get(reverse("lobby")).content.decode()
    assert (
        'ws-connect="/ws/presence/deck_builder/"'
        in client.get(reverse("decks:deck_builder")).content.decode()
    )
    assert (
        'ws-connect="/ws/presence/collection/"'
        in client.get(reverse("collection:binder")).content.decode()
    )
    assert (
        'ws-connect="/ws/presence/elsewhere/"'
        in client.get(reverse("cards:card_list")).content.decode()
    )


def test_lobby_pages_need_a_login_and_an_existing_lobby(client, carol):
    assert client.get("/lobbies/cantina/").status_code == 404
    assert client.get("/lobbies/main/").status_code == 404  # the Main Lobby is at /
    client.logout()
    assert client.get(reverse("lobbies:lobby", args=["casual"])).status_code == 302


def menu_labels(client, name):
    page = client.get(reverse("lobbies:user_menu", args=["casual", name])).content.decode()
    return [
        label
        for label in (
            "Add to friends list",
            "Remove from friends list",
            "Ignore",
            "Unignore",
            "Get info",
        )
        if f">{label}<" in page
    ]


def test_a_names_menu_offers_what_applies(client, carol):
    bob = UserFactory(username="Bob")
    assert menu_labels(client, "Bob") == ["Add to friends list", "Ignore", "Get info"]
    carol.friends.add(bob)
    assert menu_labels(client, "Bob") == ["Remove from friends list", "Ignore", "Get info"]
    carol.friends.clear()
    carol.ignored.add(bob)
    assert menu_labels(client, "Bob") == ["Add to friends list", "Unignore", "Get info"]
    assert menu_labels(client, "Carol") == ["Get info"]
    assert client.get(reverse("lobbies:user_menu", args=["casual", "Nobody"])).status_code == 404


def test_the_menus_list_changes_answer_with_a_sentence(client, carol):
    bob = UserFactory(username="Bob")
    answer = client.post(reverse("accounts:ignore_toggle", args=["Bob"]), headers=HTMX)
    assert "Bob is now on your Ignore List" in answer.content.decode()
    assert list(carol.ignored.all()) == [bob]
    answer = client.post(reverse("accounts:friend_toggle", args=["Bob"]), headers=HTMX)
    assert "Bob is now on your Friends List" in answer.content.decode()
    assert not carol.ignored.exists()
    answer = client.post(reverse("accounts:ignore_toggle", args=["Carol"]), headers=HTMX)
    assert "can&#x27;t ignore yourself" in answer.content.decode()


def test_get_info_answers_htmx_with_the_card_for_a_dialog(client, carol):
    bob = UserFactory(username="Bob")
    bob.preferences.personal_message = "Trading Wookiees"
    bob.preferences.messenger_handle = "bob-im"
    bob.preferences.save()  # the handle is for friends only by default
    card = client.get(reverse("accounts:player_info", args=["Bob"]), headers=HTMX).content.decode()
    assert "<html" not in card and "Trading Wookiees" in card and "bob-im" not in card


def test_the_friends_page_adds_by_name_and_explains_mistakes(client, carol):
    UserFactory(username="Bob")
    response = client.post(
        reverse("lobbies:friends_add", args=["friends"]), {"username": "bob"}, follow=True
    )
    assert "Bob is now on your Friends List." in response.content.decode()
    response = client.post(
        reverse("lobbies:friends_add", args=["friends"]), {"username": "Zed"}, follow=True
    )
    assert "There is no player called Zed." in response.content.decode()
    response = client.post(
        reverse("lobbies:friends_add", args=["ignored"]), {"username": "Carol"}, follow=True
    )
    assert "can&#x27;t ignore yourself" in response.content.decode()
    response = client.post(
        reverse("lobbies:friends_add", args=["ignored"]), {"username": "Bob"}, follow=True
    )
    page = response.content.decode()
    assert "Bob is now on your Ignore List." in page and "No friends yet" in page
    assert (
        client.post(
            reverse("lobbies:friends_add", args=["enemies"]), {"username": "Bob"}
        ).status_code
        == 404
    )


@pytest.fixture
def staff_client(client):
    staff = UserFactory(username="Moderator", is_staff=True, is_superuser=True)
    client.force_login(staff)
    return client


def test_staff_search_the_chat_and_mute_senders(staff_client):
    rude, polite = UserFactory(username="Rude"), UserFactory(username="Polite")
    chat_say(user=rude, lobby="casual", text="something rude")
    chat_say(user=polite, lobby="trade", text="good trades")
    changelist = reverse("admin:lobbies_chatmessage_changelist")

    page = staff_client.get(changelist, {"q": "rude"}).content.decode()
    assert "something rude" in page and "good trades" not in page
    page = staff_client.get(changelist, {"lobby__exact": "trade"}).content.decode()
    assert "good trades" in page and "something rude" not in page

    staff_client.post(
        changelist,
        {
            "action": "mute_senders_for_day",
            "_selected_action": [ChatMessage.objects.get(sender=rude).pk],
        },
    )
    mute = ChatMute.objects.get()
    assert mute.user == rude and mute.until > timezone.now() + timedelta(hours=23)


def test_staff_add_a_mute_with_an_end_time_and_a_past_one_is_refused(staff_client):
    player = UserFactory(username="Loud")
    add = reverse("admin:lobbies_chatmute_add")
    later = timezone.now() + timedelta(hours=2)

    staff_client.post(
        add,
        {
            "user": player.pk,
            "until_0": later.strftime("%Y-%m-%d"),
            "until_1": later.strftime("%H:%M:%S"),
            "reason": "shouting",
        },
    )
    assert ChatMute.objects.get().reason == "shouting"

    earlier = timezone.now() - timedelta(hours=2)
    response = staff_client.post(
        add,
        {
            "user": player.pk,
            "until_0": earlier.strftime("%Y-%m-%d"),
            "until_1": earlier.strftime("%H:%M:%S"),
        },
    )
    assert "A mute must end in the future." in response.content.decode()
    assert ChatMute.objects.count() == 1
