"""House computer players entered in a queue by ``manage.py computer_players``
(tournaments/services/computer_players.py): whatever process starts the tournament, their
turns reach a process that plays them. On the embedded default a management command's process
opens no background threads (tcgsite/jobs.py): its turns stay due, and the site's periodic sweep
(``game.sweep_clocks``) hands them to the site's threads."""

import io
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings as site_settings
from django.core.management import call_command
from django.db import connection
from django.db.models import F

from game.models import Game, MatchStatus
from game.tasks import sweep_clocks
from tcgsite import jobs
from tests.tournaments.conftest import on_demand_queue
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def thinking_threads_alive() -> list[str]:
    return [thread.name for thread in threading.enumerate() if thread.name.startswith("computer")]


def round_one_games(tournament) -> list[Game]:
    return list(
        Game.objects.filter(
            match__tournament_pairing__tournament=tournament,
            match__tournament_pairing__round=1,
        )
    )


@pytest.mark.slow
def test_a_queue_filled_from_the_command_plays_its_first_round_on_the_sites_sweep(
    catalog, settings
):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded default, whatever the suite's mode
    settings.COMPUTER_PAUSE_SECONDS = 0
    # Four players: two round-one matches, one for each of the site's two background threads.
    queue = on_demand_queue(max_players=4)
    jobs.background_stop()  # a management command's process opens no background threads
    out, err = io.StringIO(), io.StringIO()

    call_command(
        "computer_players", "4", "--queue", str(queue.pk), "--enter", "4", stdout=out, stderr=err
    )

    tournament = Tournament.objects.get(queue=queue)
    games = round_one_games(tournament)
    assert "4 entered" in out.getvalue() and not err.getvalue()
    assert len(games) == 2 and not thinking_threads_alive()
    assert all(game.computer_due is not None and game.applied == 0 for game in games)

    # Then the site's process, whose background threads tcgsite/asgi.py opened, runs its sweep
    # once the turns are overdue.
    jobs.background_start()
    try:
        Game.objects.update(computer_due=F("computer_due") - timedelta(minutes=1))
        assert sweep_clocks()["computer_turns"] == 2
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if not Pairing.objects.filter(tournament=tournament, round=1, decided=None).exists():
                break
            time.sleep(0.2)
    finally:
        jobs.background_stop()

    assert not Pairing.objects.filter(tournament=tournament, round=1, decided=None).exists()
    for game in round_one_games(tournament):
        assert game.match.status == MatchStatus.FINISHED and game.applied > 0


@pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="the embedded default's own processes"
)
def test_the_command_that_fills_a_queue_exits_cleanly_leaving_its_turns_due(catalog):
    """As staff run it, in a process of its own, on the embedded default's database."""
    queue = on_demand_queue(max_players=6)

    done = subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", "computer_players", "6"]
        + ["--queue", str(queue.pk), "--enter", "6"],
        env={**os.environ, "SQLITE_PATH": connection.settings_dict["NAME"]},
        cwd=site_settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert (done.returncode, done.stderr) == (0, "")
    games = round_one_games(Tournament.objects.get(queue=queue))
    assert len(games) == 3
    assert all(game.computer_due is not None and game.applied == 0 for game in games)
