"""What matches add to the lobbies (rulebook, "Chat Window Commands" and "User Lists"):
/joingame N, /observegame N and /resume, each answered with a line that opens the window or
page it leads to, and Challenge in a name's menu in the Casual Lobby."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from game.models import Match, MatchStatus
from game.services.matches import MatchSettings, match_create
from game.services.offers import match_offer, match_offer_answer
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import OpenPage
from tcgsite.lobbies.services.chat import ChatError, chat_submit
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match

pytestmark = pytest.mark.django_db


def say(player, text, lobby=Lobby.CASUAL):
    return chat_submit(user=player, lobby=lobby, text=text)


def test_the_match_commands_are_listed(carol):
    text = "\n".join(str(line) for line in say(carol, "/help"))

    for name in ("joingame", "observegame", "resume"):
        assert f"/{name}" in text


def test_joingame_opens_the_join_window_of_a_match_with_a_free_seat(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(title="Duel"))

    (line,) = say(bob, f"/joingame {match.pk}")

    assert line == OpenPage(
        f"Joining match {match.pk}, Duel: choose your deck.",
        reverse("game:match_join", args=[match.pk]),
        window=True,
    )
    assert say(bob, f"/joingame #{match.pk}") == [line]
    (own,) = say(carol, f"/joingame {match.pk}")
    assert own.url == reverse("game:match_page", args=[match.pk])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ("", "Type the number on the match's medallion, as in: /joingame 127"),
        ("seven", "Type the number on the match's medallion"),
        # Superscript two and circled one: digits to str.isdigit(), not to int().
        ("\u00b2", "Type the number on the match's medallion"),
        ("#\u2460", "Type the number on the match's medallion"),
        ("9" * 30, "Type the number on the match's medallion"),
        ("99999999", "There is no match 99999999."),
    ],
)
def test_joingame_explains_a_bad_number(carol, arguments, message):
    with pytest.raises(ChatError, match=message):
        say(carol, f"/joingame {arguments}")


@pytest.mark.parametrize("arguments", ["\u2460", "\u00b2", "-1", "0"])
def test_observegame_explains_a_bad_number(carol, arguments):
    with pytest.raises(ChatError, match="as in: /observegame 127"):
        say(carol, f"/observegame {arguments}")


def test_joingame_refuses_a_full_match_and_one_not_open_to_you(carol, bob, catalog):
    dave = player_with_deck("Dave", "rebel")
    full = start_match(carol, bob)
    with pytest.raises(ChatError, match=f"Match {full.pk} is full: another player took its seat"):
        say(dave, f"/joingame {full.pk}")
    friends = match_create(host=dave, deck=dave.deck, settings=MatchSettings(friends_only=True))
    erin = player_with_deck("Erin", "imperial")
    with pytest.raises(ChatError, match=f"Match {friends.pk} is not open to you"):
        say(erin, f"/joingame {friends.pk}")


def test_observegame_opens_the_match_page_of_a_match_open_to_observers(carol, bob):
    match = start_match(carol, bob)
    watcher = UserFactory(username="Watcher")

    (line,) = say(watcher, f"/observegame {match.pk}")

    assert line == OpenPage(
        f"Observing match {match.pk}, Carol.", reverse("game:match_page", args=[match.pk])
    )


def test_observegame_says_why_a_match_cannot_be_watched(carol, bob):
    private = start_match(carol, bob, allow_observers=False)
    watcher = UserFactory(username="Watcher")

    with pytest.raises(ChatError, match=f"Match {private.pk}: This match does not allow"):
        say(watcher, f"/observegame {private.pk}")
    Match.objects.filter(pk=private.pk).update(allow_observers=True, status=MatchStatus.OPEN)
    with pytest.raises(ChatError, match="has not begun"):
        say(watcher, f"/observegame {private.pk}")


def test_resume_opens_the_window_of_adjourned_games_whose_opponents_are_here(carol, bob):
    assert say(carol, "/resume") == [
        "You have no adjourned game whose opponents are all in this lobby."
    ]
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    Presence.objects.create(user=bob, room=Lobby.CASUAL, place=Lobby.CASUAL)

    (line,) = say(carol, "/resume")

    assert line == OpenPage(
        "You have 1 adjourned game to resume here.",
        reverse("game:adjourned_matches") + "?lobby=casual",
        window=True,
    )
    assert say(carol, "/resume", lobby=Lobby.TRADE) == [
        "You have no adjourned game whose opponents are all in this lobby."
    ]


def menu(client, lobby, name) -> str:
    return client.get(reverse("lobbies:user_menu", args=[lobby, name])).content.decode()


def test_challenge_is_in_the_casual_lobbys_menu_and_opens_the_create_window(client, carol, bob):
    client.force_login(bob)

    entries = menu(client, "casual", "Carol")

    assert "Challenge" in entries
    assert reverse("game:match_create") + "?challenge=Carol" in entries
    assert "Challenge" not in menu(client, "trade", "Carol")
    assert "Challenge" not in menu(client, "casual", "Bob")
    accounts.ignore_add(user=carol, other=bob)
    assert "Challenge" not in menu(client, "casual", "Carol")


def test_the_create_window_of_a_challenge_makes_a_match_for_that_player_alone(client, carol, bob):
    client.force_login(carol)
    window = client.get(reverse("game:match_create") + "?challenge=bob").content.decode()
    assert "Challenge Bob" in window and 'name="challenge" value="Bob"' in window

    response = client.post(
        reverse("game:match_create"),
        {"challenge": "Bob", "deck": carol.deck.pk, "structure": 3, "allow_observers": "on"},
    )

    assert response.status_code == 302
    match = Match.objects.get()
    assert (match.challenged, match.structure) == (bob, 3)


def test_a_challenge_of_nobody_says_so(client, carol):
    client.force_login(carol)

    response = client.post(
        reverse("game:match_create"), {"challenge": "Nobody", "deck": carol.deck.pk}
    )

    assert "There is no player called Nobody." in response.content.decode()
    assert not Match.objects.exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_challenged_player_is_asked_on_any_page_and_the_lobby_chat_opens_windows(
    open_page,
):
    carol, bob = await database_sync_to_async(
        lambda: (player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith"))
    )()
    bob_page = await open_page(bob, "/ws/presence/collection/")
    carol_lobby = await open_page(carol, "/ws/lobby/casual/")

    match = await database_sync_to_async(match_create)(
        host=carol, deck=carol.deck, settings=MatchSettings(challenged=bob)
    )

    toast = await bob_page.until("challenges you")
    assert reverse("game:match_join", args=[match.pk]) in toast
    assert reverse("game:challenge_decline", args=[match.pk]) in toast
    await carol_lobby.say(f"/joingame {match.pk}")
    opened = await carol_lobby.until("data-chat-opens")
    assert f'href="{reverse("game:match_page", args=[match.pk])}" data-chat-opens="page"' in opened
