"""Where work off the request path runs on the embedded default (tcgsite/jobs.py): a task
with a pause (the computer's turns) on the web process's background threads once the pause is
over, sending through the loop that serves the process's sockets; a task without one right
after the commit; and a failure is logged, never raised into the code that asked for it."""

import asyncio
import threading

import pytest
from celery import shared_task
from channels.db import database_sync_to_async
from django.conf import settings as site_settings
from django.db import transaction

from tcgsite import realtime
from tcgsite.jobs import BACKGROUND_THREADS, job_after_commit
from tests.factories import UserFactory

PROBE = "tests.thinking_probe"
ran: dict[str, threading.Event] = {}
loops_seen: dict[str, object] = {}


@shared_task(name=PROBE)
def thinking_probe(mark: str):
    """A turn that tells the test it ran, and through which loop it would send."""
    loops_seen[mark] = realtime.consumers_loop.get()
    ran[mark].set()


def turn_after_commit(mark: str) -> threading.Event:
    ran[mark] = threading.Event()
    with transaction.atomic():
        job_after_commit(
            PROBE, background=True, pause=site_settings.COMPUTER_PAUSE_SECONDS, mark=mark
        )
    return ran[mark]


@pytest.fixture
def embedded(settings, thinking_threads):
    """The embedded default's turns, whatever mode the suite runs in: no worker runs beside
    the tests."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    return settings


@pytest.mark.django_db(transaction=True)
def test_turns_in_their_pause_keep_no_thinking_thread_from_another_matchs_turn(embedded):
    """The pause is waited on a timer. When a thinking thread slept through it, two matches'
    turns in their pause held both threads, and every other match's turn waited behind them:
    with eight Skirmishes at once, a reply took up to five times the pause."""
    embedded.COMPUTER_PAUSE_SECONDS = 60
    for number in range(BACKGROUND_THREADS):
        turn_after_commit(f"paused {number}")
    embedded.COMPUTER_PAUSE_SECONDS = 0

    assert turn_after_commit("due now").wait(timeout=20)
    assert not any(ran[f"paused {number}"].is_set() for number in range(BACKGROUND_THREADS))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_turn_on_the_thinking_threads_sends_through_the_loop_serving_the_sockets(
    embedded, open_page
):
    """Its messages are handed to the loop of the process's sockets
    (``realtime.sends_through_serving_loop``), which the in-memory layer needs to wake them."""
    embedded.COMPUTER_PAUSE_SECONDS = 0
    player = await database_sync_to_async(UserFactory)(username="Carol")
    await open_page(player, "/ws/lobby/casual/")

    done = await database_sync_to_async(turn_after_commit)("sent")

    assert await asyncio.to_thread(done.wait, 30)
    assert loops_seen["sent"] is asyncio.get_running_loop()


FAILING = "tests.failing_probe"


@shared_task(name=FAILING)
def failing_probe():
    raise RuntimeError("the probe fails")


@pytest.mark.django_db(transaction=True)
def test_a_job_runs_after_the_commit_and_its_failure_is_logged_not_raised(embedded, caplog):
    ran["at once"] = threading.Event()
    with transaction.atomic():
        job_after_commit(PROBE, mark="at once")
        assert not ran["at once"].is_set()  # not before the commit
    assert ran["at once"].is_set()

    with transaction.atomic():
        job_after_commit(FAILING)

    assert "tests.failing_probe({}) failed" in caplog.text
    assert "the probe fails" in caplog.text
