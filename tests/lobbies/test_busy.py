"""A lobby socket whose message finds no database connection free in time (production mode's
pool, README "Database connections") tells its player the site is busy and stays open."""

import pytest
from channels.db import database_sync_to_async

from tcgsite.database import BUSY_MESSAGE
from tcgsite.lobbies.models import ChatMessage
from tests.database_pool import POOLED, connection_held_elsewhere, pool_narrow, pool_widen

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not POOLED, reason="the pool is production mode's; SQLite needs none"),
]
CASUAL = "/ws/lobby/casual/"


async def test_a_chat_line_refused_as_busy_says_so_and_the_socket_stays_open(open_page, players):
    carol = await open_page(players["Carol"], CASUAL)
    await carol.until('id="user-list"')
    wide = await database_sync_to_async(pool_narrow)()
    try:
        with connection_held_elsewhere():
            await carol.say("anyone there?")
            notice = await carol.until("chat-line--error")
    finally:
        await database_sync_to_async(pool_widen)(wide)

    assert BUSY_MESSAGE in notice
    assert not await database_sync_to_async(ChatMessage.objects.exists)()
    await carol.say("still here")
    await carol.until("still here</li>")
