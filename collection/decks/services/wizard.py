"""The Deckbuilding Wizard's reads of a collection and its one writer, the deck it saves."""

from django.db import IntegrityError, transaction
from django.db.models import Q

from collection.decks.deckwizard import OwnedCard, WizardChoices, WizardError, wizard_check
from collection.decks.models import Deck, DeckCard
from collection.models import CardOwnership
from tcgsite.accounts.models import User

MAX_DECK_NAME_LENGTH = Deck._meta.get_field("name").max_length


def wizard_cards(*, owner: User) -> list[OwnedCard]:
    """The cards the player owns at least one copy of, the avatars they made included
    (and, like the Collection Manager, no avatar another player made)."""
    rows = (
        CardOwnership.objects.filter(owner=owner, quantity__gt=0)
        .filter(Q(card__creator__isnull=True) | Q(card__creator=owner))
        .values_list(
            "card_id",
            "card__title",
            "card__card_type",
            "card__archetype",
            "quantity",
            "card__cost",
            "card__level",
        )
    )
    return [OwnedCard(*row) for row in rows]


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
        fill = wizard_check(wizard_cards(owner=owner), choices)
        if Deck.objects.filter(owner=owner, name__iexact=name).exists():
            raise WizardError(5, f"You already have a deck named {name}; choose another name.")
        try:
            with transaction.atomic():
                deck = Deck.objects.create(owner=owner, name=name)
        except IntegrityError:
            raise WizardError(
                5, f"You already have a deck named {name}; choose another name."
            ) from None
        lines = {choices.avatar_id: 1, **dict.fromkeys(choices.quest_ids.values(), 1)}
        lines.update(fill.copies)
        DeckCard.objects.bulk_create(
            DeckCard(deck=deck, card_id=card_id, quantity=copies)
            for card_id, copies in lines.items()
        )
    return deck
