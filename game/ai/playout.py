"""The look-ahead's own moves and its judgement of a position, on a full state.

The search agent plays its look-ahead in possible worlds (``game.ai.worlds``): full states it
made up itself, so reading them whole leaks nothing. ``playout_action`` takes the greedy
agent's choices (``GreedyAgent``) straight from such a state, without building a view, which
is ten times faster; it plays every seat of the look-ahead. ``evaluate`` says how good a
position is for a seat's side, from -1 (lost) to 1 (won), where the look-ahead stops.
"""

import math
from types import MappingProxyType

from game.ai.agents import HARMFUL_EFFECTS
from game.engine import actions, continuous, rules
from game.engine.actions import Action, Decision
from game.engine.phases import avatars_in_reach
from game.engine.state import State, card_type, opponents, side_of, teammates


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


def _enemy_units(state: State, seat: int, quest) -> list[int]:
    """The units of ``seat``'s opponents at ``quest``."""
    if state.teams is None:
        return quest.units[1 - seat]
    return [card for other in opponents(state, seat) for card in quest.units[other]]


def _friendly_units(state: State, seat: int, quest) -> list[int]:
    """The units at ``quest`` that ``seat`` raids with: his own and his teammates'."""
    if state.teams is None:
        return quest.units[seat]
    return [card for each in (seat, *teammates(state, seat)) for card in quest.units[each]]


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
        return (completes, -_ready_defense(state, _enemy_units(state, seat, quest)), tokens)

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
        if action["kind"] == "raid" and raid_wins(state, seat, action):
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
        value += 0 if _enemy_units(state, seat, _quest_of(state, action["quest"])) else 1
    return value


def raid_wins(state: State, seat: int, raid: Action) -> bool:
    quest = _quest_of(state, raid["quest"])
    attack = sum(
        _value(state, card, "attack")
        for card in _friendly_units(state, seat, quest)
        if not state.cards[card].exerted
    )
    defenders = _enemy_units(state, seat, quest)
    if defenders:
        return attack > _ready_defense(state, defenders)
    if state.teams is None:
        them = state.seats[1 - seat]
    else:
        target = raid.get("avatar")
        if target is None:
            target = avatars_in_reach(state, seat, state.quests.index(quest))[0]
        them = state.seats[state.cards[target].owner]
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
        controller = state.cards[card].controller
        mine = controller == seat or (
            state.teams is not None and side_of(state, controller) == side_of(state, seat)
        )
        wanted = mine != harmful
        return (wanted, value if wanted else -value)

    return max(legal, key=fitness)


def _optional(state: State, seat: int, legal: list[Action]) -> Action:
    return actions.accept()


def _choose_commander(state: State, seat: int, legal: list[Action]) -> Action:
    # The defender with the least health left risks the least by commanding.
    return min(
        legal, key=lambda action: rules.health_left(state, state.seats[action["seat"]].avatar)
    )


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
        "choose_commander": _choose_commander,
    }
)


# Judging a position


def evaluate(state: State, seat: int, baseline: float = 0.0) -> float:
    """How good the position is for ``seat``'s side: 1 won, -1 lost, in between an estimate.

    ``baseline`` is ``side_score`` where the look-ahead began: a team game's sides are
    uneven (a boss of 60 health against four heroes of 20), so the score is taken as a
    change from there, where the estimate is most sensitive, rather than from an even
    game, where it would be lost in the flat end of its scale."""
    if state.winner is not None:
        return 1.0 if side_of(state, state.winner) == side_of(state, seat) else -1.0
    return math.tanh(side_score(state, seat) - baseline)


def side_score(state: State, seat: int) -> float:
    """The strength of ``seat``'s side less the other side's, in rough units of a quest's
    worth: in a team game, every teammate's assets (a player who left has none, and his
    side is the weaker for it) and the side's progress towards a heroic encounter's own
    victory conditions."""
    if state.teams is None:
        return _strength(state, seat) - _strength(state, 1 - seat)
    mine = side_of(state, seat)
    totals = [0.0, 0.0]
    for index, side in enumerate(state.teams.sides):
        for each in side:
            if each in state.teams.left:
                totals[index] -= LEFT_GAME
            else:
                totals[index] += _strength(state, each)
    if state.teams.boss is not None:
        for index, progress in _encounter_progress(state):
            totals[index] += GOAL_WEIGHT * progress * progress
    return totals[mine] - totals[1 - mine]


# What a player who lost and left the game costs his side beyond his assets: his turns, his
# draws and the quests in his reach to come ("Leaving the Game").
LEFT_GAME = 1.5
# What nearing a heroic encounter's own victory condition is worth, once it is all but met
# (the progress is squared: the last steps count most).
GOAL_WEIGHT = 3.0


def _encounter_progress(state: State) -> list[tuple[int, float]]:
    """How near each side is to the encounter's own ways to win, from 0 to 1: the boss
    avatar's triggers that win the game (a turn limit, quests the boss completes, quests
    the heroes complete in all), read from its rules like the engine reads them."""
    boss = state.teams.boss
    boss_side = side_of(state, boss)
    rules_of = state.definitions[state.cards[state.seats[boss].avatar].definition]["rules"]
    found = []
    for trigger in rules_of.get("triggers", ()):
        condition = trigger.get("condition")
        wins = [step for step in trigger["effect"] if step["primitive"] == "win_game"]
        if not wins or not condition:
            continue
        winner = boss_side if wins[0]["player"] == "you" else 1 - boss_side
        needed = condition.get("at_least") or 1
        kind = condition["condition"]
        if kind == "turn_number":
            reached = state.turn
        elif kind in ("quests_completed", "team_quests_completed"):
            side = boss_side if condition["player"] == "you" else 1 - boss_side
            counted = (
                [boss]
                if kind == "quests_completed" and side == boss_side
                else state.teams.sides[side]
            )
            reached = sum(len(state.seats[each].completed) for each in counted)
        else:
            continue
        found.append((winner, min(1.0, reached / needed)))
    return found


def _strength(state: State, seat: int) -> float:
    """The seat's assets, in rough units of a quest's worth: avatar health (the loss by
    destroyed avatar), quests completed and progress at the quests in play (the win), the
    levels of its abilities (quests to come), its units and items, its hand and its deck.
    The weights were set by hand and kept where head-to-head games of the search agent with
    other weights did not tell them apart; ``evaluate`` compares two seats' strengths."""
    player = state.seats[seat]
    boss = state.teams is not None and state.teams.boss == seat
    with continuous.unchanging(state):
        health = rules.health_left(state, player.avatar)
        if boss:
            # The boss loses with its one avatar, the heroes only with all of theirs: its
            # health weighs as much as theirs together.
            health *= _heroes_health(state) / max(1, _value(state, player.avatar, "health"))
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
    # A boss never runs out: he reshuffles his discard pile ("Single-Player Team").
    deck = 20 if boss else len(player.deck)
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


def _heroes_health(state: State) -> int:
    """The printed health of a heroic encounter's heroes' avatars, added up."""
    return sum(
        _value(state, state.seats[each].avatar, "health")
        for each in state.teams.sides[1 - side_of(state, state.teams.boss)]
    )
