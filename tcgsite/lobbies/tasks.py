from celery import shared_task

from tcgsite.lobbies.services.presence import presence_sweep


@shared_task(name="lobbies.sweep_presence")
def sweep_presence():
    """Announce the departure of players whose pages closed or whose process died, also while
    no socket is open to do it (tcgsite/lobbies/services/presence.py)."""
    return presence_sweep()
