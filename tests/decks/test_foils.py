"""Foils in the Deck Builder (README, "Foils"): a foil copy counts as its card, so a deck
built with it validates as before, and the collection container marks the cards of which
the player owns foils, shimmering with Foil Effects on, a badge alone with it off."""

import pytest
from django.urls import reverse

from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, PlayFormat
from collection.decks.services import decks
from collection.models import LedgerReason, Product
from collection.services.ledger import CardChange, ledger_operation
from tcgsite.accounts.models import Preferences

pytestmark = pytest.mark.django_db

BUILDER = reverse("decks:deck_builder")


@pytest.fixture
def jedi_starter(catalog) -> dict[int, int]:
    product = Product.objects.get(kind="starter_deck", archetype="jedi")
    return {line.card_id: line.quantity for line in product.starter_cards.all()}


@pytest.fixture
def foil_card_id(player, jedi_starter) -> int:
    """The player owns the Jedi starter's cards, one copy of its first card a foil."""
    foil_card_id = next(iter(jedi_starter))
    with ledger_operation(owners=[player], reason=LedgerReason.GRANT) as ledger:
        ledger.cards_change(
            changes=[
                CardChange(
                    owner=player,
                    card_id=card_id,
                    delta=copies - (card_id == foil_card_id),
                )
                for card_id, copies in jedi_starter.items()
            ]
            + [CardChange(owner=player, card_id=foil_card_id, delta=1, foil=True)]
        )
    Preferences.objects.filter(user=player).update(show_only_owned_cards=True)
    return foil_card_id


def test_a_deck_with_a_foil_validates_as_with_plain_copies(player, jedi_starter, foil_card_id):
    saved = decks.deck_save(owner=player, name="Shiny Temple", counts=jedi_starter)

    standard = PlayFormat.objects.get(slug="standard")
    deck = Deck.objects.get(owner=player, name="Shiny Temple")
    assert saved.valid_for == ["Standard"]
    assert deck_selectors.deck_validate(deck=deck, play_format=standard).valid


@pytest.mark.parametrize(("foil_effects", "shimmers"), [(True, True), (False, False)])
def test_the_collection_container_marks_the_foils_you_own(
    client, player, foil_card_id, foil_effects, shimmers
):
    Preferences.objects.filter(user=player).update(foil_effects=foil_effects)

    page = client.get(BUILDER).content.decode()

    assert page.count('class="foil-badge"') == 1
    assert ("foil--shimmer" in page) is shimmers
    assert "1 of your copies foil" in page


def test_the_table_view_marks_the_foils_you_own(client, player, foil_card_id):
    page = client.get(reverse("decks:deck_builder_collection"), {"view": "table"}).content.decode()

    assert page.count('class="foil-badge"') == 1
