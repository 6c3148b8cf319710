"""Selectors and conditions of the card-rules vocabulary (docs/card-rules.md, "Selectors" and
"Conditions"): which cards on the playmat an effect, a cost, a static or an event is about.

A selector is read relative to a ``Context``: the card that has the text, its controller, the
quest it is at, the card an event is about, and the cards chosen by earlier effects.
"""

from collections.abc import Callable, Mapping
from types import MappingProxyType

from game.engine.printed import is_elusive
from game.engine.state import (
    ATTACKING,
    DEFENDING,
    State,
    card_type,
    definition,
    opponent,
    side_of,
    sides,
)

ROLES = MappingProxyType({"attacking": ATTACKING, "defending": DEFENDING})


class Context:
    """Whose text is being read, and what "this quest", "that unit" and "it" refer to.

    A plain class, not a dataclass: compiled, a dataclass is built by generated Python code,
    and a context is built for every card whose text is read."""

    def __init__(
        self,
        source: int | None,
        controller: int,
        at: int | None = None,
        event_card: int | None = None,
        chosen: list[int] | None = None,
        commanded: dict[int, int] | None = None,
    ):
        self.source = source
        self.controller = controller
        self.at = at  # index of the quest the source is (or was last) at
        self.event_card = event_card
        self.chosen: list[int] = [] if chosen is None else chosen
        # Who commanded the teammates' units of a combat as the events read now happened
        # (``commanders``), for the events read after a unit left the combat or it ended.
        self.commanded = commanded


def context_of(state: State, source: int, event_card: int | None = None) -> Context:
    return Context(source, controller_of(state, source), location(state, source), event_card)


def controller_of(state: State, card: int, commanded: dict[int, int] | None = None) -> int:
    """Whose card it is for its text's "you" and "your": its controller's or, while a
    teammate commands the unit in a combat, that commander's (MULTIPLAYER GAMES,
    "Commanders": "you" and "your" in that card's game text refers to you).

    ``commanded``: who commanded the teammates' units when the events being read happened
    (``commanders``, taken before the step that emitted them), for a unit that has since
    left the combat, or whose combat has since ended: "When this unit wins a combat" is
    read once the combat is over, and speaks to the player who commanded it there."""
    controller = state.cards[card].controller
    if state.teams is None:
        return controller
    combat = state.combat
    if combat is not None:
        for side in combat.sides:
            if card in side.combatants:
                return side.seat
    if commanded is not None:
        return commanded.get(card, controller)
    return controller


def commanders(state: State) -> dict[int, int] | None:
    """The combatants of the combat in progress that a teammate of their controller commands,
    each with its commander's seat (MULTIPLAYER GAMES, "Commanders"); None if there are
    none: in a two-player game, out of combat, or while each player commands his own."""
    combat = state.combat
    if combat is None or state.teams is None:
        return None
    found: dict[int, int] | None = None
    cards = state.cards
    for side in combat.sides:
        for card in side.combatants:
            if cards[card].controller != side.seat:
                if found is None:
                    found = {}
                found[card] = side.seat
    return found


def friendly(state: State, seat: int, other: int) -> bool:
    """Whether ``other``'s cards are friendly to ``seat``: his own and his teammates'
    (glossary, "friendly")."""
    return seat == other or (
        state.teams is not None and side_of(state, seat) == side_of(state, other)
    )


def in_play(state: State) -> list[int]:
    """Every card on the playmat: avatars, quests, items, abilities and units."""
    cards = []
    teams = state.teams
    if teams is None:
        for player in state.seats:
            cards.append(player.avatar)
            cards += player.items
            cards += player.abilities
    else:
        for seat, player in enumerate(state.seats):
            if seat not in teams.left:  # a destroyed player's avatar left with him
                cards.append(player.avatar)
            cards += player.items
            cards += player.abilities
    for quest in state.quests:
        cards.append(quest.card)
        for units in quest.units:
            cards += units
    return cards


def in_play_of_types(state: State, types: list[str]) -> list[int]:
    """The cards on the playmat of one of ``types``, in playmat order (``in_play``)."""
    remembered = state.caches.memo
    key = ("in_play", id(types))
    if remembered is not None and key in remembered:
        return remembered[key]
    definitions, cards = state.definitions, state.cards
    found = [
        card for card in in_play(state) if definitions[cards[card].definition]["type"] in types
    ]
    if remembered is not None:
        remembered[key] = found
    return found


def is_in_play(state: State, card: int) -> bool:
    return location(state, card) is not None or _beside_avatar(state, card)


def _beside_avatar(state: State, card: int) -> bool:
    return any(
        card == player.avatar or card in player.items or card in player.abilities
        for player in state.seats
    )


def location(state: State, card: int) -> int | None:
    """The index of the quest a unit is at, or of a quest card itself; None otherwise."""
    kind = state.definitions[state.cards[card].definition]["type"]
    if kind == "unit":
        for index, quest in enumerate(state.quests):
            for units in quest.units:
                if card in units:
                    return index
    elif kind == "quest":
        for index, quest in enumerate(state.quests):
            if quest.card == card:
                return index
    return None


def combatants(state: State) -> list[int]:
    if state.combat is None:
        return []
    return [card for side in state.combat.sides for card in side.combatants]


def matches(
    state: State, selector: dict, card: int, context: Context, *, at: int | None = None
) -> bool:
    """Whether ``card`` is one the selector describes. ``at`` gives the quest of a card that
    has just left play (the unit destroyed "at this quest")."""
    types = selector.get("types")
    if types is None:
        if "self" in selector:
            return card == context.source
        if "event_card" in selector:
            return card == context.event_card
        return card in context.chosen
    instance = state.cards[card]
    printed = state.definitions[instance.definition]
    if printed["type"] not in types:
        return False
    side = selector["side"]
    if state.teams is None:
        if side == "opposing":
            if instance.controller == context.controller:
                return False
        elif side != "any" and instance.controller != context.controller:
            return False
    elif side != "any":
        if side == "yours":
            if controller_of(state, card, context.commanded) != context.controller:
                return False
        elif friendly(state, instance.controller, context.controller) != (side == "friendly"):
            return False
    if selector.get("other") and card == context.source:
        return False
    if "trait" in selector and selector["trait"] not in printed["traits"]:
        return False
    if "max_cost" in selector and (printed["cost"] or 0) > selector["max_cost"]:
        return False
    wanted_state = selector.get("state")
    if wanted_state == "ready" and instance.exerted:
        return False
    if wanted_state == "exerted" and not instance.exerted:
        return False
    if wanted_state == "damaged" and not instance.damage:
        return False
    where = selector.get("where", "anywhere")
    if where == "anywhere":
        return True
    if where == "combat":
        return card in combatants(state)
    quest = location(state, card) if at is None else at
    if where == "this_quest":
        return quest is not None and quest == context.at
    # combat_quest
    return state.combat is not None and quest == state.combat.quest


def matching(
    state: State, selector: dict, context: Context, *, affecting: bool = False
) -> list[int]:
    """The cards a selector describes: the referenced ones, or every card on the playmat that
    matches a filter. ``affecting``: only cards an effect of the source may affect (an elusive
    card can't be affected by other cards)."""
    if "self" in selector:
        found = [] if context.source is None else [context.source]
    elif "event_card" in selector:
        found = [] if context.event_card is None else [context.event_card]
    elif "chosen" in selector:
        found = list(context.chosen)
    else:
        found = [
            card
            for card in in_play_of_types(state, selector["types"])
            if matches(state, selector, card, context)
        ]
    if affecting:
        found = [card for card in found if card == context.source or not is_elusive(state, card)]
    return found


def any_matching(
    state: State, selector: dict, context: Context, useful=None, *, affecting: bool = False
) -> bool:
    """Whether some card matches (and is ``useful``): ``matching`` without the whole list."""
    if "types" not in selector:
        cards = matching(state, selector, context, affecting=affecting)
        return any(useful is None or useful(state, card) for card in cards)
    for card in in_play_of_types(state, selector["types"]):
        if (
            matches(state, selector, card, context)
            and (not affecting or card == context.source or not is_elusive(state, card))
            and (useful is None or useful(state, card))
        ):
            return True
    return False


def count(state: State, selector: dict, context: Context) -> int:
    """How many cards on the playmat match (glossary, "for each": only the playmat counts)."""
    return len(matching(state, selector, context))


def seat_of(state: State, context: Context, player: str) -> int:
    """The seat ``you`` or ``opponent`` names, from the controller's point of view."""
    return context.controller if player == "you" else opponent(state, context.controller)


def holds(state: State, condition: dict | None, context: Context) -> bool:
    """Whether a condition holds now; no condition always holds."""
    if condition is None:
        return True
    return CONDITIONS[condition["condition"]](state, condition, context)


def _count_at_least(state: State, condition: dict, context: Context) -> bool:
    return count(state, condition["selector"], context) >= condition["at_least"]


def _combat_role(state: State, condition: dict, context: Context) -> bool:
    if state.combat is None:
        return False
    side = state.combat.sides[ROLES[condition["role"]]]
    return any(matches(state, condition["subject"], card, context) for card in side.combatants)


def _turn(state: State, condition: dict, context: Context) -> bool:
    """Your turn, or an opponent's: any opponent's in a team game."""
    if condition["player"] == "you" or state.teams is None:
        return state.active == seat_of(state, context, condition["player"])
    return not friendly(state, state.active, context.controller)


def _quests_completed(state: State, condition: dict, context: Context) -> bool:
    completed = state.seats[seat_of(state, context, condition["player"])].completed
    return len(completed) >= condition["at_least"]


def _played_this_turn(state: State, condition: dict, context: Context) -> bool:
    return any(
        state.cards[card].played_turn == state.turn
        for card in matching(state, condition["subject"], context)
    )


def _turn_number(state: State, condition: dict, context: Context) -> bool:
    return state.turn >= condition["at_least"]


def _team_quests_completed(state: State, condition: dict, context: Context) -> bool:
    seat = seat_of(state, context, condition["player"])
    team = sides(state)[side_of(state, seat)]
    return sum(len(state.seats[each].completed) for each in team) >= condition["at_least"]


# The conditions of the vocabulary (``vocabulary.CONDITIONS``), by name.
CONDITIONS: Mapping[str, Callable[[State, dict, Context], bool]] = MappingProxyType(
    {
        "count": _count_at_least,
        "combat_role": _combat_role,
        "turn": _turn,
        "quests_completed": _quests_completed,
        "played_this_turn": _played_this_turn,
        "turn_number": _turn_number,
        "team_quests_completed": _team_quests_completed,
    }
)


def damageable(state: State, card: int) -> bool:
    return card_type(state, card) in ("unit", "avatar") or (
        definition(state, card)["restriction"] == "starship"
    )
