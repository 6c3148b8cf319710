"""Decks: the Deck Builder's reads (the only writers of saved decks are in
``collection.decks.services.decks``).

The deck under construction lives in the builder page, not on the server: each request
carries it as ``entry`` values "<card id>x<copies>" (``entries_parse``), so New Deck, Open
Deck and an unsaved deck need no server state. The rules a deck is checked against live in
``game.engine.deckrules``; this module feeds them the cards, the play formats and what the
player may use (the collection, or a Limited card pool).

Saving an invalid deck: in the Deck Builder a deck in progress may be saved while it breaks
rules (the save says for which formats it is not valid yet); validity is never stored, so
every place that needs a valid deck (match creation, tournament entry) asks
``deck_validate`` when it is used. In the Limited Deck Builder an invalid deck is not saved
(rulebook: "If there is an error with your deck, your deck will not be saved").
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import Case, IntegerField, QuerySet, Sum, Value, When
from django.utils import timezone

from collection import selectors
from collection.cards import selectors as card_selectors
from collection.cards.filters import CardFilters
from collection.cards.models import Card
from collection.decks.deckwizard import OwnedCard
from collection.decks.models import Deck, DeckCard, FormatKind, LimitedPool, PlayFormat
from collection.decks.registry import BuilderDetour, builder_gates
from collection.models import CardOwnership
from game.engine import deckrules
from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tcgsite.inputs import object_id, range_message, whole_number_or_none

MAX_NAME_LENGTH = Deck._meta.get_field("name").max_length
MAX_ENTRIES = 300
MAX_COPIES_PER_CHANGE = 99
# What one entry may carry: the deck in progress may break the four-copies rule (the
# validator says so), but no request sizes work beyond this.
MAX_ENTRY_COPIES = 999
MAX_IMPORT_CHARACTERS = 20_000
TYPE_ORDER = {card_type: index for index, card_type in enumerate(deckrules.DECK_TYPES)}


class DeckError(UserError):
    """A deck request the player can get wrong; the message is shown to them."""


class DeckNameTaken(DeckError):
    """The player already has a deck of that name, ignoring case (the database agrees)."""

    def __init__(self, name: str):
        super().__init__(f"You already have a deck called \u201c{name}\u201d; choose another name.")


class DeckGone(DeckError):
    """The deck a page named was deleted since it was shown (in another tab, say); decks
    keep no row once deleted, so any number no deck has is taken for one."""

    def __init__(self):
        super().__init__("That deck was deleted.")


class DeckInvalid(DeckError):
    """A Limited deck refused because it breaks rules; ``validation`` says which."""

    def __init__(self, message: str, validation: "DeckValidation"):
        super().__init__(message)
        self.validation = validation


@dataclass(frozen=True)
class BuilderLine:
    card: Card
    copies: int
    available: int

    @property
    def entry(self) -> str:
        return f"{self.card.pk}x{self.copies}"

    @property
    def over(self) -> bool:
        """More copies than the player may use (cards traded away since the deck was saved)."""
        return self.copies > self.available

    @property
    def facts(self) -> deckrules.CardFacts:
        return card_facts(self.card)


@dataclass
class BuilderDeck:
    """The deck under construction, with what the player may use of each card."""

    lines: list[BuilderLine]
    supply: deckrules.CardSupply
    problems: list[str] = field(default_factory=list)

    @property
    def avatar(self) -> list[BuilderLine]:
        return [line for line in self.lines if line.card.card_type == "avatar"]

    @property
    def quests(self) -> list[BuilderLine]:
        return [line for line in self.lines if line.card.card_type == "quest"]

    @property
    def deck(self) -> list[BuilderLine]:
        return [line for line in self.lines if line.card.card_type not in ("avatar", "quest")]

    @property
    def counts(self) -> dict[int, int]:
        return {line.card.pk: line.copies for line in self.lines}

    @property
    def deck_size(self) -> int:
        return sum(line.copies for line in self.deck)

    @property
    def deck_list(self) -> deckrules.DeckList:
        return deckrules.DeckList.by_type(
            deckrules.DeckLine(line.facts, line.copies) for line in self.lines
        )


@dataclass(frozen=True)
class DeckValidation:
    play_format: PlayFormat
    checks: list[deckrules.RuleCheck]

    @property
    def valid(self) -> bool:
        return all(check.ok for check in self.checks)


@dataclass(frozen=True)
class SavedDeck:
    """A saved deck and its verdicts in the formats it is built for: Constructed formats from
    the Deck Builder, Limited ones from the Limited Deck Builder."""

    deck: Deck
    created: bool
    validations: list[DeckValidation]

    @property
    def valid_for(self) -> list[str]:
        return [v.play_format.name for v in self.validations if v.valid]

    @property
    def invalid_for(self) -> list[str]:
        return [v.play_format.name for v in self.validations if not v.valid]


@dataclass(frozen=True)
class ImportedDeck:
    counts: dict[int, int]
    problems: tuple[deckrules.LineProblem, ...]
    name: str


def card_facts(card: Card) -> deckrules.CardFacts:
    return deckrules.CardFacts(
        title=card.title,
        card_type=card.card_type,
        archetype=card.archetype,
        level=card.level,
        cost=card.cost,
        set_number=card.card_set.number,
        card_id=card.pk,
        player_made=card.creator_id is not None,
    )


# The deck under construction ---------------------------------------------------------------


def entries_parse(raw_entries: Iterable[str]) -> tuple[dict[int, int], list[str]]:
    """Read the builder's ``entry`` values; malformed ones are left out with a message."""
    counts: dict[int, int] = {}
    problems = []
    for raw in raw_entries:
        card_text, _, copies_text = raw.partition("x")
        card_id = object_id(card_text)
        copies = whole_number_or_none(copies_text, minimum=1, maximum=MAX_ENTRY_COPIES)
        if card_id is None or copies is None:
            problems.append(f"The deck entry {raw[:40]!r} can't be read; it was left out.")
            continue
        counts[card_id] = min(counts.get(card_id, 0) + copies, MAX_ENTRY_COPIES)
        if len(counts) > MAX_ENTRIES:
            problems.append(f"A deck holds at most {MAX_ENTRIES} different cards.")
            break
    return counts, problems


def builder_deck(
    *, owner: User, counts: Mapping[int, int], pool: LimitedPool | None = None
) -> BuilderDeck:
    """The cards of ``counts`` the player can see, in deck order, with their supply.

    Copies beyond the supply are kept (the deck opens as it was saved) and marked ``over``;
    saving and validating refuse them.
    """
    cards = _usable_cards(owner, counts.keys(), pool)
    supply = card_supply(owner=owner, pool=pool, card_ids=list(cards))
    problems = [
        f"There is no card #{card_id} you can use; it was left out."
        for card_id in counts
        if card_id not in cards
    ]
    lines = [
        BuilderLine(card, copies, supply.counts.get(card.pk, 0))
        for card_id, copies in counts.items()
        if (card := cards.get(card_id)) is not None
    ]
    lines.sort(key=lambda line: _deck_order(line.card))
    return BuilderDeck(lines=lines, supply=supply, problems=problems)


def deck_entries_change(
    *,
    owner: User,
    counts: Mapping[int, int],
    card_id: str,
    copies: str,
    operation: str,
    pool: LimitedPool | None = None,
) -> tuple[dict[int, int], str]:
    """Add or remove copies of a card; returns the new counts and what happened.

    Adding never goes beyond the copies the player owns (or the pool holds).
    """
    count = _change_count(operation, copies)
    card = _usable_card(owner, _number(card_id), pool)
    counts, message, _limit = _entry_change(
        counts, card, count, operation, lambda: _available(owner, pool, card), pool
    )
    return counts, message


def builder_deck_change(
    *,
    owner: User,
    builder: BuilderDeck,
    card_id: str,
    copies: str,
    operation: str,
    pool: LimitedPool | None = None,
) -> tuple[BuilderDeck, str]:
    """``deck_entries_change`` on the deck ``builder`` shows, returning the deck as the
    builder shows it: only a card the deck does not hold yet is read."""
    count = _change_count(operation, copies)
    number = _number(card_id)
    line = next((line for line in builder.lines if line.card.pk == number), None)
    card = line.card if line is not None else _usable_card(owner, number, pool)
    counts, message, available = _entry_change(
        builder.counts,
        card,
        count,
        operation,
        (lambda: line.available) if line is not None else lambda: _available(owner, pool, card),
        pool,
    )
    if available is None:  # a removal: the card was in the deck
        available = line.available
    lines = [kept for kept in builder.lines if kept.card.pk != card.pk]
    supply = builder.supply
    if counts.get(card.pk):
        lines.append(BuilderLine(card, counts[card.pk], available))
        if not supply.pool:
            supply = deckrules.CardSupply({**supply.counts, card.pk: available})
    lines.sort(key=lambda line: _deck_order(line.card))
    return BuilderDeck(lines=lines, supply=supply), message


def _change_count(operation: str, copies: str) -> int:
    if operation not in ("add", "remove"):
        raise DeckError("Choose whether to add or remove copies.")
    return _copies(copies)


def _usable_card(owner: User, number: int, pool: LimitedPool | None) -> Card:
    card = _usable_cards(owner, [number], pool).get(number)
    if card is None:
        raise DeckError("That card is not one you can use in this deck.")
    return card


def _available(owner: User, pool: LimitedPool | None, card: Card) -> int:
    return card_supply(owner=owner, pool=pool, card_ids=[card.pk]).counts.get(card.pk, 0)


def _entry_change(
    counts: Mapping[int, int],
    card: Card,
    count: int,
    operation: str,
    available_copies: Callable[[], int],
    pool: LimitedPool | None,
) -> tuple[dict[int, int], str, int | None]:
    """The counts after the change, what happened, and when adding the copies the player may
    use of ``card`` (read by ``available_copies``)."""
    counts = dict(counts)
    in_deck = counts.get(card.pk, 0)
    if operation == "remove":
        if not in_deck:
            raise DeckError(f"{card.title} is not in the deck.")
        removed = min(count, in_deck)
        counts[card.pk] = in_deck - removed
        if not counts[card.pk]:
            del counts[card.pk]
        return counts, f"Removed {copies_of(removed, card.title)}.", None
    available = available_copies()
    have = "the card pool holds" if pool is not None else "you own"
    if in_deck >= available:
        if not available:
            raise DeckError(f"You can't add {card.title}: {have} no copies.")
        raise DeckError(f"All {available} copies of {card.title} {have} are in the deck.")
    added = min(count, available - in_deck)
    counts[card.pk] = in_deck + added
    message = f"Added {copies_of(added, card.title)}."
    if added < count:
        message += f" {have.capitalize()} {available}, and all are in the deck now."
    return counts, message, available


def card_supply(
    *, owner: User, pool: LimitedPool | None = None, card_ids: list[int] | None = None
) -> deckrules.CardSupply:
    """The copies of each card the player may use: owned ones, or the Limited pool's."""
    if pool is not None:
        return deckrules.CardSupply(pool_counts(pool), pool=True)
    owned = CardOwnership.objects.filter(owner=owner, quantity__gt=0)
    if card_ids is not None:
        owned = owned.filter(card_id__in=card_ids)
    return deckrules.CardSupply(dict(owned.values_list("card_id", "quantity")))


def pool_counts(pool: LimitedPool) -> dict[int, int]:
    """A pool's ``card_counts`` as numbers; staff type them in the admin, so skip bad ones."""
    if not isinstance(pool.card_counts, dict):
        return {}
    counts = {}
    for key, copies in pool.card_counts.items():
        card_id = object_id(key)
        if card_id is not None and isinstance(copies, int) and copies > 0:
            counts[card_id] = copies
    return counts


# The collection container ------------------------------------------------------------------


def builder_collection(
    *, owner: User, filters: CardFilters, pool: LimitedPool | None = None
) -> QuerySet[Card]:
    """The cards the Deck Builder offers, each with ``owned``: the copies the player may use
    (owned ones, or the Limited pool's), and ``foils``: how many of the player's own are
    foils (a foil counts as its card; a pool's copies are plain), narrowed and ordered by the
    filters."""
    if pool is None:
        return selectors.collection_cards(owner=owner, filters=filters, only_owned=True)
    counts = pool_counts(pool)
    return (
        card_selectors.cards_filtered(filters=filters)
        .filter(pk__in=counts)
        .annotate(
            owned=Case(
                *(When(pk=card_id, then=Value(copies)) for card_id, copies in counts.items()),
                default=Value(0),
                output_field=IntegerField(),
            ),
            foils=Value(0, output_field=IntegerField()),
        )
    )


# Saved decks -------------------------------------------------------------------------------


def owner_decks(*, owner: User) -> list[Deck]:
    """The player's decks for Open Deck (Limited decks open from their pool), with sizes."""
    return list(
        Deck.objects.filter(owner=owner, limited_pool__isnull=True)
        .annotate(card_count=Sum("entries__quantity"))
        .order_by("-updated", "name")
    )


def deck_name_free(*, owner: User, name: str) -> str:
    """``name``, or ``name`` with the first number that makes it one the player has not
    used yet; deck names are compared ignoring case."""
    taken = {
        taken.casefold()
        for taken in Deck.objects.filter(owner=owner).values_list("name", flat=True)
    }
    candidate, number = name[:MAX_NAME_LENGTH], 1
    while candidate.casefold() in taken:
        number += 1
        suffix = f" {number}"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)] + suffix
    return candidate


def usable_card(*, owner: User, card_id: int) -> Card | None:
    """A card the player may put in a deck: any catalog card, or an avatar they made."""
    return _usable_cards(owner, [card_id], None).get(card_id)


def card_in_decks(*, owner: User, card: Card) -> dict[int, int]:
    """How many copies of ``card`` each of the player's decks holds, by deck id."""
    return dict(
        DeckCard.objects.filter(deck__owner=owner, card=card).values_list("deck_id", "quantity")
    )


def addition_problem(before: deckrules.DeckList, after: deckrules.DeckList) -> str | None:
    """Why a deck changed from ``before`` to ``after`` breaks a DECK BUILDING rule in a new way
    (a second avatar, two quests of a level, a fifth copy, a card of another archetype than
    the avatar's), or None. Rules an unfinished deck still breaks (too few cards, no avatar
    yet) don't stop it growing."""
    offending_before = {check.rule: set(check.offending) for check in deckrules.check_deck(before)}
    for check in deckrules.check_deck(after):
        if check.rule == deckrules.ARCHETYPE_RULE and not after.avatar:
            continue  # without an avatar, no card matches yet: the avatar comes later
        if set(check.offending) - offending_before[check.rule]:
            return check.explanation
    return None


def owner_pools(*, owner: User) -> list[LimitedPool]:
    """The player's Limited card pools still open for deck building."""
    return list(LimitedPool.objects.filter(owner=owner, deadline__gt=timezone.now()))


def builder_detour(*, player: User) -> BuilderDetour | None:
    """Where the player must build instead of the normal Deck Builder (the Limited Deck
    Builder of a Sealed tournament they play in), or None: the first gate that stops them."""
    for gate in builder_gates:
        detour = gate(player=player)
        if detour is not None:
            return detour
    return None


def owner_deck(*, owner: User, deck_id) -> Deck:
    number = _number(deck_id)
    deck = Deck.objects.filter(owner=owner, pk=number).first()
    if deck is None:
        if number and not Deck.objects.filter(pk=number).exists():
            raise DeckGone
        raise DeckError("That deck is not one of your decks.")
    return deck


def owner_pool(*, owner: User, pool_id) -> LimitedPool:
    pool = LimitedPool.objects.select_related("deck").filter(owner=owner, pk=_number(pool_id))
    found = pool.first()
    if found is None:
        raise DeckError("That Limited card pool is not one of yours.")
    return found


def deck_pool(*, deck: Deck) -> LimitedPool | None:
    """The Limited card pool the deck was built from, if it was."""
    return LimitedPool.objects.filter(deck=deck).first()


def deck_counts(*, deck: Deck) -> dict[int, int]:
    return dict(deck.entries.values_list("card_id", "quantity"))


def deck_import(*, owner: User, text: str, pool: LimitedPool | None = None) -> ImportedDeck:
    """Read a plain-text deck list into builder counts and the name in its header (nothing
    is saved).

    Titles the player has no card for, and copies beyond what they may use, get a message
    per line; every other line imports.
    """
    if len(text) > MAX_IMPORT_CHARACTERS:
        raise DeckError(f"A deck list has at most {MAX_IMPORT_CHARACTERS:,} characters.")
    supply = card_supply(owner=owner, pool=pool)
    cards = Card.objects.collectable_by(owner).select_related("card_set")
    by_title: dict[str, deckrules.CardFacts] = {}
    # Of cards sharing a title (a reprint), take the one the player has most copies of.
    for card in sorted(cards, key=lambda card: supply.counts.get(card.pk, 0)):
        by_title[card.title] = card_facts(card)
    parsed = deckrules.parse_text(text, by_title, supply=supply)
    counts = {line.card.card_id: line.copies for line in parsed.lines}
    return ImportedDeck(
        counts, parsed.problems, parsed.name[: Deck._meta.get_field("name").max_length]
    )


# Validation --------------------------------------------------------------------------------


def play_formats() -> list[PlayFormat]:
    return list(PlayFormat.objects.prefetch_related("sets"))


def format_rules(play_format: PlayFormat) -> deckrules.FormatRules:
    return deckrules.FormatRules(
        name=play_format.name,
        allowed_sets={card_set.number: card_set.name for card_set in play_format.sets.all()},
        banned_titles=frozenset(_titles(play_format.banned_titles)),
        restricted_titles=frozenset(_titles(play_format.restricted_titles)),
        limited=play_format.kind == FormatKind.LIMITED,
    )


def deck_validate(*, deck: Deck, play_format: PlayFormat) -> DeckValidation:
    """Whether a saved deck is legal in a play format, rule by rule.

    Checks what the player owns now (for a Limited format, the deck's card pool instead):
    match creation and tournament entry call this when the deck is used, so a deck that was
    saved invalid, or whose cards were traded away since, is never accepted.
    """
    pool = None
    if play_format.kind == FormatKind.LIMITED:
        pool = LimitedPool.objects.filter(deck=deck).first()
    builder = builder_deck(owner=deck.owner, counts=deck_counts(deck=deck), pool=pool)
    return deck_list_validation(play_format, builder.deck_list, builder.supply)


def builder_validations(*, builder: BuilderDeck) -> list[DeckValidation]:
    """The deck under construction against every play format the site offers; a deck built
    from a Limited card pool against the Limited formats only (its cards are the pool's)."""
    return [
        deck_list_validation(play_format, builder.deck_list, builder.supply)
        for play_format in play_formats()
        if not builder.supply.pool or play_format.kind == FormatKind.LIMITED
    ]


def deck_list_validation(
    play_format: PlayFormat | None, deck_list: deckrules.DeckList, supply: deckrules.CardSupply
) -> DeckValidation:
    rules = format_rules(play_format) if play_format is not None else None
    return DeckValidation(play_format, deckrules.check_deck(deck_list, rules, supply=supply))


def limited_format() -> PlayFormat | None:
    return PlayFormat.objects.prefetch_related("sets").filter(kind=FormatKind.LIMITED).first()


# Helpers -----------------------------------------------------------------------------------


def _usable_cards(owner: User, card_ids, pool: LimitedPool | None) -> dict[int, Card]:
    """Catalog cards and the player's own avatars among ``card_ids``; a pool's cards only."""
    cards = Card.objects.select_related("card_set").filter(pk__in=list(card_ids))
    if pool is not None:
        cards = cards.filter(pk__in=pool_counts(pool))
    else:
        cards = cards.collectable_by(owner)
    return {card.pk: card for card in cards}


def _deck_order(card: Card):
    part = {"avatar": 0, "quest": 1}.get(card.card_type, 2)
    return (
        part,
        card.level or 0,
        TYPE_ORDER.get(card.card_type, 0),
        card.cost if card.cost is not None else -1,
        card.title,
    )


def _copies(text: str) -> int:
    copies = whole_number_or_none(text or "1", minimum=1, maximum=MAX_COPIES_PER_CHANGE)
    if copies is None:
        raise DeckError(
            range_message("The number of copies", minimum=1, maximum=MAX_COPIES_PER_CHANGE)
        )
    return copies


def copies_of(copies: int, title: str) -> str:
    return f"{copies} cop{'y' if copies == 1 else 'ies'} of {title}"


def _number(value) -> int:
    """An id from a request; no row has 0, so an unreadable one finds nothing."""
    return object_id(value) or 0


def _titles(values) -> list[str]:
    """A format's title list as staff typed it in the admin: strings only."""
    return [value for value in values or [] if isinstance(value, str) and value.strip()]


# The Deckbuilding Wizard -----------------------------------------------------------------


def wizard_cards(*, owner: User) -> list[OwnedCard]:
    """The cards the player owns at least one copy of, the avatars they made included
    (and, like the Collection Manager, no avatar another player made)."""
    rows = (
        CardOwnership.objects.filter(owner=owner, quantity__gt=0)
        .filter(card__in=Card.objects.collectable_by(owner))
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
