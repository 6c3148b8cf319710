"""The card browser: Filters & Search, Graphic View and Table View, a page per card."""

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.cards.models import Card, CardType
from tests.factories import CardFactory, CardSetFactory, UserFactory

pytestmark = pytest.mark.django_db

BROWSER = reverse("cards:card_list")


def shown(response) -> list[Card]:
    return list(response.context["page"].object_list)


def all_matching(client, params) -> list[Card]:
    response = client.get(BROWSER, {**params, "view": "table"})
    assert response.status_code == 200
    assert response.context["filters"].errors == []
    assert response.context["page"].paginator.num_pages == 1
    return shown(response)


def test_toggle_filters_by_type_and_archetype(client, catalog):
    """ "If you left-click on Ability and on Avatar, you will only see ability and avatar cards."""
    cards = all_matching(client, {"type": ["ability", "avatar"]})
    assert cards
    assert {card.card_type for card in cards} == {CardType.ABILITY, CardType.AVATAR}
    assert len(cards) == Card.objects.filter(card_type__in=["ability", "avatar"]).count()

    sith = all_matching(client, {"archetype": "sith", "type": "unit"})
    assert sith and all(c.archetype == "sith" and c.card_type == "unit" for c in sith)
    generic = all_matching(client, {"archetype": "generic", "type": "tactic"})
    assert generic and all(c.archetype == "" for c in generic)


def test_rarity_set_keyword_and_trait_filters(client, catalog):
    rares = all_matching(client, {"rarity": "R", "type": "unit"})
    assert rares and all(card.rarity == "R" for card in rares)

    shielded = all_matching(client, {"keyword": "shield"})
    assert shielded and all("shield" in card.keyword_names for card in shielded)

    a_trait = Card.objects.filter(card_type="unit").exclude(traits=[]).first().traits[0]
    with_trait = all_matching(client, {"trait": a_trait})
    assert with_trait and all(
        a_trait.lower() in [t.lower() for t in card.traits] for card in with_trait
    )
    assert (
        len(all_matching(client, {"set": "1", "type": "quest"}))
        == Card.objects.filter(card_set__number=1, card_type="quest").count()
    )


def test_several_numeric_filters_at_once(client, catalog):
    cards = all_matching(client, {"num": ["cost>=2", "cost<=3", "attack!=2"]})
    assert cards
    assert all(
        2 <= card.cost <= 3 and card.attack is not None and card.attack != 2 for card in cards
    )
    expected = Card.objects.filter(cost__gte=2, cost__lte=3, attack__isnull=False).exclude(attack=2)
    assert {card.pk for card in cards} == set(expected.values_list("pk", flat=True))


@pytest.mark.parametrize("operator", [">", ">=", "=", "<=", "<", "!="])
def test_each_operator_matches_the_database(client, catalog, operator):
    import operator as op

    compare = {">": op.gt, ">=": op.ge, "=": op.eq, "<=": op.le, "<": op.lt, "!=": op.ne}
    cards = all_matching(client, {"num": f"level{operator}4"})
    expected = [c.pk for c in Card.objects.exclude(level=None) if compare[operator](c.level, 4)]
    assert sorted(card.pk for card in cards) == sorted(expected)


def test_numeric_filter_added_from_the_form_controls(client, catalog):
    response = client.get(BROWSER, {"num_attr": "health", "num_op": ">", "num_value": "5"})
    filters = response.context["filters"]
    assert [str(numeric) for numeric in filters.numeric] == ["health>5"]
    assert all(card.health > 5 for card in shown(response))


def test_malformed_filter_shows_a_message_not_an_error(client, catalog):
    response = client.get(BROWSER, {"num": "cost >= abc", "type": "unit"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "the value must be a whole number, not &#x27;abc&#x27;" in page
    assert all(card.card_type == "unit" for card in shown(response))


def test_malformed_filter_from_the_form_keeps_existing_filters(client, catalog):
    response = client.get(
        BROWSER, {"num": "cost<3", "num_attr": "cost", "num_op": ">=", "num_value": "abc"}
    )
    assert response.status_code == 200
    assert [str(n) for n in response.context["filters"].numeric] == ["cost<3"]
    assert "whole number" in response.content.decode()


def test_text_search_over_fields_with_toggles(client, empty_catalog):
    card_set = CardSetFactory(number=1)
    CardFactory(card_set=card_set, title="Dune Stalker", lore="Hunts under twin suns.")
    CardFactory(
        card_set=card_set, title="Moisture Farmer", game_text="Gain 1 power.", artist="Rena Dune"
    )
    CardFactory(card_set=card_set, title="Canyon Scout", traits=["Dune Sea Native"])

    everywhere = {card.title for card in all_matching(client, {"q": "dune"})}
    assert everywhere == {"Dune Stalker", "Moisture Farmer", "Canyon Scout"}
    assert {c.title for c in all_matching(client, {"q": "dune", "in": "title"})} == {"Dune Stalker"}
    assert {c.title for c in all_matching(client, {"q": "dune", "in": ["artist", "traits"]})} == {
        "Moisture Farmer",
        "Canyon Scout",
    }
    assert {c.title for c in all_matching(client, {"q": "twin suns", "in": "lore"})} == {
        "Dune Stalker"
    }


def test_table_view_sorts_by_column(client, catalog):
    by_cost = all_matching(client, {"type": "unit", "sort": "-cost"})
    costs = [card.cost for card in by_cost]
    assert costs == sorted(costs, reverse=True)
    by_title = all_matching(client, {"type": "unit", "sort": "title"})
    assert [c.title for c in by_title] == sorted(c.title for c in by_title)


def test_htmx_request_returns_results_and_pushes_canonical_url(client, catalog):
    response = client.get(
        BROWSER,
        {"type": "unit", "q": "", "num_attr": "cost", "num_op": "<=", "num_value": "2"},
        headers={"HX-Request": "true", "HX-Target": "results"},
    )
    assert response.status_code == 200
    assert response["HX-Push-Url"] == f"{BROWSER}?type=unit&num=cost%3C%3D2"
    assert "<form" not in response.content.decode()


def test_shared_search_url_reproduces_the_search(client, catalog):
    first = client.get(BROWSER, {"type": "unit", "num": "attack>=3", "view": "table"})
    shared = client.get(f"{BROWSER}?{first.context['query']}")
    assert shown(shared) == shown(first)


def test_graphic_view_uses_the_players_card_size(client, catalog):
    user = UserFactory()
    user.preferences.card_size_collection = "large"
    user.preferences.save()
    client.force_login(user)
    page = client.get(BROWSER).content.decode()
    assert "card-face--large" in page and "?size=large" in page


def test_card_page_and_face(client, catalog):
    card = Card.objects.filter(card_type="unit").exclude(rules__keywords=[]).first()

    page = client.get(card.get_absolute_url())
    face = client.get(reverse("cards:card_face", args=[1, card.number]), {"size": "small"})

    assert page.status_code == 200
    assert card.title in page.content.decode()
    assert card.collector_info in page.content.decode()
    assert face["Content-Type"] == "image/svg+xml"
    assert face.content.startswith(b"<svg")
    assert client.get("/cards/1/9999/").status_code == 404


@pytest.mark.parametrize("view", ["graphic", "table"])
def test_browser_query_count_does_not_grow_with_cards(client, view, empty_catalog):
    client.force_login(UserFactory())
    card_set = CardSetFactory(number=1)
    CardFactory.create_batch(5, card_set=card_set)

    def queries_for_one_page() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(BROWSER, {"view": view, "q": "card"}).status_code == 200
        return len(captured)

    few = queries_for_one_page()
    CardFactory.create_batch(150, card_set=card_set, traits=["Droid"])
    assert queries_for_one_page() == few


def test_trait_choices_follow_card_edits(client, empty_catalog):
    card = CardFactory(card_set=CardSetFactory(number=1), traits=["Moisture Farmer"])
    assert ("Moisture Farmer", "Moisture Farmer", False) in trait_options(client)

    card.traits = ["Spice Runner"]
    card.save()

    options = trait_options(client)
    assert ("Spice Runner", "Spice Runner", False) in options
    assert all(value != "Moisture Farmer" for value, _label, _checked in options)


def trait_options(client):
    groups = client.get(BROWSER).context["toggle_groups"]
    return next(group for group in groups if group["name"] == "trait")["options"]


def test_readme_shared_search_example_finds_cards(client, catalog):
    """README.md's example of a shared search, run against the real catalog, finds cards,
    and every one of them passes each of its filters."""
    readme = (Path(settings.BASE_DIR) / "README.md").read_text(encoding="utf-8")
    example = re.search(r"`(/cards/\?[^`]+)`", readme)
    assert example, "README.md has no shared-search example"

    response = client.get(example[1])

    assert response.status_code == 200
    assert response.context["filters"].errors == []
    cards = shown(response)
    assert cards, f"README's example {example[1]} finds no card"
    params = parse_qs(urlsplit(example[1]).query)
    for card in cards:
        assert card.card_type in params.get("type", [card.card_type])
        assert card.archetype in params.get("archetype", [card.archetype])


@pytest.mark.parametrize("view", ["graphic", "table"])
def test_the_rows_addresses_built_from_prefixes_are_the_routes_own(client, catalog, view):
    """The browser's cards build their addresses from a prefix instead of reversing them once
    per card (collection/cards/templatetags/cards.py): they are the addresses ``reverse``
    gives."""
    card = Card.objects.select_related("card_set").order_by("number").first()

    page = client.get(BROWSER, {"view": view, "q": card.title}).content.decode()

    number = [card.card_set.number, card.number]
    assert f'href="{reverse("cards:card_detail", args=number)}"' in page
    if view == "graphic":
        assert f'src="{reverse("cards:card_face", args=number)}?size=medium"' in page
