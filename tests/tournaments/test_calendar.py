"""The Events Calendar (rulebook, "Types of Tournament Queues", "Understanding the Tournament
Information") and its iCalendar feed, with the feed's writer (tournaments/ical.py) tested on its
own: folding at 75 octets, TEXT escaping, UTC times."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import BoosterPackFactory
from tournaments import ical
from tournaments.event_info import entry_fee
from tournaments.models import QueueStatus, TournamentQueue

pytestmark = pytest.mark.django_db

# --- The iCalendar writer -------------------------------------------------------------------


def test_text_values_escape_backslash_semicolon_comma_and_every_line_break():
    assert ical.escape_text("a\\b;c,d\ne\r\nf\rg") == "a\\\\b\\;c\\,d\\ne\\nf\\ng"


def test_a_line_of_75_octets_stays_whole_and_a_longer_one_folds_with_a_space():
    assert ical.fold("x" * 75) == "x" * 75

    folded = ical.fold("x" * 160)

    assert folded == "x" * 75 + "\r\n " + "x" * 74 + "\r\n " + "x" * 11


@pytest.mark.parametrize("character", ["é", "€", "🂡"])
def test_folding_counts_octets_and_never_splits_a_utf8_character(character):
    line = "DESCRIPTION:" + character * 100

    folded = ical.fold(line)

    pieces = folded.split("\r\n")
    assert all(len(piece.encode("utf-8")) <= 75 for piece in pieces)
    assert all(piece.startswith(" ") for piece in pieces[1:])
    # Unfolding (RFC 5545, 3.1: remove each CRLF and the space after it) gives the line back.
    assert folded.replace("\r\n ", "") == line
    # A piece is filled as far as the next whole character allows.
    size = len(character.encode("utf-8"))
    assert all(75 - len(piece.encode("utf-8")) < size for piece in pieces[:-1])


def test_times_are_written_in_utc_and_a_time_without_a_zone_is_refused():
    moment = datetime(2031, 3, 7, 21, 5, 9, tzinfo=timezone.get_fixed_timezone(120))

    assert ical.utc_time(moment) == "20310307T190509Z"
    with pytest.raises(ValueError, match="time zone"):
        ical.utc_time(datetime(2031, 3, 7, 19, 0))  # noqa: DTZ001 - the case refused


def test_a_calendar_has_crlf_lines_a_version_a_product_and_one_vevent_per_event():
    moment = datetime(2031, 3, 7, 19, 0, tzinfo=UTC)
    event = ical.Event(
        uid="queue-1@example.org",
        stamp=moment,
        start=moment,
        end=moment + timedelta(hours=2),
        summary="Friday Night",
        description="Two lines\nhere",
        url="https://example.org/events/#queue-1",
    )

    text = ical.calendar([event, event], product="-//Test//EN", name="Test")

    assert text.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n")
    assert text.endswith("END:VCALENDAR\r\n")
    assert "\n" not in text.replace("\r\n", "")
    assert text.count("BEGIN:VEVENT\r\n") == 2
    assert "DESCRIPTION:Two lines\\nhere\r\n" in text


def test_the_entry_fee_names_the_passes_and_a_sealed_events_products():
    queue = TournamentQueue(kind="sealed", entry_passes=2, sealed_starters=1, sealed_boosters=3)

    assert entry_fee(queue) == "2 event passes, 1 starter deck and 3 × booster pack"
    assert entry_fee(TournamentQueue(entry_passes=0)) == "Free"


# --- The calendar page and its feed ----------------------------------------------------------


def scheduled(starts_at: datetime, **rules) -> TournamentQueue:
    defaults = {"title": "Weekly", "on_demand": False, "max_players": 8}
    return TournamentQueue.objects.create(starts_at=starts_at, **{**defaults, **rules})


def tomorrow_at(hour: int, minute: int = 0, days: int = 1) -> datetime:
    day = (timezone.now() + timedelta(days=days)).date()
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def test_the_calendar_lists_upcoming_scheduled_queues_by_day_soonest_first(client):
    later = scheduled(tomorrow_at(21), title="Late Sprint", sprint=True)
    sooner = scheduled(tomorrow_at(18, 30), title="Early Swiss")
    next_day = scheduled(tomorrow_at(9, days=2), title="Morning Cut", structure="cut_top8")
    scheduled(timezone.now() - timedelta(minutes=5), title="Already due")
    scheduled(tomorrow_at(12), title="Called off", status=QueueStatus.CANCELLED)
    TournamentQueue.objects.create(title="Always on", on_demand=True)

    page = client.get(reverse("tournaments:calendar")).content.decode()

    assert page.index("Early Swiss") < page.index("Late Sprint") < page.index("Morning Cut")
    for absent in ("Already due", "Called off", "Always on"):
        assert absent not in page
    first_day, second_day = sooner.starts_at.date(), next_day.starts_at.date()
    assert page.index(f"{first_day:%A} {first_day.day} {first_day:%B %Y}") < page.index(
        "Early Swiss"
    )
    assert page.index("Late Sprint") < page.index(f"{second_day:%A} {second_day.day}")
    assert f'id="queue-{later.pk}"' in page
    assert "calendar-chip--sprint" in page
    assert "<dt>Queue opens</dt><dd>20:30 UTC</dd>" in page


def test_each_event_shows_its_columns_and_what_its_reward_tiers_pay(client):
    pool = BoosterPackFactory(name="Premiere Booster")
    scheduled(
        tomorrow_at(19),
        title="Friday Night",
        structure="swiss",
        style=3,
        max_players=16,
        rounds=None,
        round_minutes=None,
        k=24,
        entry_passes=2,
        pack_pool=pool,
        reward_structure="8-6-5-4-2*-1*",
    )

    page = client.get(reverse("tournaments:calendar")).content.decode()

    for fact in (
        "Friday Night (Standard Constructed, Swiss, Match Play (2-3))",
        "<dt>Entry fee</dt><dd>2 event passes</dd>",
        "<dt>Rounds</dt><dd>4 with 16 players (more players, more rounds)</dd>",
        "<dt>Time per round</dt><dd>70 minutes</dd>",
        "<dt>K</dt><dd>24</dd>",
        "<dt>Pack Pool</dt><dd>Premiere Booster</dd>",
        "<dt>Reward Structure</dt><dd>8-6-5-4-2*-1*</dd>",
        "<dt>Ends by</dt><dd>23:40 UTC at the latest</dd>",
        "Rewards with 16 players, in Premiere Booster",
        "<span>5th–8th</span> <strong>2</strong> packs each",
        "<span>9th–16th</span> <strong>1</strong> pack each",
        "the first pays the rest of the top half",
    ):
        assert fact in page, fact


def test_the_calendar_links_its_public_feed_and_shows_a_note_when_nothing_is_scheduled(client):
    page = client.get(reverse("tournaments:calendar")).content.decode()

    assert "No scheduled tournament is coming up yet" in page
    assert 'href="http://testserver/events/calendar.ics"' in page


def test_the_calendar_reads_the_database_once_however_many_events(client):
    pool = BoosterPackFactory()
    scheduled(tomorrow_at(10), pack_pool=pool, reward_structure="3-2-1*")
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("tournaments:calendar"))
    for hour in range(11, 20):
        scheduled(tomorrow_at(hour), pack_pool=pool, reward_structure="3-2-1*", kind="sealed")

    with CaptureQueriesContext(connection) as ten:
        client.get(reverse("tournaments:calendar"))

    assert len(one) == len(ten) == 1


EXPECTED_FEED = (
    "BEGIN:VCALENDAR\r\n"
    "VERSION:2.0\r\n"
    "PRODID:-//Galaxies TCG//Events Calendar//EN\r\n"
    "CALSCALE:GREGORIAN\r\n"
    "X-WR-CALNAME:Galaxies TCG Events Calendar\r\n"
    "BEGIN:VEVENT\r\n"
    "UID:queue-{pk}@testserver\r\n"
    "DTSTAMP:20990101T120000Z\r\n"
    "DTSTART:20990306T190000Z\r\n"
    "DTEND:20990306T214000Z\r\n"
    "SUMMARY:Friday Night\\; Swiss (Standard Constructed\\, Swiss\\, Single Game)\r\n"
    "DESCRIPTION:Queue opens: 18:30 UTC\\nEnds by: 21:40 UTC at the latest\\nType:\r\n"
    "  Standard Constructed\\nStructure: Swiss\\nStyle: Single Game\\, a 30-minute \r\n"
    " game clock\\nEntry fee: 1 event pass\\nPlayers: Any number: it starts on tim\r\n"
    " e however many have joined\\nRounds: 4\\nTime per round: 40 minutes\\nK: 16\\n\r\n"
    " Pack Pool: Crème Booster\\, Série 1\\nReward Structure: 3-2-1*\\nRewards wi\r\n"
    " th 8 players: 1st 3 packs\\, 2nd 2 packs\\, 3rd–8th 1 pack each\\nSprint to\r\n"
    " urnament: entrants earn Sprint points.\r\n"
    "URL:http://testserver/events/#queue-{pk}\r\n"
    "END:VEVENT\r\n"
    "END:VCALENDAR\r\n"
)


def test_the_feed_is_a_public_icalendar_with_the_exact_text_of_a_known_event(client):
    pool = BoosterPackFactory(name="Crème Booster, Série 1")
    queue = scheduled(
        datetime(2099, 3, 6, 19, 0, tzinfo=UTC),
        title="Friday Night; Swiss",
        rounds=4,
        pack_pool=pool,
        reward_structure="3-2-1*",
        sprint=True,
    )
    TournamentQueue.objects.filter(pk=queue.pk).update(
        created=datetime(2099, 1, 1, 12, 0, tzinfo=UTC)
    )

    response = client.get(reverse("tournaments:calendar_feed"))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="galaxies-tcg-events.ics"'
    text = response.content.decode("utf-8")
    assert text == EXPECTED_FEED.format(pk=queue.pk)
    assert all(len(line.encode("utf-8")) <= 75 for line in text.split("\r\n"))


def test_the_feed_ends_an_event_after_its_rounds_and_a_sealed_events_deck_building(client):
    pool = BoosterPackFactory()
    starts = datetime(2099, 3, 6, 19, 0, tzinfo=UTC)
    # Single elimination with 32 players: five rounds of 60 + 10 minutes.
    scheduled(starts, structure="single_elimination", max_players=32, style=3)
    # Cut to Top 8 with 16 players: four Swiss rounds, then three in the bracket.
    scheduled(starts, structure="cut_top8", max_players=16, round_minutes=45)
    # Sealed: 20 minutes of deck building, then three Swiss rounds of 40 minutes.
    scheduled(starts, kind="sealed", sealed_boosters=6, pack_pool=pool, sealed_minutes=20)

    text = client.get(reverse("tournaments:calendar_feed")).content.decode()

    ends = [line for line in text.split("\r\n") if line.startswith("DTEND:")]
    assert ends == ["DTEND:20990307T005000Z", "DTEND:20990307T001500Z", "DTEND:20990306T212000Z"]
