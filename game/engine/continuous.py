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

from dataclasses import dataclass

from game.engine import select
from game.engine.state import State

STATS = ("attack", "defense", "damage_bonus", "health")
REINFORCEMENT_TURN = 8


def printed_keywords(state: State, card: int) -> list[dict]:
    return state.definitions[state.cards[card].definition]["rules"].get("keywords", ())


def has_printed_keyword(state: State, card: int, keyword: str) -> bool:
    """Printed and not lost (unique, reinforcement: keywords nothing grants)."""
    instance = state.cards[card]
    return keyword in _index(state).keywords[instance.definition] and (
        keyword not in instance.removed
    )


def is_elusive(state: State, card: int) -> bool:
    """Elusive cards can't be affected by other cards, so only printed elusive counts."""
    return has_printed_keyword(state, card, "elusive")


def kind_of(modifier: dict) -> str:
    """What a modifier changes: "modify:attack" (one kind per stat), "grant_keyword",
    "remove_keyword" or "prohibit"."""
    if modifier["primitive"] == "modify":
        return f"modify:{modifier['stat']}"
    return modifier["primitive"]


@dataclass(frozen=True)
class _Index:
    """What the engine looks up about a game's card definitions, worked out once:

    - ``reach``: for each definition, its statics by the kind of modifier they apply
      (``kind_of``), each with the definitions it could ever apply to (by type, trait or
      "self"), so most cards are passed over without reading the board;
    - ``used``: every primitive the cards use anywhere (a game whose cards never grant,
      remove or prohibit need not look for such modifiers);
    - ``keywords``: each definition's printed keyword names.
    """

    reach: list[dict[str, list[tuple[dict, frozenset[int]]]]]
    used: frozenset[str]
    keywords: list[frozenset[str]]


def _index(state: State) -> _Index:
    definitions = state.definitions
    if _last_index[0] is definitions:
        return _last_index[1]
    cached = _INDEXES.get(id(definitions))
    if cached is None or cached[0] is not definitions:
        cached = (definitions, _new_index(definitions))
        if len(_INDEXES) > 256:
            _INDEXES.clear()
        _INDEXES[id(definitions)] = cached
    _last_index[:] = cached
    return cached[1]


def _new_index(definitions: list[dict]) -> _Index:
    return _Index(
        reach=[_statics_reach(definitions, number) for number in range(len(definitions))],
        used=_primitives_used(definitions),
        keywords=[
            frozenset(entry["keyword"] for entry in printed["rules"].get("keywords", ()))
            for printed in definitions
        ],
    )


_INDEXES: dict[int, tuple[list[dict], _Index]] = {}
# The index used last: most lookups in a row are for the same game.
_last_index: list = [None, None]


def _statics_reach(definitions: list[dict], number: int) -> dict[str, list]:
    by_kind: dict[str, list] = {}
    for static in definitions[number]["rules"].get("statics", ()):
        selector = static["applies_to"]
        if "types" in selector:
            targets = frozenset(
                other
                for other, target in enumerate(definitions)
                if target["type"] in selector["types"]
                and ("trait" not in selector or selector["trait"] in target["traits"])
            )
        else:
            targets = frozenset({number})
        modifier = static["effect"]
        inner = modifier["effect"] if modifier["primitive"] == "for_each" else [modifier]
        for kind in {kind_of(each) for each in inner}:
            by_kind.setdefault(kind, []).append((static, targets))
    return by_kind


def _primitives_used(definitions: list[dict]) -> frozenset[str]:
    used = set()
    pending = [printed["rules"] for printed in definitions]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            if "primitive" in value:
                used.add(value["primitive"])
            pending += [item for item in value.values() if isinstance(item, dict | list)]
        elif isinstance(value, list):
            pending += [item for item in value if isinstance(item, dict | list)]
    return frozenset(used)


class unchanging:  # noqa: N801 (used as a context manager, like a function)
    """While the state is only read (listing the legal actions, building a view), modifiers
    found for a card are remembered instead of being looked up again."""

    def __enter__(self):
        global _memo
        self.outer = _memo
        if _memo is None:
            _memo = {}

    def __exit__(self, *exc):
        global _memo
        _memo = self.outer


_memo: dict | None = None


def modifiers(state: State, card: int, kind: str) -> list[tuple[dict, int]]:
    """Every modifier of ``kind`` on ``card`` now, each with how many times it counts (for
    each): from one-shot effects with a duration, links and targets, and statics."""
    if not (state.statics or state.lasting or state.marks):
        return []
    if _memo is None:
        return _modifiers(state, card, kind)
    key = (id(state), card, kind)
    found = _memo.get(key)
    if found is None:
        if card in _held(state) or state.cards[card].definition in _in_reach(state, kind):
            found = _modifiers(state, card, kind)
        else:
            found = []
        _memo[key] = found
    return found


def _in_reach(state: State, kind: str) -> frozenset[int]:
    """The definitions that some static in play could apply a modifier of ``kind`` to."""
    key = (id(state), "reach", kind)
    found = _memo.get(key)
    if found is None:
        reach = _index(state).reach
        found = _memo[key] = frozenset().union(
            *(
                targets
                for source, _ in _static_sources(state, kind)
                for _, targets in reach[state.cards[source].definition][kind]
            )
        )
    return found


def _static_sources(state: State, kind: str) -> list[tuple[int, "select.Context"]]:
    """The cards in play with statics that apply modifiers of ``kind``, with their context."""
    key = (id(state), kind)
    if _memo is not None and key in _memo:
        return _memo[key]
    reach = _index(state).reach
    sources = [
        (source, select.context_of(state, source))
        for source in state.statics
        if kind in reach[state.cards[source].definition]
    ]
    if _memo is not None:
        _memo[key] = sources
    return sources


def _held(state: State) -> dict[int, list[dict]]:
    """The modifiers of one-shot effects, links and targets, by the card they are on."""
    if not (state.lasting or state.marks):
        return _NOTHING_HELD
    key = (id(state), "held")
    if _memo is not None and key in _memo:
        return _memo[key]
    held: dict[int, list[dict]] = {}
    for entry in state.lasting:
        held.setdefault(entry["card"], []).append(entry["modifier"])
    for mark in state.marks:
        if mark["modifiers"]:
            held.setdefault(mark["card"], []).extend(mark["modifiers"])
    if _memo is not None:
        _memo[key] = held
    return held


_NOTHING_HELD: dict[int, list[dict]] = {}


def _modifiers(state: State, card: int, kind: str) -> list[tuple[dict, int]]:
    found = [(modifier, 1) for modifier in _held(state).get(card, ()) if kind_of(modifier) == kind]
    elusive = None
    definition = state.cards[card].definition
    reach = _index(state).reach
    for source, context in _static_sources(state, kind):
        for static, targets in reach[state.cards[source].definition][kind]:
            if definition not in targets:
                continue
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


def attribute(state: State, card: int, name: str) -> int | None:
    """The card's current ``cost``, ``level`` or stat: printed, then modified; never below 0.
    A card printed without a stat has none, unless a modifier gives it one."""
    printed = state.definitions[state.cards[card].definition][name]
    if name == "cost":
        # Only cards in hand are played, and nothing grants a keyword to a card in hand.
        if (
            printed
            and state.turn >= REINFORCEMENT_TURN
            and "reinforcement" in _index(state).keywords[state.cards[card].definition]
        ):
            return printed - 1
        return printed
    if name not in STATS:
        return printed
    changes = modifiers(state, card, f"modify:{name}")
    if not changes:
        return printed
    change = sum(modifier["amount"] * times for modifier, times in changes)
    return max(0, (printed or 0) + change)


def has_keyword(state: State, card: int, keyword: str) -> bool:
    """Printed or granted, and not removed: a removal wins over a grant."""
    instance = state.cards[card]
    if keyword in instance.removed:
        return False
    used = _index(state).used
    if "remove_keyword" in used:
        for modifier in _held(state).get(card, ()):
            if modifier["primitive"] == "remove_keyword" and modifier["keyword"] == keyword:
                return False
    if keyword in _index(state).keywords[instance.definition]:
        return True
    if "grant_keyword" not in used or not _may_grant(state):
        return False
    return any(
        modifier["keyword"] == keyword for modifier, _ in modifiers(state, card, "grant_keyword")
    )


def _may_grant(state: State) -> bool:
    """Whether anything on the playmat grants keywords now (rarely: a link, a static)."""
    if not (state.statics or state.lasting or state.marks):
        return False
    key = (id(state), "grants")
    if _memo is not None and key in _memo:
        return _memo[key]
    grants = (
        any(entry["modifier"]["primitive"] == "grant_keyword" for entry in state.lasting)
        or any(mark["modifiers"] for mark in state.marks)
        or bool(_static_sources(state, "grant_keyword"))
    )
    if _memo is not None:
        _memo[key] = grants
    return grants


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
    if "prohibit" not in _index(state).used:
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


def add_lasting(state: State, card: int, source: int | None, duration: str, modifier: dict) -> None:
    state.lasting.append(
        {"card": card, "source": source, "duration": duration, "modifier": modifier}
    )


def entered_play(state: State, card: int) -> None:
    printed_rules = state.definitions[state.cards[card].definition]["rules"]
    if printed_rules.get("statics"):
        state.statics.append(card)
    if printed_rules.get("triggers"):
        state.listeners.append(card)


def end_of(state: State, durations: tuple[str, ...]) -> None:
    """The end of a combat or a turn ends the effects that lasted until then."""
    state.lasting = [entry for entry in state.lasting if entry["duration"] not in durations]


def left_play(state: State, card: int) -> list[dict]:
    """Forget what applied to a card that left play, and what it applied while in play;
    returns the target marks on it (their ``when_destroyed`` may happen now)."""
    if card in state.statics:
        state.statics.remove(card)
    if card in state.listeners:
        state.listeners.remove(card)
    state.lasting = [
        entry
        for entry in state.lasting
        if entry["card"] != card
        and not (entry["duration"] == "while_in_play" and entry["source"] == card)
    ]
    ended = [mark for mark in state.marks if card in (mark["card"], mark["source"])]
    if ended:
        state.marks = [mark for mark in state.marks if mark not in ended]
    return [mark for mark in ended if mark["card"] == card and mark["kind"] == "target"]
