"""What tournaments hear from the apps below them."""

from game.signals import match_finished
from tournaments.dispatch import dispatch_now


def _match_finished(sender, *, match_id: int, **kwargs) -> None:
    dispatch_now("tournaments.record_result", match_id=match_id)


def connect_receivers() -> None:
    match_finished.connect(_match_finished, dispatch_uid="tournaments.match_finished")
