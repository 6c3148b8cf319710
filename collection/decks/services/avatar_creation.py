"""Create Avatar: the only writer of player-made avatar cards."""

from collections.abc import Mapping

from django.db.models import Max

from collection.cards.models import PLAYER_AVATAR_SET_NUMBER, Card, CardSet
from collection.cards.services import catalog_card_problems
from collection.decks.avatars import (
    NAME_MAX_LENGTH,
    QUESTIONS,
    avatar_card_fields,
    avatar_name_clean,
    read_choices,
)
from collection.models import LedgerReason
from collection.services.ledger import CardChange, ledger_operation
from tcgsite.accounts.models import User
from tcgsite.errors import UserError

MAX_MADE_AVATARS = 10
PLAYER_AVATAR_SET_CODE = "PMA"
PLAYER_AVATAR_SET_NAME = "Player-made Avatars"


class AvatarError(UserError):
    """An avatar that can't be made; the message is shown to the player."""


def avatar_create(*, owner: User, choices: Mapping[str, str], name: str) -> Card:
    """Make the player's avatar card from their answers and name, and add one copy of it to
    their collection, with its ledger row, in one transaction."""
    reading = read_choices(choices)
    if reading.error:
        raise AvatarError(reading.error)
    if not reading.complete:
        unanswered = QUESTIONS[len(reading.choices)].title.lower()
        raise AvatarError(f"Answer every question first; {unanswered} is not chosen yet.")
    name, problem = avatar_name_clean(name)
    if problem:
        raise AvatarError(problem)
    with ledger_operation(owners=[owner], reason=LedgerReason.AVATAR_CREATED) as ledger:
        made = Card.objects.filter(creator=owner)
        if made.count() >= MAX_MADE_AVATARS:
            raise AvatarError(
                f"You have made {MAX_MADE_AVATARS} avatars, the most a player may make."
            )
        if made.filter(title__iexact=name).exists():
            raise AvatarError(f"You already made an avatar named {name}; choose another name.")
        if Card.objects.printed().filter(title__iexact=name).exists():
            raise AvatarError(f"{name} is the title of a card in the catalog; choose another.")
        card_set = _player_avatar_set()
        last_number = card_set.cards.aggregate(last=Max("number"))["last"] or 0
        card = Card(
            card_set=card_set,
            number=last_number + 1,
            creator=owner,
            artist=owner.username,
            **avatar_card_fields(reading.choices, name=name),
        )
        problems = catalog_card_problems(card)
        if problems:
            # The answer tables are tested to make only valid cards; this guards an edit of them.
            raise AvatarError(f"That avatar would break the card rules ({problems[0]}).")
        card.save()
        ledger.cards_change(
            changes=[
                CardChange(
                    owner=owner,
                    card_id=card.pk,
                    delta=1,
                    note=f"Created with Create Avatar: {name}",
                )
            ]
        )
    return card


def _player_avatar_set() -> CardSet:
    """Set 0, locked: two players making avatars at once must not take the same number.

    Locked after the owner's wallet, the order every caller follows.
    """
    card_set, _ = CardSet.objects.get_or_create(
        number=PLAYER_AVATAR_SET_NUMBER,
        defaults={"code": PLAYER_AVATAR_SET_CODE, "name": PLAYER_AVATAR_SET_NAME},
    )
    return CardSet.objects.select_for_update().get(pk=card_set.pk)


def made_avatars(*, owner: User) -> list[Card]:
    """The avatars the player made, oldest first."""
    return list(Card.objects.filter(creator=owner).select_related("card_set").order_by("number"))


def avatar_preview(*, owner: User, choices: Mapping[str, str], name: str) -> Card:
    """The unsaved card the answers so far would make, numbered as the next made avatar."""
    reading = read_choices(choices)
    cleaned, _problem = avatar_name_clean(name)
    card_set = CardSet.objects.filter(number=PLAYER_AVATAR_SET_NUMBER).first() or CardSet(
        number=PLAYER_AVATAR_SET_NUMBER,
        code=PLAYER_AVATAR_SET_CODE,
        name=PLAYER_AVATAR_SET_NAME,
    )
    last_number = card_set.cards.aggregate(last=Max("number"))["last"] if card_set.pk else None
    return Card(
        card_set=card_set,
        number=(last_number or 0) + 1,
        artist=owner.username,
        **avatar_card_fields(reading.choices, name=cleaned[:NAME_MAX_LENGTH]),
    )
