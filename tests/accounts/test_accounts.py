"""Sign-up, log-in, log-out, password change, Preferences and Player Tips."""

import re
from html.parser import HTMLParser

import pytest
from django.db import IntegrityError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.models import Wallet
from tcgsite.accounts import services
from tcgsite.accounts.avatars import PLAYER_AVATAR_CHOICES
from tcgsite.accounts.models import Preferences, TipScreen, User, Visibility
from tcgsite.accounts.session_user import session_user, session_user_queryset
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_signup_creates_player_with_preferences_and_logs_in(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "Rachel", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 302
    user = User.objects.get(username="Rachel")
    assert Preferences.objects.filter(user=user).exists()
    lobby = client.get(reverse("lobby"), follow=True)
    assert lobby.context["user"] == user
    # Greeted once, as a newcomer: not welcomed back on the same page.
    page = lobby.content.decode()
    assert "Welcome to the galaxy, Rachel!" in page and "Welcome back" not in page


def test_newcomers_each_get_another_avatar_until_they_choose_one(client):
    """Two players who signed up one after the other never share a portrait in the lists."""
    for name in ("Ann", "Ben", "Cid"):
        client.post(
            reverse("accounts:signup"),
            {"username": name, "password1": PASSWORD, "password2": PASSWORD},
        )
        client.logout()

    avatars = [
        Preferences.objects.get(user__username=name).avatar_choice for name in ("Ann", "Ben", "Cid")
    ]
    assert len(set(avatars)) == 3
    assert set(avatars) <= {choice for choice, _label in PLAYER_AVATAR_CHOICES}


def test_signup_rejects_username_differing_only_in_case(client):
    UserFactory(username="Shochu")

    response = client.post(
        reverse("accounts:signup"),
        {"username": "shochu", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert User.objects.filter(username__iexact="shochu").count() == 1


def test_database_refuses_usernames_differing_only_in_case():
    UserFactory(username="Paladon")
    with pytest.raises(IntegrityError):
        User.objects.create(username="PALADON")


def test_login_ignores_username_case_and_logout_ends_session(client):
    UserFactory(username="Vicki")

    response = client.post(reverse("accounts:login"), {"username": "vICKI", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("lobby")).context["user"].username == "Vicki"

    client.post(reverse("accounts:logout"))
    assert not client.get(reverse("lobby")).context["user"].is_authenticated


def test_login_with_wrong_password_shows_message(client):
    UserFactory(username="Jason")
    response = client.post(reverse("accounts:login"), {"username": "Jason", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


@pytest.mark.parametrize("url", ["accounts:login", "admin:login"])
def test_login_with_a_name_longer_than_any_username_fails_as_a_wrong_one(client, url):
    """No account has it; SQLite refused to compare it (over 50,000 characters): a 500."""
    response = client.post(reverse(url), {"username": "x" * 50_001, "password": "nope"})

    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_a_name_longer_than_any_username_names_no_player(client, player):
    """The Friends List's form, and every other that looks a player up by name."""
    response = client.post(
        reverse("lobbies:friends_add", args=["friends"]), {"username": "x" * 50_001}, follow=True
    )

    assert "There is no player called xxxx" in response.content.decode()


def test_password_change(client):
    user = UserFactory()
    client.force_login(user)

    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-password-77",
            "new_password2": "another-long-password-77",
        },
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-long-password-77")


def test_anonymous_visitor_sees_welcome_without_navigator(client):
    response = client.get(reverse("lobby"))
    assert response.templates[0].name == "welcome.html"
    assert "navigator" not in response.context


def test_navigator_lists_only_built_sections(client):
    """Rulebook, Navigator: Home, Play, Cards, Community, Miscellaneous, Store, Exit.
    A section not built yet is absent, never a dead link."""
    client.force_login(UserFactory())

    response = client.get(reverse("lobby"))

    labels = [section.label for section in response.context["navigator"].sections]
    assert labels == ["Home", "Play", "Cards", "Community", "Miscellaneous", "Store"]
    page = response.content.decode()
    assert "Exit" in page
    for section in response.context["navigator"].sections:
        for entry in section.entries:
            # Reversed once per process, it is still the route's address.
            assert entry.url == reverse(entry.url_name, args=entry.args)
            assert client.get(entry.url).status_code == 200


def test_navigator_marks_the_current_page_and_carries_each_players_own_exit_token():
    """The Navigator is rendered once per process for each page it can mark (it is the same
    for every player); the Exit form's CSRF field is each page's own, so Exit logs out."""
    for _ in range(2):
        client = Client(enforce_csrf_checks=True)
        client.force_login(UserFactory())
        page = client.get(reverse("collection:binder")).content.decode()
        nav = page[page.index('<nav class="navigator"') : page.index("</nav>")]
        assert re.findall(r'<a href="([^"]+)" aria-current="page">', nav) == [
            reverse("collection:binder")
        ]
        exit_form = nav[nav.index('action="' + reverse("accounts:logout")) :]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', exit_form)[1]
        response = client.post(reverse("accounts:logout"), {"csrfmiddlewaretoken": token})
        assert response.status_code == 302
        assert "_auth_user_id" not in client.session
    client.force_login(UserFactory())
    lobby = client.get(reverse("lobby")).content.decode()
    nav = lobby[lobby.index('<nav class="navigator"') : lobby.index("</nav>")]
    assert re.findall(r'<a href="([^"]+)" aria-current="page">', nav) == [reverse("lobby")]


def test_a_page_reads_its_players_frame_with_the_player(client):
    """Every page shows the player's avatar, credits and Tournament Timer: read in the query
    that loads the player (tcgsite/accounts/session_user.py), not in one query each."""
    player = UserFactory()
    client.force_login(player)
    Wallet.objects.filter(owner=player).update(credits=4321)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("cards:card_list")).content.decode()
    player_loads = [q["sql"] for q in queries if q["sql"].startswith('SELECT "accounts_user"')]
    assert len(player_loads) == 1
    assert all(
        table in player_loads[0]
        for table in ("accounts_preferences", "collection_wallet", "tournaments_participant")
    )
    assert not [
        q["sql"]
        for q in queries
        if q["sql"].startswith(
            ('SELECT "accounts_preferences"', 'SELECT "collection_wallet"', 'SELECT "tournaments_')
        )
    ]
    assert "<strong>4321</strong> credits" in page
    assert reverse("accounts:avatar_picture", args=[player.preferences.avatar_choice]) in page
    assert 'id="tournament-timer" ' in page and "data-left-ms" not in page


def test_the_player_loaded_once_compiled_is_the_one_the_queryset_reads():
    player = UserFactory()
    Wallet.objects.filter(owner=player).update(credits=777)
    Preferences.objects.filter(user=player).update(avatar_choice=PLAYER_AVATAR_CHOICES[2][0])
    expected = session_user_queryset().get(pk=player.pk)

    with CaptureQueriesContext(connection) as queries:
        loaded = session_user(str(player.pk))  # as the session holds it

    assert len(queries) == 1
    assert (loaded.pk, loaded.username, loaded.password) == (
        expected.pk,
        expected.username,
        expected.password,
    )
    assert loaded.preferences.avatar_choice == PLAYER_AVATAR_CHOICES[2][0]
    assert loaded.wallet.credits == 777
    assert loaded.running_tournament_id is None
    assert loaded._state.adding is False
    assert session_user(player.pk + 1000) is None


def test_player_tips_shown_until_hidden(client):
    user = UserFactory()
    client.force_login(user)
    assert "Player Tips" in client.get(reverse("lobby")).content.decode()

    response = client.post(
        reverse("accounts:hide_tips", args=[TipScreen.MAIN]), headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert "Player Tips" not in client.get(reverse("lobby")).content.decode()
    assert user.preferences.__class__.objects.get(user=user).hidden_tips == ["main"]


def test_hiding_unknown_tips_is_a_clear_error(client):
    client.force_login(UserFactory())
    response = client.post(reverse("accounts:hide_tips", args=["nowhere"]))
    assert response.status_code == 400
    assert "no Player Tips" in response.content.decode()


def test_interface_preferences_saved_and_read_back(client):
    user = UserFactory()
    client.force_login(user)

    response = client.post(
        reverse("accounts:preferences", args=["interface"]),
        {
            "show_only_owned_cards": "on",
            "hidden_tips": ["collection", "deck_builder"],
            "card_size_collection": "large",
            "card_size_deck": "medium",
        },
    )

    assert response.status_code == 302
    preferences = Preferences.objects.get(user=user)
    assert preferences.show_only_owned_cards is True
    assert preferences.hidden_tips == ["collection", "deck_builder"]
    assert preferences.card_size_collection == "large"
    assert preferences.card_size_deck == "medium"


def test_invalid_preferences_keep_saved_values_and_explain(client):
    user = UserFactory()
    client.force_login(user)

    response = client.post(
        reverse("accounts:preferences", args=["interface"]),
        {"card_size_collection": "huge", "card_size_deck": "large"},
    )

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    preferences = Preferences.objects.get(user=user)
    assert (preferences.card_size_collection, preferences.card_size_deck) == ("medium", "small")


def test_unknown_preferences_page_is_404(client):
    client.force_login(UserFactory())
    assert client.get("/preferences/music/").status_code == 404


def test_avatar_choice_saved_and_shown(client):
    user = UserFactory()
    client.force_login(user)

    client.post(reverse("accounts:preferences", args=["avatar"]), {"avatar_choice": "wookiee"})

    assert Preferences.objects.get(user=user).avatar_choice == "wookiee"
    assert "/avatars/wookiee.svg" in client.get(reverse("lobby")).content.decode()
    picture = client.get(reverse("accounts:avatar_picture", args=["wookiee"]))
    assert picture["Content-Type"] == "image/svg+xml"


def test_account_info_visible_to_everyone_friends_or_no_one():
    owner = UserFactory(username="Owner")
    friend = UserFactory(username="Friend")
    stranger = UserFactory(username="Stranger")
    Preferences.objects.filter(user=owner).update(
        personal_message="Trading Sith rares",
        personal_message_visibility=Visibility.EVERYONE,
        messenger_handle="owner#42",
        messenger_handle_visibility=Visibility.FRIENDS,
        home_page="https://example.org/owner",
        home_page_visibility=Visibility.NOBODY,
    )
    services.friend_add(user=owner, friend=friend)

    assert services.account_info_visible(owner=owner, viewer=stranger) == {
        "personal_message": "Trading Sith rares"
    }
    assert services.account_info_visible(owner=owner, viewer=friend) == {
        "personal_message": "Trading Sith rares",
        "messenger_handle": "owner#42",
    }
    assert set(services.account_info_visible(owner=owner, viewer=owner)) == {
        "personal_message",
        "messenger_handle",
        "home_page",
    }


def test_account_info_page_validates_home_page(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("accounts:preferences", args=["account"]),
        {
            "home_page": "not a url",
            "personal_message_visibility": "everyone",
            "messenger_handle_visibility": "friends",
            "home_page_visibility": "everyone",
        },
    )
    assert response.status_code == 200
    assert "Enter a valid URL" in response.content.decode()


def test_player_info_page_and_friend_toggle(client):
    viewer = UserFactory(username="Viewer")
    owner = UserFactory(username="Shown")
    Preferences.objects.filter(user=owner).update(
        messenger_handle="shown#1", messenger_handle_visibility=Visibility.FRIENDS
    )
    client.force_login(viewer)

    def info_page() -> str:
        return client.get(reverse("accounts:player_info", args=["shown"])).content.decode()

    assert "shown#1" not in info_page()
    client.post(reverse("accounts:friend_toggle", args=["Shown"]))
    assert viewer.friends.filter(pk=owner.pk).exists()
    # The owner has not added the viewer, so friends-only fields stay hidden.
    assert "shown#1" not in info_page()
    services.friend_add(user=owner, friend=viewer)
    assert "shown#1" in info_page()


def test_adding_yourself_as_friend_is_refused(client):
    user = UserFactory()
    with pytest.raises(services.AccountError):
        services.friend_add(user=user, friend=user)


def test_player_list_search(client):
    client.force_login(UserFactory(username="Searcher"))
    UserFactory(username="Bossk_fan")
    UserFactory(username="Other")
    response = client.get(reverse("accounts:player_list"), {"q": "bossk"})
    names = [player.username for player in response.context["page"]]
    assert names == ["Bossk_fan"]


def test_preferences_created_for_users_made_outside_signup():
    user = User.objects.create_user(username="AdminMade", password=PASSWORD)
    assert Preferences.objects.filter(user=user).exists()


def test_unknown_page_has_the_sites_own_not_found_page(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "not in the galaxy" in response.content.decode()


# Hiding Player Tips without JavaScript returns to the page, never to another site.
HIDE_MAIN_TIPS = reverse("accounts:hide_tips", args=[TipScreen.MAIN])


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "http:///evil.example/",
        "abc",
        "javascript:alert(1)",
        "",
    ],
)
def test_hiding_tips_follows_no_next_but_a_page_of_the_site(client, player, next_url):
    response = client.post(HIDE_MAIN_TIPS, {"next": next_url})

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert TipScreen.MAIN in Preferences.objects.get(user=player).hidden_tips


def test_hiding_tips_returns_to_the_page_they_were_on(client, player):
    response = client.post(HIDE_MAIN_TIPS, {"next": "/collection/?set=1"})

    assert response["Location"] == "/collection/?set=1"


# Staff add players in the admin, Preferences included.


class FormValues(HTMLParser):
    """The values a browser would send for a page's forms as they are rendered."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        name = attributes.get("name")
        if tag == "input" and name and attributes.get("type") not in ("submit", "checkbox"):
            if attributes.get("type") != "radio" or "checked" in attributes:
                self.values.setdefault(name, attributes.get("value") or "")
        elif tag == "textarea" and name:
            self.values.setdefault(name, "")
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            if "selected" in attributes or self._select not in self.values:
                self.values[self._select] = attributes.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def test_staff_add_a_player_with_preferences_filled_in(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    add_url = reverse("admin:accounts_user_add")
    form = FormValues()
    form.feed(client.get(add_url).content.decode())
    assert "preferences-0-personal_message" in form.values

    response = client.post(
        add_url,
        {
            **form.values,
            "username": "Corran",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "preferences-0-personal_message": "Rogue Squadron, standing by.",
            "preferences-0-personal_message_visibility": Visibility.FRIENDS,
        },
    )

    assert response.status_code == 302
    preferences = Preferences.objects.get(user__username="Corran")
    assert preferences.personal_message == "Rogue Squadron, standing by."
    assert preferences.personal_message_visibility == Visibility.FRIENDS
