"""Reads of the card catalog."""

import hashlib
import operator
from functools import reduce

from django.core.cache import cache
from django.db.models import F, Q, QuerySet

from collection.cards.faces import card_face_svg
from collection.cards.filters import CardFilters
from collection.cards.models import PLAYER_AVATAR_SET_NUMBER, Card, CardSet

_LOOKUPS = {">": "gt", ">=": "gte", "=": "exact", "<=": "lte", "<": "lt", "!=": "exact"}

_SEARCH_COLUMNS = {
    "title": ("title",),
    "traits": ("trait_index", "keyword_index"),
    "text": ("game_text",),
    "artist": ("artist",),
    "lore": ("lore",),
}

_SORT_COLUMNS = {
    "number": ("card_set__number", "number"),
    "title": ("title",),
    "type": ("card_type",),
    "archetype": ("archetype",),
    "rarity": ("rarity",),
}


def card_sets() -> list[CardSet]:
    """The catalog's sets (not the set of player-made avatars)."""
    return list(CardSet.objects.exclude(number=PLAYER_AVATAR_SET_NUMBER))


def cards_filtered(*, filters: CardFilters) -> QuerySet[Card]:
    """The catalog narrowed by the Filters & Search options, in the chosen order."""
    return cards_narrowed(Card.objects.printed(), filters)


def card_by_number(*, set_number: int, number: int, viewer) -> Card | None:
    """The card with this collector number, or None, also when ``viewer`` may not see it
    (see ``Card.objects.visible_to``): a hidden card looks like a number that doesn't exist."""
    return (
        Card.objects.visible_to(viewer)
        .select_related("card_set")
        .filter(card_set__number=set_number, number=number)
        .first()
    )


def card_neighbours(*, card: Card) -> tuple[Card | None, Card | None]:
    """The printed cards before and after ``card`` in its set; player-made avatars are not a
    browsable set, so they have none."""
    neighbours = Card.objects.printed().filter(card_set=card.card_set_id)
    return (
        neighbours.filter(number__lt=card.number).order_by("-number").first(),
        neighbours.filter(number__gt=card.number).order_by("number").first(),
    )


def cards_by_id(*, card_ids) -> dict[int, Card]:
    """Cards by primary key, with their sets."""
    return Card.objects.select_related("card_set").in_bulk(set(card_ids))


def cards_narrowed(cards: QuerySet[Card], filters: CardFilters) -> QuerySet[Card]:
    """``cards`` narrowed by the Filters & Search options, in the chosen order."""
    cards = cards.select_related("card_set")
    if filters.types:
        cards = cards.filter(card_type__in=filters.types)
    if filters.archetypes:
        archetypes = ["" if value == "generic" else value for value in filters.archetypes]
        cards = cards.filter(archetype__in=archetypes)
    if filters.rarities:
        cards = cards.filter(rarity__in=filters.rarities)
    if filters.sets:
        cards = cards.filter(card_set__number__in=filters.sets)
    for keyword in filters.keywords:
        cards = cards.filter(keyword_index__contains=f"|{keyword}|")
    for trait in filters.traits:
        cards = cards.filter(trait_index__contains=f"|{trait.lower()}|")
    for numeric in filters.numeric:
        condition = Q(**{f"{numeric.attribute}__{_LOOKUPS[numeric.operator]}": numeric.value})
        if numeric.operator == "!=":
            condition = ~condition
        # A card without the attribute (a quest's attack) matches no numeric filter.
        cards = cards.filter(condition, **{f"{numeric.attribute}__isnull": False})
    columns = [column for name in filters.search_fields for column in _SEARCH_COLUMNS[name]]
    for word in filters.search_words:
        cards = cards.filter(
            reduce(operator.or_, (Q(**{f"{column}__icontains": word}) for column in columns))
        )
    return cards.order_by(*_ordering(filters))


def _ordering(filters: CardFilters) -> list:
    columns = _SORT_COLUMNS.get(filters.sort, (filters.sort,))
    # Cards without the attribute sort last either way, on SQLite and PostgreSQL alike.
    ordering = [
        F(column).desc(nulls_last=True) if filters.descending else F(column).asc(nulls_last=True)
        for column in columns
    ]
    return [*ordering, "card_set__number", "number"]


KNOWN_TRAITS_CACHE_KEY = "catalog:known-traits"


def known_traits() -> list[str]:
    """Every trait in the catalog, for the Trait filter's choices.

    Cached (the catalog changes rarely); saving or deleting a card clears the cache.
    """
    traits = cache.get(KNOWN_TRAITS_CACHE_KEY)
    if traits is None:
        found: set[str] = set()
        for card_traits in Card.objects.values_list("traits", flat=True):
            found.update(card_traits)
        traits = sorted(found, key=str.lower)
        cache.set(KNOWN_TRAITS_CACHE_KEY, traits, timeout=None)
    return traits


# How long a face drawn stays in the cache (seconds): as long as a browser keeps it.
FACE_CACHE_SECONDS = 24 * 60 * 60


def card_face(*, card: Card, size: str) -> str:
    """``card``'s face at ``size`` (see ``faces.card_face_svg``), drawn once per version of
    the card's data and kept a day: it is the same for every player, and the card page and
    every <img> of a face (with its ETag) ask for it again and again. An edited card (a set
    file loaded again, a staff edit) is a new version, drawn at once; a change to the drawing
    itself shows within the day, as it does in the browsers' own copies."""
    key = f"card-face:{size}:{_card_version(card)}"
    face = cache.get(key)
    if face is None:
        face = card_face_svg(card, size=size)
        cache.set(key, face, timeout=FACE_CACHE_SECONDS)
    return face


def _card_version(card: Card) -> str:
    """A digest of everything the face is drawn from: the card's fields and its set's."""
    data = [getattr(card, field.attname) for field in Card._meta.concrete_fields]
    data += [card.card_set.number, card.card_set.name]
    return hashlib.sha256(repr(data).encode()).hexdigest()[:32]
