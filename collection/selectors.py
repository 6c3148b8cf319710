"""Reads of players' collections."""

from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Greatest

from collection.cards.filters import CardFilters
from collection.cards.models import Card
from collection.cards.selectors import cards_narrowed
from collection.models import CardOwnership


def collection_cards(*, owner, filters: CardFilters, only_owned: bool) -> QuerySet[Card]:
    """Cards with the player's numbers: ``owned``, ``want``, ``trade`` and ``need``
    (rulebook, COLLECTION MANAGER), narrowed and ordered by the filters, which may use
    those numbers too. Includes the avatars the player made; ``only_owned`` leaves out
    cards of which the player has no copy."""
    ownership = CardOwnership.objects.filter(owner=owner, card=OuterRef("pk"))
    cards = (
        Card.objects.filter(Q(creator__isnull=True) | Q(creator=owner))
        .annotate(
            owned=Coalesce(Subquery(ownership.values("quantity")[:1]), 0),
            want=Coalesce(Subquery(ownership.values("want")[:1]), 0),
        )
        .annotate(
            trade=Greatest(F("owned") - F("want"), 0),
            need=Greatest(F("want") - F("owned"), 0),
        )
    )
    if only_owned:
        cards = cards.filter(owned__gt=0)
    return cards_narrowed(cards, filters)
