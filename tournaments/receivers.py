"""What tournaments hear from the apps below them."""

from collection.decks.registry import builder_gate_register
from collection.decks.signals import limited_deck_saved
from game.signals import match_finished
from tcgsite.jobs import job_after_commit
from tournaments.services.sealed import builder_detour
from tournaments.services.sealed_building import pool_deck_saved


def _match_finished(sender, *, match_id: int, **kwargs) -> None:
    job_after_commit("tournaments.record_result", match_id=match_id)


def _limited_deck_saved(sender, *, pool_id: int, **kwargs) -> None:
    pool_deck_saved(pool_id=pool_id)


def connect_receivers() -> None:
    match_finished.connect(_match_finished, dispatch_uid="tournaments.match_finished")
    limited_deck_saved.connect(_limited_deck_saved, dispatch_uid="tournaments.limited_deck_saved")
    # A player in a Sealed tournament builds from their pool only.
    builder_gate_register(builder_detour)
