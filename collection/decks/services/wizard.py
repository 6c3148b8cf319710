"""The Deckbuilding Wizard's one writer: the deck it saves."""

from django.db import transaction

from collection.decks import selectors
from collection.decks.deckwizard import WizardChoices, WizardError, wizard_check
from collection.decks.models import Deck, DeckCard
from collection.decks.services.decks import deck_name_write
from tcgsite.accounts.models import User

MAX_DECK_NAME_LENGTH = Deck._meta.get_field("name").max_length


def deck_name_clean(raw: str) -> str:
    """The deck's name as saved; raises WizardError (at the name step) when unusable."""
    name = " ".join(raw.split())
    if not name:
        raise WizardError(5, "Give your deck a name.")
    if len(name) > MAX_DECK_NAME_LENGTH:
        raise WizardError(5, f"A deck name has at most {MAX_DECK_NAME_LENGTH} characters.")
    return name


def deck_from_wizard(*, owner: User, choices: WizardChoices, name: str) -> Deck:
    """Save the wizard's deck: avatar, quest pile and the filled deck, as DeckCard rows.

    Every answer is checked again against the collection as it is now, and the deck is
    filled again from it, so a stale or tampered form can't save cards the player lacks.
    """
    name = deck_name_clean(name)
    with transaction.atomic():
        fill = wizard_check(selectors.wizard_cards(owner=owner), choices)
        try:
            deck = deck_name_write(owner=owner, name=name)
        except selectors.DeckNameTaken as taken:
            raise WizardError(5, str(taken)) from None
        lines = {choices.avatar_id: 1, **dict.fromkeys(choices.quest_ids.values(), 1)}
        lines.update(fill.copies)
        DeckCard.objects.bulk_create(
            DeckCard(deck=deck, card_id=card_id, quantity=copies)
            for card_id, copies in lines.items()
        )
    return deck
