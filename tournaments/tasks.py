from celery import shared_task

from tournaments.services.payout import tournament_payout
from tournaments.services.queues import scheduled_queues_start_sweep, schedules_extend
from tournaments.services.running import pairing_result_record, round_advance, rounds_due_sweep


@shared_task(name="tournaments.sweep")
def sweep():
    """Start the scheduled tournaments whose time has come, end the rounds whose time is up,
    record the results of matches that ended unrecorded, and keep the recurring schedules'
    queues a week ahead (tournaments/services/)."""
    return {
        "started": scheduled_queues_start_sweep(),
        "decided": rounds_due_sweep(),
        "scheduled": schedules_extend(),
    }


@shared_task(name="tournaments.record_result")
def record_result(match_id: int):
    """Decide the pairing of a tournament match that has just ended."""
    return pairing_result_record(match_id=match_id)


@shared_task(name="tournaments.round_advance")
def advance(tournament_id: int):
    return round_advance(tournament_id=tournament_id)


@shared_task(name="tournaments.payout")
def payout(tournament_id: int):
    """Pay a concluded tournament's rewards; pays each player once however often it runs."""
    return tournament_payout(tournament_id=tournament_id)
