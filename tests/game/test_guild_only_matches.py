"""Guild-Only matches (rulebook, Guilds, "Guild-Only Matches": "A Guild-Only match can be joined
or observed only by players in your guild"), enforced by the match services and selectors,
and their Match Medallions shown live to the guild's members alone."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from game.menu import observe_match
from game.models import Match, MatchStatus
from game.selectors import NotAllowedToWatch, may_watch, open_matches
from game.services.matches import MatchError, MatchSettings, match_create, match_join
from guilds.models import Guild, GuildMembership
from tcgsite.lobbies.places import Lobby
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match


def guild_with(*members, name="Mos Eisley Traders") -> Guild:
    guild = Guild.objects.create(name=name, leader=members[0])
    for member in members:
        GuildMembership.objects.create(guild=guild, user=member)
    return guild


@pytest.mark.django_db
def test_a_player_in_no_guild_cannot_make_a_guild_only_match(carol):
    with pytest.raises(MatchError, match="in no guild"):
        match_create(host=carol, deck=carol.deck, settings=MatchSettings(guild_only=True))


@pytest.mark.django_db
def test_only_members_of_the_hosts_guild_see_and_join_a_guild_only_match(carol, bob):
    outsider = player_with_deck("Dave", "rebel")
    guild = guild_with(carol, bob)
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(guild_only=True))
    assert match.guild == guild

    assert match not in open_matches(viewer=outsider)
    assert match in open_matches(viewer=bob)
    with pytest.raises(MatchError, match="Guild-Only match"):
        match_join(match_id=match.pk, player=outsider, deck=outsider.deck)
    match_join(match_id=match.pk, player=bob, deck=bob.deck)


@pytest.mark.django_db
def test_a_member_of_another_guild_is_refused_too(carol, bob):
    guild_with(carol)
    guild_with(bob, name="Hutt Cartel")
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(guild_only=True))

    assert match not in open_matches(viewer=bob)
    with pytest.raises(MatchError, match="Guild-Only match"):
        match_join(match_id=match.pk, player=bob, deck=bob.deck)


@pytest.mark.django_db
def test_only_members_observe_a_guild_only_match_and_only_they_are_offered_observe(carol, bob):
    member, outsider = UserFactory(username="Mira"), UserFactory(username="Dave")
    guild_with(carol, bob, member)
    match = start_match(carol, bob, guild_only=True)
    assert match.status == MatchStatus.PLAYING

    assert may_watch(match=match, viewer=member) is None
    with pytest.raises(NotAllowedToWatch, match="Guild-Only match"):
        may_watch(match=match, viewer=outsider)
    assert observe_match(member, carol, Lobby.CASUAL) is not None
    assert observe_match(outsider, carol, Lobby.CASUAL) is None


@pytest.mark.django_db
def test_a_match_whose_guild_disbanded_stays_closed_to_everyone_but_its_players(carol, bob):
    guild = guild_with(carol, bob)
    match = start_match(carol, bob, guild_only=True)
    guild.memberships.all().delete()
    guild.delete()
    match.refresh_from_db()

    assert match.guild is None and match.guild_only
    assert may_watch(match=match, viewer=carol) == 0
    with pytest.raises(NotAllowedToWatch):
        may_watch(match=match, viewer=UserFactory(username="Dave"))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_guild_only_medallion_appears_live_only_to_the_guilds_members_in_both_lobbies(
    open_page,
):
    carol, bob = await database_sync_to_async(
        lambda: (player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith"))
    )()
    dave = await database_sync_to_async(UserFactory)(username="Dave")
    await database_sync_to_async(guild_with)(carol, bob)
    bob_lobby = await open_page(bob, "/ws/lobby/casual/")
    dave_lobby = await open_page(dave, "/ws/lobby/casual/")
    bob_trade_lobby = await open_page(bob, "/ws/lobby/trade/")
    for page in (bob_lobby, dave_lobby, bob_trade_lobby):
        await page.until('id="casual-matches"')

    match = await database_sync_to_async(match_create)(
        host=carol, deck=carol.deck, settings=MatchSettings(title="Guild night", guild_only=True)
    )

    added = await bob_lobby.until(f"medallion-{match.pk}")
    assert "Guild only" in added
    assert "Guild only" in await bob_trade_lobby.until(f"medallion-{match.pk}")
    await dave_lobby.nothing_matching(f"medallion-{match.pk}")


@pytest.mark.django_db
def test_the_create_window_offers_guild_only_to_guild_members_alone(client, carol, bob):
    guild_with(carol)
    htmx = {"HTTP_HX_REQUEST": "true"}
    client.force_login(bob)
    assert (
        'name="guild_only"' not in client.get(reverse("game:match_create"), **htmx).content.decode()
    )

    client.force_login(carol)
    form = client.get(reverse("game:match_create"), **htmx).content.decode()
    assert 'name="guild_only"' in form and "Mos Eisley Traders" in form
    client.post(
        reverse("game:match_create"),
        {"structure": "1", "deck": carol.deck.pk, "guild_only": "on"},
        **htmx,
    )
    assert Match.objects.get().guild_only
