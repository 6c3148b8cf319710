"""Sealed tournaments (rulebook, "Sealed Tournaments", "Limited Deck Builder"): to be
completed: every function below refuses until it is built."""

from tcgsite.errors import UserError


class SealedError(UserError):
    pass


def building_begin(tournament) -> None:
    raise SealedError("Sealed tournaments are not open yet.")


def pool_open(tournament, participant, ledger) -> None:
    raise SealedError("Sealed tournaments are not open yet.")


def round_decklist(participant) -> tuple[dict, str]:
    raise SealedError("Sealed tournaments are not open yet.")


def participant_dropped(participant) -> None:
    return None


def pools_release(tournament) -> None:
    return None
