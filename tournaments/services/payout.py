"""Paying a concluded tournament (rulebook, "The Tournaments Conclusion"): each player's packs
from the Pack Pool, a Sealed event's pools into the collections, and the Sprint points. Every
payment is a ledger operation with its own reference (``payout:<tournament>:<player>``), so a
payout that runs twice, or is started again after its worker died half way, pays each player
exactly once."""

import uuid
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from collection.earnings.services import tournament_finish_pay
from collection.models import LedgerReason, Product
from collection.services.ledger import LedgerOperationDone, ledger_operation
from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tournaments.models import SpecialReward, Tournament, TournamentStatus
from tournaments.services import sealed, sprints

SPECIAL_REWARDS_WITHIN = timedelta(hours=48)


class RewardError(UserError):
    pass


def tournament_payout(*, tournament_id: int) -> int:
    """Pay what is still unpaid of a concluded tournament; the number of players paid now."""
    tournament = Tournament.objects.select_related("pack_pool").get(pk=tournament_id)
    if tournament.status != TournamentStatus.CONCLUDED:
        return 0
    paid = 0
    for participant in tournament.participants.select_related("player").filter(packs__gt=0):
        try:
            with ledger_operation(
                owners=[participant.player],
                reason=LedgerReason.REWARD,
                reference=f"payout:{tournament.pk}:{participant.player_id}",
            ) as ledger:
                ledger.products_add(
                    owner=participant.player,
                    product=tournament.pack_pool,
                    quantity=participant.packs,
                    note=f"Place {participant.final_rank} in tournament {tournament.pk}",
                )
            paid += 1
        except LedgerOperationDone:
            pass  # paid by an earlier run
    _finishes_pay(tournament)
    sealed.pools_release(tournament)
    if tournament.sprint:
        sprints.sprint_points_award(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk, paid=None).update(paid=timezone.now())
    return paid


def _finishes_pay(tournament: Tournament) -> None:
    """Credits by place, and a promo card for a top-eight finish (the earnings' rates
    table), each paid once; the house's computer players earn nothing."""
    people = tournament.participants.exclude(final_rank=None).filter(
        player__computer_opponent__isnull=True
    )
    field = tournament.participants.count()
    for participant in people.select_related("player"):
        tournament_finish_pay(
            player=participant.player,
            tournament_number=tournament.pk,
            place=participant.final_rank,
            field=field,
        )


def special_reward_give(
    *,
    tournament_id: int,
    player: User,
    product: Product,
    quantity: int,
    staff: User,
    token: uuid.UUID,
    note: str = "",
) -> SpecialReward:
    """A reward given by hand, within 48 hours of the conclusion; ``token`` names the giving
    (the admin form's), so a form sent twice gives once."""
    given = SpecialReward.objects.filter(token=token).first()
    if given is not None:
        return given
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != TournamentStatus.CONCLUDED:
        raise RewardError("Special rewards are given once the tournament has concluded.")
    if timezone.now() - tournament.concluded > SPECIAL_REWARDS_WITHIN:
        raise RewardError(
            "Special rewards are given within 48 hours of the tournament's conclusion."
        )
    if not tournament.participants.filter(player=player).exists():
        raise RewardError(f"{player.username} did not play in tournament {tournament.pk}.")
    if not 1 <= quantity <= 100:
        raise RewardError("Give between 1 and 100.")
    try:
        return _special_reward_write(tournament, player, product, quantity, staff, token, note)
    except IntegrityError:  # the same form, sent twice at once: the other gave it
        return SpecialReward.objects.get(token=token)


def _special_reward_write(tournament, player, product, quantity, staff, token, note):
    with transaction.atomic():
        reward = SpecialReward.objects.create(
            tournament=tournament,
            player=player,
            product=product,
            quantity=quantity,
            note=note[:200],
            awarded_by=staff,
            token=token,
        )
        with ledger_operation(
            owners=[player], reason=LedgerReason.REWARD, reference=f"special:{reward.token}"
        ) as ledger:
            ledger.products_add(
                owner=player,
                product=product,
                quantity=quantity,
                note=f"Special reward, tournament {tournament.pk}",
            )
    return reward
