"""What the game app does when its own signals fire (game/signals.py): a finished match's
finishing task, off the request path once the match's end has committed."""

import logging

from celery import current_app
from django.conf import settings

from game.signals import match_finished
from tcgsite.celery import task_named

logger = logging.getLogger(__name__)

MATCH_FINISHED_TASK = "game.match_finished"


def _match_finished(sender, *, match_id: int, **kwargs) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.send_task(MATCH_FINISHED_TASK, kwargs={"match_id": match_id})
        return
    # Embedded: run here, after the commit. A failure is logged, not raised into the request
    # that ended the match; the task is safe to run again.
    result = task_named(MATCH_FINISHED_TASK).apply(kwargs={"match_id": match_id}, throw=False)
    if result.failed():
        logger.error("%s(%s) failed", MATCH_FINISHED_TASK, match_id, exc_info=result.result)


def connect_receivers() -> None:
    match_finished.connect(_match_finished, dispatch_uid="game.match_finished")
