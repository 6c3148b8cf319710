"""Player chat in a match's Chat Log (rulebook, THE GAME SCREEN, "Talking to Other Players";
Casual Lobby, "Launching Matches": "a chat area to communicate with any player who joins")."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from game.models import MatchChatLine
from game.services.matches import MatchSettings, match_create, match_join
from tcgsite.accounts import services as accounts
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def begun_match(**settings):
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    dave = UserFactory(username="Dave")
    return start_match(carol, bob, **settings), carol, bob, dave


async def watch(open_page, match, *users):
    pages = []
    for user in users:
        page = await open_page(user, f"/ws/match/{match.pk}/")
        await page.until('class="playmat"')
        pages.append(page)
    return pages


async def say(page, text):
    await page.communicator.send_json_to({"type": "chat", "text": text, "HEADERS": {}})


async def test_a_line_reaches_the_players_and_the_observers_escaped(open_page):
    match, carol, bob, dave = await begun_match()
    carol_page, bob_page, dave_page = await watch(open_page, match, carol, bob, dave)

    await say(bob_page, "<b>gg</b> and good luck")

    for page in (carol_page, bob_page, dave_page):
        line = await page.until("good luck")
        assert "<strong>Bob:</strong> &lt;b&gt;gg&lt;/b&gt; and good luck" in line


async def test_sayto_is_seen_by_all_and_a_whisper_by_its_two_players(open_page):
    match, carol, bob, dave = await begun_match()
    carol_page, bob_page, dave_page = await watch(open_page, match, carol, bob, dave)

    await say(dave_page, "/st Carol Nice raid")
    for page in (carol_page, bob_page, dave_page):
        assert "Dave (to Carol):</strong> Nice raid" in await page.until("Nice raid")

    await say(carol_page, "/w Bob Come to see me get smashed?")
    assert "You whisper to Bob, Come to see" in await carol_page.until("smashed")
    assert "Carol whispers to you, Come to see" in await bob_page.until("smashed")
    await dave_page.nothing_matching("smashed")


async def test_an_ignored_players_lines_never_reach_you(open_page):
    match, carol, bob, dave = await begun_match()
    await database_sync_to_async(accounts.ignore_add)(user=bob, other=dave)
    carol_page, bob_page, dave_page = await watch(open_page, match, carol, bob, dave)

    await say(dave_page, "Bob plays badly")

    await carol_page.until("plays badly")
    await bob_page.nothing_matching("plays badly")


async def test_refusals_are_told_to_their_sender_alone(open_page):
    match, carol, bob, dave = await begun_match()
    carol_page, bob_page = await watch(open_page, match, carol, bob)

    await say(carol_page, "x" * 501)
    assert "at most 500" in await carol_page.until("log-line--error")
    await say(carol_page, "/whisper Dave hi")
    assert "Dave is not playing in this match" in await carol_page.until("log-line--error")
    await say(carol_page, "/dance")
    assert "no command /dance" in await carol_page.until("log-line--error")
    await say(carol_page, "/help")
    assert "/whisper NAME" in await carol_page.until("log-line--notice")

    await bob_page.nothing_matching("log-line--error|log-line--notice")
    assert await database_sync_to_async(MatchChatLine.objects.count)() == 0


async def test_the_players_talk_on_the_match_launch_screen_and_a_reload_shows_it(open_page):
    carol, bob = await database_sync_to_async(
        lambda: (player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith"))
    )()
    match = await database_sync_to_async(match_create)(
        host=carol, deck=carol.deck, settings=MatchSettings()
    )
    await database_sync_to_async(match_join)(match_id=match.pk, player=bob, deck=bob.deck)
    carol_page = await open_page(carol, f"/ws/match/{match.pk}/")
    bob_page = await open_page(bob, f"/ws/match/{match.pk}/")
    await bob_page.until("Ready to go")

    await say(carol_page, "Ready when you are")

    await bob_page.until("Ready when you are")

    def reload_as_bob():
        client = Client()
        client.force_login(bob)
        return client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert "Ready when you are" in await database_sync_to_async(reload_as_bob)()
