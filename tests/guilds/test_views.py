"""The Guilds window (rulebook, "Guilds": All Guilds, Friends' Guilds, Creating a Guild,
Viewing Your Guild Details), the User List menu's "Invite to guild" and "Kick from guild", the
chat commands, and the Navigator's entry."""

import re

import pytest
from django.urls import reverse

from guilds.models import Guild, GuildInvitation, GuildMembership
from guilds.services.guilds import guild_invite, guild_leave
from tcgsite.accounts.models import User
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.services.chat import ChatError, chat_submit
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def as_player(client, name):
    user = UserFactory(username=name)
    client.force_login(user)
    return user


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# Rulebook, "All Guilds" and "Friends' Guilds".


def test_all_guilds_ranks_by_the_members_combined_ratings(client, make_guild):
    make_guild("Rebels", leader="Leia", members=["Luke"])  # 1500 + 1500
    make_guild("Empire", leader="Vader")
    make_guild("Hutts", leader="Jabba")
    User.objects.filter(username="Vader").update(rating=3100)
    as_player(client, "Carol")

    page = text_of(client.get(reverse("guilds:guild_list")))

    assert re.search(r"1 Empire 1 / 100 Vader 3100 2 Rebels 2 / 100 Leia 3000 3 Hutts", page)


def test_the_list_costs_the_same_queries_with_more_guilds(
    client, make_guild, django_assert_max_num_queries
):
    as_player(client, "Carol")
    for n in range(3):
        make_guild(f"Guild {n}", leader=f"Leader {n}", members=[f"Member {n}"])
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("guilds:guild_list"))
    for n in range(3, 12):
        make_guild(f"Guild {n}", leader=f"Leader {n}", members=[f"Member {n}"])
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("guilds:guild_list"))


def test_friends_guilds_lists_the_guilds_of_your_friends_at_their_rank(client, make_guild):
    make_guild("Rebels", leader="Leia", members=["Luke"])
    make_guild("Empire", leader="Vader")
    carol = as_player(client, "Carol")
    carol.friends.add(UserFactory(username="Vader"))

    page = text_of(client.get(reverse("guilds:guild_list") + "?show=friends"))

    assert "2 Empire" in page and "Rebels" not in page


# Rulebook, "Creating a Guild".


def test_create_founds_a_guild_and_opens_it(client):
    carol = as_player(client, "Carol")

    response = client.post(reverse("guilds:guild_create"), {"name": "Rogue Squadron"})

    guild = Guild.objects.get()
    assert response.url == reverse("guilds:guild_detail", args=[guild.pk])
    assert guild.name == "Rogue Squadron" and guild.leader == carol


def test_a_refused_name_reopens_the_dialog_with_the_reason(client, make_guild):
    make_guild("Rebels")
    as_player(client, "Carol")

    response = client.post(reverse("guilds:guild_create"), {"name": "REBELS"})

    assert response.status_code == 400
    html = response.content.decode()
    assert "data-open-on-load" in html and "There is already a guild called REBELS" in html
    assert 'value="REBELS"' in html


def test_a_member_sees_no_create_button(client, make_guild):
    make_guild(members=["Carol"])
    client.force_login(UserFactory(username="Carol"))

    html = client.get(reverse("guilds:guild_list")).content.decode()

    assert "guild-create-dialog" not in html and "Your guild: Rebels" in html


# Rulebook, "Viewing Your Guild Details".


def test_the_overview_shows_officers_and_total_and_average_ratings(client, make_guild):
    guild = make_guild(leader="Leia", officers=["Han"], members=["Luke"])
    User.objects.filter(username="Luke").update(rating=1800)
    client.force_login(guild.leader)

    page = text_of(client.get(reverse("guilds:guild_detail", args=[guild.pk])))

    assert "Total ratings 4800" in page and "Average rating 1600" in page
    assert "Han Officer" in page and "Luke" not in page.split("Leader and officers")[1]


def test_members_show_who_is_online_and_where(client, make_guild):
    guild = make_guild(leader="Leia", members=["Luke"])
    Presence.objects.create(user=guild.leader, room="casual", place="casual")
    client.force_login(guild.leader)

    page = text_of(client.get(reverse("guilds:guild_detail", args=[guild.pk]) + "?tab=members"))

    assert "Leia Leader 1500 In the Casual Lobby" in page
    assert "Luke Member 1500 Offline" in page


@pytest.mark.parametrize(
    ("viewer", "settings", "kicks", "grants"),
    [
        ("Lando", False, 0, 0),
        ("Luke", False, 0, 0),
        ("Han", True, 1, 0),  # Luke only: not Leia, not himself
        ("Leia", True, 2, 2),
    ],
)
def test_each_role_sees_the_actions_it_may_take(
    client, make_guild, viewer, settings, kicks, grants
):
    guild = make_guild(leader="Leia", officers=["Han"], members=["Luke"])
    client.force_login(UserFactory(username=viewer))
    url = reverse("guilds:guild_detail", args=[guild.pk])

    members = client.get(url + "?tab=members").content.decode()
    settings_page = client.get(url + "?tab=settings").content.decode()

    assert ("Invite New Members" in settings_page) is settings
    assert members.count("Kick from Guild</button>") == kicks
    assert members.count("Officer Status</button>") == grants
    assert ("Leave Guild" in members) is (viewer != "Lando")


def test_the_settings_invite_and_set_the_message(client, make_guild):
    guild = make_guild(leader="Leia")
    client.force_login(guild.leader)
    UserFactory(username="Chewie")

    response = client.post(reverse("guilds:guild_invite"), {"username": "chewie"}, follow=True)
    assert "Chewie is invited to Rebels." in text_of(response)
    assert "Waiting for an answer Chewie" in text_of(response)
    response = client.post(
        reverse("guilds:guild_message"), {"message": "Hi all", "broadcast": "on"}, follow=True
    )
    assert "sent now to the 0 members logged in" in text_of(response)
    guild.refresh_from_db()
    assert guild.message == "Hi all"
    response = client.post(reverse("guilds:guild_invite"), {"username": "Nobody"}, follow=True)
    assert "There is no player called Nobody." in text_of(response)


def test_accepting_from_the_pop_up_answers_in_the_pop_up(client, make_guild):
    guild = make_guild(leader="Leia")
    chewie = as_player(client, "Chewie")
    invitation = GuildInvitation.objects.create(
        guild=guild, invitee=chewie, invited_by=guild.leader
    )

    answer = (
        client.post(reverse("guilds:invitation_accept", args=[invitation.pk]), headers=HTMX)
        .content.decode()
        .strip()
    )

    assert "Welcome to Rebels!" in answer and answer.startswith('<li class="toast__line">')
    assert reverse("guilds:guild_detail", args=[guild.pk]) in answer
    answer = client.post(reverse("guilds:invitation_decline", args=[invitation.pk]), headers=HTMX)
    assert "no longer open" in answer.content.decode()


@pytest.mark.parametrize("htmx", [True, False])
def test_accepting_an_invitation_to_a_guild_disbanded_since_says_so(client, make_guild, htmx):
    """The pop-up stayed open while the guild's last member left: Accept answers why, in the
    pop-up (or on the guild list), and Chewie joins nothing."""
    guild = make_guild(leader="Leia")
    chewie = as_player(client, "Chewie")
    invitation = guild_invite(inviter=guild.leader, invitee=chewie)
    guild_leave(user=guild.leader)

    response = client.post(
        reverse("guilds:invitation_accept", args=[invitation.pk]),
        headers=HTMX if htmx else {},
        follow=not htmx,
    )

    if not htmx:
        assert response.redirect_chain == [(reverse("guilds:guild_list"), 302)]
    assert response.status_code == 200
    assert "That invitation is no longer open: its guild was disbanded" in (
        response.content.decode()
    )
    assert not GuildMembership.objects.filter(user=chewie).exists()


def test_leaving_kicking_and_officers_by_the_forms(client, make_guild):
    guild = make_guild(leader="Leia", members=["Luke", "Wedge"])
    client.force_login(guild.leader)

    client.post(reverse("guilds:guild_officer", args=["Luke"]), {"officer": "1"})
    assert GuildMembership.objects.get(user__username="Luke").officer
    response = client.post(reverse("guilds:guild_kick", args=["Wedge"]), follow=True)
    assert "Wedge is no longer in Rebels." in text_of(response)
    response = client.post(reverse("guilds:guild_leave"), follow=True)
    assert "You left Rebels." in text_of(response)
    guild.refresh_from_db()
    assert guild.leader.username == "Luke"


# Rulebook, "User Lists": Invite to guild, Kick from guild.


def menu_labels(client, name):
    html = client.get(reverse("lobbies:user_menu", args=["casual", name])).content.decode()
    return re.findall(r'data-menu-entry="[^"]+">([^<]+)<', html)


def test_the_names_menu_offers_invite_and_kick_where_they_apply(client, make_guild):
    guild = make_guild(leader="Leia", officers=["Han"], members=["Luke"])
    UserFactory(username="Chewie")

    client.force_login(guild.leader)
    assert "Invite to guild" in menu_labels(client, "Chewie")
    assert "Kick from guild" not in menu_labels(client, "Chewie")
    assert "Kick from guild" in menu_labels(client, "Han")
    assert "Invite to guild" not in menu_labels(client, "Luke")
    client.force_login(UserFactory(username="Han"))
    assert "Kick from guild" not in menu_labels(client, "Leia")
    assert "Kick from guild" in menu_labels(client, "Luke")
    client.force_login(UserFactory(username="Luke"))
    assert not {"Invite to guild", "Kick from guild"} & set(menu_labels(client, "Chewie"))
    assert "Kick from guild" not in menu_labels(client, "Han")


def test_the_menus_invite_answers_the_menu_with_a_sentence(client, make_guild):
    guild = make_guild(leader="Leia")
    UserFactory(username="Chewie")
    client.force_login(guild.leader)

    answer = (
        client.post(
            reverse("guilds:guild_invite_player", args=["Chewie"]),
            headers={**HTMX, "HX-Target": "user-menu"},
        )
        .content.decode()
        .strip()
    )

    assert answer.startswith('<p class="list-change"') and "Chewie is invited to Rebels." in answer
    answer = client.post(
        reverse("guilds:guild_invite_player", args=["Chewie"]),
        headers={**HTMX, "HX-Target": "user-menu"},
    ).content.decode()
    assert "list-change--failed" in answer and "already has an invitation" in answer


# Rulebook, "Guilds": /guild, /guildinvite, /leaveguild, /guildkick.


def test_the_guild_commands(make_guild):
    guild = make_guild(leader="Leia", members=["Luke"])
    leia, chewie = guild.leader, UserFactory(username="Chewie")

    (opens,) = chat_submit(user=chewie, lobby="casual", text="/guild")
    assert opens.url == reverse("guilds:guild_list")
    (opens,) = chat_submit(user=leia, lobby="trade", text="/guild")
    assert opens.url == reverse("guilds:guild_detail", args=[guild.pk])

    assert chat_submit(user=leia, lobby="casual", text="/guildinvite chewie") == [
        "Chewie is invited to Rebels; they get a pop-up to answer."
    ]
    with pytest.raises(ChatError, match="already has an invitation"):
        chat_submit(user=leia, lobby="casual", text="/guildinvite Chewie")
    with pytest.raises(ChatError, match="Name a player after /guildkick"):
        chat_submit(user=leia, lobby="casual", text="/guildkick")
    assert chat_submit(user=leia, lobby="casual", text="/guildkick Luke") == [
        "Luke is no longer in Rebels."
    ]
    assert chat_submit(user=leia, lobby="casual", text="/leaveguild") == [
        "You left your guild; it had no other member, so it is disbanded."
    ]
    with pytest.raises(ChatError, match="not in a guild"):
        chat_submit(user=leia, lobby="casual", text="/leaveguild")


def test_help_lists_the_guild_commands(make_guild):
    lines = chat_submit(user=UserFactory(), lobby="main", text="/help")
    for usage in ("/g MESSAGE", "/guild:", "/guildinvite NAME", "/leaveguild", "/guildkick NAME"):
        assert any(line.startswith(usage) for line in lines), usage


def test_the_navigator_leads_to_the_guilds(client):
    as_player(client, "Carol")
    html = client.get(reverse("lobbies:friends")).content.decode()
    assert re.search(rf'href="{reverse("guilds:guild_list")}" *>Guilds</a>', html)
