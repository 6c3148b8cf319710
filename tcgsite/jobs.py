"""Work off the request path: the one way code asks for a Celery task once its transaction
commits (a finished match's bookkeeping, a computer player's turn, a tournament's payout).

    job_after_commit("tournaments.payout", tournament_id=7)
    job_after_commit("game.computer_move", background=True, pause=2.0, match_id=3, ...)

In production the task goes to the worker, its ``pause`` as the countdown. On the embedded
default Celery runs tasks eagerly, in the caller's thread, which is a request's or a socket's.
There a short task (bookkeeping) runs right after the commit. A ``background`` one (a
computer's turn: its thinking takes a while) waits its pause on a timer, not on a thread, and
then runs on this web process's background threads (``background_start``, tcgsite/asgi.py),
sending through the loop that serves its sockets. A process that opened no background threads
(a management command's) hands such a task to nobody: its threads would end with it before
running it. Such work is stored as due (``Game.computer_due``), and the periodic sweep hands on
what is overdue.

One failure policy: a task that fails is logged with its name and arguments and never raised
into the request or socket that asked for it. Every task is safe to run twice, so the sweep, or
a second try, finishes its work.
"""

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from celery import current_app
from django.conf import settings
from django.db import connections, transaction

from tcgsite.celery import task_named
from tcgsite.realtime import sends_through_serving_loop

logger = logging.getLogger(__name__)

# Two tasks may run at once, such as two matches' computer players thinking; more would only
# share the same two cores.
BACKGROUND_THREADS = 2

_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def job_after_commit(
    task_name: str, *, background: bool = False, pause: float = 0.0, **kwargs
) -> None:
    """Once the current transaction commits (at once outside one), run the task ``task_name``
    with ``kwargs``, ``pause`` seconds later, off the request path; ``background``: one that
    takes a while, kept off the committing thread on the embedded default too."""
    transaction.on_commit(lambda: _dispatch(task_name, kwargs, background, pause))


def background_start() -> None:
    """Open this process's background threads, for a process that stays up to run the tasks
    handed to them: the web process."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(BACKGROUND_THREADS, thread_name_prefix="background")


def background_stop() -> None:
    """Close this process's background threads once the tasks they run are over; those still
    waiting stay due, for the sweeps."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _dispatch(task_name: str, kwargs: dict, background: bool, pause: float) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.send_task(task_name, kwargs=kwargs, countdown=pause or None)
        return
    if not background:
        _run_logged(task_name, kwargs)
        return
    with _pool_lock:
        if _pool is None:
            return
    timer = threading.Timer(pause, _run_in_background, args=(task_name, kwargs))
    timer.daemon = True
    timer.start()


def _run_in_background(task_name: str, kwargs: dict) -> None:
    with _pool_lock:
        if _pool is not None:
            _pool.submit(_run_on_background_thread, task_name, kwargs)


def _run_on_background_thread(task_name: str, kwargs: dict) -> None:
    try:
        with sends_through_serving_loop():
            _run_logged(task_name, kwargs)
    finally:
        connections.close_all()


def _run_logged(task_name: str, kwargs: dict) -> None:
    result = task_named(task_name).apply(kwargs=kwargs, throw=False)
    if result.failed():
        logger.error("%s(%s) failed", task_name, kwargs, exc_info=result.result)
