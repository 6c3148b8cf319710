"""Players accepting invitations to one guild at once (rulebook, "All Guilds": "Each guild
can have up to 100 players"): the services lock the guild's row, so the 100th seat goes to
one of them, and an acceptance racing the guild's disbanding says it was disbanded. On
SQLite select_for_update does nothing, so this runs only in production mode."""

import pytest
from django.conf import settings

from guilds.models import MAX_MEMBERS, GuildMembership
from guilds.services.guilds import (
    GuildError,
    guild_invitation_accept,
    guild_invite,
    guild_leave,
)
from tests.concurrency import race, race_while_first_is_uncommitted
from tests.factories import UserFactory

RACERS = 6

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="row locks need PostgreSQL; SQLite serialises writers instead",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_players_accepting_the_last_seat_at_once_leave_100_members_not_101(make_guild):
    """A guild of 99 members: players accepting their invitations at once leave it with 100.
    Six race rather than two, so that a missing lock shows however the threads are
    scheduled (with two, one often finishes before the other starts)."""
    guild = make_guild(members=[f"member{n}" for n in range(MAX_MEMBERS - 2)])
    assert guild.memberships.count() == MAX_MEMBERS - 1
    players = [UserFactory(username=f"Racer{n}") for n in range(RACERS)]
    invitations = [guild_invite(inviter=guild.leader, invitee=p) for p in players]

    results = race(
        *(
            (
                lambda pk=invitation.pk, user=user: guild_invitation_accept(
                    invitation_id=pk, user=user
                )
            )
            for invitation, user in zip(invitations, players, strict=True)
        )
    )

    assert GuildMembership.objects.filter(guild=guild).count() == MAX_MEMBERS
    refused = [result for result in results if isinstance(result, GuildError)]
    assert len(refused) == RACERS - 1 and all("is full" in r.message for r in refused)
    assert sum(result == guild for result in results) == 1


def test_one_player_accepting_two_guilds_at_once_joins_one(make_guild):
    rebels, empire = make_guild("Rebels", leader="Leia"), make_guild("Empire", leader="Vader")
    lando = UserFactory(username="Lando")
    invitations = [guild_invite(inviter=g.leader, invitee=lando) for g in (rebels, empire)]

    results = race(
        *(
            (lambda pk=invitation.pk: guild_invitation_accept(invitation_id=pk, user=lando))
            for invitation in invitations
        )
    )

    assert GuildMembership.objects.filter(user=lando).count() == 1
    assert sum(isinstance(result, GuildError) for result in results) == 1


def test_accepting_while_the_guild_is_disbanded_says_so(make_guild):
    """The last member leaves while an invitation to the guild is accepted: the acceptance
    waits for the guild, finds it gone and says so; nobody joins anything."""
    guild = make_guild(leader="Leia")
    chewie = UserFactory(username="Chewie")
    invitation = guild_invite(inviter=guild.leader, invitee=chewie)

    left, accepted = race_while_first_is_uncommitted(
        lambda: guild_leave(user=guild.leader),
        lambda: guild_invitation_accept(invitation_id=invitation.pk, user=chewie),
    )

    assert left is None, left  # disbanded
    assert isinstance(accepted, GuildError), accepted
    assert accepted.message == "Rebels was disbanded a moment ago; you joined no guild."
    assert not GuildMembership.objects.exists()
