from celery import shared_task

from tournaments.services.payout import tournament_payout
from tournaments.services.queues import scheduled_queues_start_sweep, schedules_extend
from tournaments.services.running import pairing_result_record, rounds_due_sweep
from tournaments.services.sealed_building import building_ends_sweep
from tournaments.services.sprints import sprint_calendar_run


@shared_task(name="tournaments.sweep")
def sweep():
    """Start the scheduled tournaments whose time has come, begin round one of the Sealed
    tournaments whose deck building time is up, end the rounds whose time is up,
    record the results of matches that ended unrecorded, and keep the recurring schedules'
    queues two weeks ahead (tournaments/services/)."""
    return {
        "started": scheduled_queues_start_sweep(),
        "building_ended": building_ends_sweep(),
        "decided": rounds_due_sweep(),
        "scheduled": schedules_extend(),
    }


@shared_task(name="tournaments.record_result")
def record_result(match_id: int):
    """Decide the pairing of a tournament match that has just ended."""
    return pairing_result_record(match_id=match_id)


@shared_task(name="tournaments.payout")
def payout(tournament_id: int):
    """Pay a concluded tournament's rewards; pays each player once however often it runs."""
    return tournament_payout(tournament_id=tournament_id)


@shared_task(name="tournaments.sprint_calendar")
def sprint_calendar():
    """Daily at 23:55 UTC: on the month's last weekday, give its Sprint Winner Medals (and any
    month's whose award was missed); gives each once however often it runs."""
    return sprint_calendar_run()
