"""Badges on names in the lobbies (tcgsite/lobbies/registry.py, ``register_name_badges``):
the Sprint Winner Medals beside a name (rulebook, "Sprint Tournaments") and the green of a
player entered in a tournament (rulebook, "Verifying You Are in the Tournament"), in the User
List and in chat lines, as rendered and as sent over the socket."""

from datetime import date

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import format_html

from collection.models import Product, ProductKind
from collection.services.store import product_grant
from tcgsite.lobbies import fragments, registry
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.registry import NameBadge
from tcgsite.lobbies.selectors import lobby_users, name_badges
from tcgsite.lobbies.services.chat import chat_say
from tests.factories import UserFactory
from tests.game.conftest import starter_deck
from tests.tournaments.conftest import on_demand_queue
from tournaments.models import QueueEntry, SprintMedal
from tournaments.services.queues import queue_join, queue_leave

GOLD_THREE = 'title="3 Gold Sprint Winner Medals"'


def medals(player, color, count, *, first_month=1):
    for month in range(first_month, first_month + count):
        SprintMedal.objects.create(player=player, month=date(2025, month, 1), color=color, points=9)


def present(player, lobby="casual"):
    Presence.objects.create(user=player, room=lobby, place=lobby)


@pytest.mark.django_db
def test_the_user_list_shows_medals_and_the_green_of_an_entered_player():
    champion, entrant, plain = (UserFactory(username=n) for n in ("Champion", "Entrant", "Plain"))
    medals(champion, "gold", 3)
    medals(champion, "silver", 1, first_month=6)
    QueueEntry.objects.create(queue=on_demand_queue(), player=entrant)
    for player in (champion, entrant, plain):
        present(player)

    users = lobby_users(lobby="casual")
    html = fragments.user_list(users, name_badges(user_ids=[user.pk for user, *_ in users]))

    champion_row = html[
        html.index('data-username="Champion"') : html.index('data-username="Entrant"')
    ]
    assert GOLD_THREE in champion_row and ">3</text>" in champion_row
    assert 'title="Silver Sprint Winner Medal"' in champion_row
    assert "player-name--entered" not in champion_row
    entrant_row = html[html.index('data-username="Entrant"') : html.index('data-username="Plain"')]
    assert 'class="user-row__label player-name--entered"' in entrant_row
    assert "entered in a tournament" in entrant_row
    plain_row = html[html.index('data-username="Plain"') :]
    assert 'class="user-row__label">Plain<' in plain_row and "sprint-medal" not in plain_row


@pytest.mark.django_db
def test_a_player_in_a_running_tournament_is_green_until_they_drop():
    from tournaments.models import Participant, Tournament, TournamentStatus

    player = UserFactory(username="Player")
    tournament = Tournament.objects.create(title="Sprint", seed=1, status=TournamentStatus.PLAYING)
    seat = Participant.objects.create(tournament=tournament, player=player, seed=1, rating_start=1)
    assert name_badges(user_ids=[player.pk])[player.pk].classes == ("player-name--entered",)

    Participant.objects.filter(pk=seat.pk).update(dropped=tournament.started)

    assert player.pk not in name_badges(user_ids=[player.pk])


@pytest.mark.django_db
def test_two_hundred_names_cost_the_queries_of_twenty():
    def listed(count, prefix):
        for n in range(count):
            player = UserFactory(username=f"{prefix}{n}")
            present(player)
            medals(player, "bronze", 1 + n % 2)
            if n % 3 == 0:
                QueueEntry.objects.create(queue=on_demand_queue(), player=player)

    def render():
        users = lobby_users(lobby="casual")
        return fragments.user_list(users, name_badges(user_ids=[user.pk for user, *_ in users]))

    listed(20, "few")
    with CaptureQueriesContext(connection) as few:
        render()
    listed(180, "many")
    with CaptureQueriesContext(connection) as many:
        html = render()

    assert html.count('id="lobby-user-') == 200
    assert len(many) == len(few) <= 5


@pytest.mark.django_db
def test_a_chat_line_carries_its_players_badges():
    champion = UserFactory(username="Champion")
    medals(champion, "gold", 3)
    message = chat_say(user=champion, lobby="casual", text="gg")

    line = fragments.chat_line(message, badges=name_badges(user_ids={champion.pk}))
    plain = fragments.chat_line(message)

    assert '<span class="player-name">Champion</span>' in line and GOLD_THREE in line
    assert line.index(GOLD_THREE) < line.index(":</strong> gg")
    assert "Champion:</strong>" in plain and "sprint-medal" not in plain


@pytest.mark.django_db
def test_every_registered_provider_adds_to_a_name(monkeypatch):
    player = UserFactory(username="Player")
    monkeypatch.setitem(
        registry._badges,
        "zz-test",
        lambda ids: {pk: NameBadge(html=format_html("<b>x</b>"), classes=("x",)) for pk in ids},
    )
    medals(player, "gold", 1)

    badge = name_badges(user_ids=[player.pk])[player.pk]

    assert "sprint-medal--gold" in badge.html and badge.html.endswith("<b>x</b>")
    assert badge.classes == ("x",)
    with pytest.raises(ValueError, match="registered twice"):
        registry.register_name_badges("zz-test", lambda ids: {})


# Over the socket ----------------------------------------------------------------------------

CASUAL = "/ws/lobby/casual/"
TOURNAMENTS = "/ws/lobby/tournaments/"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_the_list_and_live_lines_with_medals(open_page, players):
    await database_sync_to_async(medals)(players["Bob"], "gold", 3)
    bob = await open_page(players["Bob"], CASUAL)
    await bob.until(f'id="lobby-user-{players["Bob"].pk}')
    carol = await open_page(players["Carol"], CASUAL)

    state = await carol.until('id="user-list"')
    assert f'id="lobby-user-{players["Bob"].pk}"' in state and GOLD_THREE in state

    await bob.say("hello there")

    line = await carol.until("hello there")
    assert GOLD_THREE in line and "Bob</span>" in line


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_joining_a_queue_turns_the_name_green_live_and_leaving_turns_it_back(
    open_page, players
):
    carol = await open_page(players["Carol"], TOURNAMENTS)
    await carol.until(f"lobby-user-{players['Carol'].pk}")
    bob = await open_page(players["Bob"], TOURNAMENTS)
    await carol.until(f"lobby-user-{players['Bob'].pk}")

    def join():
        bob = players["Bob"]
        bob.deck = starter_deck(bob, "jedi")
        event_pass = Product.objects.get(kind=ProductKind.EVENT_PASS)
        product_grant(owner=bob, product=event_pass, quantity=1)
        bob.registered_at = timezone.now()
        bob.save(update_fields=["registered_at"])
        queue_join(queue_id=on_demand_queue().pk, player=bob, deck=bob.deck)

    await database_sync_to_async(join)()

    row = await carol.until("player-name--entered")
    assert f'id="lobby-user-{players["Bob"].pk}"' in row and 'hx-swap-oob="true"' in row
    await bob.until("player-name--entered")

    await database_sync_to_async(queue_leave)(player=players["Bob"])

    row = await carol.until(f"lobby-user-{players['Bob'].pk}")
    assert "player-name--entered" not in row
