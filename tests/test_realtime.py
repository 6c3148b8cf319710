"""Messages to websocket groups go out after commit, versioned per group."""

import asyncio
import logging
import uuid

import pytest
import pytest_asyncio
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connections, transaction

from tcgsite.accounts.models import User
from tcgsite.realtime import group_version, send_on_commit
from tests.factories import UserFactory


@pytest_asyncio.fixture(autouse=True)
async def _close_the_orm_threads_connections():
    """The ORM's thread outlives a test and would keep PostgreSQL's test database open."""
    yield
    await database_sync_to_async(connections.close_all)()


class Rollback(Exception):
    pass


def unique_group() -> str:
    # Other test runs may share the Redis server.
    return f"test-{uuid.uuid4().hex}"


async def listen(group: str) -> str:
    """A channel of the layer in force that has joined ``group``."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def received(channel: str, timeout: float = 2) -> dict | None:
    """The next message on ``channel``, or None if none comes within ``timeout`` seconds."""
    try:
        return await asyncio.wait_for(get_channel_layer().receive(channel), timeout)
    except TimeoutError:
        return None


def announce(group: str, **payload) -> None:
    with transaction.atomic():
        send_on_commit(group=group, message_type="table.announced", payload=payload)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_nothing_is_sent_when_the_transaction_rolls_back():
    group = unique_group()
    channel = await listen(group)

    def announce_then_fail():
        with transaction.atomic():
            UserFactory(username="rolled-back")
            send_on_commit(group=group, message_type="table.announced", payload={})
            raise Rollback

    with pytest.raises(Rollback):
        await database_sync_to_async(announce_then_fail)()

    assert await received(channel, timeout=0.2) is None
    assert await database_sync_to_async(group_version)(group) == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_message_is_sent_after_commit_not_before():
    group = unique_group()
    channel = await listen(group)

    def announce_and_look_before_commit():
        with transaction.atomic():
            send_on_commit(group=group, message_type="table.announced", payload={"seat": 1})
            return async_to_sync(received)(channel, 0.2), group_version(group)

    before_commit = await database_sync_to_async(announce_and_look_before_commit)()

    assert before_commit == (None, 0)
    assert await received(channel) == {
        "type": "realtime.relay",
        "message": {"type": "table.announced", "group": group, "version": 1, "seat": 1},
    }


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_without_a_transaction_the_message_is_sent_at_once():
    group = unique_group()
    channel = await listen(group)

    await database_sync_to_async(send_on_commit)(
        group=group, message_type="table.announced", payload={}
    )

    assert (await received(channel))["message"]["version"] == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_versions_rise_by_one_per_message_in_each_group_separately():
    table, other_table = unique_group(), unique_group()
    table_channel, other_channel = await listen(table), await listen(other_table)

    for group in (table, table, other_table, table):
        await database_sync_to_async(announce)(group)

    table_versions = [(await received(table_channel))["message"]["version"] for _ in range(3)]
    assert table_versions == [1, 2, 3]
    assert (await received(other_channel))["message"]["version"] == 1
    assert await database_sync_to_async(group_version)(table) == 3
    assert await database_sync_to_async(group_version)(other_table) == 1


@pytest.mark.django_db(transaction=True)
def test_a_failed_send_is_logged_and_the_data_stays_committed(settings, caplog):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # Nothing listens on port 1.
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }

    with caplog.at_level(logging.ERROR, logger="tcgsite.realtime"), transaction.atomic():
        UserFactory(username="committed")
        send_on_commit(group=unique_group(), message_type="table.announced", payload={})

    assert User.objects.filter(username="committed").exists()
    assert "Could not send table.announced" in caplog.text


def test_payload_may_not_overwrite_what_send_on_commit_sets():
    with pytest.raises(ValueError, match="version"):
        send_on_commit(group=unique_group(), message_type="table.announced", payload={"version": 9})
