"""The rulebook's FILTERS & SEARCH OPTIONS, parsed from a URL's query string.

No database access: ``parse_card_filters`` turns query parameters into ``CardFilters`` and a
list of messages for anything malformed; the malformed parts are left out, the rest applies.
``CardFilters.querystring()`` writes the canonical URL form back, so a search can be shared.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

from collection.cards.models import NUMERIC_ATTRIBUTES, Archetype, CardType, Rarity
from game.engine.vocabulary import KEYWORDS
from tcgsite.inputs import MAX_ID, whole_number_or_none

OPERATORS = {
    ">": "Greater Than",
    ">=": "Greater Than or Equal To",
    "=": "Equal To",
    "<=": "Less Than or Equal To",
    "<": "Less Than",
    "!=": "Not Equal To",
}

SEARCH_FIELDS = {
    "title": "Title",
    "traits": "Traits & keywords",
    "text": "Game text",
    "artist": "Artist",
    "lore": "Lore",
}

# The Collection Manager's own numbers (rulebook: Quantity, Want, Trade, Need).
COLLECTION_ATTRIBUTES = ("owned", "want", "trade", "need")

VIEWS = ("graphic", "table")
SORT_KEYS = ("number", "title", "type", "archetype", "rarity", *NUMERIC_ATTRIBUTES)
ARCHETYPE_KEYS = {"generic": Archetype.GENERIC, **{a.value: a for a in Archetype if a.value}}
MAX_SEARCH_WORDS = 8
MAX_NUMERIC_FILTERS = 12
MAX_FILTER_VALUE = 999

_NUMERIC = re.compile(
    r"^\s*(?P<attribute>[a-z_ ]+?)\s*(?P<operator>>=|<=|!=|>|<|=)\s*(?P<value>.*?)\s*$"
)


@dataclass(frozen=True)
class NumericFilter:
    attribute: str
    operator: str
    value: int

    def __str__(self) -> str:
        return f"{self.attribute}{self.operator}{self.value}"

    @property
    def label(self) -> str:
        return f"{self.attribute.replace('_', ' ')} {self.operator} {self.value}"


@dataclass
class CardFilters:
    types: list[str] = field(default_factory=list)
    archetypes: list[str] = field(default_factory=list)
    rarities: list[str] = field(default_factory=list)
    sets: list[int] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)
    numeric: list[NumericFilter] = field(default_factory=list)
    text: str = ""
    search_fields: list[str] = field(default_factory=lambda: list(SEARCH_FIELDS))
    view: str = "graphic"
    sort: str = "number"
    descending: bool = False
    errors: list[str] = field(default_factory=list)

    @property
    def search_words(self) -> list[str]:
        return self.text.split()[:MAX_SEARCH_WORDS]

    @property
    def is_filtered(self) -> bool:
        return bool(
            self.types
            or self.archetypes
            or self.rarities
            or self.sets
            or self.keywords
            or self.traits
            or self.numeric
            or self.search_words
        )

    def query_pairs(self, **overrides) -> list[tuple[str, str]]:
        """The canonical query parameters; ``overrides`` replace single values (view, sort)."""
        pairs: list[tuple[str, str]] = []
        pairs += [("type", value) for value in self.types]
        pairs += [("archetype", value) for value in self.archetypes]
        pairs += [("rarity", value) for value in self.rarities]
        pairs += [("set", str(value)) for value in self.sets]
        pairs += [("keyword", value) for value in self.keywords]
        pairs += [("trait", value) for value in self.traits]
        pairs += [("num", str(value)) for value in self.numeric]
        if self.text:
            pairs.append(("q", self.text))
        if set(self.search_fields) != set(SEARCH_FIELDS):
            pairs += [("in", value) for value in self.search_fields]
        view = overrides.get("view", self.view)
        if view != "graphic":
            pairs.append(("view", view))
        sort = overrides.get("sort", ("-" if self.descending else "") + self.sort)
        if sort != "number":
            pairs.append(("sort", sort))
        return pairs

    def querystring(self, **overrides) -> str:
        return urlencode(self.query_pairs(**overrides))

    def sort_toggle(self, key: str) -> str:
        """The query string that sorts by ``key``, reversing it if it is already the sort."""
        descending = key == self.sort and not self.descending
        return self.querystring(sort=("-" if descending else "") + key)


def parse_card_filters(
    params: Mapping[str, Sequence[str]],
    *,
    known_sets: Sequence[int] = (),
    collection: bool = False,
) -> CardFilters:
    """Read filters from query parameters (a QueryDict's ``lists()`` or a dict of lists).

    With ``collection`` the numeric filters and sorting also know a collection's numbers
    (owned, want, trade, need).
    """
    filters = CardFilters()
    attributes = NUMERIC_ATTRIBUTES + (COLLECTION_ATTRIBUTES if collection else ())

    def values(name: str) -> list[str]:
        seen: list[str] = []
        for raw in params.get(name, []):
            value = raw.strip()
            if value and value not in seen:
                seen.append(value)
        return seen

    filters.types = _choices(values("type"), CardType.values, "card type", filters.errors)
    filters.archetypes = _choices(
        values("archetype"), list(ARCHETYPE_KEYS), "archetype", filters.errors
    )
    filters.rarities = _choices(
        [value.upper() for value in values("rarity")], Rarity.values, "rarity", filters.errors
    )
    filters.keywords = _choices(
        [value.lower() for value in values("keyword")], list(KEYWORDS), "keyword", filters.errors
    )
    filters.traits = values("trait")
    for value in values("set"):
        number = whole_number_or_none(value, minimum=0, maximum=MAX_ID)
        if number is not None and (not known_sets or number in known_sets):
            filters.sets.append(number)
        else:
            filters.errors.append(f"There is no card set number {value!r}.")
    for value in values("num"):
        numeric, error = parse_numeric_filter(value, attributes=attributes)
        if error:
            filters.errors.append(error)
        elif len(filters.numeric) >= MAX_NUMERIC_FILTERS:
            filters.errors.append(f"At most {MAX_NUMERIC_FILTERS} numeric filters at once.")
            break
        else:
            filters.numeric.append(numeric)

    filters.text = " ".join(" ".join(params.get("q", [""])[:1]).split())[:120]
    chosen_fields = values("in")
    if chosen_fields:
        fields = _choices(chosen_fields, list(SEARCH_FIELDS), "search field", filters.errors)
        filters.search_fields = fields or list(SEARCH_FIELDS)

    view = (values("view") or ["graphic"])[0]
    if view in VIEWS:
        filters.view = view
    else:
        filters.errors.append(f"Unknown view {view!r}; showing Graphic View.")
    sort = (values("sort") or ["number"])[0]
    key = sort.removeprefix("-")
    if key in SORT_KEYS or (collection and key in COLLECTION_ATTRIBUTES):
        filters.sort, filters.descending = key, sort.startswith("-")
    else:
        filters.errors.append(f"Cards can't be sorted by {key!r}; sorted by number instead.")
    return filters


def parse_numeric_filter(
    text: str, *, attributes: Sequence[str] = NUMERIC_ATTRIBUTES
) -> tuple[NumericFilter | None, str]:
    """Parse ``cost>=3`` (spaces allowed); return the filter, or None and a message."""
    match = _NUMERIC.match(text)
    if not match:
        return None, (
            f"\u201c{text}\u201d is not a numeric filter: write an attribute, an operator "
            f"({' '.join(OPERATORS)}) and a whole number, for example \u201ccost >= 3\u201d."
        )
    attribute = match["attribute"].strip().replace(" ", "_")
    if attribute not in attributes:
        names = ", ".join(name.replace("_", " ") for name in attributes)
        return None, f"\u201c{text}\u201d: cards have no attribute {attribute!r} ({names})."
    written = match["value"]
    value = whole_number_or_none(written, minimum=-MAX_FILTER_VALUE, maximum=MAX_FILTER_VALUE)
    if value is None:
        return None, f"\u201c{text}\u201d: the value must be a whole number, not {written!r}."
    return NumericFilter(attribute, match["operator"], value), ""


def _choices(values: list[str], allowed: Sequence[str], what: str, errors: list[str]):
    chosen = []
    for value in values:
        if value in allowed:
            chosen.append(value)
        else:
            errors.append(f"Unknown {what} {value!r}.")
    return chosen
