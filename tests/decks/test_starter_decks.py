"""An opened starter deck becomes a saved deck (rulebook, DECK BUILDER: "You can start playing
... right away using any starter deck")."""

from collections import Counter

import pytest
from django.urls import reverse

from collection import registry
from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, PlayFormat
from collection.models import CardOwnership, OwnedProduct, Product, ProductKind
from collection.services.opening import products_open
from collection.services.store import product_grant, product_purchase
from tests.factories import DeckFactory

pytestmark = pytest.mark.django_db


def jedi_starter() -> Product:
    return Product.objects.get(kind=ProductKind.STARTER_DECK, archetype="jedi")


def open_new(owner, product) -> None:
    (item,) = product_grant(owner=owner, product=product, quantity=1)
    products_open(owner=owner, owned_product_ids=[item.pk])


def test_opening_a_starter_deck_saves_it_as_a_valid_deck_named_after_it(player, catalog):
    starter = jedi_starter()
    (item,) = product_purchase(buyer=player, product=starter)

    products_open(owner=player, owned_product_ids=[item.pk])

    deck = Deck.objects.get(owner=player)
    assert deck.name == "Jedi Starter Deck"
    assert deck_selectors.deck_counts(deck=deck) == dict(
        starter.starter_cards.values_list("card", "quantity")
    )
    standard = PlayFormat.objects.get(slug="standard")
    validation = deck_selectors.deck_validate(deck=deck, play_format=standard)
    assert validation.valid, [check.explanation for check in validation.checks if not check.ok]


def test_a_new_player_finds_the_deck_under_open_deck(client, player, catalog):
    open_new(player, jedi_starter())

    response = client.get(reverse("decks:deck_open_menu"))

    assert "Jedi Starter Deck" in response.content.decode()


def test_a_second_starter_deck_gets_a_name_not_taken_ignoring_case(player, catalog):
    DeckFactory(owner=player, name="jedi starter deck")
    DeckFactory(owner=player, name="JEDI STARTER DECK 2")

    open_new(player, jedi_starter())

    assert set(player.decks.values_list("name", flat=True)) == {
        "jedi starter deck",
        "JEDI STARTER DECK 2",
        "Jedi Starter Deck 3",
    }


def test_opening_twice_or_a_booster_saves_no_other_deck(player, booster, catalog):
    (item,) = product_grant(owner=player, product=jedi_starter(), quantity=1)
    products_open(owner=player, owned_product_ids=[item.pk])
    products_open(owner=player, owned_product_ids=[item.pk])
    open_new(player, booster)

    assert list(player.decks.values_list("name", flat=True)) == ["Jedi Starter Deck"]


def test_a_starter_deck_without_archetype_is_named_after_the_product(player, catalog):
    starter = jedi_starter()
    starter.archetype = ""
    starter.save()

    open_new(player, starter)

    assert player.decks.get().name == starter.name


def test_the_deck_is_saved_in_the_openings_transaction(player, catalog, monkeypatch):
    """A handler that fails undoes the opening too: the cards and the deck go together."""

    def refuse(**kwargs):
        raise deck_selectors.DeckError("The deck could not be saved.")

    monkeypatch.setattr(registry, "starter_opened_handlers", [refuse])
    (item,) = product_grant(owner=player, product=jedi_starter(), quantity=1)

    with pytest.raises(deck_selectors.DeckError):
        products_open(owner=player, owned_product_ids=[item.pk])

    assert OwnedProduct.objects.get(pk=item.pk).opened is None
    assert not CardOwnership.objects.filter(owner=player).exists()


def test_the_demo_players_decks_come_from_the_same_opening(catalog):
    from django.core.management import call_command

    call_command("demo")

    deck = Deck.objects.get(owner__username="Paladon")
    opened = OwnedProduct.objects.get(owner=deck.owner, opened__isnull=False)
    assert deck.name == "Jedi Starter Deck"
    assert deck_selectors.deck_counts(deck=deck) == dict(Counter(opened.opening.card_ids))
