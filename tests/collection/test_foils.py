"""Foil cards (README, "Booster packs" and "Foils"): about one booster in six holds a foil in
place of a common, drawn from the booster's seed like its other cards; a foil is owned as a
foil copy of its card, written only by the ledger, which never lets foils outnumber copies."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from collection.boosters import FOIL_ONE_IN, booster_draw
from collection.cards.models import Card, Rarity
from collection.models import CardOwnership, ItemEntry, LedgerReason, Opening
from collection.services.ledger import CardChange, LedgerError, ledger_operation
from collection.services.opening import booster_pool, opening_check, products_open
from collection.services.store import product_grant
from tests.factories import UserFactory

SLOTS = [{"rarity": "R", "count": 1}, {"rarity": "U", "count": 3}, {"rarity": "C", "count": 11}]
POOL = {"R": list(range(1, 11)), "U": list(range(11, 31)), "C": list(range(31, 81))}


def first_foil_seed(*, foil: bool) -> int:
    return next(
        seed
        for seed in range(1000)
        if bool(booster_draw(POOL, SLOTS, seed, foil_one_in=FOIL_ONE_IN).foil_card_ids) is foil
    )


def ownership(owner, card) -> CardOwnership | None:
    return CardOwnership.objects.filter(owner=owner, card=card).first()


def give(owner, card, *, plain=0, foil=0) -> None:
    with ledger_operation(owners=[owner], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(owner=owner, card_id=card.pk, delta=plain),
                CardChange(owner=owner, card_id=card.pk, delta=foil, foil=True),
            ]
        )


# --- Drawing ---------------------------------------------------------------------------------


def test_a_foil_booster_trades_a_common_for_a_foil_revealed_last():
    seed = first_foil_seed(foil=True)
    plain = booster_draw(POOL, SLOTS, seed)

    draw = booster_draw(POOL, SLOTS, seed, foil_one_in=FOIL_ONE_IN)

    assert len(draw.card_ids) == 15
    assert draw.foil_card_ids == [draw.card_ids[-1]]
    # The rare and the uncommons stay; one common less: the last one drawn.
    assert draw.card_ids[:-1] == plain.card_ids[:-1]
    assert sum(card_id in POOL["C"] for card_id in draw.card_ids[:-1]) == 10


def test_the_same_seed_gives_the_same_foil():
    seed = first_foil_seed(foil=True)

    draws = [booster_draw(POOL, SLOTS, seed, foil_one_in=FOIL_ONE_IN) for _ in range(3)]

    assert draws[0] == draws[1] == draws[2]


def test_a_booster_without_a_foil_draws_exactly_as_before_foils():
    seed = first_foil_seed(foil=False)

    assert booster_draw(POOL, SLOTS, seed, foil_one_in=FOIL_ONE_IN) == booster_draw(
        POOL, SLOTS, seed
    )


def test_about_one_booster_in_six_holds_a_foil():
    boosters = 6000
    foils = sum(
        bool(booster_draw(POOL, SLOTS, seed, foil_one_in=FOIL_ONE_IN).foil_card_ids)
        for seed in range(boosters)
    )

    # 1000 expected; the standard deviation is about 29.
    assert 880 < foils < 1120


def test_a_booster_without_commons_holds_no_foil():
    slots = [{"rarity": "U", "count": 3}]

    assert not any(
        booster_draw(POOL, slots, seed, foil_one_in=FOIL_ONE_IN).foil_card_ids for seed in range(60)
    )


# --- Opening -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_opened_foil_joins_the_collection_as_a_foil_copy_and_its_opening_checks(
    player, booster, monkeypatch
):
    """The seed is the opening's own (secrets.randbits); it is fixed here to one that draws a
    foil, so the test knows what to expect."""
    pool = booster_pool(booster.card_set_id)
    seed = next(
        seed
        for seed in range(1000)
        if booster_draw(pool, booster.booster_slots, seed, foil_one_in=FOIL_ONE_IN).foil_card_ids
    )
    monkeypatch.setattr("collection.services.opening.secrets.randbits", lambda _bits: seed)
    (item,) = product_grant(owner=player, product=booster, quantity=1)

    (reveal,) = products_open(owner=player, owned_product_ids=[item.pk])

    opening = Opening.objects.get(owned_product=item)
    (foil_id,) = opening.foil_card_ids
    assert opening.card_ids[-1] == foil_id
    assert reveal.foils == 1 and reveal.cards[-1].pk == foil_id
    assert ownership(player, foil_id).foil == 1
    assert ItemEntry.objects.get(owner=player, card_id=foil_id, foil=True).delta == 1
    assert sum(row.quantity for row in CardOwnership.objects.filter(owner=player)) == 15
    assert opening.drawn_from.foil_one_in == FOIL_ONE_IN
    assert opening_check(opening=opening).genuine is True


@pytest.mark.django_db
def test_the_reveal_and_my_openings_mark_the_foil(client, player, booster, monkeypatch):
    pool = booster_pool(booster.card_set_id)
    seed = next(
        seed
        for seed in range(1000)
        if booster_draw(pool, booster.booster_slots, seed, foil_one_in=FOIL_ONE_IN).foil_card_ids
    )
    monkeypatch.setattr("collection.services.opening.secrets.randbits", lambda _bits: seed)
    (item,) = product_grant(owner=player, product=booster, quantity=1)

    opened = client.post(reverse("collection:products_open"), {"open": [item.pk]}, follow=True)
    openings = client.get(reverse("collection:opening_list"))

    reveal = opened.content.decode()
    assert reveal.count('class="foil-badge"') == 2  # the lede's and the foil's
    assert "foil--shimmer" in reveal
    assert openings.content.decode().count('class="foil-badge"') == 1


@pytest.mark.django_db
def test_an_opening_whose_foil_was_altered_fails_its_check(player, booster, monkeypatch):
    monkeypatch.setattr("collection.services.opening.secrets.randbits", lambda _bits: 7)
    (item,) = product_grant(owner=player, product=booster, quantity=1)
    products_open(owner=player, owned_product_ids=[item.pk])
    opening = Opening.objects.get(owned_product=item)
    rare = Card.objects.filter(card_set=booster.card_set, rarity=Rarity.RARE).first()

    opening.foil_card_ids = [rare.pk]
    opening.card_ids = [*opening.card_ids[:-1], rare.pk]

    assert opening_check(opening=opening).genuine is False


# --- The ledger ------------------------------------------------------------------------------


@pytest.fixture
def card(catalog) -> Card:
    return Card.objects.order_by("pk").first()


@pytest.mark.django_db
def test_foil_and_plain_copies_are_written_with_a_row_each(card):
    player = UserFactory()

    give(player, card, plain=2, foil=1)

    row = ownership(player, card)
    assert (row.quantity, row.foil, row.plain) == (3, 1, 2)
    entries = ItemEntry.objects.filter(owner=player, card=card)
    assert sorted((entry.foil, entry.delta) for entry in entries) == [(False, 2), (True, 1)]


@pytest.mark.django_db
def test_the_ledger_refuses_to_take_more_foils_than_are_owned(card):
    player = UserFactory()
    give(player, card, plain=3, foil=1)

    with pytest.raises(LedgerError, match="does not have 2 foil × "):
        give(player, card, foil=-2)

    row = ownership(player, card)
    assert (row.quantity, row.foil) == (4, 1)


@pytest.mark.django_db
def test_taking_plain_copies_never_takes_a_foil(card):
    """Were the plain removal allowed, the foil would outnumber the one copy left."""
    player = UserFactory()
    give(player, card, plain=1, foil=1)

    with pytest.raises(LedgerError, match="does not have 2 plain × "):
        give(player, card, plain=-2)

    assert (ownership(player, card).quantity, ownership(player, card).foil) == (2, 1)


@pytest.mark.django_db
def test_a_foil_moves_as_a_foil_and_the_counts_are_conserved(card):
    giver, taker = UserFactory(), UserFactory()
    give(giver, card, plain=2, foil=2)

    with ledger_operation(owners=[giver, taker], reason=LedgerReason.TRADE) as ledger:
        ledger.cards_move(sender=giver, receiver=taker, counts={card.pk: 1}, foil=True)

    assert (ownership(giver, card).quantity, ownership(giver, card).foil) == (3, 1)
    assert (ownership(taker, card).quantity, ownership(taker, card).foil) == (1, 1)


@pytest.mark.django_db
def test_the_database_refuses_foils_above_copies(card):
    player = UserFactory()
    give(player, card, plain=1)

    with pytest.raises(IntegrityError), transaction.atomic():
        CardOwnership.objects.filter(owner=player, card=card).update(foil=2)
