"""Every booster opening records what it was drawn from (the booster's slots and the set's card
pool, as a recipe named by its SHA-256), so that the staff audit and the player's own Check
draw it again exactly, whatever staff change later; tampering with the cards is caught."""

import hashlib
import importlib
import json
import random
from html import unescape

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.boosters import booster_draw, recipe_digest
from collection.cards.models import Card, Rarity
from collection.models import BoosterRecipe, Opening
from collection.services.opening import booster_pool, opening_check, products_open
from collection.services.store import product_grant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MY_OPENINGS = reverse("collection:opening_list")


def open_boosters(player, booster, quantity=1) -> list[Opening]:
    items = product_grant(owner=player, product=booster, quantity=quantity)
    products_open(owner=player, owned_product_ids=[item.pk for item in items])
    return list(Opening.objects.filter(owned_product__in=items).select_related("drawn_from"))


def staff_edits_the_booster_and_its_cards(booster) -> None:
    """What staff may legitimately do in the admin after packs were opened: new slots, a
    rare that becomes uncommon, a renamed card."""
    booster.booster_slots = [{"rarity": "U", "count": 4}, {"rarity": "C", "count": 11}]
    booster.save(update_fields=["booster_slots"])
    rare = Card.objects.filter(card_set=booster.card_set, rarity=Rarity.RARE).first()
    rare.rarity = Rarity.UNCOMMON
    rare.title = f"{rare.title} (revised)"
    rare.save()


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_an_opening_records_the_slots_and_pool_it_was_drawn_from(player, booster):
    (opening,) = open_boosters(player, booster)

    recipe = opening.drawn_from
    assert recipe.slots == booster.booster_slots
    assert recipe.pool == {rarity: ids for rarity, ids in booster_pool(booster.card_set_id).items()}
    assert opening_check(opening=opening).genuine is True


def test_packs_drawn_from_the_same_slots_and_pool_share_one_recipe(player, booster):
    first, second = open_boosters(player, booster, quantity=2)
    assert first.drawn_from_id == second.drawn_from_id
    assert BoosterRecipe.objects.count() == 1


def test_the_audit_still_says_genuine_after_staff_edit_slots_cards_and_rarities(
    player, booster, staff_client
):
    openings = open_boosters(player, booster, quantity=3)

    staff_edits_the_booster_and_its_cards(booster)
    (later,) = open_boosters(player, booster)

    assert all(opening_check(opening=opening).genuine for opening in [*openings, later])
    assert later.drawn_from_id != openings[0].drawn_from_id
    page = staff_client.get(reverse("admin:collection_opening_changelist"))
    assert page.status_code == 200
    assert page.content.decode().count('alt="True"') == 4
    assert 'alt="False"' not in page.content.decode()


def test_the_admin_audit_survives_slots_todays_cards_cannot_fill(player, booster, staff_client):
    (opening,) = open_boosters(player, booster)
    booster.booster_slots = [{"rarity": "R", "count": 500}]
    booster.save(update_fields=["booster_slots"])

    listing = staff_client.get(reverse("admin:collection_opening_changelist"))
    detail = staff_client.get(reverse("admin:collection_opening_change", args=[opening.pk]))

    assert listing.status_code == detail.status_code == 200
    assert 'alt="True"' in listing.content.decode()


def test_tampering_with_an_openings_cards_is_flagged(player, booster, staff_client):
    (opening,) = open_boosters(player, booster)
    other_common = next(
        card_id
        for card_id in booster_pool(booster.card_set_id)[Rarity.COMMON]
        if card_id not in opening.card_ids
    )
    Opening.objects.filter(pk=opening.pk).update(card_ids=[*opening.card_ids[:-1], other_common])
    opening.refresh_from_db()

    check = opening_check(opening=opening)

    assert check.genuine is False
    assert check.explanation == "The seed draws other cards than the ones recorded."
    page = staff_client.get(reverse("admin:collection_opening_changelist"))
    assert 'alt="False"' in page.content.decode()


def test_tampering_with_a_recorded_recipe_is_flagged(player, booster):
    (opening,) = open_boosters(player, booster)
    recipe = opening.drawn_from
    pool = {**recipe.pool, "R": list(reversed(recipe.pool["R"]))}
    BoosterRecipe.objects.filter(pk=recipe.pk).update(pool=pool)
    opening.refresh_from_db()

    check = opening_check(opening=opening)

    assert check.genuine is False
    assert "no longer match their digest" in check.explanation


@pytest.mark.parametrize(
    ("slots", "pool"),
    [
        ([{"rarity": "R"}], {"R": [1]}),
        ([{"rarity": "R", "count": 2}], {"R": [1]}),
        ([{"rarity": "R", "count": 1}], {"R": "everything"}),
        ("slots", []),
    ],
)
def test_a_malformed_recipe_is_flagged_not_a_crash(player, booster, slots, pool):
    (opening,) = open_boosters(player, booster)
    BoosterRecipe.objects.filter(pk=opening.drawn_from_id).update(
        slots=slots, pool=pool, digest=recipe_digest(slots, pool)
    )
    opening.refresh_from_db()

    assert opening_check(opening=opening).genuine is False


def test_a_starter_deck_has_nothing_to_check(player, starter):
    (item,) = product_grant(owner=player, product=starter, quantity=1)
    products_open(owner=player, owned_product_ids=[item.pk])
    check = opening_check(opening=Opening.objects.get(owned_product=item))
    assert check.genuine is None and "fixed cards" in check.explanation


# Openings made before recipes were kept -----------------------------------------------------


def test_earlier_openings_get_todays_recipe_only_when_it_draws_them_again(player, booster):
    migration = importlib.import_module(
        "collection.migrations.0002_openings_record_their_booster_recipe"
    )
    drawn_today, drawn_otherwise = open_boosters(player, booster, quantity=2)
    # As they were recorded then: without recipes, and drawn before there were foils.
    pool = booster_pool(booster.card_set_id)
    for opening in (drawn_today, drawn_otherwise):
        opening.card_ids = booster_draw(pool, booster.booster_slots, opening.seed).card_ids
        opening.foil_card_ids = []
        opening.drawn_from = None
        opening.save()
    BoosterRecipe.objects.all().delete()
    other_common = next(
        card_id for card_id in pool[Rarity.COMMON] if card_id not in drawn_otherwise.card_ids
    )
    Opening.objects.filter(pk=drawn_otherwise.pk).update(
        card_ids=[*drawn_otherwise.card_ids[:-1], other_common]
    )

    migration.record_what_earlier_openings_were_drawn_from(apps, None)

    drawn_today.refresh_from_db()
    drawn_otherwise.refresh_from_db()
    assert opening_check(opening=drawn_today).genuine is True
    assert drawn_otherwise.drawn_from is None
    assert "before openings recorded" in opening_check(opening=drawn_otherwise).explanation


# My openings, the player's own page -------------------------------------------------------


def test_my_openings_lists_the_players_openings_with_seed_and_cards(client, player, booster):
    (opening,) = open_boosters(player, booster)
    other = UserFactory()
    (theirs,) = open_boosters(other, booster)

    with CaptureQueriesContext(connection) as queries:
        page = client.get(MY_OPENINGS)

    html = page.content.decode()
    assert page.status_code == 200
    assert str(opening.seed) in html and str(theirs.seed) not in html
    # A booster's cards are random: a title may hold an apostrophe, which the page escapes.
    assert Card.objects.get(pk=opening.card_ids[0]).title in unescape(html)
    assert reverse("collection:opening_check", args=[opening.pk]) in html
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("INSERT")]
    assert writes == []


def test_the_collection_links_to_my_openings(client, player):
    assert MY_OPENINGS in client.get(reverse("collection:binder")).content.decode()


def test_check_says_whether_the_pack_draws_again(client, player, booster):
    good, bad = open_boosters(player, booster, quantity=2)
    Opening.objects.filter(pk=bad.pk).update(card_ids=list(reversed(bad.card_ids)))

    matches = client.get(
        reverse("collection:opening_check", args=[good.pk]), headers={"HX-Request": "true"}
    )
    differs = client.get(reverse("collection:opening_check", args=[bad.pk]))

    assert "\u2713 Matches." in matches.content.decode()
    assert "<html" not in matches.content.decode()
    assert "\u2717 Does not match." in differs.content.decode()
    assert "Back to my openings" in differs.content.decode()  # a whole page without htmx


def test_only_the_owner_sees_an_opening(client, player, booster):
    (theirs,) = open_boosters(UserFactory(), booster)
    for name in ("collection:opening_check", "collection:opening_record"):
        assert client.get(reverse(name, args=[theirs.pk])).status_code == 404, name
    client.logout()
    response = client.get(reverse("collection:opening_check", args=[theirs.pk]))
    assert response.status_code == 302 and "login" in response.url


def test_the_record_lets_a_player_check_the_pack_without_the_site(client, player, booster):
    """README, "Checking your openings": the digest is the SHA-256 of the recipe's JSON with
    sorted keys and no spaces; Python's random.Random(seed) draws each slot in order with
    sample() from the pool of its rarity."""
    (opening,) = open_boosters(player, booster)

    record = json.loads(client.get(reverse("collection:opening_record", args=[opening.pk])).content)

    recipe = record["recipe"]
    content = {"pool": recipe["pool"], "slots": recipe["slots"]}
    if recipe["foil_one_in"] is not None:
        content["foil_one_in"] = recipe["foil_one_in"]
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(canonical.encode()).hexdigest() == recipe["digest"]
    rng = random.Random(record["seed"])  # noqa: S311 - the site's own recorded draw
    drawn, commons = [], []
    for slot in recipe["slots"]:
        if slot["rarity"] == "C":
            commons += range(len(drawn), len(drawn) + slot["count"])
        drawn += rng.sample(recipe["pool"][slot["rarity"]], slot["count"])
    foils = []
    if recipe["foil_one_in"] and rng.randrange(recipe["foil_one_in"]) == 0 and commons:
        rarities = dict.fromkeys(slot["rarity"] for slot in recipe["slots"])
        foils = [rng.choice([c for r in rarities for c in recipe["pool"].get(r, [])])]
        del drawn[commons[-1]]
        drawn += foils
    assert drawn == record["cards"] == opening.card_ids
    assert foils == record["foils"] == opening.foil_card_ids
    first = Card.objects.get(pk=drawn[0])
    assert record["titles"][str(drawn[0])] == f"{first.collector_info} {first.title}"
