"""The rulebook's DECK BUILDING rules, a play format's own restrictions, a deck's statistics
and the plain-text deck list.

Pure Python (no Django): the Deck Builder's Validate tool, the set-file checks of starter
decks (``collection.cards.cardrules``), and later match creation and tournament entry all ask
``check_deck``, so each rule is written once. Callers describe cards by ``CardFacts``, the
few facts of a card that deck rules read.
"""

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from game.engine.vocabulary import DECK_TYPES

QUEST_LEVELS = (2, 4, 5, 6)
MAX_COPIES = 4
MIN_DECK_SIZE = 50

# The rules' names, as the rulebook words them (DECK BUILDING).
AVATAR_RULE = "Choose one avatar card"
QUEST_RULE = "Choose four quest cards, one of each level (2, 4, 5 and 6)"
DECK_SIZE_RULE = "Your deck must have at least 50 cards"
COPIES_RULE = "No more than four copies of a single card title in your deck"
DECK_TYPES_RULE = "Your deck can't contain any avatar or quest cards"
ARCHETYPE_RULE = "Cards with an archetype match your avatar's archetype"
# A format's own restrictions (DECK BUILDER, Validate: "several different play formats").
SETS_RULE = "Cards from the format's sets only"
BANNED_RULE = "No banned titles"
RESTRICTED_RULE = "At most one copy of each restricted title"
POOL_ONLY_RULE = "Built from a Limited card pool"
# Where the cards come from: the collection, or a Limited card pool.
OWNED_RULE = "Only cards you own, up to the copies you own"
POOL_RULE = "Only cards of your card pool, up to its copies"

SECTION_HEADERS = MappingProxyType({"avatar": "Avatar", "quests": "Quests", "deck": "Deck"})
MAX_IMPORT_LINES = 400
MAX_IMPORT_COPIES = 99


@dataclass(frozen=True)
class CardFacts:
    """What deck rules need to know of a card."""

    title: str
    card_type: str
    archetype: str = ""  # "" is generic
    level: int | None = None
    cost: int | None = None
    set_number: int | None = None
    card_id: int | None = None
    player_made: bool = False  # an avatar made with Create Avatar, allowed in every format


@dataclass(frozen=True)
class DeckLine:
    card: CardFacts
    copies: int


@dataclass(frozen=True)
class DeckList:
    """The three parts a player builds: avatar, quest pile and deck."""

    avatar: tuple[DeckLine, ...] = ()
    quests: tuple[DeckLine, ...] = ()
    deck: tuple[DeckLine, ...] = ()

    @classmethod
    def by_type(cls, lines: Iterable[DeckLine]) -> "DeckList":
        """Sort lines into the three parts by card type, as the Deck Builder does."""
        lines = [line for line in lines if line.copies > 0]
        return cls(
            avatar=tuple(line for line in lines if line.card.card_type == "avatar"),
            quests=tuple(line for line in lines if line.card.card_type == "quest"),
            deck=tuple(line for line in lines if line.card.card_type not in ("avatar", "quest")),
        )

    @property
    def lines(self) -> tuple[DeckLine, ...]:
        return self.avatar + self.quests + self.deck

    @property
    def deck_size(self) -> int:
        return sum(line.copies for line in self.deck)


@dataclass(frozen=True)
class FormatRules:
    """A play format's restrictions beyond the rulebook's deck rules."""

    name: str
    allowed_sets: Mapping[int, str] = field(default_factory=dict)  # number → name; empty: all
    banned_titles: frozenset[str] = frozenset()
    restricted_titles: frozenset[str] = frozenset()
    limited: bool = False  # decks come from a Limited card pool


@dataclass(frozen=True)
class CardSupply:
    """The copies of each card (by id) a player may put in a deck."""

    counts: Mapping[int, int]
    pool: bool = False  # a Limited card pool rather than the player's collection


@dataclass(frozen=True)
class RuleCheck:
    """One rule's verdict; ``explanation`` names the offending cards when it fails."""

    rule: str
    ok: bool
    explanation: str
    offending: tuple[str, ...] = ()


def check_deck(
    deck: DeckList, rules: FormatRules | None = None, *, supply: CardSupply | None = None
) -> list[RuleCheck]:
    """Every deck rule of the rulebook, then the format's and the supply's, in that order."""
    checks = [
        _check_avatar(deck),
        _check_quests(deck),
        _check_deck_size(deck),
        _check_copies(deck),
        _check_deck_types(deck),
        _check_archetypes(deck),
    ]
    if rules is not None:
        checks += _format_checks(deck, rules, supply)
    if supply is not None:
        checks.append(_check_supply(deck, supply))
    return checks


def _check_avatar(deck: DeckList) -> RuleCheck:
    count = sum(line.copies for line in deck.avatar)
    not_avatars = _titles(line for line in deck.avatar if line.card.card_type != "avatar")
    if not_avatars:
        return RuleCheck(
            AVATAR_RULE,
            False,
            f"{_listed(not_avatars)} {_is_are(not_avatars)} not an avatar.",
            not_avatars,
        )
    if count == 1:
        avatar = deck.avatar[0].card
        archetype = avatar.archetype or "generic"
        return RuleCheck(
            AVATAR_RULE, True, f"{_quoted(avatar.title)}, {_article(archetype)} avatar."
        )
    if count == 0:
        return RuleCheck(AVATAR_RULE, False, "The deck has no avatar: choose one avatar card.")
    titles = _titles(deck.avatar)
    return RuleCheck(
        AVATAR_RULE,
        False,
        f"The deck has {count} avatar cards ({_listed(titles)}): keep exactly one.",
        titles,
    )


def _check_quests(deck: DeckList) -> RuleCheck:
    not_quests = _titles(line for line in deck.quests if line.card.card_type != "quest")
    if not_quests:
        return RuleCheck(
            QUEST_RULE,
            False,
            f"{_listed(not_quests)} {_is_are(not_quests)} not a quest card.",
            not_quests,
        )
    levels = Counter()
    for line in deck.quests:
        levels[line.card.level] += line.copies
    count = sum(levels.values())
    if count == len(QUEST_LEVELS) and set(levels) == set(QUEST_LEVELS):
        return RuleCheck(QUEST_RULE, True, "One quest of each level 2, 4, 5 and 6.")
    problems = []
    if count != len(QUEST_LEVELS):
        problems.append(f"The quest pile has {count} quest card{_s(count)}, not four.")
    missing = [str(level) for level in QUEST_LEVELS if not levels[level]]
    if missing:
        problems.append(f"Missing level {_and(missing)}.")
    repeated = [level for level, copies in sorted(levels.items(), key=_by_level) if copies > 1]
    offending = _titles(line for line in deck.quests if line.card.level in repeated)
    for level in repeated:
        titles = _titles(line for line in deck.quests if line.card.level == level)
        problems.append(f"{levels[level]} quests of level {level}: {_listed(titles)}.")
    return RuleCheck(QUEST_RULE, False, " ".join(problems), offending)


def _check_deck_size(deck: DeckList) -> RuleCheck:
    size = deck.deck_size
    if size >= MIN_DECK_SIZE:
        return RuleCheck(DECK_SIZE_RULE, True, f"{size} cards.")
    return RuleCheck(
        DECK_SIZE_RULE,
        False,
        f"The deck has {size} card{_s(size)}: add at least {MIN_DECK_SIZE - size} more.",
    )


def _check_copies(deck: DeckList) -> RuleCheck:
    copies = _copies_by_title(deck.deck)
    over = [(title, count) for title, count in copies.items() if count > MAX_COPIES]
    if not over:
        return RuleCheck(COPIES_RULE, True, f"At most {MAX_COPIES} copies of each title.")
    listed = "; ".join(f"{count} copies of {_quoted(title)}" for title, count in over)
    return RuleCheck(
        COPIES_RULE,
        False,
        f"{listed}. Keep at most {MAX_COPIES} of a title.",
        tuple(title for title, _ in over),
    )


def _check_deck_types(deck: DeckList) -> RuleCheck:
    wrong = [line.card for line in deck.deck if line.card.card_type not in DECK_TYPES]
    if not wrong:
        return RuleCheck(DECK_TYPES_RULE, True, "Units, abilities, items and tactics only.")
    described = ", ".join(f"{_quoted(card.title)} is {_article(card.card_type)}" for card in wrong)
    return RuleCheck(
        DECK_TYPES_RULE,
        False,
        f"{described}: avatars and quests go in their own piles.",
        tuple(dict.fromkeys(card.title for card in wrong)),
    )


def _check_archetypes(deck: DeckList) -> RuleCheck:
    with_archetype = [line.card for line in deck.quests + deck.deck if line.card.archetype]
    avatar_archetypes = {line.card.archetype for line in deck.avatar}
    if len(avatar_archetypes) != 1:
        if not with_archetype:
            return RuleCheck(ARCHETYPE_RULE, True, "Every quest and card is generic.")
        titles = tuple(dict.fromkeys(card.title for card in with_archetype))
        return RuleCheck(
            ARCHETYPE_RULE,
            False,
            f"Without one avatar, cards with an archetype match nothing: {_listed(titles)}.",
            titles,
        )
    (archetype,) = avatar_archetypes
    avatar = deck.avatar[0].card
    foreign = list(dict.fromkeys(card for card in with_archetype if card.archetype != archetype))
    if not foreign:
        label = f"{archetype} or generic" if archetype else "generic"
        return RuleCheck(ARCHETYPE_RULE, True, f"Every quest and card is {label}.")
    described = ", ".join(f"{_quoted(card.title)} is {card.archetype}" for card in foreign)
    return RuleCheck(
        ARCHETYPE_RULE,
        False,
        f"{described}, not {archetype or 'generic'} like the avatar {_quoted(avatar.title)}.",
        tuple(dict.fromkeys(card.title for card in foreign)),
    )


def _format_checks(
    deck: DeckList, rules: FormatRules, supply: CardSupply | None
) -> list[RuleCheck]:
    checks = []
    lines = deck.lines
    if rules.allowed_sets:
        outside = _titles(
            line
            for line in lines
            if not line.card.player_made and line.card.set_number not in rules.allowed_sets
        )
        sets = _and([f"{number}. {name}" for number, name in sorted(rules.allowed_sets.items())])
        checks.append(
            RuleCheck(SETS_RULE, True, f"Every card is from {sets}.")
            if not outside
            else RuleCheck(
                SETS_RULE,
                False,
                f"{_listed(outside)} {_is_are(outside)} not from {sets}.",
                outside,
            )
        )
    if rules.banned_titles:
        banned = {title.casefold() for title in rules.banned_titles}
        found = _titles(line for line in lines if line.card.title.casefold() in banned)
        checks.append(
            RuleCheck(BANNED_RULE, True, "No card of the deck is banned in this format.")
            if not found
            else RuleCheck(BANNED_RULE, False, f"{_listed(found)} {_is_are(found)} banned.", found)
        )
    if rules.restricted_titles:
        restricted = {title.casefold() for title in rules.restricted_titles}
        over = [
            (title, count)
            for title, count in _copies_by_title(lines).items()
            if title.casefold() in restricted and count > 1
        ]
        listed = "; ".join(f"{count} copies of {_quoted(title)}" for title, count in over)
        checks.append(
            RuleCheck(RESTRICTED_RULE, True, "At most one copy of each restricted title.")
            if not over
            else RuleCheck(
                RESTRICTED_RULE,
                False,
                f"{listed}: a restricted title allows one copy.",
                tuple(title for title, _ in over),
            )
        )
    if rules.limited:
        from_pool = supply is not None and supply.pool
        checks.append(
            RuleCheck(POOL_ONLY_RULE, True, "Built in the Limited Deck Builder.")
            if from_pool
            else RuleCheck(
                POOL_ONLY_RULE,
                False,
                "Limited decks are built in the Limited Deck Builder from the card pool a "
                "sealed tournament gives you, not from your collection.",
            )
        )
    return checks


def _check_supply(deck: DeckList, supply: CardSupply) -> RuleCheck:
    rule = POOL_RULE if supply.pool else OWNED_RULE
    used = Counter()
    titles = {}
    for line in deck.lines:
        used[line.card.card_id] += line.copies
        titles[line.card.card_id] = line.card.title
    short = [
        (titles[card_id], copies, supply.counts.get(card_id, 0))
        for card_id, copies in used.items()
        if copies > supply.counts.get(card_id, 0)
    ]
    if not short:
        where = "your card pool" if supply.pool else "your collection"
        return RuleCheck(rule, True, f"Every card is in {where}.")
    have = "the pool has" if supply.pool else "you own"
    described = "; ".join(
        f"{copies} copies of {_quoted(title)}, {have} {available}"
        for title, copies, available in short
    )
    return RuleCheck(rule, False, f"{described}.", tuple(title for title, _, _ in short))


# Statistics (DECK BUILDER, Statistics: "Your avatar and quests are not included") --------


@dataclass(frozen=True)
class TypeShare:
    card_type: str
    count: int
    percent: float


@dataclass(frozen=True)
class CostRow:
    """The deck's cards of one cost, by type; ``percent`` is of the whole deck."""

    cost: int | None
    counts: Mapping[str, int]
    total: int
    percent: float


@dataclass(frozen=True)
class DeckStatistics:
    total: int
    types: tuple[TypeShare, ...]  # every deck card type, in DECK_TYPES order
    costs: tuple[CostRow, ...]  # every cost from 0 to the highest, then cards without cost


def deck_statistics(deck: DeckList) -> DeckStatistics:
    """The Ratios (cards by type) and Costs (cards by type and cost) of the deck part."""
    lines = [line for line in deck.deck if line.card.card_type in DECK_TYPES]
    total = sum(line.copies for line in lines)
    by_type = Counter()
    by_cost: dict[int | None, Counter] = {}
    for line in lines:
        by_type[line.card.card_type] += line.copies
        by_cost.setdefault(line.card.cost, Counter())[line.card.card_type] += line.copies
    known_costs = [cost for cost in by_cost if cost is not None]
    costs = list(range(0, max(known_costs) + 1)) if known_costs else []
    if None in by_cost:
        costs.append(None)
    rows = []
    for cost in costs:
        counts = by_cost.get(cost, Counter())
        row_total = sum(counts.values())
        rows.append(
            CostRow(
                cost=cost,
                counts={card_type: counts[card_type] for card_type in DECK_TYPES},
                total=row_total,
                percent=_percent(row_total, total),
            )
        )
    return DeckStatistics(
        total=total,
        types=tuple(
            TypeShare(card_type, by_type[card_type], _percent(by_type[card_type], total))
            for card_type in DECK_TYPES
        ),
        costs=tuple(rows),
    )


def _percent(part: int, whole: int) -> float:
    return 100 * part / whole if whole else 0.0


# The plain-text deck list -----------------------------------------------------------------


@dataclass(frozen=True)
class LineProblem:
    number: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"Line {self.number} \u201c{self.text}\u201d: {self.message}"


@dataclass(frozen=True)
class ParsedDeck:
    lines: tuple[DeckLine, ...]
    problems: tuple[LineProblem, ...]
    name: str = ""


def export_text(deck: DeckList, *, name: str = "") -> str:
    """The deck as "4 Title" lines under the headers Avatar, Quests and Deck."""
    out = [f"# {name}"] if name else []
    for section, header in SECTION_HEADERS.items():
        lines = getattr(deck, section)
        if out:
            out.append("")
        out.append(header)
        out += [f"{line.copies} {line.card.title}" for line in lines]
    return "\n".join(out) + "\n"


_COUNTED_LINE = re.compile(r"^(?P<copies>\d{1,6})\s*[x\u00d7]?\s+(?P<title>\S.*)$", re.IGNORECASE)
_HEADER = re.compile(r"^(avatars?|quests?(?: pile)?|deck)\s*(\(\d*\))?\s*:?$", re.IGNORECASE)


def parse_text(
    text: str, cards: Mapping[str, CardFacts], *, supply: CardSupply | None = None
) -> ParsedDeck:
    """Read a deck list back: "4 Title" lines ("4x Title" and a bare "Title" work too).

    A "# Name" first line (Export writes one) names the deck. Headers, blank lines and other
    "#" comments are skipped; a card's type decides its part, not the header above it.
    ``cards`` maps titles to cards (case does not matter). With ``supply``, copies beyond what
    it holds are left out. Every line that can't be taken as written gets a problem; the
    lines that can still count.
    """
    by_title = {_title_key(title): card for title, card in cards.items()}
    counted: dict[CardFacts, int] = {}
    problems = []
    rows = text.splitlines()
    first = next((row.strip() for row in rows if row.strip()), "")
    name = " ".join(first[1:].split()) if first.startswith("#") else ""
    for number, row in enumerate(rows[:MAX_IMPORT_LINES], start=1):
        line = " ".join(row.split())
        if not line or line.startswith("#") or _HEADER.match(line):
            continue
        shown = line if len(line) <= 60 else line[:57] + "..."
        match = _COUNTED_LINE.match(line)
        copies, title = (int(match["copies"]), match["title"]) if match else (1, line)
        if not 1 <= copies <= MAX_IMPORT_COPIES:
            problems.append(
                LineProblem(number, shown, f"copies must be from 1 to {MAX_IMPORT_COPIES}.")
            )
            continue
        card = by_title.get(_title_key(title))
        if card is None:
            problems.append(LineProblem(number, shown, "no card has this title."))
            continue
        if supply is not None:
            already = counted.get(card, 0)
            available = max(supply.counts.get(card.card_id, 0) - already, 0)
            if available < copies:
                message = _short_message(supply, available, more=bool(already))
                problems.append(LineProblem(number, shown, message))
                copies = available
        if copies:
            counted[card] = counted.get(card, 0) + copies
    if len(rows) > MAX_IMPORT_LINES:
        skipped = f"not read: a deck list has at most {MAX_IMPORT_LINES} lines."
        problems.append(LineProblem(MAX_IMPORT_LINES + 1, rows[MAX_IMPORT_LINES][:60], skipped))
    return ParsedDeck(
        lines=tuple(DeckLine(card, copies) for card, copies in counted.items()),
        problems=tuple(problems),
        name=name,
    )


def _short_message(supply: CardSupply, available: int, *, more: bool) -> str:
    """Copies beyond the supply; ``more`` when earlier lines already took some."""
    have = "your card pool holds" if supply.pool else "you own"
    extra = " more" if more else ""
    if not available:
        return f"{have} no{extra} copies; none imported."
    return f"{have} only {available}{extra}; {available} imported."


def _title_key(title: str) -> str:
    return " ".join(title.replace("\u2019", "'").split()).casefold()


# Wording ---------------------------------------------------------------------------------


def _titles(lines: Iterable[DeckLine]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(line.card.title for line in lines))


def _copies_by_title(lines: Iterable[DeckLine]) -> dict[str, int]:
    copies: dict[str, int] = {}
    for line in lines:
        copies[line.card.title] = copies.get(line.card.title, 0) + line.copies
    return copies


def _quoted(title: str) -> str:
    return repr(title)


def _listed(titles: Iterable[str]) -> str:
    return _and([_quoted(title) for title in titles])


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _is_are(items) -> str:
    return "is" if len(items) == 1 else "are"


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _article(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def _by_level(item):
    level, _ = item
    return (level is None, level or 0)
