"""Continuous effects: a card's current attributes, keywords and prohibitions.

Three things change a card while it is on the playmat (docs/card-rules.md, "Modifiers"):

- statics of the cards in play, re-read every time, so they follow the board as it changes;
- links and targets (``State.marks``), until either card leaves play;
- one-shot effects with a duration (``State.lasting``), until the end of the combat or the
  turn, for as long as their source stays in play, or "permanently": until the changed card
  itself leaves play.

"Can't" beats "can": a prohibition from any source wins, and a keyword removed from a card
stays removed even if something else grants it (glossary, "game text").
"""

from game.engine import printed, select
from game.engine.printed import MODIFIER_OF_STAT, is_elusive, kind_of, printed_keywords
from game.engine.state import State

REINFORCEMENT_TURN = 8


class unchanging:  # noqa: N801 (used as a context manager, like a function)
    """While the state is only read (listing the legal actions, building a view), modifiers
    found for a card are remembered instead of being looked up again (``Caches.memo``)."""

    def __init__(self, state: State):
        self.caches = state.caches
        self.outer: dict | None = None

    def __enter__(self) -> None:
        self.outer = self.caches.memo
        if self.outer is None:
            self.caches.memo = {}

    def __exit__(self, *exc: object) -> None:
        self.caches.memo = self.outer


class _Board:
    """What the state's lists of statics, lasting effects and marks imply, worked out once
    for each version of those lists (``_board``):

    - ``held``: the modifiers of lasting effects, links and targets, by the card they are on;
    - ``sources``: for each kind of modifier, the cards in play with statics of that kind;
    - ``reach``: for each kind, the definitions some static in play could apply it to, so
      that every other card keeps its printed values without a look at the board;
    - ``grants``: whether anything could grant a keyword now.
    """

    def __init__(self, state: State):
        self.statics = state.statics
        self.lasting = state.lasting
        self.marks = state.marks
        self.held: dict[int, list[dict]] = {}
        for entry in state.lasting:
            self.held.setdefault(entry["card"], []).append(entry["modifier"])
        for mark in state.marks:
            if mark["modifiers"]:
                self.held.setdefault(mark["card"], []).extend(mark["modifiers"])
        reach_of = printed.index(state).reach
        self.sources: dict[str, list[int]] = {}
        reach: dict[str, set[int]] = {}
        for source in state.statics:
            for kind, statics in reach_of[state.cards[source].definition].items():
                self.sources.setdefault(kind, []).append(source)
                for _, targets in statics:
                    reach.setdefault(kind, set()).update(targets)
        self.reach = {kind: frozenset(definitions) for kind, definitions in reach.items()}
        self.grants = (
            any(entry["modifier"]["primitive"] == "grant_keyword" for entry in state.lasting)
            or any(mark["modifiers"] for mark in state.marks)
            or "grant_keyword" in self.sources
        )


def _board(state: State) -> _Board:
    # The lists are replaced, never changed in place (``entered_play``, ``add_lasting``,
    # ``add_mark``...), so the board worked out last is current while it holds the same ones.
    caches = state.caches
    found: _Board | None = caches.board
    if (
        found is not None
        and found.statics is state.statics
        and found.lasting is state.lasting
        and found.marks is state.marks
    ):
        return found
    found = caches.board = _Board(state)
    return found


_NOWHERE: frozenset[int] = frozenset()


def modifiers(state: State, card: int, kind: str) -> list[tuple[dict, int]]:
    """Every modifier of ``kind`` on ``card`` now, each with how many times it counts (for
    each): from one-shot effects with a duration, links and targets, and statics."""
    board = _board(state)
    if card not in board.held and state.cards[card].definition not in board.reach.get(
        kind, _NOWHERE
    ):
        return []
    memo = state.caches.memo
    if memo is None:
        return _modifiers(state, board, card, kind)
    key = (card, kind)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _modifiers(state, board, card, kind)
    return found


def _modifiers(state: State, board: _Board, card: int, kind: str) -> list[tuple[dict, int]]:
    found = [(modifier, 1) for modifier in board.held.get(card, ()) if kind_of(modifier) == kind]
    elusive = None
    definition = state.cards[card].definition
    reach = printed.index(state).reach
    for source in board.sources.get(kind, ()):
        context = None
        for static, targets in reach[state.cards[source].definition][kind]:
            if definition not in targets:
                continue
            if context is None:
                context = _context(state, source)
            if not select.matches(state, static["applies_to"], card, context):
                continue
            if source != card:
                if elusive is None:
                    elusive = is_elusive(state, card)
                if elusive:
                    continue
            if not select.holds(state, static["condition"], context):
                continue
            modifier = static["effect"]
            if modifier["primitive"] == "for_each":
                inner = [each for each in modifier["effect"] if kind_of(each) == kind]
                if inner:
                    times = select.count(state, modifier["counted"], context)
                    found += [(each, times) for each in inner]
            elif kind_of(modifier) == kind:
                found.append((modifier, 1))
    return found


def _context(state: State, source: int) -> "select.Context":
    """The context of a static's card, remembered while the state is only read."""
    memo = state.caches.memo
    if memo is None:
        return select.context_of(state, source)
    key = ("context", source)
    context = memo.get(key)
    if context is None:
        context = memo[key] = select.context_of(state, source)
    return context


def attribute(state: State, card: int, name: str) -> int | None:
    """The card's current ``cost``, ``level`` or stat: printed, then modified; never below 0.
    A card printed without a stat has none, unless a modifier gives it one."""
    printed_value = state.definitions[state.cards[card].definition][name]
    if name == "cost":
        # Only cards in hand are played, and nothing grants a keyword to a card in hand.
        if (
            printed_value
            and state.turn >= REINFORCEMENT_TURN
            and "reinforcement" in printed.index(state).keywords[state.cards[card].definition]
        ):
            return printed_value - 1
        return printed_value
    kind = MODIFIER_OF_STAT.get(name)
    if kind is None:
        return printed_value
    changes = modifiers(state, card, kind)
    if not changes:
        return printed_value
    change = sum(modifier["amount"] * times for modifier, times in changes)
    return max(0, (printed_value or 0) + change)


def has_keyword(state: State, card: int, keyword: str) -> bool:
    """Printed or granted, and not removed: a removal wins over a grant."""
    instance = state.cards[card]
    if keyword in instance.removed:
        return False
    index = printed.index(state)
    board = _board(state)
    if "remove_keyword" in index.used:
        for modifier in board.held.get(card, ()):
            if modifier["primitive"] == "remove_keyword" and modifier["keyword"] == keyword:
                return False
    if keyword in index.keywords[instance.definition]:
        return True
    if not board.grants:
        return False
    return any(
        modifier["keyword"] == keyword for modifier, _ in modifiers(state, card, "grant_keyword")
    )


def current_keywords(state: State, card: int) -> list[str]:
    """Every keyword the card has now: printed or granted, less those it lost."""
    names = [entry["keyword"] for entry in printed_keywords(state, card)]
    names += [modifier["keyword"] for modifier, _ in modifiers(state, card, "grant_keyword")]
    return [name for name in dict.fromkeys(names) if has_keyword(state, card, name)]


def keyword_parameter(state: State, card: int, keyword: str, name: str):
    for entry in printed_keywords(state, card):
        if entry["keyword"] == keyword:
            return entry.get(name)
    return None


def prohibited(state: State, card: int, action: str) -> bool:
    """Whether the card can't ``exert``, ``ready`` or ``raid`` now ("can't" beats "can")."""
    if "prohibit" not in printed.index(state).used:
        return False
    return any(modifier["action"] == action for modifier, _ in modifiers(state, card, "prohibit"))


def shield_points(state: State, card: int) -> int:
    """Shield points that would stop damage now: none while the card has lost Shield."""
    points = state.cards[card].shield
    if points and not has_keyword_unremoved(state, card, "shield"):
        return 0
    return points


def has_keyword_unremoved(state: State, card: int, keyword: str) -> bool:
    """Whether no effect has taken the keyword away (shield points stay, but unused)."""
    return not any(
        modifier["keyword"] == keyword for modifier, _ in modifiers(state, card, "remove_keyword")
    )


# Keeping the lasting effects and marks up to date


# The lists of statics, lasting effects, marks and listeners are replaced, never changed in
# place: what they imply is worked out again only when one of them is replaced (``_board``,
# ``triggers._listening``).


def add_lasting(state: State, card: int, source: int | None, duration: str, modifier: dict) -> None:
    entry = {"card": card, "source": source, "duration": duration, "modifier": modifier}
    state.lasting = [*state.lasting, entry]


def add_mark(state: State, mark: dict) -> None:
    """A link or a target: ``{"kind", "source", "card", "controller", "modifiers",
    "when_destroyed"}``."""
    state.marks = [*state.marks, mark]


def entered_play(state: State, card: int) -> None:
    printed_rules = state.definitions[state.cards[card].definition]["rules"]
    if printed_rules.get("statics"):
        state.statics = [*state.statics, card]
    if printed_rules.get("triggers"):
        state.listeners = [*state.listeners, card]


def end_of(state: State, durations: tuple[str, ...]) -> None:
    """The end of a combat or a turn ends the effects that lasted until then."""
    if any(entry["duration"] in durations for entry in state.lasting):
        state.lasting = [entry for entry in state.lasting if entry["duration"] not in durations]


def left_play(state: State, card: int) -> list[dict]:
    """Forget what applied to a card that left play, and what it applied while in play;
    returns the target marks on it (their ``when_destroyed`` may happen now)."""
    if card in state.statics:
        state.statics = [source for source in state.statics if source != card]
    if card in state.listeners:
        state.listeners = [listener for listener in state.listeners if listener != card]
    if any(_ends_with(entry, card) for entry in state.lasting):
        state.lasting = [entry for entry in state.lasting if not _ends_with(entry, card)]
    ended = [mark for mark in state.marks if card in (mark["card"], mark["source"])]
    if ended:
        state.marks = [mark for mark in state.marks if mark not in ended]
    return [mark for mark in ended if mark["card"] == card and mark["kind"] == "target"]


def _ends_with(entry: dict, card: int) -> bool:
    """Whether a lasting effect ends when ``card`` leaves play: it is on that card, or lasts
    while that card is in play."""
    return entry["card"] == card or (
        entry["duration"] == "while_in_play" and entry["source"] == card
    )
