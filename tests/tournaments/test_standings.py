"""Points and tie-breakers (tournaments/standings.py), after the rulebook's "Scoring"."""

import subprocess
import sys

from tournaments.standings import Bye, Entrant, Result, swiss_standings


def test_a_win_is_three_points_a_loss_one_and_a_bye_three():
    """The rulebook's "Scoring": "The winning player will receive three (3) points and the
    defeated player will receive one (1) point"; a bye "is considered a three (3) point victory"."""
    entrants = [Entrant(1), Entrant(2), Entrant(3)]

    standings = swiss_standings(entrants, [Result(1, 1, 2)], [Bye(1, 3)])

    assert {s.player: s.points for s in standings} == {1: 3, 2: 1, 3: 3}
    assert {s.player: (s.wins, s.losses, s.byes) for s in standings} == {
        1: (1, 0, 0),
        2: (0, 1, 0),
        3: (0, 0, 1),
    }


def test_ties_go_to_the_stronger_schedule():
    """The rulebook's "Scoring": "In the case of ties, the higher placing players will be decided
    by strength of schedule tie-breakers". Players 1 and 2 both won once and lost once; player 1
    met players who have 4 and 6 points, player 2 players who have 4 and 2."""
    entrants = [Entrant(n) for n in range(1, 5)]
    results = [Result(1, 1, 2), Result(1, 3, 4), Result(2, 2, 4), Result(2, 3, 1)]

    standings = swiss_standings(entrants, results)

    assert [s.player for s in standings] == [3, 1, 2, 4]
    first, second = standings[1], standings[2]
    assert (first.points, first.opponents_points) == (4, 10)
    assert (second.points, second.opponents_points) == (4, 6)


def test_opponents_opponents_points_break_what_opponents_points_leave_tied():
    """Players 1 and 2 have the same points and opponents' points; player 1's opponent met
    the stronger field."""
    entrants = [Entrant(n) for n in range(1, 7)]
    results = [
        Result(1, 1, 3),
        Result(1, 2, 4),
        Result(1, 5, 6),
        Result(2, 3, 5),
        Result(2, 4, 6),
    ]

    standings = {s.player: s for s in swiss_standings(entrants, results)}

    assert standings[1].points == standings[2].points
    assert standings[1].opponents_points == standings[2].opponents_points
    assert standings[1].opponents_opponents_points > standings[2].opponents_opponents_points
    assert standings[1].rank < standings[2].rank


def test_the_last_keys_are_rating_then_player_id():
    entrants = [Entrant(5, rating=1500), Entrant(3, rating=1600), Entrant(4, rating=1500)]

    standings = swiss_standings(entrants, [])

    assert [s.player for s in standings] == [3, 4, 5]
    assert [s.rank for s in standings] == [1, 2, 3]


def test_a_bye_adds_nothing_to_opponents_points():
    entrants = [Entrant(1), Entrant(2), Entrant(3)]

    standings = {s.player: s for s in swiss_standings(entrants, [Result(1, 1, 2)], [Bye(1, 3)])}

    assert standings[3].opponents_points == 0
    assert standings[1].opponents_points == 1


def test_the_tournament_modules_import_no_django():
    """Pure logic (docs/design.md, "How code is written"): these modules load without Django."""
    code = (
        "import sys\n"
        "import tournaments.elo, tournaments.pairing, tournaments.rewards, tournaments.standings\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n"
    )

    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603
