"""The embedded default's in-process periodic schedule.

Without a separate beat process, a beat thread inside the web process reads
django-celery-beat's database schedule; with CELERY_TASK_ALWAYS_EAGER each due task runs
right there, so scheduled work happens with no external server.
"""

import threading

from celery.beat import EmbeddedService
from django.conf import settings

from tcgsite.celery import app

_lock = threading.Lock()
_service = None


def start_embedded_beat():
    """Start the beat thread once per process; return it (None when disabled)."""
    global _service
    if not settings.EMBEDDED_BEAT:
        return None
    with _lock:
        if _service is None:
            # Register the apps' tasks now, as a worker would at start-up, so that beat
            # runs them eagerly instead of sending them to a broker nobody reads.
            app.loader.import_default_modules()
            _service = EmbeddedService(
                app, thread=True, scheduler_cls=settings.CELERY_BEAT_SCHEDULER
            )
            _service.start()
    return _service
