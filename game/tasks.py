from celery import shared_task

from game.services.attendance import match_absences_sweep, match_observers_sweep
from game.services.earnings import match_earnings_report
from game.services.event_matches import event_forfeits_sweep
from game.services.matches import (
    computer_turns_sweep,
    match_clocks_sweep,
    match_next_games_sweep,
)
from game.services.scenarios import scenario_reward_grant
from game.services.skirmish import computer_answer_offer
from game.services.skirmish import computer_move as computer_decide


@shared_task(name="game.sweep_clocks")
def sweep_clocks():
    """End the timed matches whose running clock ran out, begin the next games whose pause
    is over, mark away the players whose sockets went silent (and forget such observers),
    also while nobody is connected, forfeit the games of tournament players away too long,
    and hand on the computer turns overdue (game/services/matches.py, attendance.py,
    event_matches.py)."""
    return {
        "timed_out": match_clocks_sweep(),
        "next_games": match_next_games_sweep(),
        "away": match_absences_sweep(),
        "observers_gone": match_observers_sweep(),
        "forfeited": event_forfeits_sweep(),
        "computer_turns": computer_turns_sweep(),
    }


@shared_task(name="game.computer_move")
def computer_move(match_id: int, game_number: int, ply: int):
    """A computer's seat decides (a Skirmish's opponent, a team game's computer player), if
    the decision at ``ply`` is still its own (game/services/skirmish.py); scheduled by
    tcgsite/jobs.py."""
    return computer_decide(match_id=match_id, game_number=game_number, ply=ply)


@shared_task(name="game.computer_answer")
def computer_answer(match_id: int):
    """A Skirmish's computer opponent answers the offer made to it."""
    return computer_answer_offer(match_id=match_id)


@shared_task(name="game.match_finished")
def match_finished(match_id: int):
    """A match has just ended (game/receivers.py): a scenario's first win earns its reward
    card (game/services/scenarios.py), and its players their credits and quest progress
    (game/services/earnings.py); each granted once however often this runs."""
    return {
        "scenario_reward": scenario_reward_grant(match_id=match_id),
        "earnings": match_earnings_report(match_id=match_id),
    }
