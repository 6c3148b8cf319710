"""The look-ahead's own moves and its judgement of a position, on a full state.

The search agent plays its look-ahead in possible worlds (``game.ai.worlds``): full states it
made up itself, so reading them whole leaks nothing. ``playout_action`` takes the greedy
agent's choices (``GreedyAgent``) straight from such a state, without building a view, which
is ten times faster; it plays both seats of the look-ahead. ``evaluate`` says how good a
position is for a seat, from -1 (lost) to 1 (won), where the look-ahead stops.
"""

import math
from types import MappingProxyType

from game.ai.agents import HARMFUL_EFFECTS
from game.engine import actions, continuous, rules
from game.engine.actions import Action, Decision
from game.engine.state import State, card_type


def playout_action(state: State, decision: Decision) -> Action:
    """The greedy agent's choice for ``decision``, read off the full ``state``."""
    legal = decision.actions
    if len(legal) == 1:
        return legal[0]
    choose = _CHOOSERS.get(decision.kind)
    if choose is None or decision.seat is None:
        return legal[0]
    with continuous.unchanging(state):
        return choose(state, decision.seat, legal)


def _value(state: State, card: int, name: str) -> int:
    return continuous.attribute(state, card, name) or 0


def card_value(state: State, card: int) -> int:
    return (
        _value(state, card, "attack")
        + _value(state, card, "defense")
        + _value(state, card, "damage_bonus")
        + _value(state, card, "level")
    )


def _has_level(state: State, card: int) -> bool:
    return continuous.attribute(state, card, "level") is not None


def _ready_defense(state: State, units: list[int]) -> int:
    return sum(_value(state, card, "defense") for card in units if not state.cards[card].exerted)


def _quest_of(state: State, quest_card: int):
    return next(quest for quest in state.quests if quest.card == quest_card)


def _redraw(state: State, seat: int, legal: list[Action]) -> Action:
    hand = state.seats[seat].hand
    can_quest = any(
        _value(state, card, "level") for card in hand if card_type(state, card) == "ability"
    )
    return actions.keep() if can_quest else actions.redraw()


def _choose_quest(state: State, seat: int, legal: list[Action]) -> Action:
    best_level = max(
        (
            _value(state, card, "level")
            for card in state.seats[seat].abilities
            if not state.cards[card].exerted and _has_level(state, card)
        ),
        default=0,
    )

    def promise(action: Action) -> tuple:
        quest = _quest_of(state, action["quest"])
        tokens = quest.tokens[seat]
        completes = tokens + best_level >= _value(state, quest.card, "level")
        return (completes, -_ready_defense(state, quest.units[1 - seat]), tokens)

    return max(legal, key=promise)


def _apply_ability(state: State, seat: int, legal: list[Action]) -> Action:
    quest = state.quests[state.attempting or 0]
    needed = _value(state, quest.card, "level") - quest.tokens[seat]

    def fit(action: Action) -> tuple:
        level = _value(state, action["card"], "level")
        return (level >= needed, -level if level >= needed else level)

    return max(legal, key=fit)


def _main(state: State, seat: int, legal: list[Action]) -> Action:
    plays = [action for action in legal if action["kind"] == "play"]
    if plays:
        values = [play_value(state, seat, action) for action in plays]
        best = max(range(len(plays)), key=values.__getitem__)
        if values[best] > 0:
            return plays[best]
    for action in legal:
        if action["kind"] == "raid" and raid_wins(state, seat, action["quest"]):
            return action
    return actions.done()


def play_value(state: State, seat: int, action: Action) -> int:
    card = action["card"]
    value = card_value(state, card)
    kind = card_type(state, card)
    if kind == "item":
        restriction = state.definitions[state.cards[card].definition]["restriction"]
        if restriction:
            replaced = [
                card_value(state, item)
                for item in state.seats[seat].items
                if state.definitions[state.cards[item].definition]["restriction"] == restriction
            ]
            value -= max(replaced, default=0)
    if kind == "unit":
        value += 0 if _quest_of(state, action["quest"]).units[1 - seat] else 1
    return value


def raid_wins(state: State, seat: int, quest_card: int) -> bool:
    quest = _quest_of(state, quest_card)
    attack = sum(
        _value(state, card, "attack") for card in quest.units[seat] if not state.cards[card].exerted
    )
    defenders = quest.units[1 - seat]
    if defenders:
        return attack > _ready_defense(state, defenders)
    them = state.seats[1 - seat]
    return attack > _ready_defense(state, [them.avatar, *them.items, *them.abilities])


def _combat_action(state: State, seat: int, legal: list[Action]) -> Action:
    combat = rules.current_combat(state)
    mine = next(side.total for side in combat.sides if side.seat == seat)
    theirs = next(side.total for side in combat.sides if side.seat != seat)
    exerts = [action for action in legal if action["kind"] == "exert"]
    if mine > theirs or not exerts:
        return actions.pass_()

    def worth(action: Action) -> tuple:
        card = action["card"]
        keeps_quest_power = card_type(state, card) == "ability" and _has_level(state, card)
        return (not keeps_quest_power, _value(state, card, action["attribute"]))

    return max(exerts, key=worth)


def _damage_bonus(state: State, seat: int, legal: list[Action]) -> Action:
    exerts = [action for action in legal if action["kind"] == "exert"]
    best = max(exerts, key=lambda action: _value(state, action["card"], "damage_bonus"))
    return best if _value(state, best["card"], "damage_bonus") else actions.pass_()


def _assign_damage(state: State, seat: int, legal: list[Action]) -> Action:
    return max(legal, key=lambda action: rules.health_left(state, action["card"]))


def _discard(state: State, seat: int, legal: list[Action]) -> Action:
    return min(legal, key=lambda action: card_value(state, action["card"]))


def _choose(state: State, seat: int, legal: list[Action]) -> Action:
    steps = state.pending[0]["steps"]
    harmful = bool(steps) and steps[0]["primitive"]["primitive"] in HARMFUL_EFFECTS

    def fitness(action: Action) -> tuple:
        card = action["card"]
        value = card_value(state, card)
        wanted = (state.cards[card].controller == seat) != harmful
        return (wanted, value if wanted else -value)

    return max(legal, key=fitness)


def _optional(state: State, seat: int, legal: list[Action]) -> Action:
    return actions.accept()


_CHOOSERS = MappingProxyType(
    {
        "redraw": _redraw,
        "choose_quest": _choose_quest,
        "apply_ability": _apply_ability,
        "main": _main,
        "combat_action": _combat_action,
        "damage_bonus": _damage_bonus,
        "assign_damage": _assign_damage,
        "discard": _discard,
        "choose": _choose,
        "optional": _optional,
    }
)


# Judging a position


def evaluate(state: State, seat: int) -> float:
    """How good the position is for ``seat``: 1 won, -1 lost, in between an estimate."""
    if state.winner is not None:
        return 1.0 if state.winner == seat else -1.0
    score = _strength(state, seat) - _strength(state, 1 - seat)
    return math.tanh(score)


def _strength(state: State, seat: int) -> float:
    """The seat's assets, in rough units of a quest's worth: avatar health (the loss by
    destroyed avatar), quests completed and progress at the quests in play (the win), the
    levels of its abilities (quests to come), its units and items, its hand and its deck.
    The weights were set by hand and kept where head-to-head games of the search agent with
    other weights did not tell them apart; ``evaluate`` compares two seats' strengths."""
    player = state.seats[seat]
    with continuous.unchanging(state):
        health = rules.health_left(state, player.avatar)
        progress = 0.0
        for quest in state.quests:
            level = _value(state, quest.card, "level") or 1
            progress += min(quest.tokens[seat], level) / level
        levels = sum(_value(state, card, "level") for card in player.abilities)
        units = 0.0
        for quest in state.quests:
            for card in quest.units[seat]:
                units += (
                    _value(state, card, "attack")
                    + _value(state, card, "defense")
                    + rules.health_left(state, card)
                )
        gear = sum(card_value(state, card) for card in player.items)
    deck = len(player.deck)
    return (
        0.16 * health
        + 0.9 * len(player.completed)
        + 0.5 * progress
        + 0.06 * levels
        + 0.03 * units
        + 0.03 * gear
        + 0.04 * len(player.hand)
        # Every card drawn brings the loss by an empty deck nearer (WINNING THE GAME).
        + 0.05 * deck
        - (0.6 if deck < 4 else 0.0)
    )
