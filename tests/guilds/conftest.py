import pytest

from guilds.models import Guild, GuildMembership
from guilds.services.guilds import guild_create
from tests.factories import UserFactory


@pytest.fixture
def make_guild(db):
    """``make_guild("Rebels", leader="Leia", officers=["Han"], members=["Luke"])``: the
    guild, its players made as needed."""

    def make(name="Rebels", *, leader="Leia", officers=(), members=()) -> Guild:
        guild = guild_create(founder=UserFactory(username=leader), name=name)
        for username in (*officers, *members):
            GuildMembership.objects.create(
                guild=guild,
                user=UserFactory(username=username),
                officer=username in officers,
            )
        return guild

    return make


# The lobbies' socket fixtures: a page's socket, on each channel layer.
from tests.lobbies.conftest import (  # noqa: E402, F401
    _close_the_orm_threads_connections,
    _fresh_cache,
    application,
    layer,
    open_page,
)
