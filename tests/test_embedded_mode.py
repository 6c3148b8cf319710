"""Runtime modes: the embedded default runs the periodic schedule inside the site's process."""

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from tcgsite import embedded


@pytest.mark.skipif(not settings.EMBEDDED, reason="the embedded default's own behaviour")
@pytest.mark.django_db(transaction=True)
def test_embedded_beat_runs_scheduled_tasks_in_process(monkeypatch):
    Session.objects.create(
        session_key="expired", session_data="", expire_date=timezone.now() - timedelta(days=1)
    )
    every_second, _ = IntervalSchedule.objects.get_or_create(
        every=1, period=IntervalSchedule.SECONDS
    )
    PeriodicTask.objects.update_or_create(
        name="Clear expired sessions",
        defaults={
            "task": "accounts.clear_expired_sessions",
            "interval": every_second,
            "crontab": None,
        },
    )
    monkeypatch.setattr(embedded, "_service", None)
    monkeypatch.setattr(settings, "EMBEDDED_BEAT", True)

    service = embedded.start_embedded_beat()
    try:
        deadline = time.monotonic() + 20
        while Session.objects.filter(session_key="expired").exists():
            assert time.monotonic() < deadline, "the scheduled task never ran"
            time.sleep(0.2)
    finally:
        service.stop()


def test_embedded_default_needs_no_external_server():
    if settings.EMBEDDED:
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer")
        assert settings.CELERY_TASK_ALWAYS_EAGER is True
    else:
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("RedisPubSubChannelLayer")
        assert settings.CELERY_BROKER_URL.startswith("redis://")
        assert settings.CELERY_BEAT_SCHEDULER.endswith("DatabaseScheduler")


def test_session_cleanup_is_scheduled_by_migration(db):
    task = PeriodicTask.objects.get(name="Clear expired sessions")
    assert task.task == "accounts.clear_expired_sessions"
    assert task.crontab is not None


@pytest.mark.skipif(settings.EMBEDDED, reason="production mode's Redis broker and worker")
@pytest.mark.django_db(transaction=True)
def test_production_tasks_go_through_the_broker_to_a_worker():
    from celery.contrib.testing.worker import start_worker

    from tcgsite.accounts.tasks import clear_expired_sessions
    from tcgsite.celery import app

    Session.objects.create(
        session_key="expired", session_data="", expire_date=timezone.now() - timedelta(days=1)
    )
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        clear_expired_sessions.delay()
        deadline = time.monotonic() + 20
        while Session.objects.filter(session_key="expired").exists():
            assert time.monotonic() < deadline, "the worker never ran the task"
            time.sleep(0.2)
