"""COMBAT: combat actions, the winner, the damage bonus and taking damage.

The stages run in the rulebook's order: the attacker and the defender alternate combat
actions from the attacker until both pass in a row; the larger total wins (a tie has no
winner); each side that deals damage may exert one card for its damage bonus; each side that
takes damage distributes it among its combatants, one point at a time; then all the damage is
dealt at once, so a tie can destroy both sides together (WINNING THE GAME).
"""

from collections.abc import Mapping
from types import MappingProxyType

from game.engine import actions, continuous, effects, rules
from game.engine.rules import DecisionRules, Events, Step
from game.engine.state import ATTACKING, DEFENDING, CombatSide, State, card_type, reach

BASE_DAMAGE = 1
# The attribute each side adds to its total: attack when attacking, defense when defending.
ROLE_ATTRIBUTES = ("attack", "defense")


def _ask_combat_action(state: State) -> None:
    combat = rules.current_combat(state)
    rules.ask(state, "combat_action", combat.sides[combat.to_act].seat)


def _exertable(state: State, side: CombatSide, attribute: str) -> list[int]:
    """The side's ready cards that would add something for ``attribute``: its combatants
    and, when its avatar is a combatant, the avatar's items and abilities.

    The rulebook names items for attack and abilities for defense; armor items add their
    defense too, since items are "used when your avatar is in combat" and armor "often has a
    defense attribute" (TYPES OF CARDS, "Item"). A card whose attribute is 0 is not offered:
    exerting it would add nothing and only leave it exerted.
    """
    player = state.seats[side.seat]
    cards = side.combatants
    if player.avatar in side.combatants:
        cards = [*cards, *player.items, *player.abilities]
    return [
        card
        for card in cards
        if not state.cards[card].exerted
        and (rules.attribute(state, card, attribute) or 0) > 0
        and rules.can_exert(state, card)
    ]


# 1) Perform Combat Actions


def _legal_combat_actions(state: State) -> list[actions.Action]:
    combat = rules.current_combat(state)
    side = combat.sides[combat.to_act]
    attribute = ROLE_ATTRIBUTES[combat.to_act]
    player = state.seats[side.seat]
    legal = [actions.exert(card, attribute) for card in _exertable(state, side, attribute)]
    for card in player.hand:
        kind = card_type(state, card)
        if rules.value(state, card, "cost") > player.power:
            continue
        if kind == "tactic" and effects.tactic_playable(state, side.seat, card, combat.to_act):
            legal.append(actions.play_tactic(card))
        elif (
            kind == "unit"
            and rules.has_keyword(state, card, "ambush")
            and effects.may_play(state, side.seat, card)
            and combat.quest in reach(state, side.seat)
        ):
            legal.append(actions.play(card, state.quests[combat.quest].card))
    legal += effects.usable_actions(state, side.seat, ("attack", "defend")[combat.to_act])
    legal.append(actions.pass_())
    return legal


def _exert_for_total(state: State, action: actions.Action, events: Events) -> None:
    combat = rules.current_combat(state)
    side = combat.sides[combat.to_act]
    card, attribute = action["card"], action["attribute"]
    amount = rules.value(state, card, attribute)
    side.total += amount
    events.append(
        {
            "type": "exerted",
            "seat": side.seat,
            "card": card,
            "attribute": attribute,
            "amount": amount,
            "total": side.total,
        }
    )
    rules.exert(state, card, events, attribute)
    _next_combat_action(state)


def _play_tactic(state: State, action: actions.Action, events: Events) -> None:
    """A tactic's cost is paid, it goes to the discard pile, and its effect happens; then
    the other side acts."""
    combat = rules.current_combat(state)
    seat, card = combat.sides[combat.to_act].seat, action["card"]
    player = state.seats[seat]
    cost = rules.value(state, card, "cost")
    player.power -= cost
    player.hand.remove(card)
    player.discard.append(card)
    events.append({"type": "tactic_played", "seat": seat, "card": card, "cost": cost})
    effects.spend_intel(state, seat, card, events)
    effects.play_tactic(state, seat, card, _next_combat_action(state))


def _play_ambush(state: State, action: actions.Action, events: Events) -> None:
    """A unit with ambush is played as a combat action to the combat's quest and joins the
    combat (glossary, "ambush")."""
    combat = rules.current_combat(state)
    seat = combat.sides[combat.to_act].seat
    effects.play_card(state, seat, action["card"], combat.quest, events)
    effects.join_combat(state, action["card"], events)
    _next_combat_action(state)


def _activate(state: State, action: actions.Action, events: Events) -> None:
    effects.activate(state, action["card"], action["action"], _next_combat_action(state))


def _next_combat_action(state: State) -> tuple[str, int | None]:
    """The other side acts next; returns that decision, for effects to resume with."""
    combat = rules.current_combat(state)
    combat.passes = 0
    combat.to_act = 1 - combat.to_act
    _ask_combat_action(state)
    return ("combat_action", state.deciding)


def _pass_combat_action(state: State, action: actions.Action, events: Events) -> None:
    """Passing doesn't stop a player acting later; two passes in a row end the actions."""
    combat = rules.current_combat(state)
    events.append({"type": "passed", "seat": combat.sides[combat.to_act].seat})
    combat.passes += 1
    if combat.passes == 2:
        state.step = "combat_outcome"
    else:
        combat.to_act = 1 - combat.to_act
        _ask_combat_action(state)


# 2) Determine the Winner


def _combat_outcome(state: State, events: Events) -> None:
    """The larger total wins and deals 1 base damage; on a tie both sides deal it."""
    combat = rules.current_combat(state)
    attack, defense = combat.sides[ATTACKING].total, combat.sides[DEFENDING].total
    if attack > defense:
        combat.dealing = [ATTACKING]
    elif defense > attack:
        combat.dealing = [DEFENDING]
    else:
        combat.dealing = [ATTACKING, DEFENDING]
    if len(combat.dealing) == 1:
        combat.winner = combat.dealing[0]
    winner = None if combat.winner is None else combat.sides[combat.winner].seat
    events.append(
        {"type": "combat_decided", "winner": winner, "attack": attack, "defense": defense}
    )
    for index in combat.dealing:
        side = combat.sides[index]
        side.damage = max(0, BASE_DAMAGE + side.extra_damage)
    state.step = "damage_bonus_next"


# 3) Exert a Card for Damage Bonus


def _damage_bonus_next(state: State, events: Events) -> None:
    """Each side dealing damage, attacker first, may exert exactly one card for its damage
    bonus: a combatant or, if its combatant is the avatar, an item. A side with no such card
    ready has nothing to decide."""
    combat = rules.current_combat(state)
    for index in combat.dealing:
        side = combat.sides[index]
        if not side.bonus_exerted and _exertable(state, side, "damage_bonus"):
            combat.to_act = index
            rules.ask(state, "damage_bonus", side.seat)
            return
        side.bonus_exerted = True
    state.step = "damage_assignment_next"


def _legal_damage_bonuses(state: State) -> list[actions.Action]:
    combat = rules.current_combat(state)
    side = combat.sides[combat.to_act]
    bonuses = [
        actions.exert(card, "damage_bonus") for card in _exertable(state, side, "damage_bonus")
    ]
    return [*bonuses, actions.pass_()]


def _exert_for_damage(state: State, action: actions.Action, events: Events) -> None:
    combat = rules.current_combat(state)
    side = combat.sides[combat.to_act]
    card = action["card"]
    amount = rules.value(state, card, "damage_bonus")
    side.damage += amount
    side.bonus_exerted = True
    events.append(
        {
            "type": "exerted",
            "seat": side.seat,
            "card": card,
            "attribute": "damage_bonus",
            "amount": amount,
            "total": side.damage,
        }
    )
    rules.exert(state, card, events, "damage_bonus")
    state.step = "damage_bonus_next"


def _pass_damage_bonus(state: State, action: actions.Action, events: Events) -> None:
    combat = rules.current_combat(state)
    side = combat.sides[combat.to_act]
    side.bonus_exerted = True
    events.append({"type": "passed", "seat": side.seat})
    state.step = "damage_bonus_next"


# 4) Take Damage


def _damage_assignment_next(state: State, events: Events) -> None:
    """The player taking damage distributes it among his combatants, never more on one than
    destroys it (shield points included); damage beyond that is lost. If the dealing side
    has a precise combatant, its player assigns instead (glossary, "precise"). Only real
    choices are asked: one combatant left to take it, or enough damage to destroy them all,
    leaves nothing to decide."""
    combat = rules.current_combat(state)
    for dealer in combat.dealing:
        taker = combat.sides[1 - dealer]
        with continuous.unchanging(state):
            room = _room_for_damage(state, taker, combat.sides[dealer].damage)
        points_left = min(combat.sides[dealer].damage - len(taker.assigned), sum(room.values()))
        if points_left <= 0:
            continue
        open_cards = [card for card, left in room.items() if left > 0]
        if len(open_cards) == 1 or points_left == sum(room.values()):
            for card in open_cards:
                taker.assigned += [card] * min(room[card], points_left)
            continue
        combat.to_act = 1 - dealer
        dealing_side = combat.sides[dealer]
        precise = any(rules.has_keyword(state, card, "precise") for card in dealing_side.combatants)
        rules.ask(state, "assign_damage", dealing_side.seat if precise else taker.seat)
        return
    state.step = "combat_damage"


def _room_for_damage(state: State, side: CombatSide, points: int) -> dict[int, int]:
    """How many more points each combatant can be assigned before it would be destroyed
    (an invulnerable one, any number)."""
    room = {}
    for card in side.combatants:
        capacity = rules.damage_room(state, card)
        room[card] = (points if capacity is None else capacity) - side.assigned.count(card)
    return room


def _legal_assignments(state: State) -> list[actions.Action]:
    combat = rules.current_combat(state)
    dealer = combat.sides[1 - combat.to_act]
    room = _room_for_damage(state, combat.sides[combat.to_act], dealer.damage)
    return [actions.assign_damage(card) for card, left in room.items() if left > 0]


def _assign_damage(state: State, action: actions.Action, events: Events) -> None:
    combat = rules.current_combat(state)
    side = combat.sides[combat.to_act]
    side.assigned.append(action["card"])
    events.append({"type": "damage_assigned", "seat": state.deciding, "card": action["card"]})
    state.step = "damage_assignment_next"


def _combat_damage(state: State, events: Events) -> None:
    """All the damage is dealt at once, then what has no health left is destroyed; then the
    combat is over and the turn goes on."""
    combat = rules.current_combat(state)
    taken = []
    for index, side in enumerate(combat.sides):
        dealers = list(combat.sides[1 - index].combatants)
        for card in dict.fromkeys(side.assigned):
            rules.deal_damage(state, card, side.assigned.count(card), events, dealers)
            taken.append(card)
    rules.destroy_defeated(state, taken, events)
    state.step = "combat_over"


def _combat_over(state: State, events: Events) -> None:
    """What the damage triggered happened while the combat was still on ("whenever a unit
    takes damage during combat"); now the combat is over and the turn goes on."""
    resume = rules.current_combat(state).resume
    effects.end_combat(state, events)
    state.step = resume


STEPS: Mapping[str, Step] = MappingProxyType(
    {
        "combat_outcome": _combat_outcome,
        "damage_bonus_next": _damage_bonus_next,
        "damage_assignment_next": _damage_assignment_next,
        "combat_damage": _combat_damage,
        "combat_over": _combat_over,
    }
)


def _combat_prompt(state: State) -> str:
    combat = rules.current_combat(state)
    attack, defense = (side.total for side in combat.sides)
    return f"Perform a combat action or pass (attack {attack}, defense {defense})."


def _damage_bonus_prompt(state: State) -> str:
    combat = rules.current_combat(state)
    side = combat.sides[combat.to_act]
    return f"You deal {side.damage} damage: exert one card for its damage bonus, or pass."


def _assignment_prompt(state: State) -> str:
    combat = rules.current_combat(state)
    dealer = combat.sides[1 - combat.to_act]
    return f"Assign the {dealer.damage} damage you take among your combatants, one point at a time."


DECISIONS: Mapping[str, DecisionRules] = MappingProxyType(
    {
        "combat_action": DecisionRules(
            prompt=_combat_prompt,
            legal=_legal_combat_actions,
            handlers={
                "exert": _exert_for_total,
                "play_tactic": _play_tactic,
                "play": _play_ambush,
                "activate": _activate,
                "pass": _pass_combat_action,
            },
        ),
        "damage_bonus": DecisionRules(
            prompt=_damage_bonus_prompt,
            legal=_legal_damage_bonuses,
            handlers={"exert": _exert_for_damage, "pass": _pass_damage_bonus},
        ),
        "assign_damage": DecisionRules(
            prompt=_assignment_prompt,
            legal=_legal_assignments,
            handlers={"assign_damage": _assign_damage},
        ),
    }
)
