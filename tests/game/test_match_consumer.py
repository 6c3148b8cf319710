"""A match page's socket (docs/design.md, "Live play"): each seat and each observer gets only its
own view, decisions come in with their ply, and every refusal is told to its sender alone.
Driven with WebsocketCommunicator on the in-memory layer and, when REDIS_URL is set, Redis."""

import json
import re

import pytest
from channels.db import database_sync_to_async

import game.consumers
import game.selectors
from game.engine import api as engine
from game.engine.actions import raid
from game.models import Game, Match
from game.selectors import MatchMoment, game_state
from game.services.matches import (
    MatchSettings,
    game_act,
    match_concede,
    match_create,
    match_join,
    match_ready,
)
from game.services.offers import match_offer
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.models import Connection
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck, start_match
from tests.game.test_guild_only_matches import guild_with
from tests.game.test_match_batches import raid_position

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def path(match) -> str:
    return f"/ws/match/{match.pk}/"


@database_sync_to_async
def players():
    return player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")


@database_sync_to_async
def decision(match):
    """The seat to decide, the ply, and the legal actions of the match's current game."""
    game = Game.objects.filter(match=match).order_by("-number").first()
    choice = engine.legal_actions(game_state(game))
    return choice.seat, game.applied, choice.actions


async def act(page, ply, action):
    # As the page's buttons send it: every value a string, the action as JSON.
    await page.communicator.send_json_to(
        {"type": "act", "ply": str(ply), "action": json.dumps(action), "HEADERS": {}}
    )


async def test_the_launch_screen_follows_both_players_until_the_playmat(open_page):
    carol, bob = await players()
    match = await database_sync_to_async(match_create)(
        host=carol, deck=carol.deck, settings=MatchSettings()
    )
    carol_page = await open_page(carol, path(match))
    assert "Waiting for an opponent" in await carol_page.until('id="match-screen"')

    await database_sync_to_async(match_join)(match_id=match.pk, player=bob, deck=bob.deck)
    assert "Bob" in await carol_page.until("Ready to go")
    bob_page = await open_page(bob, path(match))
    await bob_page.until('id="match-screen"')
    await database_sync_to_async(match_ready)(match_id=match.pk, player=carol)
    await bob_page.until("launch__player--ready")
    await database_sync_to_async(match_ready)(match_id=match.pk, player=bob)

    for page in (carol_page, bob_page):
        screen = await page.until('class="playmat"')
        assert "Your hand" in screen
    # The socket keeps its player present in a game now, not starting one.
    places = await database_sync_to_async(
        lambda: set(Connection.objects.filter(user=carol).values_list("place", flat=True))
    )()
    assert places == {"game"}


async def test_a_decision_reaches_both_seats_and_the_log_each_in_its_own_words(open_page):
    carol, bob = await players()
    match = await database_sync_to_async(start_match)(carol, bob)
    pages = [await open_page(carol, path(match)), await open_page(bob, path(match))]
    for page in pages:
        await page.until('class="playmat"')
    seat, ply, actions = await decision(match)
    keep = next(action for action in actions if action["kind"] == "keep")

    await act(pages[seat], ply, keep)

    for page in pages:
        update = await page.until('id="match-log" hx-swap-oob="beforeend"')
        assert "keep" in update
    _, new_ply, _ = await decision(match)
    assert new_ply == ply + 1


async def test_refusals_go_to_their_sender_alone_and_change_nothing(open_page):
    carol, bob = await players()
    match = await database_sync_to_async(start_match)(carol, bob)
    pages = [await open_page(carol, path(match)), await open_page(bob, path(match))]
    for page in pages:
        await page.until('class="playmat"')
    seat, ply, actions = await decision(match)
    decider, waiter = pages[seat], pages[1 - seat]

    await act(waiter, ply, actions[0])
    assert "not your decision" in await waiter.until("match-error")
    await act(decider, ply, {"kind": "raid", "quest": 999})
    assert "not a legal action" in await decider.until("match-error")
    await act(decider, ply + 5, actions[0])
    assert "moved on" in await decider.until("match-error")
    await decider.communicator.send_to(text_data="not json")
    assert "could not be read" in await decider.until("match-error")
    await decider.communicator.send_json_to({"type": "act", "ply": "x", "action": "{}"})
    assert "could not be read" in await decider.until("match-error")
    await decider.communicator.send_json_to({"type": "shuffle"})
    assert "could not be read" in await decider.until("match-error")
    # A ply beyond any stored action, in digits and in others; an action nested too deep.
    for odd_ply in ("9" * 30, "\u00b2", f"{ply}.0"):
        await decider.communicator.send_json_to({"type": "act", "ply": odd_ply, "action": "{}"})
        assert "could not be read" in await decider.until("match-error")
    deep = "[" * 1_000 + "]" * 1_000
    await decider.communicator.send_json_to({"type": "act", "ply": str(ply), "action": deep})
    assert "could not be read" in await decider.until("match-error")

    await waiter.nothing_matching("could not be read|moved on|not a legal")
    assert (await decision(match))[1] == ply


async def test_a_resent_decision_is_applied_once(open_page):
    carol, bob = await players()
    match = await database_sync_to_async(start_match)(carol, bob)
    seat, ply, actions = await decision(match)
    page = await open_page([carol, bob][seat], path(match))
    await page.until('class="playmat"')

    await act(page, ply, actions[0])
    await act(page, ply, actions[0])

    await page.until("beforeend")
    await page.nothing_matching("match-error")
    assert (await decision(match))[1] == ply + 1


async def test_observers_see_the_public_view_and_no_hand(open_page):
    carol, bob = await players()
    match = await database_sync_to_async(start_match)(carol, bob)
    dave = await database_sync_to_async(UserFactory)(username="Dave")

    watching = await open_page(dave, path(match))
    screen = await watching.until('class="playmat"')

    hands = await database_sync_to_async(lambda: game_state(Game.objects.get(match=match)).seats)()
    hidden = {card for seat in hands for card in seat.hand + seat.deck + seat.quest_pile}
    shown = {int(card) for card in re.findall(r'data-card="(\d+)"', screen)}
    assert shown and not shown & hidden
    assert "You are observing" in screen and "Your hand" not in screen


def count_moments(monkeypatch) -> tuple[list, list]:
    """The match ids the consumers read a moment of, and the moments they unpacked."""
    reads, unpacked = [], []
    read, unpack = game.consumers.match_moment, MatchMoment.unpack.__func__

    def counted_read(*, match_id, **options):
        reads.append(match_id)
        return read(match_id=match_id, **options)

    def counted_unpack(cls, packed):
        unpacked.append(packed)
        return unpack(cls, packed)

    monkeypatch.setattr(game.consumers, "match_moment", counted_read)
    monkeypatch.setattr(MatchMoment, "unpack", classmethod(counted_unpack))
    return reads, unpacked


async def watched_match(open_page):
    """Carol and Bob's begun match, with each of them and Dave, observing, on its playmat."""
    carol, bob = await players()
    match = await database_sync_to_async(start_match)(carol, bob)
    dave = await database_sync_to_async(UserFactory)(username="Dave")
    pages = [await open_page(user, path(match)) for user in (carol, bob, dave)]
    for page in pages:
        await page.until('class="playmat"')
    return (carol, bob, dave), match, pages


async def test_an_action_ships_its_moment_once_for_all_the_sockets_each_shown_its_own_view(
    open_page, monkeypatch
):
    (carol, bob, dave), match, pages = await watched_match(open_page)
    reads, unpacked = count_moments(monkeypatch)
    seat, ply, actions = await decision(match)

    await act(pages[seat], ply, next(action for action in actions if action["kind"] == "keep"))

    screens = [await page.until(f'data-ply="{ply + 1}"') for page in pages]
    assert reads == [] and len(unpacked) == 1
    assert "Your hand" in screens[0] and "Your hand" in screens[1]
    assert "You are observing" in screens[2] and "Your hand" not in screens[2]
    assert screens[0] != screens[1]
    # The screens built from the shipped moment are those a fresh read gives.
    for user, screen in zip((carol, bob, dave), screens, strict=True):
        fresh = await open_page(user, path(match))
        assert playmat_of(await fresh.until(f'data-ply="{ply + 1}"')) == playmat_of(screen)


async def sockets_done_opening(pages) -> None:
    for page in pages:  # each socket answers only once it is done opening
        await page.communicator.send_json_to({"type": "nonsense"})
        await page.until("could not be read")


def count_turns(monkeypatch) -> list[str]:
    """The functions the match consumers send to the database thread, by name."""
    turns = []
    to_database_thread = game.consumers.database_sync_to_async

    def counted(function):
        turns.append(function.__name__)
        return to_database_thread(function)

    monkeypatch.setattr(game.consumers, "database_sync_to_async", counted)
    return turns


async def test_a_decision_is_shown_from_its_moment_with_no_turn_on_the_database_thread(
    open_page, monkeypatch
):
    """Each turn on the database thread costs two hand-overs between it and the event loop:
    the screens of a change that ships its moment, which need no read, are built on the
    event loop itself, and only the decision goes to the database thread."""
    (carol, bob, dave), match, pages = await watched_match(open_page)
    await sockets_done_opening(pages)
    turns = count_turns(monkeypatch)
    seat, ply, actions = await decision(match)

    await act(pages[seat], ply, next(action for action in actions if action["kind"] == "keep"))

    screens = [await page.until(f'data-ply="{ply + 1}"') for page in pages]
    assert turns == ["game_act"]
    assert "Your hand" in screens[seat] and "You are observing" in screens[2]


async def test_a_screen_of_a_decision_that_needs_a_read_is_built_on_the_database_thread(
    open_page, monkeypatch
):
    """A process that no longer keeps the game's state reads it as stored at the moment: the
    event loop may not, so that screen goes to the database thread, and shows the same."""
    (carol, bob, dave), match, pages = await watched_match(open_page)
    await sockets_done_opening(pages)
    monkeypatch.setattr(game.selectors.packed_here, "original", lambda packed: None)
    monkeypatch.setattr(game.selectors.live_states, "take", lambda game, applied=None: None)
    turns = count_turns(monkeypatch)
    seat, ply, actions = await decision(match)

    await act(pages[seat], ply, next(action for action in actions if action["kind"] == "keep"))

    screens = [await page.until(f'data-ply="{ply + 1}"') for page in pages]
    assert "screens_of" in turns
    for user, screen in zip((carol, bob, dave), screens, strict=True):
        fresh = await open_page(user, path(match))
        assert playmat_of(await fresh.until(f'data-ply="{ply + 1}"')) == playmat_of(screen)


async def test_a_change_is_shown_on_a_processs_sockets_in_shared_turns_on_the_database_thread(
    open_page, monkeypatch
):
    """A change that ships no moment is read on the database thread: the sockets of a match
    that one process holds have their screens of it built in one turn, each socket that asks
    before the database thread takes it up joining it."""
    (carol, bob, dave), match, pages = await watched_match(open_page)
    await sockets_done_opening(pages)
    turns = count_turns(monkeypatch)

    await database_sync_to_async(match_offer)(match_id=match.pk, player=carol, offer="draw")

    for page in pages:  # the screen, not the chat notice that comes before it
        await page.until("playmat-note--offer")
    screen_turns = [turn for turn in turns if turn == "screens_of"]
    assert screen_turns and len(screen_turns) < len(pages)


def playmat_of(html: str) -> str:
    return html[html.index('class="playmat"') : html.index('id="match-log"')]


async def test_a_change_that_ships_no_moment_is_read_once_for_all_the_sockets(
    open_page, monkeypatch
):
    (carol, bob, dave), match, pages = await watched_match(open_page)
    reads, unpacked = count_moments(monkeypatch)

    await database_sync_to_async(match_offer)(match_id=match.pk, player=carol, offer="draw")

    for page in pages:  # the screen, not the chat notice that comes before it
        await page.until("playmat-note--offer")
    assert reads == [match.pk] and unpacked == []


async def test_a_private_match_or_a_match_not_begun_refuses_observers(open_page):
    carol, bob = await players()
    match = await database_sync_to_async(start_match)(carol, bob, allow_observers=False)
    dave = await database_sync_to_async(UserFactory)(username="Dave")

    page = await open_page(dave, path(match))

    closed = await page.communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": 4404}
    assert await database_sync_to_async(Match.objects.count)() == 1


async def test_medallions_come_and_go_live_in_the_casual_lobby_for_those_who_may_join(open_page):
    carol, bob = await players()
    dave = await database_sync_to_async(UserFactory)(username="Dave")
    bob_lobby = await open_page(bob, "/ws/lobby/casual/")
    dave_lobby = await open_page(dave, "/ws/lobby/casual/")
    for page in (bob_lobby, dave_lobby):
        await page.until('id="casual-matches"')
    await database_sync_to_async(accounts.friend_add)(user=carol, friend=bob)

    match = await database_sync_to_async(match_create)(
        host=carol, deck=carol.deck, settings=MatchSettings(title="Friends", friends_only=True)
    )

    added = await bob_lobby.until(f"medallion-{match.pk}")
    assert 'hx-swap-oob="beforeend"' in added and "Friends only" in added
    await dave_lobby.nothing_matching(f"medallion-{match.pk}")
    await database_sync_to_async(match_join)(match_id=match.pk, player=bob, deck=bob.deck)
    removed = await bob_lobby.until(f"medallion-{match.pk}")
    assert 'hx-swap-oob="delete"' in removed


@database_sync_to_async
def raid_begun(carol, bob):
    """Carol (who passes when out of actions) and Bob in the batch tests' raid position, his
    raid begun: his combat action, every ready raider's exert among them."""
    carol.preferences.pass_when_out_of_actions = True
    carol.preferences.save()
    match = start_match(carol, bob)
    quest = engine.from_json(raid_position(match)).quests[0].card
    game_act(match_id=match.pk, player=bob, ply=0, action=raid(quest))
    return match


async def test_a_batch_sent_twice_is_applied_once(open_page):
    """The Prompt's "Exert all for attack": the page sends the batch as one message with its
    ply; sent again (a double click, a reconnection), it is answered as played."""
    carol, bob = await players()
    match = await raid_begun(carol, bob)
    page = await open_page(bob, path(match))
    await page.until('class="playmat"')
    seat, ply, actions = await decision(match)
    exerts = [action for action in actions if action["kind"] == "exert"]
    assert seat == 1 and len(exerts) > 1
    message = {"type": "act_batch", "ply": str(ply), "actions": json.dumps(exerts), "HEADERS": {}}

    await page.communicator.send_json_to(message)
    await page.communicator.send_json_to(message)

    await page.until(f'data-ply="{ply + 2 * len(exerts)}"')
    await page.nothing_matching("match-error")
    seat, after, actions = await decision(match)
    assert (seat, after, actions) == (1, ply + 2 * len(exerts), [{"kind": "pass"}])

    await page.communicator.send_json_to({**message, "actions": "{}"})
    assert "could not be read" in await page.until("match-error")


async def test_a_match_in_progress_and_its_observers_show_live_in_the_casual_lobby(open_page):
    """Rulebook, Casual Lobby, "Joining a Match": "Another number will appear below this if the
    match has observers"; the number follows an observer's page opening and closing on every
    lobby viewer's page, and the medallion leaves when the match ends."""
    carol, bob = await players()
    dave, mira = await database_sync_to_async(
        lambda: (UserFactory(username="Dave"), UserFactory(username="Mira"))
    )()
    dave_lobby = await open_page(dave, "/ws/lobby/casual/")
    carol_lobby = await open_page(carol, "/ws/lobby/casual/")
    for page in (dave_lobby, carol_lobby):
        await page.until('id="running-matches"')

    match = await database_sync_to_async(start_match)(carol, bob, title="Duel")
    added = await dave_lobby.until(f"running-{match.pk}")
    assert 'id="running-list" hx-swap-oob="beforeend"' in added
    assert "Carol vs Bob" in added and "Observe Match" in added and "observer" not in added
    assert "Back to the match" in await carol_lobby.until(f"running-{match.pk}")

    mira_page = await open_page(mira, path(match))
    counted = await dave_lobby.until(f"running-{match.pk}")
    assert 'data-observers="1"' in counted and "1 observer" in counted
    await carol_lobby.until('data-observers="1"')

    await mira_page.close()
    uncounted = await dave_lobby.until(f"running-{match.pk}")
    assert "data-observers" not in uncounted

    await database_sync_to_async(match_concede)(match_id=match.pk, player=bob)
    removed = await dave_lobby.until(f"running-{match.pk}")
    assert 'hx-swap-oob="delete"' in removed


async def test_a_guild_only_match_in_progress_reaches_only_its_guilds_lobby_pages(open_page):
    carol, bob = await players()
    member, outsider = await database_sync_to_async(
        lambda: (UserFactory(username="Mira"), UserFactory(username="Dave"))
    )()
    await database_sync_to_async(guild_with)(carol, bob, member)
    member_lobby = await open_page(member, "/ws/lobby/casual/")
    outsider_lobby = await open_page(outsider, "/ws/lobby/casual/")
    for page in (member_lobby, outsider_lobby):
        await page.until('id="running-matches"')

    match = await database_sync_to_async(start_match)(carol, bob, guild_only=True)
    await member_lobby.until(f"running-{match.pk}")
    await open_page(member, path(match))

    assert 'data-observers="1"' in await member_lobby.until('data-observers="1"')
    await outsider_lobby.nothing_matching(f"running-{match.pk}", timeout=1)
