"""The guild services (rulebook, "Guilds"): creating, inviting and answering, leaving,
kicking, officers and the Guild Message, with who may do each."""

from datetime import timedelta

import pytest
from django.utils import timezone

from guilds.models import MAX_MEMBERS, Guild, GuildInvitation, GuildMembership
from guilds.services.guilds import (
    GuildError,
    guild_create,
    guild_invitation_accept,
    guild_invitation_decline,
    guild_invite,
    guild_kick,
    guild_leave,
    guild_message_set,
    guild_message_take,
    guild_officer_set,
)
from tcgsite.accounts import services as accounts
from tcgsite.lobbies.models import Presence
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def member_names(guild):
    return set(guild.memberships.values_list("user__username", flat=True))


# Rulebook, "Creating a Guild".


def test_the_founder_leads_the_guild_they_create():
    leia = UserFactory(username="Leia")

    guild = guild_create(founder=leia, name="Rebel Alliance")

    assert guild.leader == leia and member_names(guild) == {"Leia"}


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("", "Type a name"),
        (" Rebels", "begin or end with a space"),
        ("Rebels ", "begin or end with a space"),
        ("Ab", "at least 3 characters"),
        ("R" * 31, "at most 30 characters; this one has 31"),
        ("Rebels<script>", "only letters (A to Z), digits"),
        ("Rebel  Alliance", "two spaces in a row"),
        ("1138", "at least one letter"),
    ],
)
def test_a_guild_name_breaking_the_name_policy_is_refused_with_its_reason(name, refusal):
    with pytest.raises(GuildError, match=refusal.replace("(", r"\(").replace(")", r"\)")):
        guild_create(founder=UserFactory(), name=name)
    assert not Guild.objects.exists()


def test_a_name_taken_in_any_case_is_refused(make_guild):
    make_guild("Rebel Alliance")

    with pytest.raises(GuildError, match="already a guild called rebel alliance"):
        guild_create(founder=UserFactory(), name="rebel alliance")


def test_you_cant_create_a_guild_while_you_are_in_one(make_guild):
    """Rulebook: "You can't create a guild if you are already a member of a guild." """
    make_guild(members=["Luke"])

    with pytest.raises(GuildError, match="while you are a member"):
        guild_create(founder=UserFactory(username="Luke"), name="Jedi")


# Who may do what: a non-member, a member, an officer and the leader (rulebook, "Officers").

ROLES = ("outsider", "member", "officer", "leader")


@pytest.fixture
def cast(make_guild):
    """The guild Rebels: Leia leads, Han is an officer, Luke and Wedge are members; Lando is
    in no guild, and Chewie is in no guild either (someone to invite)."""
    guild = make_guild(leader="Leia", officers=["Han"], members=["Luke", "Wedge"])
    players = {
        "leader": guild.leader,
        "officer": UserFactory(username="Han"),
        "member": UserFactory(username="Luke"),
        "outsider": UserFactory(username="Lando"),
        "other member": UserFactory(username="Wedge"),
        "free": UserFactory(username="Chewie"),
    }
    return guild, players


@pytest.mark.parametrize(("role", "allowed"), [(r, r in ("officer", "leader")) for r in ROLES])
def test_only_the_leader_and_officers_invite(cast, role, allowed):
    guild, players = cast
    try:
        guild_invite(inviter=players[role], invitee=players["free"])
    except GuildError:
        assert not allowed
    else:
        assert allowed
    assert GuildInvitation.objects.filter(invitee=players["free"]).exists() is allowed


@pytest.mark.parametrize("role", ROLES)
def test_only_the_invited_player_accepts_or_declines_an_invitation(cast, role):
    guild, players = cast
    invitation = guild_invite(inviter=players["leader"], invitee=players["free"])

    for answer in (guild_invitation_accept, guild_invitation_decline):
        with pytest.raises(GuildError, match="no longer open"):
            answer(invitation_id=invitation.pk, user=players[role])
    assert GuildInvitation.objects.filter(pk=invitation.pk).exists()
    assert "Chewie" not in member_names(guild)


def test_the_invited_player_accepts_and_joins(cast):
    guild, players = cast
    invitation = guild_invite(inviter=players["officer"], invitee=players["free"])

    joined = guild_invitation_accept(invitation_id=invitation.pk, user=players["free"])

    assert joined == guild and "Chewie" in member_names(guild)
    assert not GuildInvitation.objects.filter(invitee=players["free"]).exists()


def test_the_invited_player_declines_and_stays_out(cast):
    guild, players = cast
    invitation = guild_invite(inviter=players["officer"], invitee=players["free"])

    guild_invitation_decline(invitation_id=invitation.pk, user=players["free"])

    assert "Chewie" not in member_names(guild)
    assert not GuildInvitation.objects.exists()


@pytest.mark.parametrize(("role", "allowed"), [(r, r != "outsider") for r in ROLES])
def test_every_member_may_leave_and_a_non_member_has_nothing_to_leave(cast, role, allowed):
    guild, players = cast
    try:
        guild_leave(user=players[role])
    except GuildError as refusal:
        assert not allowed and "not in a guild" in refusal.message
    else:
        assert allowed
        assert players[role].username not in member_names(guild)


@pytest.mark.parametrize(
    ("role", "target", "allowed"),
    [
        ("outsider", "member", False),
        ("member", "other member", False),
        ("officer", "member", True),
        ("officer", "leader", False),
        ("leader", "member", True),
        ("leader", "officer", True),
    ],
)
def test_the_leader_kicks_anyone_and_an_officer_only_plain_members(cast, role, target, allowed):
    guild, players = cast
    try:
        guild_kick(by=players[role], member=players[target])
    except GuildError:
        assert not allowed
    else:
        assert allowed
    assert (players[target].username in member_names(guild)) is not allowed


def test_an_officer_cant_kick_another_officer(cast):
    guild, players = cast
    GuildMembership.objects.filter(user=players["member"]).update(officer=True)

    with pytest.raises(GuildError, match="Only the guild's leader can kick an officer"):
        guild_kick(by=players["officer"], member=players["member"])


def test_a_kicked_player_is_told_in_a_pop_up(cast, django_capture_on_commit_callbacks):
    guild, players = cast
    with django_capture_on_commit_callbacks() as callbacks:
        guild_kick(by=players["leader"], member=players["member"])
    assert len(callbacks) == 1


@pytest.mark.parametrize(("role", "allowed"), [(r, r == "leader") for r in ROLES])
def test_only_the_leader_grants_and_revokes_officer_status(cast, role, allowed):
    guild, players = cast
    for target, officer in (("other member", True), ("officer", False)):
        try:
            guild_officer_set(leader=players[role], member=players[target], officer=officer)
        except GuildError:
            assert not allowed
        else:
            assert allowed
        membership = GuildMembership.objects.get(user=players[target])
        assert membership.officer is (officer if allowed else not officer)


@pytest.mark.parametrize(("role", "allowed"), [(r, r in ("officer", "leader")) for r in ROLES])
@pytest.mark.parametrize("broadcast", [False, True])
def test_only_the_leader_and_officers_set_and_broadcast_the_guild_message(
    cast, role, allowed, broadcast
):
    guild, players = cast
    try:
        guild_message_set(by=players[role], text="Meet at 20:00", broadcast=broadcast)
    except GuildError:
        assert not allowed
    else:
        assert allowed
    guild.refresh_from_db()
    assert (guild.message == "Meet at 20:00") is allowed


# Rulebook, "Inviting Members into Your Guild and Joining Existing Guilds".


def test_a_player_already_in_a_guild_cant_be_invited(cast, make_guild):
    guild, players = cast
    make_guild("Empire", leader="Vader")

    with pytest.raises(GuildError, match="already in another guild"):
        guild_invite(inviter=players["leader"], invitee=UserFactory(username="Vader"))
    with pytest.raises(GuildError, match="already in Rebels"):
        guild_invite(inviter=players["leader"], invitee=players["member"])


def test_a_player_who_ignores_the_inviter_is_not_invited(cast):
    guild, players = cast
    accounts.ignore_add(user=players["free"], other=players["officer"])

    with pytest.raises(GuildError, match="not taking invitations from you"):
        guild_invite(inviter=players["officer"], invitee=players["free"])


def test_an_invitation_answered_after_joining_another_guild_is_refused(cast, make_guild):
    guild, players = cast
    invitation = guild_invite(inviter=players["leader"], invitee=players["free"])
    empire = make_guild("Empire", leader="Vader")
    GuildMembership.objects.create(guild=empire, user=players["free"])

    with pytest.raises(GuildError, match="already in a guild"):
        guild_invitation_accept(invitation_id=invitation.pk, user=players["free"])


def test_a_full_guild_takes_no_one_more(make_guild):
    """Rulebook, "All Guilds": "Each guild can have up to 100 players." """
    guild = make_guild(members=[f"m{n}" for n in range(MAX_MEMBERS - 2)])
    first, second = UserFactory(), UserFactory()
    invitations = [guild_invite(inviter=guild.leader, invitee=p) for p in (first, second)]
    guild_invitation_accept(invitation_id=invitations[0].pk, user=first)

    with pytest.raises(GuildError, match="is full"):
        guild_invitation_accept(invitation_id=invitations[1].pk, user=second)
    with pytest.raises(GuildError, match="is full"):
        guild_invite(inviter=guild.leader, invitee=UserFactory())
    assert guild.memberships.count() == MAX_MEMBERS


# Rulebook, "Leaving a Guild".


def test_a_leaving_leader_hands_the_guild_to_the_longest_serving_officer(make_guild):
    guild = make_guild(leader="Leia", members=["Luke"], officers=["Han", "Mon"])
    GuildMembership.objects.filter(user__username="Mon").update(
        joined_at=timezone.now() - timedelta(days=9)
    )

    guild_leave(user=guild.leader)

    guild.refresh_from_db()
    assert guild.leader.username == "Mon"
    assert not GuildMembership.objects.get(user__username="Mon").officer
    assert member_names(guild) == {"Luke", "Han", "Mon"}


def test_without_officers_the_longest_serving_member_leads(make_guild):
    guild = make_guild(leader="Leia", members=["Luke", "Wedge"])
    GuildMembership.objects.filter(user__username="Wedge").update(
        joined_at=timezone.now() - timedelta(days=3)
    )

    guild_leave(user=guild.leader)

    guild.refresh_from_db()
    assert guild.leader.username == "Wedge"


def test_the_last_member_leaving_disbands_the_guild(make_guild):
    guild = make_guild(leader="Leia")
    GuildInvitation.objects.create(guild=guild, invitee=UserFactory(), invited_by=guild.leader)

    assert guild_leave(user=guild.leader) is None

    assert not Guild.objects.exists() and not GuildInvitation.objects.exists()


# Rulebook, "Settings": the Guild Message at login, or broadcast.


def online(user, since):
    Presence.objects.update_or_create(
        user=user, defaults={"room": "main", "place": "main", "online_since": since}
    )


def test_the_guild_message_pops_up_once_at_a_members_next_login(cast):
    guild, players = cast
    luke = players["member"]
    online(luke, since=timezone.now() - timedelta(hours=1))
    guild_message_set(by=players["leader"], text="Tournament on Friday", broadcast=False)

    # Online when it was set: it waits for the next login.
    assert guild_message_take(user=luke) is None
    Presence.objects.filter(user=luke).delete()  # logs out...
    online(luke, since=timezone.now())  # ...and in again

    assert guild_message_take(user=luke) == guild
    assert guild_message_take(user=luke) is None
    # Its writer has seen it.
    assert guild_message_take(user=players["leader"]) is None


def test_a_member_offline_when_it_was_set_sees_it_on_their_first_page(cast):
    guild, players = cast
    guild_message_set(by=players["officer"], text="Welcome, recruits", broadcast=False)

    assert guild_message_take(user=players["member"]) == guild
    assert guild_message_take(user=players["outsider"]) is None


def test_a_broadcast_reaches_the_members_online_at_once_and_counts_as_seen(
    cast, django_capture_on_commit_callbacks
):
    guild, players = cast
    now = timezone.now()
    for role in ("member", "outsider", "leader"):
        online(players[role], since=now - timedelta(minutes=5))

    with django_capture_on_commit_callbacks() as callbacks:
        reached = guild_message_set(by=players["leader"], text="Raid now!", broadcast=True)

    assert reached == 1  # Luke; Lando is no member, Leia wrote it, the others are offline
    assert len(callbacks) == 1
    Presence.objects.filter(user=players["member"]).delete()
    online(players["member"], since=timezone.now())
    assert guild_message_take(user=players["member"]) is None
    # Han was offline: he gets it at his login.
    assert guild_message_take(user=players["officer"]) == guild


def test_a_broadcast_needs_a_message(cast):
    guild, players = cast
    with pytest.raises(GuildError, match="Type a message"):
        guild_message_set(by=players["leader"], text="   ", broadcast=True)
