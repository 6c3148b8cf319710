"""Player Ratings: the leaderboard of rated players and each player's rating history with its
chart (tournaments/rating_chart.py, tested on its own first)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory
from tournaments.models import Pairing, Participant, RatingChange, Tournament, TournamentStatus
from tournaments.rating_chart import MAX_DOTS, Point, rating_chart
from tournaments.selectors import RATINGS_PER_PAGE

pytestmark = pytest.mark.django_db

# --- The chart --------------------------------------------------------------------------------

START = datetime(2031, 5, 1, 19, 0, tzinfo=UTC)


def points(*ratings: int) -> list[Point]:
    return [
        Point(when=START + timedelta(days=number), before=before, after=after)
        for number, (before, after) in enumerate(zip(ratings, ratings[1:], strict=False))
    ]


def test_no_rated_match_draws_no_chart():
    assert rating_chart([]) is None


def test_the_chart_runs_from_the_first_rating_to_the_last_with_round_rating_lines():
    chart = rating_chart(points(1500, 1516, 1508, 1530))

    corners = [tuple(map(float, corner.split(","))) for corner in chart.line.split()]
    assert len(corners) == 4
    assert corners[0][0] == chart.left and corners[-1][0] == chart.right
    # The highest rating is drawn highest (SVG's y grows downwards).
    assert min(corners, key=lambda corner: corner[1]) == corners[-1]
    assert [tick.rating for tick in chart.ticks] == [1500, 1510, 1520, 1530, 1540]
    assert [dot.label for dot in chart.dots][1] == "2031-05-02: 1516 → 1508 (-8)"
    assert (chart.first_date, chart.last_date) == ("2031-05-01", "2031-05-03")


def test_a_single_match_and_an_unchanged_rating_still_draw_a_line():
    chart = rating_chart(points(1500, 1500))

    assert len(chart.line.split()) == 2 and len({tick.y for tick in chart.ticks}) == 2


def test_a_long_history_draws_the_line_without_dots():
    chart = rating_chart(points(*range(1500, 1500 + MAX_DOTS + 2)))

    assert chart.dots == () and len(chart.ticks) <= 5


# --- The pages -----------------------------------------------------------------------------


def rated_match(winner, loser, *, k: int = 16, when: datetime | None = None) -> Pairing:
    """A concluded one-match tournament between ``winner`` and ``loser``, with both rating
    changes written as the running service writes them."""
    tournament = Tournament.objects.create(
        title="Rated", seed=1, status=TournamentStatus.CONCLUDED, round=1
    )
    first = Participant.objects.create(
        tournament=tournament, player=winner, seed=1, rating_start=winner.rating
    )
    second = Participant.objects.create(
        tournament=tournament, player=loser, seed=2, rating_start=loser.rating
    )
    row = Pairing.objects.create(
        tournament=tournament, round=1, table=1, first=first, second=second, winner=first
    )
    for player, change in ((winner, k // 2), (loser, -(k // 2))):
        rating = RatingChange.objects.create(
            player=player, pairing=row, before=player.rating, after=player.rating + change
        )
        if when is not None:
            RatingChange.objects.filter(pk=rating.pk).update(created=when)
        player.rating += change
        player.save(update_fields=["rating"])
    return row


@pytest.fixture
def viewer(client):
    player = UserFactory(username="Viewer")
    client.force_login(player)
    return player


def test_the_leaderboard_ranks_rated_players_by_rating_and_marks_the_viewers_line(client, viewer):
    ace, second, newcomer = (UserFactory(username=name) for name in ("Ace", "Deuce", "Newcomer"))
    rated_match(ace, second)
    rated_match(ace, viewer)

    page = client.get(reverse("tournaments:ratings")).content.decode()

    assert page.index(">Ace<") < page.index(">Deuce<") < page.index(">Viewer<")
    assert "Newcomer" not in page  # no rated match yet
    assert '<tr id="me" class="ratings-table__me" aria-current="true">' in page
    assert "You are <strong>#2</strong> with a rating of <strong>1492</strong>" in page
    assert reverse("tournaments:rating_history", args=["Ace"]) in page
    assert newcomer.rating == 1500


def test_equal_ratings_share_a_place(client, viewer):
    players = [UserFactory(username=f"Tied{number}") for number in range(4)]
    rated_match(players[0], players[1])
    rated_match(players[2], players[3])

    page = client.get(reverse("tournaments:ratings")).content.decode()

    places = [line.split("<")[0] for line in page.split('ratings-table__place">')[1:]]
    assert places == ["1", "1", "3", "3"]
    assert "You join this list after your first rated tournament match" in page


def test_the_leaderboard_pages_and_finds_the_viewers_page(client, viewer):
    rivals = [UserFactory(username=f"Rival{number:03d}") for number in range(RATINGS_PER_PAGE + 1)]
    for rival in rivals:
        rated_match(rival, viewer, k=0)

    first = client.get(reverse("tournaments:ratings")).content.decode()
    second = client.get(reverse("tournaments:ratings"), {"page": "2"}).content.decode()

    assert "Page 1 of 2" in first and 'href="?page=2#me"' in first
    assert 'id="me"' in second and "Rival050" in second
    for bad in ("0", "-1", "abc", "99999999999999999999"):
        assert client.get(reverse("tournaments:ratings"), {"page": bad}).status_code == 200


def test_the_leaderboard_reads_the_same_number_of_queries_for_3_or_30_players(client, viewer):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("tournaments:ratings")).status_code == 200
        return len(captured)

    rated_match(viewer, UserFactory())
    few = queries()
    for _ in range(14):
        rated_match(UserFactory(), UserFactory())

    # Its own three and the reads every page makes, as on the leaderboard, with the player's.
    assert queries() == few <= 10


def test_the_history_lists_each_match_with_its_opponent_tournament_and_change(client, viewer):
    rival = UserFactory(username="Rival")
    won = rated_match(viewer, rival, k=16, when=datetime(2031, 5, 1, 19, 0, tzinfo=UTC))
    lost = rated_match(rival, viewer, k=24, when=datetime(2031, 5, 2, 20, 0, tzinfo=UTC))

    page = client.get(reverse("tournaments:rating_history", args=["viewer"])).content.decode()

    newest, oldest = page.index("2031-05-02 20:00"), page.index("2031-05-01 19:00")
    assert newest < oldest
    standings = reverse("tournaments:standings", args=[lost.tournament_id])
    assert f'<a href="{standings}">#{lost.tournament_id}</a>, round 1' in page
    assert reverse("tournaments:standings", args=[won.tournament_id]) in page
    assert reverse("tournaments:rating_history", args=["Rival"]) in page
    assert "1508 → 1496" in page and "-12" in page
    assert "1500 → 1508" in page and "+8" in page
    assert "<dt>Peak</dt><dd>1508</dd>" in page
    assert "<dt>Won – lost</dt><dd>1 – 1</dd>" in page
    assert "<polyline" in page and page.count('class="rating-chart__dot"') == 2


def test_the_history_reads_the_same_number_of_queries_however_long(client, viewer):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            url = reverse("tournaments:rating_history", args=["Viewer"])
            assert client.get(url).status_code == 200
        return len(captured)

    rival = UserFactory()
    rated_match(viewer, rival)
    few = queries()
    for _ in range(12):
        rated_match(rival, viewer)

    # Its own three and the reads every page makes, as on the leaderboard, with the player's.
    assert queries() == few <= 10


def test_a_player_without_rated_matches_or_without_an_account_is_answered_plainly(client, viewer):
    page = client.get(reverse("tournaments:rating_history", args=["Viewer"])).content.decode()

    assert "You have not played a rated tournament match yet" in page
    assert client.get(reverse("tournaments:rating_history", args=["nobody"])).status_code == 404


def test_the_ratings_pages_ask_a_visitor_to_log_in(client):
    response = client.get(reverse("tournaments:ratings"))

    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
