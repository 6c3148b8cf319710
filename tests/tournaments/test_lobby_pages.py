"""The Tournaments Lobby's pages (rulebook, "Tournaments Lobby"): the two lists, Get Info,
Join with Select Deck, the queue's box, the Tournament Timer and Drop from Tournament,
through their views."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import TestCase, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.services.presence import lobby_group
from tests.factories import DeckFactory, UserFactory
from tests.tournaments.conftest import entrant, entrants, on_demand_queue, play_round
from tournaments import fragments, selectors
from tournaments.models import Participant, QueueEntry, QueueStatus, TournamentQueue
from tournaments.services import running
from tournaments.services.queues import queue_join

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog")]
# A match's end records its result through a task: at once here, as in the embedded mode.
eager = override_settings(CELERY_TASK_ALWAYS_EAGER=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
LOBBY = "/lobbies/tournaments/"


def by_name(a, b):
    return max(a, b, key=lambda player: player.username)


def client_of(client, player):
    client.force_login(player)
    return client


def started_tournament(count=4, prefix="p", **rules):
    """A tournament of ``count`` entrants, begun from a full on-demand queue."""
    queue = on_demand_queue(max_players=count, **rules)
    players = entrants(count, prefix)
    with TestCase.captureOnCommitCallbacks(execute=True):
        for player in players:
            queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    return queue.tournaments.get(), players


def test_every_page_sends_a_visitor_to_log_in(client):
    queue = on_demand_queue()
    for url in (
        reverse("tournaments:queue_info", args=[queue.pk]),
        reverse("tournaments:queue_join", args=[queue.pk]),
        reverse("tournaments:tournament_info", args=[1]),
        reverse("tournaments:standings", args=[1]),
        reverse("tournaments:timer"),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for url in (reverse("tournaments:queue_leave"), reverse("tournaments:drop")):
        assert "/accounts/login/" in client.post(url)["Location"]


def test_the_lobby_lists_open_queues_and_started_tournaments_with_the_rulebooks_columns(
    client, booster
):
    """Queues waiting (a scheduled one only from 30 minutes before its start) and the
    tournaments under way, each with #, Title, Status, Cur #, Max #, Rounds, Time, K, Pack
    Pool, Reward Structure and Structure."""
    queue = on_demand_queue(
        title="Daily Duel", max_players=8, pack_pool=booster, reward_structure="5-4-3-2-1*", k=24
    )
    soon = timezone.now() + timedelta(minutes=20)
    later = timezone.now() + timedelta(hours=3)
    TournamentQueue.objects.create(title="Evening Open", on_demand=False, starts_at=soon)
    TournamentQueue.objects.create(title="Night Open", on_demand=False, starts_at=later)
    tournament, _ = started_tournament(4, title="Quick Four", structure="swiss")
    page = client_of(client, UserFactory()).get(LOBBY).content.decode()

    for heading in ("Tournament Queues", "Started Tournaments", "Cur #", "Max #", "Pack Pool"):
        assert heading in page
    assert 'id="tournaments-lobby"' in page and 'id="tournament-lists"' in page
    assert f'data-queue="{queue.pk}"' in page and "Daily Duel" in page
    assert "(Standard Constructed, Swiss, Single Game)" in page
    assert "5-4-3-2-1*" in page and booster.name in page
    assert "Evening Open" in page and "Night Open" not in page
    assert f'data-tournament="{tournament.pk}"' in page and "Round 1" in page
    assert ">40<" in page  # a single game's 30-minute clock plus ten minutes


def test_the_lists_take_the_same_queries_however_many_queues_and_tournaments(client):
    viewer = UserFactory()
    client_of(client, viewer)
    on_demand_queue(title="One")
    started_tournament(2, title="First")
    client.get(LOBBY)
    with CaptureQueriesContext(connection) as few:
        client.get(LOBBY)
    for number in range(4):
        queue = on_demand_queue(title=f"More {number}", max_players=8)
        for player in entrants(2, prefix=f"q{number}-"):
            queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    started_tournament(4, "s", title="Second")
    with CaptureQueriesContext(connection) as many:
        page = client.get(LOBBY).content.decode()
    assert page.count('data-queue="') == 7 and page.count('data-tournament="') == 2
    assert len(many) == len(few)
    with CaptureQueriesContext(connection) as broadcast:
        fragments.lobby_lists()
    assert len(broadcast) == 3


def test_the_lists_addresses_built_from_prefixes_are_the_routes_own(client):
    """The lists build each row's Get Info and Join addresses from prefixes instead of
    reversing them once per row (tournaments.fragments.lists_html): they are the addresses
    ``reverse`` gives."""
    queue = on_demand_queue(title="Prefixed")
    tournament, _ = started_tournament(2, title="Prefixed Two")
    page = client_of(client, UserFactory()).get(LOBBY).content.decode()

    info = reverse("tournaments:queue_info", args=[queue.pk])
    join = reverse("tournaments:queue_join", args=[queue.pk])
    assert f'data-info-url="{info}" data-join-url="{join}"' in page
    assert f'hx-get="{info}"' in page and f'hx-get="{join}"' in page
    tournament_info = reverse("tournaments:tournament_info", args=[tournament.pk])
    assert f'data-info-url="{tournament_info}"' in page and f'hx-get="{tournament_info}"' in page


def test_a_change_sends_the_lobby_the_lists_by_the_id_the_socket_swaps(monkeypatch):
    sent = []
    monkeypatch.setattr(
        running,
        "send_on_commit",
        lambda *, group, message_type, payload: sent.append((group, message_type, payload)),
    )
    queue = on_demand_queue(title="Live One", max_players=4)
    player = entrant("Han")
    queue_join(queue_id=queue.pk, player=player, deck=player.deck)
    group, kind, payload = sent[-1]
    assert group == lobby_group(Lobby.TOURNAMENTS) and kind == "lobby.panel"
    assert payload["visible_to"] is None
    assert payload["html"].lstrip().startswith("{#") is False
    assert 'id="tournament-lists"' in payload["html"] and 'hx-swap-oob="true"' in payload["html"]
    assert "<li>Han</li>" in payload["html"]  # who waits, for the box of the queue


def test_get_info_on_a_queue_says_what_its_starred_tiers_pay(client, booster):
    queue = on_demand_queue(
        title="Big One", max_players=20, pack_pool=booster, reward_structure="8-6-5-4-2*-1*"
    )
    answer = client_of(client, UserFactory()).get(
        reverse("tournaments:queue_info", args=[queue.pk]), **HTMX
    )
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "1 event pass" in page and "Single Game" in page and "Swiss" in page
    assert "5th–10th" in page and "11th–20th" in page and "for 20 players" in page


def test_the_join_window_marks_each_deck_valid_or_not(client):
    queue = on_demand_queue(title="Deck Check")
    player = entrant("Leia")
    DeckFactory(owner=player, name="Half a deck")
    page = (
        client_of(client, player)
        .get(reverse("tournaments:queue_join", args=[queue.pk]), **HTMX)
        .content.decode()
    )
    assert "Select Deck" in page and "You hold the entry fee" in page
    assert "deck-choice--valid" in page and player.deck.name in page
    assert "deck-choice--invalid" in page and "Half a deck" in page


def test_a_sealed_queue_asks_for_no_deck(client, booster):
    queue = on_demand_queue(title="Sealed", kind="sealed", pack_pool=booster, sealed_boosters=2)
    page = (
        client_of(client, entrant("Lando"))
        .get(reverse("tournaments:queue_join", args=[queue.pk]), **HTMX)
        .content.decode()
    )
    assert "Select Deck" not in page and "No deck" in page
    assert "needs 2 unopened" in page  # the fee he lacks


def test_joining_shows_the_box_of_the_queue_and_leaving_empties_it(client):
    queue = on_demand_queue(title="Box", max_players=4)
    other = entrant("Chewie")
    queue_join(queue_id=queue.pk, player=other, deck=other.deck)
    player = entrant("Han")
    client_of(client, player)
    answer = client.post(
        reverse("tournaments:queue_join", args=[queue.pk]), {"deck": player.deck.pk}, **HTMX
    )
    page = answer.content.decode()
    assert "data-joined" in page and 'id="queue-box"' in page
    assert "<li>Chewie</li>" in page and "<li>Han</li>" in page
    assert QueueEntry.objects.filter(player=player, queue=queue).exists()
    # The lobby page brings the box back, as after a lost connection.
    assert f'data-queue="{queue.pk}" data-me="Han"' in client.get(LOBBY).content.decode()

    answer = client.post(reverse("tournaments:queue_leave"), **HTMX)
    assert answer.status_code == 200 and "hidden" in answer.content.decode()
    assert not QueueEntry.objects.filter(player=player).exists()


@pytest.mark.parametrize(
    "case",
    ["unknown queue", "huge id", "no deck", "bad deck id", "someone else's deck", "closed queue"],
)
def test_a_refused_join_says_why_in_the_window(client, case):
    queue = on_demand_queue(title="Refusals")
    player = entrant("Han")
    stranger = entrant("Greedo")
    queue_id, data = queue.pk, {"deck": player.deck.pk}
    if case == "unknown queue":
        queue_id = queue.pk + 100
    elif case == "huge id":
        queue_id = 2**63
    elif case == "no deck":
        data = {}
    elif case == "bad deck id":
        data = {"deck": "²"}
    elif case == "someone else's deck":
        data = {"deck": stranger.deck.pk}
    else:
        TournamentQueue.objects.filter(pk=queue.pk).update(status=QueueStatus.CLOSED)
    answer = client_of(client, player).post(
        reverse("tournaments:queue_join", args=[queue_id]), data, **HTMX
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    assert 'role="alert"' in page
    assert not QueueEntry.objects.filter(player=player).exists()


@pytest.mark.parametrize("window", ["queue_info", "queue_join"])
def test_the_window_of_a_queue_cancelled_since_the_lobby_showed_it_says_so(client, window):
    """Get Info or Join on a row the lobby's list still showed: 409 and what became of the
    queue; only a number no queue ever had is a 404."""
    queue = on_demand_queue(title="Gone", status=QueueStatus.CANCELLED)
    client_of(client, entrant("Han"))

    answer = client.get(reverse(f"tournaments:{window}", args=[queue.pk]))
    unknown = client.get(reverse(f"tournaments:{window}", args=[queue.pk + 100]))

    assert answer.status_code == 409
    assert f"Queue {queue.pk}, Gone, was cancelled" in answer.content.decode()
    assert unknown.status_code == 404
    assert "There is no such tournament queue." in unknown.content.decode()


def test_joining_twice_or_without_passes_is_refused_with_a_message(client):
    first, second = on_demand_queue(title="First"), on_demand_queue(title="Second")
    player = entrant("Han")
    queue_join(queue_id=first.pk, player=player, deck=player.deck)
    client_of(client, player)
    page = client.post(
        reverse("tournaments:queue_join", args=[second.pk]), {"deck": player.deck.pk}, **HTMX
    ).content.decode()
    assert "already waiting in the queue of First" in page
    poor = entrant("Poor", passes=0)
    client.force_login(poor)
    answer = client.post(
        reverse("tournaments:queue_join", args=[second.pk]), {"deck": poor.deck.pk}
    )
    assert answer.status_code == 302  # without htmx: back to the lobby, with the message
    assert "event pass" in client.get(LOBBY).content.decode()


@eager
def test_get_info_on_a_started_tournament_shows_records_opponents_and_the_round(client):
    tournament, players = started_tournament(4, title="Swiss Four", structure="swiss")
    play_round(tournament, by_name)
    tournament.refresh_from_db()
    info = selectors.tournament_info(tournament_id=tournament.pk)
    assert [line.points for line in info.lines] == [3, 3, 1, 1]
    page = (
        client_of(client, players[0])
        .get(reverse("tournaments:tournament_info", args=[tournament.pk]), **HTMX)
        .content.decode()
    )
    assert "Round 2" in page and "Round 2 opponent" in page and "(table 1)" in page
    assert "1–0" in page and "0–1" in page
    assert (
        "1. tournament points; 2. opponents&#x27; points; 3. opponents&#x27; opponents&#x27; "
        "points; 4. rating at the start" in page
    )


@eager
def test_the_standings_page_shows_final_places_packs_and_dropped_players(client, booster):
    tournament, players = started_tournament(
        4, title="To The End", structure="swiss", pack_pool=booster, reward_structure="3-1*"
    )
    client_of(client, players[3])
    assert client.post(reverse("tournaments:drop")).status_code == 302
    for _ in range(2):
        play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.status == "concluded"
    page = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    assert "Final standings" in page and "Dropped" in page and "Packs" in page
    assert page.index("<strong>p0</strong>") < page.index("<strong>p1</strong>")
    assert client.get(reverse("tournaments:standings", args=[999999])).status_code == 404


def test_the_timer_shows_on_every_page_until_the_player_drops(client):
    tournament, players = started_tournament(2, title="Timer")
    client_of(client, players[0])
    page = client.get("/").content.decode()
    assert 'id="tournament-timer"' in page and "data-left-ms" in page
    assert f"Round 1</strong> · Tournament {tournament.pk}" in page
    assert "Drop from Tournament" in page

    answer = client.post(reverse("tournaments:drop"), follow=True)
    assert f"You dropped from tournament {tournament.pk}" in answer.content.decode()
    assert Participant.objects.get(player=players[0]).dropped is not None
    assert "data-left-ms" not in client.get("/").content.decode()
    # Dropping again: a message, not an error.
    answer = client.post(reverse("tournaments:drop"), follow=True)
    assert "You are not playing in a tournament." in answer.content.decode()


def test_the_timer_fragment_and_leave_without_a_queue_answer_quietly(client):
    client_of(client, UserFactory())
    assert "hidden" in client.get(reverse("tournaments:timer")).content.decode()
    answer = client.post(reverse("tournaments:queue_leave"), follow=True)
    assert "not waiting in a tournament queue" in answer.content.decode()


def test_a_round_call_links_the_match_for_the_page_to_follow():
    tournament, players = started_tournament(2, title="Call")
    row = tournament.pairings.get()
    html = fragments.round_call_toast(tournament, row.match_id)
    assert "data-round-call" in html and reverse("game:match_page", args=[row.match_id]) in html


def test_a_tournament_match_page_names_the_round_and_offers_no_draw(client):
    tournament, players = started_tournament(2, title="Match Page")
    row = tournament.pairings.get()
    page = (
        client_of(client, players[0])
        .get(reverse("game:match_page", args=[row.match_id]))
        .content.decode()
    )
    assert f"Tournament {tournament.pk}, round 1" in page
    assert "Offer a draw" not in page and "Offer to adjourn" not in page


def test_combined_styles_are_shown_in_the_queue_title_get_info_and_the_admin(client, admin_client):
    """Tournament Style: "Single Game, Match Play, or a combination of the two"."""
    queue = on_demand_queue(title="Top Eight", structure="cut_top8", style=1, cut_style=3)
    client_of(client, UserFactory(username="Carol"))

    lobby = client.get(LOBBY).content.decode()
    info = client.get(reverse("tournaments:queue_info", args=[queue.pk]), **HTMX).content.decode()
    admin = admin_client.get(
        reverse("admin:tournaments_tournamentqueue_change", args=[queue.pk])
    ).content.decode()

    assert "Cut to Top 8, Single Game, top 8 Match Play (2-3)" in lobby
    assert ">40 / 70<" in lobby  # the Time column: a Swiss round's minutes, then the cut's
    assert "Single Game in the Swiss rounds (30-minute game clock), Match Play (2-3) in the" in info
    assert "40 minutes a Swiss round, 70 a top-8 round" in info
    assert 'name="cut_style"' in admin
