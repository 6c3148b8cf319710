from celery import shared_task
from django.core.management import call_command


@shared_task(name="accounts.clear_expired_sessions")
def clear_expired_sessions():
    """Nightly housekeeping: drop login sessions that have expired."""
    call_command("clearsessions")
