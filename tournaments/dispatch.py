"""Tournament work that runs off the request path: a Celery task once the transaction that
asked for it commits. In production it goes to the worker; on the embedded default, where
Celery runs tasks eagerly, it runs right there after the commit. Every task is safe to run
twice: each re-reads what it acts on under the tournament's lock."""

from celery import current_app
from django.conf import settings
from django.db import transaction

from tcgsite.celery import task_named


def run_task_after_commit(task_name: str, **kwargs) -> None:
    transaction.on_commit(lambda: dispatch_now(task_name, **kwargs))


def dispatch_now(task_name: str, **kwargs) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.send_task(task_name, kwargs=kwargs)
        return
    task_named(task_name).apply(kwargs=kwargs, throw=True)
