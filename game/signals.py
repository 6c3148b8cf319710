"""What the match services tell the apps above them (docs/design.md, "Layout and layering").

``match_finished`` is sent once the transaction that ended a match has committed, with
``match_id``: a tournament records the result of its pairing.
"""

from django.db import transaction
from django.dispatch import Signal

match_finished = Signal()


def match_finished_on_commit(match_id: int) -> None:
    transaction.on_commit(lambda: match_finished.send(sender=None, match_id=match_id))
