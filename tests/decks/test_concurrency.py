"""Decks racing against PostgreSQL: two requests saving names that differ only in case at
the same moment leave one deck, and the other player's request reads "name taken"; a save
racing the deck's deletion finds it deleted. On SQLite writers queue one behind the other,
so these run only in production mode."""

import pytest
from django.conf import settings

from collection.cards.cardrules import QUEST_LEVELS
from collection.decks import selectors as deck_selectors
from collection.decks.deckwizard import WizardChoices, WizardError
from collection.decks.models import Deck, DeckCard
from collection.decks.services import decks
from collection.decks.services.wizard import deck_from_wizard
from tests.concurrency import race_while_first_is_uncommitted
from tests.decks.test_decks import give, ids, starter
from tests.decks.test_wizard import give_starter_deck, starter_choices
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="a real race needs PostgreSQL; SQLite serialises writers instead",
    ),
    pytest.mark.django_db(transaction=True),
]


def wizard_choices() -> WizardChoices:
    form = starter_choices("jedi")
    return WizardChoices(
        archetype="jedi",
        avatar_id=int(form["avatar"]),
        quest_ids={level: int(form[f"quest_{level}"]) for level in QUEST_LEVELS},
    )


def test_two_wizards_saving_names_differing_in_case_leave_one_deck(catalog):
    player = UserFactory()
    give_starter_deck(player, "jedi")
    choices = wizard_choices()

    results = race_while_first_is_uncommitted(
        lambda: deck_from_wizard(owner=player, choices=choices, name="Temple Guard"),
        lambda: deck_from_wizard(owner=player, choices=choices, name="TEMPLE GUARD"),
    )

    assert isinstance(results[0], Deck), results
    assert isinstance(results[1], WizardError), results
    assert str(results[1]) == (
        "You already have a deck called \u201cTEMPLE GUARD\u201d; choose another name."
    )
    assert list(Deck.objects.filter(owner=player).values_list("name", flat=True)) == [
        "Temple Guard"
    ]


def test_the_builder_and_the_wizard_racing_for_a_name_leave_one_deck(catalog):
    player = UserFactory()
    jedi = starter("jedi")
    give(player, jedi)
    choices = wizard_choices()

    results = race_while_first_is_uncommitted(
        lambda: deck_from_wizard(owner=player, choices=choices, name="Temple Guard"),
        lambda: decks.deck_save(owner=player, name="temple guard", counts=ids(jedi)),
    )

    assert isinstance(results[0], Deck), results
    assert isinstance(results[1], deck_selectors.DeckNameTaken), results
    assert Deck.objects.filter(owner=player).count() == 1


def test_a_save_racing_the_decks_deletion_finds_it_deleted(catalog):
    """Save Deck in one tab while another deletes the deck: the save waits for the deletion
    and says the deck was deleted, rather than write cards for a deck that is gone."""
    player = UserFactory()
    jedi = starter("jedi")
    give(player, jedi)
    deck = decks.deck_save(owner=player, name="Temple Guard", counts=ids(jedi)).deck

    results = race_while_first_is_uncommitted(
        lambda: decks.deck_delete(owner=player, deck_id=deck.pk),
        lambda: decks.deck_save(
            owner=player, name="Temple Guard", counts=ids(jedi), deck_id=deck.pk
        ),
    )

    assert results[0] == "Temple Guard", results
    assert isinstance(results[1], deck_selectors.DeckGone), results
    assert not Deck.objects.exists() and not DeckCard.objects.exists()
