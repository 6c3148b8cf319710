"""FILTERS & SEARCH OPTIONS: parsing the URL form of the filters (no database)."""

import pytest

from collection.cards.filters import NumericFilter, parse_card_filters, parse_numeric_filter


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cost>=3", NumericFilter("cost", ">=", 3)),
        ("cost >= 3", NumericFilter("cost", ">=", 3)),
        ("attack>2", NumericFilter("attack", ">", 2)),
        ("defense=1", NumericFilter("defense", "=", 1)),
        ("damage bonus <= 2", NumericFilter("damage_bonus", "<=", 2)),
        ("health<10", NumericFilter("health", "<", 10)),
        ("level != 4", NumericFilter("level", "!=", 4)),
    ],
)
def test_numeric_filter_operators(text, expected):
    """The logical operators: > >= = <= < !=."""
    assert parse_numeric_filter(text) == (expected, "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cost >= abc", "the value must be a whole number, not 'abc'"),
        ("cost >=", "the value must be a whole number"),
        ("speed > 2", "cards have no attribute 'speed'"),
        ("cost ~ 2", "is not a numeric filter"),
        ("", "is not a numeric filter"),
    ],
)
def test_malformed_numeric_filter_gets_a_clear_message(text, message):
    numeric, error = parse_numeric_filter(text)
    assert numeric is None
    assert message in error


def test_filters_round_trip_through_the_query_string():
    params = {
        "type": ["unit", "item"],
        "archetype": ["generic", "sith"],
        "rarity": ["r"],
        "set": ["1"],
        "keyword": ["Shield"],
        "trait": ["Wookiee"],
        "num": ["cost>=2", "attack!=1"],
        "q": ["  blaster   bolt "],
        "in": ["title", "text"],
        "view": ["table"],
        "sort": ["-cost"],
    }

    filters = parse_card_filters(params, known_sets=[1])

    assert filters.errors == []
    assert filters.types == ["unit", "item"]
    assert filters.rarities == ["R"]
    assert filters.keywords == ["shield"]
    assert filters.text == "blaster bolt"
    assert (filters.sort, filters.descending) == ("cost", True)
    again = parse_card_filters(_as_lists(filters.querystring()), known_sets=[1])
    assert again.query_pairs() == filters.query_pairs()


def test_unknown_values_are_reported_and_the_rest_applies():
    filters = parse_card_filters(
        {
            "type": ["unit", "spaceship"],
            "num": ["cost >= abc", "cost<3"],
            "set": ["9"],
            "view": ["carousel"],
            "sort": ["price"],
        },
        known_sets=[1],
    )

    assert filters.types == ["unit"]
    assert filters.numeric == [NumericFilter("cost", "<", 3)]
    assert filters.view == "graphic"
    assert filters.sort == "number"
    assert len(filters.errors) == 5
    assert any("whole number" in error for error in filters.errors)


def test_sort_toggle_reverses_the_current_column():
    filters = parse_card_filters({"sort": ["cost"]})
    assert "sort=-cost" in filters.sort_toggle("cost")
    assert "sort=title" in filters.sort_toggle("title")


def _as_lists(querystring):
    from urllib.parse import parse_qs

    return parse_qs(querystring)
