"""The Collection Manager's Want numbers, and the cards a player offers to trade partners.

Rulebook, COLLECTION MANAGER: under every card are Quantity, Want, and Trade (Quantity above
Want) or Need (Want above Quantity); other players see in a trade only the cards with a
Trade value of one or more.

Want follows the player's saved decks until they set it themselves: a card their decks use
(their only avatar, say) is not offered for trade by default.
"""

from collections.abc import Mapping

from django.db import transaction
from django.db.models import F, QuerySet

from collection.cards.models import Card
from collection.models import CardOwnership
from collection.services.ledger import owners_lock
from tcgsite.accounts.models import User
from tcgsite.errors import UserError

MAX_WANT = 99


class WantError(UserError):
    """A Want that can't be set; the message is shown to the player."""


def want_set(*, owner: User, card: Card, want: int) -> CardOwnership:
    """Set how many copies of ``card`` the player wants, even of a card they don't own yet."""
    if isinstance(want, bool) or not isinstance(want, int):
        raise WantError(f"Want must be a whole number from 0 to {MAX_WANT}.")
    if not 0 <= want <= MAX_WANT:
        raise WantError(f"Want must be between 0 and {MAX_WANT}; {want} is out of range.")
    if card.creator_id is not None and card.creator_id != owner.pk:
        raise WantError(f"{card.title} is another player's avatar; it can't be collected.")
    with transaction.atomic():
        # The wallet lock serialises this with openings and trades that create the same row;
        # a Want is no owned item, so it needs no ledger row.
        owners_lock(owners=[owner])
        ownership, _created = CardOwnership.objects.get_or_create(owner=owner, card=card)
        if ownership.want != want or not ownership.want_chosen:
            ownership.want, ownership.want_chosen = want, True
            ownership.save(update_fields=["want", "want_chosen"])
    return ownership


def wants_follow_deck(*, owner: User, counts: Mapping[int, int]) -> None:
    """Raise the Want of each card a deck of the player's uses (card id -> copies) to those
    copies, where the player has not set Want themselves; inside the caller's transaction,
    which holds the player's lock. Never lowered: another deck may use the copies too."""
    raised = []
    for ownership in CardOwnership.objects.filter(
        owner=owner, card_id__in=counts, want_chosen=False
    ):
        if ownership.want < counts[ownership.card_id]:
            ownership.want = counts[ownership.card_id]
            raised.append(ownership)
    CardOwnership.objects.bulk_update(raised, ["want"])


def want_keep_owned(*, owner: User, card_id: int) -> None:
    """Keep the copies the player owns of a one-off card (a scenario's reward, which nothing
    else gives) out of trade until they say otherwise: Want is raised to the copies owned and
    counts as the player's own, so no deck lowers it; they may set it lower in the Collection
    Manager. Inside the caller's transaction, which holds the player's lock."""
    CardOwnership.objects.filter(owner=owner, card_id=card_id, want__lt=F("quantity")).update(
        want=F("quantity"), want_chosen=True
    )


def tradeable_cards(*, owner: User) -> QuerySet[CardOwnership]:
    """The player's cards with a Trade value of one or more, in card-number order: the only
    cards trade partners may see."""
    return (
        CardOwnership.objects.filter(owner=owner, quantity__gt=F("want"))
        .select_related("card__card_set")
        .order_by("card__card_set__number", "card__number")
    )
