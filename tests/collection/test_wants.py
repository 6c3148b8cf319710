"""What a player offers for trade (rulebook, COLLECTION MANAGER: "Trade (how many extra copies
you have)", "other players will see *only* the cards that you want to trade"): Want follows
the player's saved decks until they set it, so a card a deck uses (a newcomer's only avatar)
is not offered by default (issue 33, point 8)."""

from collections import Counter

import pytest

from collection.decks.services.decks import deck_card_add, deck_save
from collection.models import CardOwnership, Product, ProductKind
from collection.selectors import collection_card
from collection.services.opening import products_open
from collection.services.store import product_grant
from collection.services.wants import tradeable_cards, want_set
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def open_starter(owner, archetype="jedi"):
    product = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype=archetype)
    (item,) = product_grant(owner=owner, product=product, quantity=1)
    products_open(owner=owner, owned_product_ids=[item.pk])
    return owner.decks.latest("created")


def test_a_newcomer_offers_none_of_the_cards_of_the_starter_deck_they_play(catalog):
    player = UserFactory()

    deck = open_starter(player)

    avatar = deck.entries.get(card__card_type="avatar").card
    assert list(tradeable_cards(owner=player)) == []
    numbers = collection_card(owner=player, card_id=avatar.pk)
    assert (numbers.owned, numbers.want, numbers.trade) == (1, 1, 0)


def test_copies_beyond_what_the_decks_use_are_offered_owned_minus_want(catalog):
    player = UserFactory()
    deck = open_starter(player)
    open_starter(player)  # a second one: its copies are extra, the first deck uses the rest

    offered = {ownership.card_id: ownership.trade for ownership in tradeable_cards(owner=player)}

    used = {entry.card_id: entry.quantity for entry in deck.entries.all()}
    assert offered == used
    for card_id, copies in used.items():
        numbers = collection_card(owner=player, card_id=card_id)
        assert (numbers.owned, numbers.want, numbers.trade) == (2 * copies, copies, copies)


def test_a_want_the_player_sets_is_theirs_saving_a_deck_leaves_it(catalog):
    player = UserFactory()
    deck = open_starter(player)
    avatar = deck.entries.get(card__card_type="avatar").card

    want_set(owner=player, card=avatar, want=0)
    counts = Counter({entry.card_id: entry.quantity for entry in deck.entries.all()})
    deck_save(owner=player, name="Again", counts=counts)

    assert CardOwnership.objects.get(owner=player, card=avatar).want == 0
    assert [ownership.card for ownership in tradeable_cards(owner=player)] == [avatar]


def test_a_card_added_to_a_saved_deck_is_wanted_as_many_times_as_the_deck_uses_it(catalog):
    player = UserFactory()
    deck = open_starter(player)
    open_starter(player)
    entry = deck.entries.filter(quantity=2).select_related("card").first()

    deck_card_add(owner=player, deck_id=deck.pk, card=entry.card)

    assert CardOwnership.objects.get(owner=player, card=entry.card).want == 3
