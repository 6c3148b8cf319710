"""Lobby chat as services (rulebook, "Lobby Chat" and "Chat Window Commands")."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tcgsite.accounts import services as accounts
from tcgsite.errors import UserError
from tcgsite.lobbies import registry
from tcgsite.lobbies.models import ChatKind, ChatMessage
from tcgsite.lobbies.places import Lobby, Place
from tcgsite.lobbies.services.chat import ChatError, chat_submit
from tcgsite.lobbies.services.moderation import ModerationError, chat_mute, chat_unmute
from tcgsite.lobbies.services.presence import presence_open
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
CASUAL = Lobby.CASUAL


@pytest.fixture
def carol():
    user = UserFactory(username="Carol")
    presence_open(user=user, channel_name="test.carol", place=Place.CASUAL)
    return user


@pytest.fixture
def bob():
    user = UserFactory(username="Bob")
    presence_open(user=user, channel_name="test.bob", place=Place.CASUAL)
    return user


def say(user, text, lobby=CASUAL):
    return chat_submit(user=user, lobby=lobby, text=text)


def test_a_line_is_stored_for_the_lobby(carol):
    assert say(carol, "  Hello there  ") == []
    message = ChatMessage.objects.get()
    assert (message.lobby, message.sender, message.kind, message.text) == (
        CASUAL,
        carol,
        ChatKind.SAY,
        "Hello there",
    )


def test_control_characters_are_dropped_and_an_empty_line_is_ignored(carol):
    say(carol, "a\x00b\u202ec\nd")
    assert ChatMessage.objects.get().text == "abc d"
    assert say(carol, " \x07 ") == []
    assert ChatMessage.objects.count() == 1


def test_a_message_over_500_characters_is_refused_and_nothing_is_stored(carol):
    say(carol, "x" * 500)
    with pytest.raises(ChatError, match="501 characters.*at most 500"):
        say(carol, "x" * 501)
    assert ChatMessage.objects.count() == 1


def test_more_than_5_messages_in_5_seconds_are_refused(carol):
    for number in range(5):
        say(carol, f"line {number}")
    with pytest.raises(ChatError, match="too fast"):
        say(carol, "one too many")
    assert ChatMessage.objects.count() == 5
    ChatMessage.objects.update(sent_at=timezone.now() - timedelta(seconds=6))
    say(carol, "later")
    assert ChatMessage.objects.count() == 6


def test_a_muted_player_is_told_until_when_and_can_talk_after_unmute(carol):
    staff = UserFactory(username="Mod", is_staff=True)
    chat_mute(user=carol, until=timezone.now() + timedelta(hours=1), reason="spam", by=staff)
    with pytest.raises(ChatError, match=r"muted until .* UTC \(spam\)"):
        say(carol, "hi")
    with pytest.raises(ChatError, match="muted"):
        say(carol, "/me waves")
    assert chat_unmute(user=carol) == 1
    say(carol, "hi")
    assert ChatMessage.objects.count() == 1


def test_staff_cannot_be_muted_and_a_mute_must_end_later():
    staff = UserFactory(username="Mod", is_staff=True)
    player = UserFactory()
    with pytest.raises(ModerationError, match="staff"):
        chat_mute(user=staff, until=timezone.now() + timedelta(hours=1), by=None)
    with pytest.raises(ModerationError, match="future"):
        chat_mute(user=player, until=timezone.now() - timedelta(minutes=1), by=staff)


def test_time_gives_the_server_clock(carol):
    (line,) = say(carol, "/time")
    now = timezone.now()
    assert line.startswith(f"Server time: {now:%A} {now.day} {now:%B %Y}")
    assert line.endswith("UTC. Scheduled events use it.")


def test_me_is_stored_as_an_emote(carol):
    say(carol, "/me is demonstrating an emote.")
    message = ChatMessage.objects.get()
    assert (message.kind, message.text) == (ChatKind.EMOTE, "is demonstrating an emote.")
    with pytest.raises(ChatError, match="after /me"):
        say(carol, "/me")


@pytest.mark.parametrize("command", ["/sayto", "/st"])
def test_sayto_names_a_player_in_the_lobby(carol, bob, command):
    say(carol, f"{command} bob Hello")
    message = ChatMessage.objects.get()
    assert (message.kind, message.recipient, message.text) == (ChatKind.SAY_TO, bob, "Hello")


@pytest.mark.parametrize("command", ["/whisper", "/w", "/msg"])
def test_whisper_and_its_aliases(carol, bob, command):
    say(carol, f"{command} Bob Hello")
    message = ChatMessage.objects.get()
    assert (message.kind, message.recipient, message.text) == (ChatKind.WHISPER, bob, "Hello")


def test_player_commands_need_a_player_in_this_lobby(carol, bob):
    elsewhere = UserFactory(username="Dave")
    presence_open(user=elsewhere, channel_name="test.dave", place=Place.TRADE)
    UserFactory(username="Offline")
    for command in ("/whisper", "/sayto", "/ping", "/addfriend", "/removefriend"):
        with pytest.raises(ChatError, match="Dave is not in this lobby"):
            say(carol, f"{command} Dave Hello")
        with pytest.raises(ChatError, match="Offline is not in this lobby"):
            say(carol, f"{command} Offline Hello")
        with pytest.raises(ChatError, match="no player called Nobody"):
            say(carol, f"{command} Nobody Hello")
        with pytest.raises(ChatError, match=f"Name a player after {command}"):
            say(carol, command)
    with pytest.raises(ChatError, match="what to whisper"):
        say(carol, "/whisper Bob")
    with pytest.raises(ChatError, match="yourself"):
        say(carol, "/whisper Carol hi")
    assert ChatMessage.objects.count() == 0


def test_ping_refused_by_ignore_and_by_request_attention(carol, bob):
    assert say(carol, "/ping Bob") == ["You ping Bob."]
    assert ChatMessage.objects.get().kind == ChatKind.PING
    accounts.ignore_add(user=bob, other=carol)
    with pytest.raises(ChatError, match="not accepting pings from you"):
        say(carol, "/ping Bob")
    bob.preferences.request_attention = False
    bob.preferences.save()
    accounts.ignore_remove(user=bob, other=carol)
    with pytest.raises(ChatError, match="turned pings off"):
        say(carol, "/ping Bob")


def test_ignore_and_unignore(carol, bob):
    assert say(carol, "/ignore bob") == [
        "Bob is now on your Ignore List: you won't see their messages."
    ]
    assert say(carol, "/ignore Bob") == ["Bob is already on your Ignore List."]
    assert list(carol.ignored.all()) == [bob]
    assert say(carol, "/unignore Bob") == ["Bob is no longer on your Ignore List."]
    assert say(carol, "/unignore Bob") == ["Bob is not on your Ignore List."]
    with pytest.raises(UserError, match="can't ignore yourself"):
        say(carol, "/ignore Carol")
    with pytest.raises(ChatError, match="no player called Zed"):
        say(carol, "/ignore Zed")


def test_addfriend_and_removefriend(carol, bob):
    assert say(carol, "/addfriend Bob") == ["Bob is now on your Friends List."]
    assert say(carol, "/addfriend Bob") == ["Bob is already on your Friends List."]
    assert list(carol.friends.all()) == [bob]
    assert say(carol, "/removefriend Bob") == ["Bob is no longer on your Friends List."]
    assert say(carol, "/removefriend Bob") == ["Bob is not on your Friends List."]


def test_ignoring_a_friend_takes_them_off_the_friends_list(carol, bob):
    say(carol, "/addfriend Bob")
    say(carol, "/ignore Bob")
    assert not carol.friends.exists()
    say(carol, "/addfriend Bob")
    assert not carol.ignored.exists()


@pytest.mark.parametrize("command", ["/help", "/?"])
def test_help_lists_the_available_commands_only(carol, command):
    lines = say(carol, command)
    text = "\n".join(lines)
    for name in (
        "time",
        "me",
        "ignore",
        "unignore",
        "addfriend",
        "removefriend",
        "sayto",
        "whisper",
        "ping",
        "help",
    ):
        assert f"/{name}" in text
    assert "/st" in text and "/w" in text and "/msg" in text and "/?" in text
    # /trade belongs to the Trade Lobby's window alone (rulebook, "/trade").
    assert not any(line.startswith("/trade") for line in lines)


def test_unknown_commands_are_explained(carol):
    with pytest.raises(ChatError, match="no command /dance; /help lists them"):
        say(carol, "/dance")
    with pytest.raises(ChatError, match="after the slash"):
        say(carol, "/")


def test_registering_a_command_makes_it_available_and_listed_in_its_lobbies(carol, monkeypatch):
    monkeypatch.setattr(registry, "_commands", dict(registry._commands))

    registry.register_command(
        registry.ChatCommand(
            "wave",
            "/wave NAME",
            "waves at a player",
            lambda context, args: [f"waved at {args}"],
            lobbies=frozenset({Lobby.TRADE}),
        )
    )

    assert chat_submit(user=carol, lobby=Lobby.TRADE, text="/wave Bob") == ["waved at Bob"]
    assert any(
        line.startswith("/wave NAME")
        for line in chat_submit(user=carol, lobby=Lobby.TRADE, text="/help")
    )
    with pytest.raises(ChatError, match="can't be used in the Casual Lobby"):
        say(carol, "/wave Bob")
    with pytest.raises(ValueError, match="registered twice"):
        registry.register_command(registry.ChatCommand("wave", "", "", lambda c, a: []))
