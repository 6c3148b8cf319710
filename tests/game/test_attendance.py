"""A player who leaves their match's page is away, and the opponent and the observers see it
(the issue's "Clocks, disconnection and durability"); back when a page of theirs opens again.
A web process that dies closes no socket: the periodic sweep finds its silent connections."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game.models import MatchSeat
from game.services.attendance import match_absences_sweep
from game.tasks import sweep_clocks
from tcgsite.lobbies.models import Connection
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def a_match_in_play():
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    return start_match(carol, bob), carol, bob


@database_sync_to_async
def away_since(match, player):
    return MatchSeat.objects.get(match=match, player=player).away_since


def path(match) -> str:
    return f"/ws/match/{match.pk}/"


@pytest.mark.asyncio
async def test_closing_the_page_makes_a_player_away_and_opening_it_brings_them_back(open_page):
    match, carol, bob = await a_match_in_play()
    watcher = await database_sync_to_async(UserFactory)(username="Watcher")
    carol_page = await open_page(carol, path(match))
    bob_page = await open_page(bob, path(match))
    observer = await open_page(watcher, path(match))
    await carol_page.until("playmat")
    assert await away_since(match, bob) is None

    await bob_page.close()

    assert "Bob is away" in await carol_page.until(r"\* Bob is away\.")
    assert "Bob is away" in await observer.until(r"playmat-note--away")
    assert await away_since(match, bob) is not None

    await open_page(bob, path(match))
    await carol_page.until(r"\* Bob is back\.")
    assert await away_since(match, bob) is None


@database_sync_to_async
def sockets_of(match, player) -> int:
    return len(MatchSeat.objects.get(match=match, player=player).sockets)


@pytest.mark.asyncio
async def test_a_second_page_of_the_player_keeps_them_present(open_page):
    match, carol, bob = await a_match_in_play()
    carol_page = await open_page(carol, path(match))
    first = await open_page(bob, path(match))
    await open_page(bob, path(match))
    await carol_page.until("playmat")
    # A page counts once its socket is open and its presence recorded, just after.
    for _ in range(100):
        if await sockets_of(match, bob) == 2:
            break
        await asyncio.sleep(0.02)

    await first.close()

    await carol_page.nothing_matching("is away", timeout=0.6)
    assert await away_since(match, bob) is None


@pytest.mark.asyncio
async def test_observers_are_never_counted_away(open_page):
    match, carol, bob = await a_match_in_play()
    watcher = await database_sync_to_async(UserFactory)(username="Watcher")
    carol_page = await open_page(carol, path(match))
    await open_page(bob, path(match))
    observer = await open_page(watcher, path(match))
    await carol_page.until("playmat")

    await observer.close()

    await carol_page.nothing_matching("is away", timeout=0.6)


def test_the_sweep_marks_away_a_player_whose_sockets_went_silent(catalog, settings):
    """As after a web process was killed: its connections stay open but stop beating."""
    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob)
    now = timezone.now()
    silent = now - timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS + 5)
    for player, seen_at in ((carol, now), (bob, silent)):
        Connection.objects.create(
            channel_name=f"socket-of-{player}", user=player, place="game", seen_at=seen_at
        )
        MatchSeat.objects.filter(match=match, player=player).update(sockets=[f"socket-of-{player}"])

    assert sweep_clocks() == {
        "timed_out": 0,
        "next_games": 0,
        "away": 1,
        "observers_gone": 0,
        "forfeited": 0,
        "computer_turns": 0,
    }

    assert MatchSeat.objects.get(match=match, player=carol).away_since is None
    assert MatchSeat.objects.get(match=match, player=bob).away_since is not None
    assert match_absences_sweep() == 0  # safe to run twice
