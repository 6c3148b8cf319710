"""Every read the tournament pages need."""

from datetime import datetime

from tcgsite.accounts.models import User
from tournaments.models import Participant, QueueStatus, TournamentQueue, TournamentStatus

RUNNING = (TournamentStatus.DECK_BUILDING, TournamentStatus.PLAYING)


def current_participation(*, player: User) -> Participant | None:
    """The player's place in a tournament still running that they have not left (dropped, or
    knocked out of an elimination bracket), if any."""
    return (
        Participant.objects.select_related("tournament")
        .filter(player=player, tournament__status__in=RUNNING, dropped=None, eliminated_round=None)
        .first()
    )


def queue_is_open(queue: TournamentQueue, now: datetime) -> bool:
    """Whether players may join ``queue`` now: an on-demand queue always, a scheduled one from
    30 minutes before its start until it starts."""
    if queue.status != QueueStatus.OPEN:
        return False
    if queue.on_demand:
        return True
    return queue.opens_at <= now < queue.starts_at


def lobby_lists() -> dict:
    """The Tournaments Lobby's two lists: the queues waiting (scheduled ones from 30 minutes
    before their start) and the tournaments under way."""
    from django.db.models import Count
    from django.utils import timezone

    from tournaments.models import Tournament

    now = timezone.now()
    queues = [
        queue
        for queue in TournamentQueue.objects.filter(status=QueueStatus.OPEN)
        .select_related("pack_pool", "play_format")
        .annotate(waiting=Count("entries"))
        if queue_is_open(queue, now)
    ]
    started = list(
        Tournament.objects.filter(status__in=RUNNING)
        .select_related("pack_pool", "play_format")
        .annotate(players=Count("participants"))
        .order_by("pk")
    )
    return {"queues": queues, "started": started}
