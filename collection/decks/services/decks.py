"""Decks: the only writers of saved decks.

The deck under construction lives in the builder page (see ``collection.decks.selectors``);
these services save it, or delete a saved deck. Saving checks the player's cards (or the
Limited pool) again inside one transaction that holds the player's wallet lock.
"""

from collections import Counter
from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.utils import timezone

from collection.cards.models import Card
from collection.decks import selectors
from collection.decks.models import Deck, DeckCard, FormatKind, LimitedPool
from collection.decks.signals import limited_deck_saved
from collection.models import Product
from collection.services.ledger import owners_lock
from collection.services.wants import wants_follow_deck
from tcgsite.accounts.models import User


def deck_save(
    *,
    owner: User,
    name: str,
    counts: Mapping[int, int],
    deck_id=None,
    pool: LimitedPool | None = None,
) -> selectors.SavedDeck:
    """Save the deck under construction as a new deck, or over ``deck_id`` (renaming it).

    One transaction that locks the player's wallet, the lock of everything they own, so
    that ownership can't change between the check and the write. Copies beyond what the
    player owns (or the pool holds) are refused. A Limited deck, given by ``pool`` or by
    ``deck_id`` naming a pool's deck, is saved only before the pool's deadline, only from
    the pool's cards and only when valid.
    """
    name = " ".join(name.split())
    if not name:
        raise selectors.DeckError("Give the deck a name before saving it.")
    if len(name) > selectors.MAX_NAME_LENGTH:
        raise selectors.DeckError(
            f"A deck name has at most {selectors.MAX_NAME_LENGTH} characters."
        )
    if not counts:
        raise selectors.DeckError("The deck is empty: add cards before saving it.")
    with transaction.atomic():
        owners_lock(owners=[owner])
        deck = selectors.owner_deck(owner=owner, deck_id=deck_id) if deck_id else None
        # A deck built from a Limited pool keeps the pool's rules, whichever request saves it.
        pool = pool or (selectors.deck_pool(deck=deck) if deck is not None else None)
        if pool is not None:
            pool = _locked_open_pool(owner, pool, refused="your deck was not saved")
            deck = pool.deck
        builder = selectors.builder_deck(owner=owner, counts=counts, pool=pool)
        if builder.problems:
            raise selectors.DeckError(" ".join(builder.problems))
        over = [line for line in builder.lines if line.over]
        if over:
            raise selectors.DeckError(_over_message(over, pool))
        if pool is not None:
            validation = selectors.deck_list_validation(
                selectors.limited_format(), builder.deck_list, builder.supply
            )
            if not validation.valid:
                raise selectors.DeckInvalid(
                    "Your deck breaks Limited deck rules, so it was not saved: "
                    "the Deck Validator shows why.",
                    validation,
                )
        created = deck is None
        deck = deck_name_write(owner=owner, name=name, deck=deck)
        if not created:
            deck.entries.all().delete()
        DeckCard.objects.bulk_create(
            DeckCard(deck=deck, card=line.card, quantity=line.copies) for line in builder.lines
        )
        if pool is None:
            wants_follow_deck(
                owner=owner, counts={line.card.pk: line.copies for line in builder.lines}
            )
        if pool is not None and pool.deck_id != deck.pk:
            pool.deck = deck
            pool.save(update_fields=["deck"])
        if pool is not None:
            # The event that gave the pool hears of it once the deck is saved for good.
            pool_id = pool.pk
            transaction.on_commit(
                lambda: limited_deck_saved.send(
                    sender=LimitedPool, pool_id=pool_id, owner_id=owner.pk
                )
            )
    limited = pool is not None
    validations = [
        validation
        for validation in selectors.builder_validations(builder=builder)
        if (validation.play_format.kind == FormatKind.LIMITED) == limited
    ]
    return selectors.SavedDeck(deck, created, validations)


def deck_name_write(*, owner: User, name: str, deck: Deck | None = None) -> Deck:
    """Create a deck called ``name``, or rename ``deck``, inside the caller's transaction.

    Every writer of a deck's name comes through here, so that a name the player already
    uses (ignoring case) is refused with the same message, whether the check below sees the
    other deck or the database's unique constraint settles a race between two requests.
    """
    clash = Deck.objects.filter(owner=owner, name__iexact=name)
    if deck is not None:
        clash = clash.exclude(pk=deck.pk)
    if clash.exists():
        raise selectors.DeckNameTaken(name)
    try:
        with transaction.atomic():
            if deck is None:
                return Deck.objects.create(owner=owner, name=name)
            deck.name = name
            deck.save(update_fields=["name", "updated"])
            return deck
    except IntegrityError as error:
        raise selectors.DeckNameTaken(name) from error


def starter_deck_save(*, owner: User, product: Product, card_ids: list[int]) -> Deck:
    """Save an opened starter deck as a deck named after it ("Jedi Starter Deck"), under a
    name the player has not used yet, ignoring case ("Jedi Starter Deck 2").

    Rulebook, DECK BUILDER: "You can start playing ... right away using any starter deck."
    Runs inside the opening's ledger operation (registered in ``collection.registry``), so
    the cards it checks ownership of are already the player's.
    """
    label = product.get_archetype_display() if product.archetype else ""
    name = f"{label} Starter Deck" if label else product.name
    name = selectors.deck_name_free(owner=owner, name=name)
    return deck_save(owner=owner, name=name, counts=Counter(card_ids)).deck


def deck_card_add(*, owner: User, deck_id, card: Card) -> tuple[Deck, int]:
    """Add one copy of ``card`` to one of the player's saved decks (a card page's Add to
    deck); returns the deck and the copies it now holds. Never beyond the copies the player
    owns, nor against a DECK BUILDING rule the deck keeps now."""
    with transaction.atomic():
        owners_lock(owners=[owner])
        deck = selectors.owner_deck(owner=owner, deck_id=deck_id)
        if selectors.deck_pool(deck=deck) is not None:
            raise selectors.DeckError(
                f"\u201c{deck.name}\u201d is a Limited deck: change it in the Limited Deck Builder."
            )
        before = selectors.deck_counts(deck=deck)
        try:
            after, _message = selectors.deck_entries_change(
                owner=owner, counts=before, card_id=str(card.pk), copies="1", operation="add"
            )
        except selectors.DeckError as error:
            raise selectors.DeckError(f"Not added to \u201c{deck.name}\u201d: {error}") from None
        problem = selectors.addition_problem(
            selectors.builder_deck(owner=owner, counts=before).deck_list,
            selectors.builder_deck(owner=owner, counts=after).deck_list,
        )
        if problem:
            raise selectors.DeckError(
                f"{card.title} was not added to \u201c{deck.name}\u201d: {problem}"
            )
        DeckCard.objects.update_or_create(
            deck=deck, card=card, defaults={"quantity": after[card.pk]}
        )
        wants_follow_deck(owner=owner, counts={card.pk: after[card.pk]})
        deck.save(update_fields=["updated"])
    return deck, after[card.pk]


def deck_delete(*, owner: User, deck_id) -> str:
    """Delete one of the player's decks; returns its name. A Limited pool's deck is deleted
    only while the pool is open for deck building."""
    with transaction.atomic():
        # The wallet's lock, as a save takes it: a save racing the deletion either lands
        # before it or finds the deck gone, never writes cards for a deck deleted meanwhile.
        owners_lock(owners=[owner])
        deck = selectors.owner_deck(owner=owner, deck_id=deck_id)
        pool = selectors.deck_pool(deck=deck)
        if pool is not None:
            _locked_open_pool(owner, pool, refused="your deck was not deleted")
        name = deck.name
        deck.delete()
    return name


def _locked_open_pool(owner: User, pool: LimitedPool, *, refused: str) -> LimitedPool:
    locked = (
        LimitedPool.objects.select_for_update(of=("self",))
        .select_related("deck")
        .filter(owner=owner, pk=pool.pk)
        .first()
    )
    if locked is None:
        raise selectors.DeckError("That Limited card pool is not one of yours.")
    if timezone.now() >= locked.deadline:
        ended = timezone.localtime(locked.deadline).strftime("%H:%M %Z on %d %B")
        raise selectors.DeckError(f"Deck building for {locked.name} ended at {ended}: {refused}.")
    return locked


def _over_message(over: list[selectors.BuilderLine], pool: LimitedPool | None) -> str:
    have = "the card pool holds" if pool is not None else "you own"
    listed = "; ".join(
        f"{selectors.copies_of(line.copies, line.card.title)} but {have} {line.available}"
        for line in over
    )
    return f"The deck was not saved: {listed}."
