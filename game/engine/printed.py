"""What is printed on a game's cards: keywords, activated actions and statics, looked up
through an index worked out once per game (``index``).

Printed text alone, before any continuous effect (``game.engine.continuous`` applies those),
so selectors and continuous effects can both read it.
"""

from collections.abc import Sequence
from types import MappingProxyType

from game.engine.state import State
from game.engine.vocabulary import STATS

# The kind of modifier that changes each stat (``kind_of``).
MODIFIER_OF_STAT = MappingProxyType({stat: f"modify:{stat}" for stat in STATS})


def kind_of(modifier: dict) -> str:
    """What a modifier changes: "modify:attack" (one kind per stat), "grant_keyword",
    "remove_keyword" or "prohibit"."""
    if modifier["primitive"] == "modify":
        return MODIFIER_OF_STAT[modifier["stat"]]
    return modifier["primitive"]


def printed_keywords(state: State, card: int) -> Sequence[dict]:
    return state.definitions[state.cards[card].definition]["rules"].get("keywords", ())


def timed_actions(state: State, card: int, timing: str) -> list[tuple[int, dict]]:
    """The card's activated actions with ``timing`` ("main", "attack", "defend"), each with
    its index among the card's actions."""
    return index(state).actions[state.cards[card].definition].get(timing, [])


def has_printed_keyword(state: State, card: int, keyword: str) -> bool:
    """Printed and not lost (unique, reinforcement: keywords nothing grants)."""
    instance = state.cards[card]
    return keyword in index(state).keywords[instance.definition] and (
        keyword not in instance.removed
    )


def is_elusive(state: State, card: int) -> bool:
    """Elusive cards can't be affected by other cards, so only printed elusive counts."""
    return has_printed_keyword(state, card, "elusive")


class DefinitionsIndex:
    """What the engine looks up about a game's card definitions, worked out once:

    - ``reach``: for each definition, its statics by the kind of modifier they apply
      (``kind_of``), each with the definitions it could ever apply to (by type, trait or
      "self"), so most cards are passed over without reading the board;
    - ``used``: every primitive the cards use anywhere (a game whose cards never grant,
      remove or prohibit need not look for such modifiers);
    - ``keywords``: each definition's printed keyword names;
    - ``actions``: each definition's activated actions by timing, with their index.

    A plain class, like ``continuous._Board``: compiled (``make engine``), a dataclass would
    still be built by the Python code its decorator generates.
    """

    def __init__(self, definitions: list[dict]):
        self.reach: list[dict[str, list[tuple[dict, frozenset[int]]]]] = [
            _statics_reach(definitions, number) for number in range(len(definitions))
        ]
        self.used = _primitives_used(definitions)
        self.keywords: list[frozenset[str]] = [
            frozenset(entry["keyword"] for entry in printed["rules"].get("keywords", ()))
            for printed in definitions
        ]
        self.actions = [_actions_by_timing(printed) for printed in definitions]


def index(state: State) -> DefinitionsIndex:
    """The game's index, worked out the first time it is asked for: a game's definitions
    never change."""
    found: DefinitionsIndex | None = state.caches.index
    if found is None:
        found = state.caches.index = DefinitionsIndex(state.definitions)
    return found


def _actions_by_timing(printed: dict) -> dict[str, list[tuple[int, dict]]]:
    by_timing: dict[str, list[tuple[int, dict]]] = {}
    for number, action in enumerate(printed["rules"].get("actions", ())):
        by_timing.setdefault(action["timing"], []).append((number, action))
    return by_timing


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
