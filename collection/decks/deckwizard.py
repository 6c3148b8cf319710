"""The Deckbuilding Wizard: a legal deck built step by step from a player's collection.

Rulebook, DECK BUILDER, Tools: "Deckbuilding Wizard helps you create your own deck design,
step by step." The deck follows DECK BUILDING: one avatar; one quest of each level 2, 4, 5
and 6; at least 50 other cards, no avatars or quests among them, at most four copies of a
title; every card with an archetype shares the avatar's.

The steps: 1 archetype, 2 avatar, 3 quests, 4 card-type proportions (and deck size), 5 name.
Pure Python over ``OwnedCard`` rows, so the page and the saving service read and check the
steps the same way, and ``fill_deck`` is tested without a database.
"""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from collection.cards.cardrules import MAX_COPIES, MIN_DECK_SIZE, QUEST_LEVELS
from game.engine.vocabulary import DECK_TYPES
from tcgsite.errors import UserError
from tcgsite.inputs import object_id, whole_number_or_none

ARCHETYPE_LABELS = {"jedi": "Jedi", "rebel": "Rebel", "imperial": "Imperial", "sith": "Sith"}
TYPE_LABELS = {"unit": "Units", "ability": "Abilities", "item": "Items", "tactic": "Tactics"}
MAX_WIZARD_DECK_SIZE = 60

# Percent of the deck by card type: the four starter decks' average (24 units, 17
# abilities, 5 items and 7 tactics of 53).
SUGGESTED_MIX = {"unit": 45, "ability": 32, "item": 10, "tactic": 13}

# Percent of each card type's share by cost (5 stands for 5 or more): many cheap cards for
# the early turns, a few expensive ones to finish with.
COST_CURVE = {0: 8, 1: 30, 2: 30, 3: 17, 4: 10, 5: 5}

STEP_TITLES = {1: "Archetype", 2: "Avatar", 3: "Quests", 4: "Card mix", 5: "Name"}
LAST_CHOICE_STEP = 4


@dataclass(frozen=True)
class OwnedCard:
    """A card of the player's collection and how many copies they own."""

    id: int
    title: str
    card_type: str
    archetype: str
    owned: int
    cost: int | None = None
    level: int | None = None

    @property
    def cost_bucket(self) -> int:
        return min(self.cost or 0, max(COST_CURVE))


@dataclass
class WizardChoices:
    archetype: str = ""
    avatar_id: int | None = None
    quest_ids: dict[int, int] = field(default_factory=dict)  # quest level → card id
    mix: dict[str, int] = field(default_factory=lambda: dict(SUGGESTED_MIX))
    size: int = MIN_DECK_SIZE


class WizardError(UserError):
    """A step whose answer can't be used; ``step`` is where the player fixes it."""

    def __init__(self, step: int, message: str):
        super().__init__(message)
        self.step = step


@dataclass(frozen=True)
class ArchetypeOption:
    archetype: str
    label: str
    avatars: int
    deck_cards: int  # copies the wizard may use, at most four of a title
    missing: tuple[str, ...]

    @property
    def available(self) -> bool:
        return not self.missing

    @property
    def deck_cards_short(self) -> int:
        return max(MIN_DECK_SIZE - self.deck_cards, 0)


@dataclass(frozen=True)
class DeckFill:
    copies: dict[int, int]  # card id → copies, in the order they were chosen
    size: int

    @property
    def total(self) -> int:
        return sum(self.copies.values())

    @property
    def missing(self) -> int:
        return self.size - self.total


def fits(card: OwnedCard, archetype: str) -> bool:
    return card.archetype in ("", archetype)


def archetype_options(cards: Iterable[OwnedCard]) -> list[ArchetypeOption]:
    """Each archetype, with what the collection lacks for a legal deck of it (step 1)."""
    cards = list(cards)
    options = []
    for archetype, label in ARCHETYPE_LABELS.items():
        avatars = len(avatar_options(cards, archetype))
        quests = quest_options(cards, archetype)
        missing = []
        if not avatars:
            missing.append(f"no {label} avatar")
        lacking = [str(level) for level in QUEST_LEVELS if not quests[level]]
        if lacking:
            levels = ", ".join(lacking)
            missing.append(f"no {label} or generic quest of level {levels}")
        options.append(
            ArchetypeOption(
                archetype=archetype,
                label=label,
                avatars=avatars,
                deck_cards=_usable_copies(
                    card for card in cards if card.card_type in DECK_TYPES and fits(card, archetype)
                ),
                missing=tuple(missing),
            )
        )
    return options


def avatar_options(cards: Iterable[OwnedCard], archetype: str) -> list[OwnedCard]:
    """The player's avatars of the archetype (step 2), by title."""
    return sorted(
        (card for card in cards if card.card_type == "avatar" and card.archetype == archetype),
        key=lambda card: (card.title, card.id),
    )


def quest_options(cards: Iterable[OwnedCard], archetype: str) -> dict[int, list[OwnedCard]]:
    """The player's quests usable by the archetype, by level (step 3); the archetype's own
    quests come before generic ones, which is what the wizard suggests."""
    options: dict[int, list[OwnedCard]] = {level: [] for level in QUEST_LEVELS}
    for card in cards:
        if card.card_type == "quest" and fits(card, archetype) and card.level in options:
            options[card.level].append(card)
    for level_options in options.values():
        level_options.sort(key=lambda card: (card.archetype == "", card.title, card.id))
    return options


def fill_deck(
    cards: Iterable[OwnedCard],
    *,
    archetype: str,
    mix: Mapping[str, int],
    size: int = MIN_DECK_SIZE,
) -> DeckFill:
    """Choose ``size`` deck cards from the collection for an avatar of ``archetype``.

    Only unit, ability, item and tactic cards of the archetype or generic, of the types
    ``mix`` gives a share; never more copies than owned, nor more than four of a title.
    One copy at a time, it takes the card type furthest below its share of the deck, then
    that type's cost (COST_CURVE) furthest below its share of the type, and there the best
    card: the archetype's own before generic ones, then the one owned in most copies, the
    cheapest, by title. The best card keeps being taken until its copies run out, so the
    deck holds full sets rather than single copies. A type or cost with no cards left gives
    its place to the others; if the whole collection runs out, the fill comes up short
    (``DeckFill.missing``).
    """
    shares = {card_type: mix.get(card_type, 0) for card_type in DECK_TYPES}
    pool: dict[tuple[str, int], list[OwnedCard]] = {}
    for card in sorted(cards, key=_preference):
        if card.card_type in DECK_TYPES and shares[card.card_type] > 0 and fits(card, archetype):
            pool.setdefault((card.card_type, card.cost_bucket), []).append(card)
    total_share = sum(shares.values()) or 1
    type_targets = {card_type: size * share / total_share for card_type, share in shares.items()}
    copies: Counter[int] = Counter()
    per_title: Counter[str] = Counter()
    per_type: Counter[str] = Counter()
    per_cell: Counter[tuple[str, int]] = Counter()

    def next_card(cell: tuple[str, int]) -> OwnedCard | None:
        for card in pool[cell]:
            if copies[card.id] < card.owned and per_title[card.title] < MAX_COPIES:
                return card
        return None

    while sum(per_type.values()) < size:
        open_cells = [cell for cell in pool if next_card(cell) is not None]
        if not open_cells:
            break
        card_type = max(
            {cell[0] for cell in open_cells},
            key=lambda kind: (type_targets[kind] - per_type[kind], -DECK_TYPES.index(kind)),
        )
        cell = max(
            (cell for cell in open_cells if cell[0] == card_type),
            key=lambda cell: (
                type_targets[card_type] * COST_CURVE[cell[1]] / 100 - per_cell[cell],
                -cell[1],
            ),
        )
        card = next_card(cell)
        copies[card.id] += 1
        per_title[card.title] += 1
        per_type[card_type] += 1
        per_cell[cell] += 1
    return DeckFill(copies=dict(copies), size=size)


def _preference(card: OwnedCard) -> tuple:
    return (card.archetype == "", -min(card.owned, MAX_COPIES), card.cost or 0, card.title, card.id)


def _usable_copies(cards: Iterable[OwnedCard]) -> int:
    per_title: Counter[str] = Counter()
    for card in cards:
        per_title[card.title] += card.owned
    return sum(min(owned, MAX_COPIES) for owned in per_title.values())


# Reading and checking the steps ------------------------------------------------------------


def wizard_read(cards: Iterable[OwnedCard], data: Mapping, *, through: int) -> WizardChoices:
    """The answers of steps 1 to ``through`` read from a form's values and checked against
    the collection; raises WizardError at the first step that is missing or wrong."""
    by_id = {card.id: card for card in cards}
    choices = WizardChoices()
    for step in range(1, min(through, LAST_CHOICE_STEP) + 1):
        _READERS[step](choices, data)
        _check_step(by_id, choices, step)
    return choices


def wizard_check(cards: Iterable[OwnedCard], choices: WizardChoices) -> DeckFill:
    """Check every step's answer against the collection as it is now; the deck's fill."""
    by_id = {card.id: card for card in cards}
    for step in range(1, LAST_CHOICE_STEP):
        _check_step(by_id, choices, step)
    return _checked_fill(by_id, choices)


def _check_step(by_id: Mapping[int, OwnedCard], choices: WizardChoices, step: int) -> None:
    archetype = choices.archetype
    label = ARCHETYPE_LABELS.get(archetype, "")
    a_label = f"{'an' if label[:1] in 'AEIOU' else 'a'} {label}"
    if step == 1:
        option = next(
            (each for each in archetype_options(by_id.values()) if each.archetype == archetype),
            None,
        )
        if option is None:
            raise WizardError(1, "Choose one of the four archetypes.")
        if not option.available:
            raise WizardError(
                1,
                f"{a_label[0].upper()}{a_label[1:]} deck can't be built yet: "
                f"{'; '.join(option.missing)}.",
            )
    elif step == 2:
        avatar = by_id.get(choices.avatar_id)
        if avatar is None or avatar.card_type != "avatar":
            raise WizardError(2, "Choose an avatar from your collection.")
        if avatar.archetype != archetype:
            raise WizardError(2, f"{avatar.title} is not {a_label} avatar.")
    elif step == 3:
        for level in QUEST_LEVELS:
            quest = by_id.get(choices.quest_ids.get(level))
            if quest is None or quest.card_type != "quest":
                raise WizardError(3, f"Choose a level {level} quest from your collection.")
            if quest.level != level:
                raise WizardError(3, f"{quest.title} is a level {quest.level} quest, not {level}.")
            if not fits(quest, archetype):
                raise WizardError(3, f"{quest.title} is not {a_label} or generic quest.")
    elif step == 4:
        _checked_fill(by_id, choices)


def _checked_fill(by_id: Mapping[int, OwnedCard], choices: WizardChoices) -> DeckFill:
    fill = fill_deck(
        by_id.values(), archetype=choices.archetype, mix=choices.mix, size=choices.size
    )
    if fill.missing:
        raise WizardError(4, shortfall_message(fill, ARCHETYPE_LABELS[choices.archetype]))
    return fill


def shortfall_message(fill: DeckFill, label: str) -> str:
    return (
        f"Your collection has only {fill.total} {label} or generic cards of the chosen types "
        f"for this deck of {fill.size}: {fill.missing} more are missing. Give a share to more "
        f"card types, or add cards to your collection."
    )


def _read_archetype(choices: WizardChoices, data: Mapping) -> None:
    choices.archetype = str(data.get("archetype", ""))


def _read_avatar(choices: WizardChoices, data: Mapping) -> None:
    choices.avatar_id = object_id(data.get("avatar"))


def _read_quests(choices: WizardChoices, data: Mapping) -> None:
    choices.quest_ids = {}
    for level in QUEST_LEVELS:
        card_id = object_id(data.get(f"quest_{level}"))
        if card_id is not None:
            choices.quest_ids[level] = card_id


def read_mix(choices: WizardChoices, data: Mapping) -> None:
    """Step 4: the percent of each card type (adding up to 100) and the deck size."""
    mix = {}
    for card_type, label in TYPE_LABELS.items():
        share = whole_number_or_none(data.get(f"mix_{card_type}"), minimum=0, maximum=100)
        if share is None:
            raise WizardError(4, f"{label}: give a whole percentage from 0 to 100.")
        mix[card_type] = share
    if sum(mix.values()) != 100:
        raise WizardError(
            4, f"The shares add up to {sum(mix.values())}%; make them add up to 100%."
        )
    size = whole_number_or_none(
        data.get("size"), minimum=MIN_DECK_SIZE, maximum=MAX_WIZARD_DECK_SIZE
    )
    if size is None:
        raise WizardError(
            4, f"The wizard builds decks of {MIN_DECK_SIZE} to {MAX_WIZARD_DECK_SIZE} cards."
        )
    choices.mix = mix
    choices.size = size


_READERS = {1: _read_archetype, 2: _read_avatar, 3: _read_quests, 4: read_mix}
