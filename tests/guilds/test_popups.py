"""The guilds' pop-ups on whatever page a player is (rulebook, "Inviting Members into Your Guild
and Joining Existing Guilds": "a pop-up message with your invitation and a link to the details
of your guild"; "Settings": the Guild Message at login, or broadcast at once)."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from guilds.models import GuildMembership
from guilds.services.guilds import guild_create, guild_invite, guild_message_set
from tcgsite.lobbies.models import Presence
from tests.factories import UserFactory

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def present(user):
    """Once the player is present, their page's socket has joined its groups."""
    for _ in range(150):
        if await database_sync_to_async(Presence.objects.filter(user=user).exists)():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{user} never became present")


@database_sync_to_async
def rebels_with(*names):
    guild = guild_create(founder=UserFactory(username="Leia"), name="Rebels")
    users = [UserFactory(username=name) for name in names]
    for user in users:
        GuildMembership.objects.create(guild=guild, user=user)
    return guild, guild.leader, users


@pytest.mark.parametrize("path", ["/ws/lobby/casual/", "/ws/presence/elsewhere/"])
async def test_the_invited_player_gets_a_pop_up_with_a_link_to_the_guild(open_page, path):
    guild, leia, _ = await rebels_with()
    chewie = await database_sync_to_async(UserFactory)(username="Chewie")
    page = await open_page(chewie, path)
    await present(chewie)

    invitation = await database_sync_to_async(guild_invite)(inviter=leia, invitee=chewie)

    toast = await page.until("invites you")
    assert 'id="toasts"' in toast and "Leia</strong> invites you to join the guild" in toast
    assert reverse("guilds:guild_detail", args=[guild.pk]) in toast
    assert reverse("guilds:invitation_accept", args=[invitation.pk]) in toast
    assert reverse("guilds:invitation_decline", args=[invitation.pk]) in toast


async def test_the_guild_message_pops_up_on_the_first_page_after_login_only(open_page):
    _, leia, (han,) = await rebels_with("Han")
    await database_sync_to_async(guild_message_set)(by=leia, text="Raid at nine", broadcast=False)

    first = await open_page(han, "/ws/lobby/casual/")
    toast = await first.until("Raid at nine")
    assert "Guild Message of" in toast and 'id="toasts"' in toast

    second = await open_page(han, "/ws/presence/elsewhere/")
    await second.nothing_matching("Raid at nine", timeout=0.6)


async def test_a_broadcast_guild_message_reaches_the_members_online_at_once(open_page):
    _, leia, (han, luke) = await rebels_with("Han", "Luke")
    outsider = await database_sync_to_async(UserFactory)(username="Lando")
    han_page = await open_page(han, "/ws/lobby/trade/")
    await han_page.until('id="user-list"')
    lando_page = await open_page(outsider, "/ws/presence/elsewhere/")
    await present(outsider)

    await database_sync_to_async(guild_message_set)(
        by=leia, text="Now, to the Trade Lobby!", broadcast=True
    )

    toast = await han_page.until("to the Trade Lobby")
    assert "from Leia" in toast
    await lando_page.nothing_matching("Trade Lobby")
