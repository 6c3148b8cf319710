"""Opening starter decks and booster packs in the Collection Manager (rulebook, COLLECTION
MANAGER: "open starter decks and booster packs ... or, if you wish, multiple packs")."""

import re
from collections import Counter

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.cards.models import Card, Rarity
from collection.models import (
    CardOwnership,
    ItemEntry,
    LedgerOperation,
    LedgerReason,
    Opening,
    OwnedProduct,
)
from collection.services.opening import MAX_OPEN_AT_ONCE, opening_check, products_open
from collection.services.store import product_grant
from tests.factories import BoosterPackFactory, UserFactory

pytestmark = pytest.mark.django_db

OPEN = reverse("collection:products_open")
REVEAL = reverse("collection:opening_reveal")


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def give(player, product, quantity=1) -> list[int]:
    return [item.pk for item in product_grant(owner=player, product=product, quantity=quantity)]


def open_products(client, ids):
    return client.post(OPEN, {"open": ids}, follow=True)


def owned_counts(player) -> dict[int, int]:
    return dict(
        CardOwnership.objects.filter(owner=player, quantity__gt=0).values_list("card", "quantity")
    )


def test_opening_a_starter_deck_adds_exactly_its_58_cards(client, player, starter):
    (item_id,) = give(player, starter)

    response = open_products(client, [item_id])

    contents = dict(starter.starter_cards.values_list("card", "quantity"))
    assert sum(contents.values()) == 58
    assert owned_counts(player) == contents
    card_rows = ItemEntry.objects.filter(owner=player, card__isnull=False)
    assert dict(card_rows.values_list("card", "delta")) == contents
    assert set(card_rows.values_list("reason", flat=True)) == {LedgerReason.OPENING}
    spent = ItemEntry.objects.get(owned_product_id=item_id, reason=LedgerReason.OPENING)
    assert spent.delta == -1
    assert OwnedProduct.objects.get(pk=item_id).opened is not None
    assert response.redirect_chain[-1][0] == f"{REVEAL}?id={item_id}"
    assert "58 cards" in response.content.decode()


def test_a_booster_gives_15_cards_of_its_slot_rarities_with_its_seed_recorded(
    client, player, booster
):
    (item_id,) = give(player, booster)

    open_products(client, [item_id])

    opening = Opening.objects.get(owned_product_id=item_id)
    cards = Card.objects.in_bulk(opening.card_ids)
    # A random seed: about one booster in six has a foil, of any of its rarities, in place of
    # its last common (README, "Booster packs"), revealed last.
    foils = len(opening.foil_card_ids)
    plain = opening.card_ids[: len(opening.card_ids) - foils]
    rarities = Counter(cards[card_id].rarity for card_id in plain)
    assert len(opening.card_ids) == 15 and len(set(plain)) == 15 - foils
    assert foils in (0, 1) and opening.card_ids[15 - foils :] == opening.foil_card_ids
    assert rarities == {Rarity.RARE: 1, Rarity.UNCOMMON: 3, Rarity.COMMON: 11 - foils}
    assert all(cards[card_id].rarity in rarities for card_id in opening.foil_card_ids)
    assert opening.seed is not None
    assert opening_check(opening=opening).genuine
    assert owned_counts(player) == dict(Counter(opening.card_ids))


def test_opening_several_products_at_once_is_one_request(client, player, booster, starter):
    ids = give(player, booster, 2) + give(player, starter)

    response = open_products(client, ids)

    assert not OwnedProduct.objects.filter(pk__in=ids, opened__isnull=True).exists()
    assert sum(owned_counts(player).values()) == 15 + 15 + 58
    reveals = response.context["reveals"]
    assert [reveal["owned_product"].pk for reveal in reveals] == sorted(ids)
    assert "Opened 3 products" in response.content.decode()


def test_opening_the_same_products_twice_adds_their_cards_once_and_reveals_the_same(
    client, player, booster
):
    """A replayed request (a double click, a refresh) shows the same reveal and adds nothing."""
    (item_id,) = give(player, booster)
    first = open_products(client, [item_id])
    owned_after_first = owned_counts(player)
    ledger_rows = ItemEntry.objects.filter(owner=player).count()

    second = open_products(client, [item_id])

    assert owned_counts(player) == owned_after_first
    assert ItemEntry.objects.filter(owner=player).count() == ledger_rows
    assert Opening.objects.filter(owned_product_id=item_id).count() == 1

    def revealed(response):
        return [entry["card"].pk for entry in response.context["reveals"][0]["cards"]]

    assert revealed(second) == revealed(first)
    assert messages_of(second) == ["Already opened: here is what they revealed."]


def test_new_cards_are_marked_on_the_reveal(client, player, booster, starter):
    """Cards the player owned before the opening are not New; the others are."""
    (starter_id,) = give(player, starter)
    open_products(client, [starter_id])
    owned_before = set(owned_counts(player))
    (booster_id,) = give(player, booster)

    response = open_products(client, [booster_id])

    reveal = response.context["reveals"][0]
    new = {entry["card"].pk for entry in reveal["cards"] if entry["new"]}
    shown = {entry["card"].pk for entry in reveal["cards"]}
    assert new == shown - owned_before
    assert reveal["new_count"] == len(new)
    assert response.content.decode().count('<span class="new-badge">New!</span>') == len(new)


def test_starter_deck_reveal_shows_each_card_once_with_its_copies(client, player, starter):
    (item_id,) = give(player, starter)

    response = open_products(client, [item_id])

    entries = response.context["reveals"][0]["cards"]
    contents = dict(starter.starter_cards.values_list("card", "quantity"))
    assert {entry["card"].pk: entry["copies"] for entry in entries} == contents
    assert all(entry["new"] for entry in entries)
    assert "×4" in response.content.decode() or max(contents.values()) < 4


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ([], "Choose at least one starter deck or booster pack to open."),
        (["abc"], "Some of those products are not in your collection."),
        (["999999"], "Some of those products are not in your collection."),
        (["99999999999999999999999"], "Some of those products are not in your collection."),
    ],
)
def test_opening_nothing_or_unknown_ids_gets_a_message(client, player, catalog, ids, message):
    response = client.post(OPEN, {"open": ids}, follow=True)

    assert response.status_code == 200
    assert messages_of(response) == [message]
    assert response.redirect_chain[-1][0] == reverse("collection:binder")


def test_opening_someone_elses_product_is_refused(client, player, booster):
    (theirs,) = give(UserFactory(), booster)
    (mine,) = give(player, booster)

    response = open_products(client, [mine, theirs])

    assert messages_of(response) == ["Some of those products are not in your collection."]
    assert not OwnedProduct.objects.filter(pk__in=[mine, theirs], opened__isnull=False).exists()
    assert not CardOwnership.objects.exists()


def test_an_event_pass_can_not_be_opened(client, player, event_pass):
    (item_id,) = give(player, event_pass)

    response = open_products(client, [item_id])

    assert messages_of(response) == ["Event Pass can't be opened: it is a ticket, not a pack."]
    assert OwnedProduct.objects.get(pk=item_id).opened is None


def test_at_most_a_fixed_number_of_products_open_at_once(client, player, booster):
    ids = give(player, booster, MAX_OPEN_AT_ONCE + 1)

    response = open_products(client, ids)

    assert messages_of(response) == [f"Open at most {MAX_OPEN_AT_ONCE} products at once."]
    assert not Opening.objects.exists()


def test_the_reveal_page_shows_only_the_players_own_openings(client, player, booster):
    other = UserFactory()
    (theirs,) = give(other, booster)
    client.force_login(other)
    open_products(client, [theirs])
    client.force_login(player)

    response = client.get(REVEAL, {"id": theirs}, follow=True)

    assert messages_of(response) == ["There is no opened product of yours to show there."]
    assert client.get(REVEAL, {"id": "abc"}).status_code == 302


def test_opening_needs_post_and_a_logged_in_player(client, booster):
    assert client.post(OPEN, {"open": [1]}).status_code == 302
    client.force_login(UserFactory())
    assert client.get(OPEN).status_code == 405


def test_opening_costs_queries_per_product_never_per_card(booster):
    """Cards, ledger rows and opened times are written in bulk; each product is one ledger
    operation of its own (referenced, so a replay writes nothing)."""
    three_cards = BoosterPackFactory(
        card_set=booster.card_set, booster_slots=[{"rarity": Rarity.COMMON, "count": 3}]
    )
    small, large, ten = UserFactory(), UserFactory(), UserFactory()
    (small_id,) = give(small, three_cards)
    (large_id,) = give(large, booster)
    several = give(ten, booster, 10)
    with CaptureQueriesContext(connection) as opening_three_cards:
        products_open(owner=small, owned_product_ids=[small_id])
    with CaptureQueriesContext(connection) as opening_fifteen_cards:
        products_open(owner=large, owned_product_ids=[large_id])
    with CaptureQueriesContext(connection) as opening_ten:
        products_open(owner=ten, owned_product_ids=several)

    assert len(opening_fifteen_cards) == len(opening_three_cards)
    assert len(opening_ten) <= 10 * len(opening_fifteen_cards)
    references = LedgerOperation.objects.filter(reference__startswith="opening:")
    assert set(references.values_list("reference", flat=True)) == {
        f"opening:{item_id}" for item_id in [small_id, large_id, *several]
    }


BINDER = reverse("collection:binder")


def forms_posting_to_open(html: str) -> list[list[int]]:
    """The ids each form of the page would open, in page order."""
    forms = re.findall(rf'<form method="post" action="{OPEN}".*?</form>', html, re.DOTALL)
    return [
        [int(value) for value in re.findall(r'name="open" value="(\d+)"', form)] for form in forms
    ]


def test_the_binder_offers_open_per_product_and_open_all(
    client, player, booster, starter, event_pass
):
    """Rulebook, COLLECTION MANAGER: open a starter deck or booster pack, or several at once;
    Open opens the oldest of a product, Open All every product that opens, tickets aside."""
    boosters = give(player, booster, 2)
    (deck_box,) = give(player, starter)
    give(player, event_pass)

    html = client.get(BINDER).content.decode()

    open_all, *open_one = forms_posting_to_open(html)
    assert sorted(open_all) == sorted([*boosters, deck_box])
    assert sorted(open_one) == sorted([[boosters[0]], [deck_box]])
    unopened = html[html.index('<section class="unopened"') : html.index("</section>")]
    assert ">Open All</button>" in unopened
    assert 'type="checkbox"' not in unopened
    assert "onclick" not in unopened


def test_open_all_opens_as_many_as_can_be_opened_at_once_and_says_so(client, player, booster):
    ids = give(player, booster, MAX_OPEN_AT_ONCE + 2)

    html = client.get(BINDER).content.decode()

    open_all = forms_posting_to_open(html)[0]
    assert open_all == ids[:MAX_OPEN_AT_ONCE]
    assert f"Open {MAX_OPEN_AT_ONCE} of {MAX_OPEN_AT_ONCE + 2}" in html


def test_open_all_sent_twice_opens_each_product_once(client, player, booster, starter):
    """A double click on Open All: the second request finds everything opened."""
    ids = give(player, booster, 3) + give(player, starter)
    open_all = forms_posting_to_open(client.get(BINDER).content.decode())[0]

    open_products(client, open_all)
    second = open_products(client, open_all)

    assert sorted(open_all) == sorted(ids)
    assert Opening.objects.filter(owned_product_id__in=ids).count() == 4
    assert LedgerOperation.objects.filter(reason=LedgerReason.OPENING).count() == 4
    assert messages_of(second) == ["Already opened: here is what they revealed."]


def test_the_reveal_turns_the_rare_last_marks_it_and_offers_skip(client, player, booster):
    (item_id,) = give(player, booster)

    response = open_products(client, [item_id])

    entries = response.context["reveals"][0]["cards"]
    # A foil, in about one booster in six, is revealed after the rare (README, "Booster packs").
    plain = [entry for entry in entries if not entry["foil"]]
    foils = len(entries) - len(plain)
    assert entries[: len(plain)] == plain and foils in (0, 1)
    assert [entry["rare"] for entry in plain] == [False] * (14 - foils) + [True]
    assert plain[-1]["card"].rarity == Rarity.RARE
    html = response.content.decode()
    rares = sum(entry["rare"] for entry in entries)
    assert html.count('<span class="rare-badge">Rare</span>') == rares
    assert re.search(r"<button[^>]*data-reveal-skip hidden>Skip</button>", html)
    # Production mode serves static files under hashed names: js/collection.<hash>.js.
    assert re.search(r"js/collection(\.[0-9a-f]+)?\.js", html)
