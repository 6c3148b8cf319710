"""The lobbies' sockets (rulebook, "Lobby Chat", "Chat Window Commands", "User Lists"), driven
with WebsocketCommunicator on the in-memory layer and, when REDIS_URL is set, on Redis."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tcgsite.accounts import services as accounts
from tcgsite.accounts.models import Preferences
from tcgsite.lobbies.models import ChatMessage
from tcgsite.lobbies.services.chat import chat_say
from tcgsite.realtime import CLOSE_LOGIN_REQUIRED
from tests.channel_layers import SITE_ORIGIN

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
CASUAL = "/ws/lobby/casual/"


async def enter(open_page, user, path=CASUAL):
    page = await open_page(user, path)
    if path.startswith("/ws/lobby/"):
        await page.until('id="user-list"')
    return page


async def test_entering_shows_recent_messages_and_the_user_list(open_page, players):
    await database_sync_to_async(
        lambda: [
            chat_say(user=players["Bob"], lobby="casual", text=f"old line {n}") for n in range(3)
        ]
    )()
    carol = await open_page(players["Carol"], CASUAL)

    state = await carol.until('id="chat-log"')

    assert state.index("old line 0") < state.index("old line 2")
    assert 'id="user-list"' in state
    await carol.until(f"lobby-user-{players['Carol'].pk}")  # herself, once present


async def test_a_line_reaches_everyone_in_the_lobby_escaped(open_page, players):
    carol = await enter(open_page, players["Carol"])
    bob = await enter(open_page, players["Bob"])
    trade = await enter(open_page, players["Dave"], "/ws/lobby/trade/")

    await bob.say("<script>alert(1)</script> hi")

    line = await carol.until("hi</li>")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; hi" in line and "<script>" not in line
    assert "Bob:" in line and "/avatars/" in line and "<time" in line
    await bob.until("hi</li>")
    await trade.nothing_matching("alert")


async def test_a_refusal_reaches_only_its_sender(open_page, players):
    carol = await enter(open_page, players["Carol"])
    bob = await enter(open_page, players["Bob"])

    await bob.say("x" * 501)

    notice = await bob.until("chat-line--error")
    assert "at most 500" in notice
    await carol.nothing_matching("at most 500")
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0


async def test_command_output_reaches_only_its_sender(open_page, players):
    carol = await enter(open_page, players["Carol"])
    bob = await enter(open_page, players["Bob"])

    await bob.say("/time")

    await bob.until("Server time:")
    await carol.nothing_matching("Server time")


async def test_a_whisper_reaches_only_its_two_players_in_the_rulebooks_forms(open_page, players):
    carol = await enter(open_page, players["Carol"])
    bob = await enter(open_page, players["Bob"])
    dave = await enter(open_page, players["Dave"])
    await carol.until(f"lobby-user-{players['Dave'].pk}")

    await carol.say("/whisper Bob Hello")

    assert "You whisper to Bob, Hello" in await carol.until("whisper")
    assert "Carol whispers to you, Hello" in await bob.until("whisper")
    await dave.nothing_matching("Hello")


async def test_sayto_and_me_are_seen_by_all(open_page, players):
    carol = await enter(open_page, players["Carol"])
    bob = await enter(open_page, players["Bob"])
    await carol.until(f"lobby-user-{players['Bob'].pk}")

    await carol.say("/st Bob Hello")
    await carol.say("/me waves.")

    assert "Carol (to Bob):</strong> Hello" in await bob.until(r"\(to Bob\)")
    assert "Carol waves." in await bob.until("chat-line__emote")


async def test_ignoring_hides_what_was_said_and_what_comes(open_page, players):
    carol = await enter(open_page, players["Carol"])
    bob = await enter(open_page, players["Bob"])
    await bob.say("first words")
    await carol.until("first words")

    await carol.say("/ignore Bob")

    log = await carol.until('id="chat-log" class="chat-log"')
    assert "first words" not in log
    await bob.say("second words")
    await bob.say("/whisper Carol psst")
    await bob.until("second words")
    await carol.nothing_matching("second words|psst", timeout=0.6)

    await carol.say("/unignore Bob")
    log = await carol.until('id="chat-log" class="chat-log"')
    assert "first words" in log and "second words" in log


async def test_a_ping_beeps_on_a_lobby_page_and_on_any_other_page(open_page, players):
    carol = await enter(open_page, players["Carol"])
    bob_lobby = await enter(open_page, players["Bob"])
    bob_elsewhere = await open_page(players["Bob"], "/ws/presence/elsewhere/")

    await carol.say("/ping Bob")

    assert "You ping Bob." in await carol.until("You ping")
    pinged = await bob_lobby.until("pings you")
    assert "Carol pings you." in pinged and 'data-ping="1"' in pinged
    toast = await bob_elsewhere.until("pings you")
    assert 'id="toasts"' in toast and 'data-ping="1"' in toast


async def test_arrivals_and_departures_update_the_list_and_the_lobby_messages(
    open_page, players, settings
):
    settings.LOBBY_PRESENCE_GRACE_SECONDS = 0
    carol = await enter(open_page, players["Carol"])
    bob = await enter(open_page, players["Bob"])
    bob_id = players["Bob"].pk

    arrival = await carol.until(f"lobby-user-{bob_id}")
    assert 'hx-swap-oob="beforeend"' in arrival and "Bob has entered the lobby." in arrival

    await bob.close()
    deck_builder = await open_page(players["Bob"], "/ws/presence/deck_builder/")
    busy = await carol.until("user-row--busy")
    assert f'id="lobby-user-{bob_id}"' in busy and "in the Deck Builder" in busy

    await deck_builder.close()
    await database_sync_to_async(_sweep)()
    departure = await carol.until(f'lobby-user-{bob_id}" hx-swap-oob="delete"')
    assert "Bob has left the lobby." in departure


def _sweep():
    from tcgsite.lobbies.services.presence import presence_sweep

    presence_sweep()


async def test_lobby_messages_preference_off_hides_arrivals(open_page, players):
    await database_sync_to_async(Preferences.objects.filter(user=players["Carol"]).update)(
        lobby_messages=False
    )
    carol = await enter(open_page, players["Carol"])
    await enter(open_page, players["Bob"])

    arrival = await carol.until(f"lobby-user-{players['Bob'].pk}")
    assert "has entered the lobby" not in arrival


async def test_an_anonymous_socket_is_closed_with_login_required(application):
    communicator = WebsocketCommunicator(application, CASUAL, headers=[SITE_ORIGIN])
    connected, _ = await communicator.connect()
    assert connected
    closing = await communicator.receive_output()
    assert closing == {"type": "websocket.close", "code": CLOSE_LOGIN_REQUIRED}
    await communicator.disconnect()


@pytest.mark.parametrize(
    "path", ["/ws/lobby/deck_builder/", "/ws/presence/casual/", "/ws/presence/nowhere/"]
)
async def test_an_unknown_lobby_or_place_is_closed(open_page, players, path):
    page = await open_page(players["Carol"], path)
    closing = await page.communicator.receive_output()
    assert closing == {"type": "websocket.close", "code": 4404}
    page.closed = True


async def test_a_message_that_is_not_json_gets_a_notice(open_page, players):
    carol = await enter(open_page, players["Carol"])

    await carol.communicator.send_to(text_data="{not json")

    assert "could not be read" in await carol.until("chat-line--error")
    await carol.say("still here")
    await carol.until("still here")


@pytest.mark.parametrize(
    "frame",
    [
        {"bytes": b'{"text": "hello"}'},
        {"text": '["hello"]'},
        {"text": '{"text": ["hello"]}'},
        {"text": '{"text": Infinity}'},
    ],
    ids=["binary", "a-list", "text-a-list", "text-infinity"],
)
async def test_a_frame_that_is_no_chat_line_gets_a_notice(open_page, players, frame):
    carol = await enter(open_page, players["Carol"])

    await carol.communicator.send_input({"type": "websocket.receive", **frame})

    assert "could not be read" in await carol.until("chat-line--error")
    await carol.say("still here")
    await carol.until("still here")


async def test_a_missed_message_makes_the_socket_send_the_whole_state(open_page, players):
    carol = await enter(open_page, players["Carol"])
    await carol.until(f"lobby-user-{players['Carol'].pk}")

    def skip_a_version():
        from django.core.cache import cache

        cache.incr("realtime:version:lobby.casual")  # a message this socket never received
        chat_say(user=players["Bob"], lobby="casual", text="after the gap")

    await database_sync_to_async(skip_a_version)()

    state = await carol.until('id="chat-log" class="chat-log"')
    assert "after the gap" in state and 'id="user-list"' in state


async def test_a_vanished_version_counter_makes_the_socket_send_the_whole_state(open_page, players):
    carol = await enter(open_page, players["Carol"])
    await carol.until(f"lobby-user-{players['Carol'].pk}")

    def lose_the_counter():
        from django.core.cache import cache

        cache.delete("realtime:version:lobby.casual")  # expired, or Redis restarted
        chat_say(user=players["Bob"], lobby="casual", text="after the restart")

    await database_sync_to_async(lose_the_counter)()

    state = await carol.until('id="chat-log" class="chat-log"')
    assert "after the restart" in state and 'id="user-list"' in state


async def test_a_changed_ignore_list_reaches_every_page_of_the_player(open_page, players):
    carol = await enter(open_page, players["Carol"])
    elsewhere = await open_page(players["Carol"], "/ws/presence/elsewhere/")
    bob = await enter(open_page, players["Bob"])

    await database_sync_to_async(accounts.ignore_add)(user=players["Carol"], other=players["Bob"])
    await carol.until('id="chat-log" class="chat-log"')

    await bob.say("/ping Carol")
    assert "not accepting pings" in await bob.until("chat-line--error")
    await elsewhere.nothing_matching("pings you")
