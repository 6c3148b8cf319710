"""Guild Chat (rulebook, "Guild Chat"): "/g message" in any chat window reaches every member of
the sender's guild, in green with the guild's name before the sender's, in the lobbies and in
a match's Chat Log, and nobody outside the guild (nor a member who ignores the sender)."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from guilds.models import GuildChatLine, GuildMembership
from guilds.services.chat import guild_chat_say
from guilds.services.guilds import guild_create
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.models import ChatMute
from tcgsite.lobbies.services.chat import ChatError, chat_submit
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match

CASUAL = "/ws/lobby/casual/"


def rebels(*, leader="Leia", members=()):
    guild = guild_create(founder=UserFactory(username=leader), name="Rebels")
    for name in members:
        GuildMembership.objects.create(guild=guild, user=UserFactory(username=name))
    return guild


async def enter(open_page, user, path=CASUAL):
    page = await open_page(user, path)
    await page.until('id="user-list"')
    return page


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_guild_chat_reaches_the_members_in_every_lobby_and_nobody_else(open_page):
    guild = await database_sync_to_async(rebels)(members=["Han", "Wedge", "Luke"])
    leia, han, wedge, luke = await database_sync_to_async(
        lambda: [m.user for m in guild.memberships.select_related("user").order_by("pk")]
    )()
    lando = await database_sync_to_async(UserFactory)(username="Lando")
    await database_sync_to_async(accounts.ignore_add)(user=luke, other=leia)
    leia_page = await enter(open_page, leia)
    han_page = await enter(open_page, han)
    wedge_page = await enter(open_page, wedge, "/ws/lobby/trade/")
    luke_page = await enter(open_page, luke)
    lando_page = await enter(open_page, lando)

    await leia_page.say("/g <b>Rally</b> at the Trade Lobby")

    for page in (leia_page, han_page, wedge_page):
        line = await page.until("Rally")
        assert "chat-line--guild" in line
        assert "[Rebels] Leia:</strong> &lt;b&gt;Rally&lt;/b&gt; at the Trade Lobby" in line
    await lando_page.nothing_matching("Rally")
    await luke_page.nothing_matching("Rally")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_guild_chat_from_a_match_reaches_the_guild_not_the_opponent(open_page):
    carol, bob = await database_sync_to_async(
        lambda: (player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith"))
    )()
    match = await database_sync_to_async(start_match)(carol, bob)
    await database_sync_to_async(rebels)(leader="Dave", members=[])
    guild = await database_sync_to_async(
        lambda: GuildMembership.objects.get(user__username="Dave").guild
    )()
    await database_sync_to_async(GuildMembership.objects.create)(guild=guild, user=carol)
    dave = await database_sync_to_async(lambda: guild.leader)()
    carol_page = await open_page(carol, f"/ws/match/{match.pk}/")
    bob_page = await open_page(bob, f"/ws/match/{match.pk}/")
    for page in (carol_page, bob_page):
        await page.until('class="playmat"')
    dave_page = await enter(open_page, dave)

    await carol_page.communicator.send_json_to(
        {"type": "chat", "text": "/g Winning this one", "HEADERS": {}}
    )

    in_log = await carol_page.until("Winning this one")
    assert 'id="match-log"' in in_log and "log-line--guild" in in_log
    assert "[Rebels] Carol:</strong> Winning this one" in in_log
    in_lobby = await dave_page.until("Winning this one")
    assert "chat-line--guild" in in_lobby
    await bob_page.nothing_matching("Winning this one")


@pytest.mark.django_db
def test_a_player_in_no_guild_is_told_so():
    with pytest.raises(ChatError, match="not in a guild"):
        chat_submit(user=UserFactory(), lobby="casual", text="/g anyone?")
    assert not GuildChatLine.objects.exists()


@pytest.mark.django_db
def test_guild_chat_keeps_the_lobbies_rules(django_capture_on_commit_callbacks):
    guild = rebels(members=["Han"])
    leia = guild.leader

    with pytest.raises(ChatError, match="after /g"):
        chat_submit(user=leia, lobby="casual", text="/g   ")
    with pytest.raises(ChatError, match="at most 500"):
        chat_submit(user=leia, lobby="casual", text="/g " + "x" * 498)
    for n in range(5):
        guild_chat_say(user=leia, text=f"line {n}")
    with pytest.raises(ChatError, match="too fast"):
        guild_chat_say(user=leia, text="one more")

    han = guild.memberships.exclude(user=leia).get().user
    ChatMute.objects.create(user=han, until=timezone.now() + timedelta(hours=1))
    with pytest.raises(ChatError, match="You are muted"):
        guild_chat_say(user=han, text="hello?")
    assert GuildChatLine.objects.count() == 5


@pytest.mark.django_db
def test_a_member_who_ignores_the_sender_is_sent_nothing(django_capture_on_commit_callbacks):
    guild = rebels(members=["Han", "Luke"])
    luke = guild.memberships.get(user__username="Luke").user
    accounts.ignore_add(user=luke, other=guild.leader)

    with django_capture_on_commit_callbacks() as callbacks:
        guild_chat_say(user=guild.leader, text="Hello")

    assert len(callbacks) == 2  # Leia and Han, not Luke
