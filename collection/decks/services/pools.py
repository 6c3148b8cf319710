"""Limited card pools: the event that gives a pool (a Sealed tournament) creates it and sets
until when decks may be saved from it; ``decks.deck_save`` saves them."""

from collections.abc import Iterable, Mapping
from datetime import datetime

from django.utils import timezone

from collection.decks.models import LimitedPool
from tcgsite.accounts.models import User


def limited_pool_create(
    *, owner: User, name: str, card_counts: Mapping[int, int], deadline: datetime
) -> LimitedPool:
    return LimitedPool.objects.create(
        owner=owner,
        name=name,
        card_counts={str(card_id): copies for card_id, copies in sorted(card_counts.items())},
        deadline=deadline,
    )


def limited_pools_time(*, pool_ids: Iterable[int], deadline: datetime) -> int:
    """Decks may be saved from these pools until ``deadline``; how many pools changed."""
    return LimitedPool.objects.filter(pk__in=list(pool_ids)).update(deadline=deadline)


def limited_pools_close(*, pool_ids: Iterable[int]) -> int:
    """No deck is saved from these pools any more; a pool already closed keeps its
    deadline. How many closed now."""
    now = timezone.now()
    return LimitedPool.objects.filter(pk__in=list(pool_ids), deadline__gt=now).update(deadline=now)
