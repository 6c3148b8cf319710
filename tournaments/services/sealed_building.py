"""The end of a Sealed tournament's deck building (rulebook, "Sealed Tournaments", "Limited
Deck Builder": "click the Save Deck button near this timer to signal you are ready to
begin"): a player who saves a valid deck from their pool is ready, and round one begins as
soon as every player still in is ready, or when the building time is up.

Kept apart from ``tournaments.services.sealed``, which ``running`` calls for each round's
decks and for drops, because beginning round one calls ``running``. A drop that leaves every
remaining player ready is seen by the sweep, within its period.
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from tournaments import fragments
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.services import running, sealed


def pool_deck_saved(*, pool_id: int) -> bool:
    """A deck was saved from the card pool ``pool_id``: during deck building its player is
    ready, and round one begins once every player still in is; whether this made them
    ready. Safe to run twice."""
    found = (
        Participant.objects.filter(
            pool_id=pool_id, dropped=None, tournament__status=TournamentStatus.DECK_BUILDING
        )
        .values_list("pk", "tournament_id")
        .first()
    )
    if found is None:
        return False
    participant_id, tournament_id = found
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        participant = Participant.objects.select_related("player", "pool__deck").get(
            pk=participant_id
        )
        if (
            tournament.status != TournamentStatus.DECK_BUILDING
            or participant.dropped is not None
            or participant.ready
            or not sealed.valid_pool_deck(participant.pool)
        ):
            return False
        participant.ready = True
        participant.save(update_fields=["ready"])
        sealed.tell(
            participant.player,
            fragments.notice_toast(
                f"Tournament {tournament.pk}: your deck is saved and you are ready. Round one "
                "begins when every player is, or when the building time is up; until then you "
                "may still change your deck."
            ),
        )
        if _all_ready(tournament):
            _round_one_begin(tournament)
    return True


def building_ends_sweep(now: datetime | None = None) -> int:
    """Begin round one of every Sealed tournament whose building time is up, or whose
    players still in are all ready (after a drop); how many. Safe to run twice, or in two
    processes at once."""
    now = now or timezone.now()
    unready = Participant.objects.filter(tournament=OuterRef("pk"), dropped=None, ready=False)
    due = Tournament.objects.filter(status=TournamentStatus.DECK_BUILDING).filter(
        Q(building_ends__lte=now) | ~Exists(unready)
    )
    begun = 0
    for tournament_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
            if tournament.status == TournamentStatus.DECK_BUILDING and (
                tournament.building_ends <= now or _all_ready(tournament)
            ):
                _round_one_begin(tournament)
                begun += 1
    return begun


def _all_ready(tournament: Tournament) -> bool:
    return not tournament.participants.filter(dropped=None, ready=False).exists()


def _round_one_begin(tournament: Tournament) -> None:
    """Deck building is over (the caller holds the tournament's lock): the pools stay open
    for changes between rounds, and round one is paired."""
    tournament.status = TournamentStatus.PLAYING
    tournament.save(update_fields=["status"])
    participants = list(
        tournament.participants.filter(dropped=None).select_related("player", "pool__deck")
    )
    sealed.pools_keep_open(tournament, participants)
    for participant in participants:
        if participant.pool is None or not sealed.valid_pool_deck(participant.pool):
            _, deck_name = sealed.round_decklist(participant)
            sealed.tell(
                participant.player,
                fragments.notice_toast(
                    f"Tournament {tournament.pk}: deck building is over and you saved no valid "
                    f"deck, so you play round one with the basic {deck_name}. You may still "
                    "build from your pool for the next rounds."
                ),
            )
    running.round_begin(tournament)
