"""What the game app does when its own signals fire (game/signals.py): a finished match's
finishing task, off the request path once the match's end has committed."""

from game.signals import match_finished
from tcgsite.jobs import job_after_commit


def _match_finished(sender, *, match_id: int, **kwargs) -> None:
    job_after_commit("game.match_finished", match_id=match_id)


def connect_receivers() -> None:
    match_finished.connect(_match_finished, dispatch_uid="game.match_finished")
