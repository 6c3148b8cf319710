"""Where the computer opponent's turns run: off the request path, after a short pause.

In production a Celery task goes to the worker, with the pause as its countdown. On the
embedded default Celery runs tasks eagerly, in the caller's thread, which would be a request's
or a socket's; so the task runs instead on a small pool of threads that the web process opens
as it starts serving (``thinking_start``, tcgsite/asgi.py), once its pause is over: a timer
waits the pause, not a thinking thread, which would keep every other match's turn waiting
behind it. What a turn sends goes through the loop that serves the process's sockets
(``sends_through_serving_loop``). A process that opened no threads, a management command's,
hands its turns to nobody: its threads would end with it before playing them. Every turn is
stored due with its game (``Game.computer_due``), and the periodic sweep, which runs where the
site's turns are played, hands on those overdue (``game.services.matches.computer_turns_sweep``).
Tasks are named, not imported, because the services that schedule them are what they call.
Every task this schedules is safe to run twice: it acts only at the ply it was scheduled for.
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

# Two matches' opponents may think at once; more would only share the same two cores.
THINKING_THREADS = 2

_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def thinking_start() -> None:
    """Open this process's thinking threads, for a process that stays up to play the turns
    handed to them: the web process."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(THINKING_THREADS, thread_name_prefix="computer")


def thinking_stop() -> None:
    """Close this process's thinking threads once the turns they are playing are over; the
    turns still waiting for them stay due, for the sweep."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def run_after_commit(task_name: str, **kwargs) -> None:
    """Once the current transaction commits, run the task ``task_name`` with ``kwargs`` after
    the computer's pause (``COMPUTER_PAUSE_SECONDS``), off the request path."""
    transaction.on_commit(lambda: _dispatch(task_name, kwargs))


def _dispatch(task_name: str, kwargs: dict) -> None:
    pause = settings.COMPUTER_PAUSE_SECONDS
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.send_task(task_name, kwargs=kwargs, countdown=pause)
        return
    with _pool_lock:
        if _pool is None:
            return
    timer = threading.Timer(pause, _think_here, args=(task_name, kwargs))
    timer.daemon = True
    timer.start()


def _think_here(task_name: str, kwargs: dict) -> None:
    """Hand the task to this process's thinking threads, if they are still open."""
    with _pool_lock:
        if _pool is not None:
            _pool.submit(_run_here, task_name, kwargs)


def _run_here(task_name: str, kwargs: dict) -> None:
    try:
        with sends_through_serving_loop():
            result = task_named(task_name).apply(kwargs=kwargs, throw=False)
        if result.failed():
            logger.error("%s(%s) failed", task_name, kwargs, exc_info=result.result)
    finally:
        connections.close_all()
