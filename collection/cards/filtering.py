"""The Filters & Search form shared by the card browser, the Collection Manager and the
Deck Builder (rulebook, FILTERS & SEARCH OPTIONS)."""

from collection.cards import selectors
from collection.cards.filters import parse_numeric_filter
from collection.cards.models import NUMERIC_ATTRIBUTES, Archetype, CardType, Rarity
from game.engine.vocabulary import KEYWORDS


def toggle_groups(filters, sets) -> list[dict]:
    """The toggle filters' dropdowns, each option with whether it is on."""

    def group(label, name, options, chosen, *, columns=False):
        return {
            "label": label,
            "name": name,
            "columns": columns,
            "on": bool(chosen),
            "options": [(value, text, value in chosen) for value, text in options],
        }

    return [
        group("Card Type", "type", CardType.choices, filters.types),
        group(
            "Archetype",
            "archetype",
            [(key or "generic", label) for key, label in Archetype.choices],
            filters.archetypes,
        ),
        group("Rarity", "rarity", Rarity.choices, filters.rarities),
        group(
            "Set",
            "set",
            [(card_set.number, f"{card_set.number}. {card_set.name}") for card_set in sets],
            filters.sets,
        ),
        group(
            "Keyword",
            "keyword",
            [(name, name.capitalize()) for name in sorted(KEYWORDS)],
            filters.keywords,
            columns=True,
        ),
        group(
            "Trait",
            "trait",
            [(trait, trait) for trait in selectors.known_traits()],
            filters.traits,
            columns=True,
        ),
    ]


def add_numeric_from_form(request, filters, *, attributes=NUMERIC_ATTRIBUTES) -> None:
    """The "Add" control sends attribute, operator and value apart; join them as one filter.

    ``attributes`` are the numbers it may filter on: a collection adds owned, want, trade and
    need to the card's own."""
    value = request.GET.get("num_value", "").strip()
    if not value:
        return
    text = f"{request.GET.get('num_attr', '')} {request.GET.get('num_op', '')} {value}"
    numeric, error = parse_numeric_filter(text, attributes=attributes)
    if error:
        filters.errors.append(error)
    elif numeric not in filters.numeric:
        filters.numeric.append(numeric)


# Table View's columns: (sort key, heading, CSS class).
CARD_TABLE_COLUMNS = (
    ("number", "#", ""),
    ("title", "Title", ""),
    ("type", "Type", ""),
    ("archetype", "Archetype", ""),
    ("rarity", "Rarity", ""),
    ("cost", "Cost", "num"),
    ("attack", "Atk", "num"),
    ("defense", "Def", "num"),
    ("damage_bonus", "Dmg", "num"),
    ("health", "Health", "num"),
    ("level", "Level", "num"),
)


def table_columns(filters, columns) -> list[dict]:
    """Table View's headings, each a link that sorts by it (again to reverse)."""
    return [
        {
            "label": label,
            "css": css,
            "sorted": key == filters.sort,
            "query": filters.sort_toggle(key),
        }
        for key, label, css in columns
    ]
