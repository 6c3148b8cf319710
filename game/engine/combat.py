"""COMBAT: combat actions, the winner, the damage bonus and taking damage.

The stages run in the rulebook's order: the attacker and the defender alternate combat
actions from the attacker until both pass in a row; the larger total wins (a tie has no
winner); each side that deals damage may exert one card for its damage bonus; each side that
takes damage distributes it among its combatants, one point at a time; then all the damage is
dealt at once, so a tie can destroy both sides together (WINNING THE GAME).
"""

from collections import Counter

from game.engine import actions, rules
from game.engine.rules import DecisionRules, Events
from game.engine.state import ATTACKING, DEFENDING, Combat, CombatSide, State

BASE_DAMAGE = 1
# The attribute each side adds to its total: attack when attacking, defense when defending.
ROLE_ATTRIBUTES = ("attack", "defense")


class CombatInProgress(RuntimeError):
    """A new combat can't begin while one is already in progress (COMBAT)."""


def begin_combat(
    state: State,
    events: Events,
    *,
    kind: str,
    at: int,
    attackers: tuple[int, list[int]],
    defenders: tuple[int, list[int]],
    resume: str,
) -> None:
    """Begin a combat at the quest of index ``at`` between the attacking seat's combatants and
    the defending seat's; once it is over the turn goes on with the step ``resume``."""
    if state.combat is not None:
        raise CombatInProgress("a combat is already in progress")
    state.combat = Combat(
        kind=kind,
        quest=at,
        sides=[CombatSide(seat, list(cards)) for seat, cards in (attackers, defenders)],
        resume=resume,
    )
    events.append(
        {
            "type": "combat_began",
            "kind": kind,
            "quest": state.quests[at].card,
            "attacker": attackers[0],
            "attackers": list(attackers[1]),
            "defender": defenders[0],
            "defenders": list(defenders[1]),
        }
    )
    _ask_combat_action(state)


def _ask_combat_action(state: State) -> None:
    combat = state.combat
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
        if not state.cards[card].exerted and (rules.attribute(state, card, attribute) or 0) > 0
    ]


# 1) Perform Combat Actions


def _legal_combat_actions(state: State) -> list[actions.Action]:
    combat = state.combat
    side = combat.sides[combat.to_act]
    attribute = ROLE_ATTRIBUTES[combat.to_act]
    player = state.seats[side.seat]
    legal = [actions.exert(card, attribute) for card in _exertable(state, side, attribute)]
    legal += [
        actions.play_tactic(card)
        for card in player.hand
        if rules.card_type(state, card) == "tactic"
        and rules.attribute(state, card, "cost") <= player.power
    ]
    legal.append(actions.pass_())
    return legal


def _exert_for_total(state: State, action: actions.Action, events: Events) -> None:
    combat = state.combat
    side = combat.sides[combat.to_act]
    card, attribute = action["card"], action["attribute"]
    amount = rules.attribute(state, card, attribute)
    rules.exert(state, card)
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
    _next_combat_action(state)


def _play_tactic(state: State, action: actions.Action, events: Events) -> None:
    """A tactic's cost is paid and it goes to the discard pile; its effect comes with the
    card rules vocabulary."""
    combat = state.combat
    seat, card = combat.sides[combat.to_act].seat, action["card"]
    player = state.seats[seat]
    cost = rules.attribute(state, card, "cost")
    player.power -= cost
    player.hand.remove(card)
    player.discard.append(card)
    events.append({"type": "tactic_played", "seat": seat, "card": card, "cost": cost})
    _next_combat_action(state)


def _next_combat_action(state: State) -> None:
    combat = state.combat
    combat.passes = 0
    combat.to_act = 1 - combat.to_act
    _ask_combat_action(state)


def _pass_combat_action(state: State, action: actions.Action, events: Events) -> None:
    """Passing doesn't stop a player acting later; two passes in a row end the actions."""
    combat = state.combat
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
    combat = state.combat
    attack, defense = combat.sides[ATTACKING].total, combat.sides[DEFENDING].total
    if attack > defense:
        combat.dealing = [ATTACKING]
    elif defense > attack:
        combat.dealing = [DEFENDING]
    else:
        combat.dealing = [ATTACKING, DEFENDING]
    winner = combat.sides[combat.dealing[0]].seat if len(combat.dealing) == 1 else None
    events.append(
        {"type": "combat_decided", "winner": winner, "attack": attack, "defense": defense}
    )
    for index in combat.dealing:
        combat.sides[index].damage = BASE_DAMAGE
    state.step = "damage_bonus_next"


# 3) Exert a Card for Damage Bonus


def _damage_bonus_next(state: State, events: Events) -> None:
    """Each side dealing damage, attacker first, may exert exactly one card for its damage
    bonus: a combatant or, if its combatant is the avatar, an item. A side with no such card
    ready has nothing to decide."""
    combat = state.combat
    for index in combat.dealing:
        side = combat.sides[index]
        if not side.bonus_exerted and _exertable(state, side, "damage_bonus"):
            combat.to_act = index
            rules.ask(state, "damage_bonus", side.seat)
            return
        side.bonus_exerted = True
    state.step = "damage_assignment_next"


def _legal_damage_bonuses(state: State) -> list[actions.Action]:
    combat = state.combat
    side = combat.sides[combat.to_act]
    bonuses = [
        actions.exert(card, "damage_bonus") for card in _exertable(state, side, "damage_bonus")
    ]
    return [*bonuses, actions.pass_()]


def _exert_for_damage(state: State, action: actions.Action, events: Events) -> None:
    combat = state.combat
    side = combat.sides[combat.to_act]
    card = action["card"]
    amount = rules.attribute(state, card, "damage_bonus")
    rules.exert(state, card)
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
    state.step = "damage_bonus_next"


def _pass_damage_bonus(state: State, action: actions.Action, events: Events) -> None:
    combat = state.combat
    side = combat.sides[combat.to_act]
    side.bonus_exerted = True
    events.append({"type": "passed", "seat": side.seat})
    state.step = "damage_bonus_next"


# 4) Take Damage


def _damage_assignment_next(state: State, events: Events) -> None:
    """The player taking damage distributes it among his combatants, never more on one than
    destroys it; damage beyond that is lost. Only real choices are asked: one combatant left
    to take it, or enough damage to destroy them all, leaves nothing to decide."""
    combat = state.combat
    for dealer in combat.dealing:
        taker = combat.sides[1 - dealer]
        can_take = sum(rules.health_left(state, card) for card in taker.combatants)
        points_left = min(combat.sides[dealer].damage, can_take) - len(taker.assigned)
        if points_left <= 0:
            continue
        room = _room_for_damage(state, taker)
        open_cards = [card for card, left in room.items() if left > 0]
        if len(open_cards) == 1 or points_left == sum(room.values()):
            for card in open_cards:
                taker.assigned += [card] * min(room[card], points_left)
            continue
        combat.to_act = 1 - dealer
        rules.ask(state, "assign_damage", taker.seat)
        return
    state.step = "combat_damage"


def _room_for_damage(state: State, side: CombatSide) -> dict[int, int]:
    """How many more points each combatant can be assigned before it would be destroyed."""
    assigned = Counter(side.assigned)
    return {card: rules.health_left(state, card) - assigned[card] for card in side.combatants}


def _legal_assignments(state: State) -> list[actions.Action]:
    combat = state.combat
    room = _room_for_damage(state, combat.sides[combat.to_act])
    return [actions.assign_damage(card) for card, left in room.items() if left > 0]


def _assign_damage(state: State, action: actions.Action, events: Events) -> None:
    combat = state.combat
    side = combat.sides[combat.to_act]
    side.assigned.append(action["card"])
    events.append({"type": "damage_assigned", "seat": side.seat, "card": action["card"]})
    state.step = "damage_assignment_next"


def _combat_damage(state: State, events: Events) -> None:
    """All the damage is dealt at once, then what has no health left is destroyed; then the
    combat is over and the turn goes on."""
    combat = state.combat
    taken = [card for side in combat.sides for card in side.assigned]
    for card, amount in Counter(taken).items():
        rules.deal_damage(state, card, amount, events)
    rules.destroy_defeated(state, list(dict.fromkeys(taken)), events)
    events.append({"type": "combat_ended", "quest": state.quests[combat.quest].card})
    state.combat = None
    state.step = combat.resume


STEPS = {
    "combat_outcome": _combat_outcome,
    "damage_bonus_next": _damage_bonus_next,
    "damage_assignment_next": _damage_assignment_next,
    "combat_damage": _combat_damage,
}


def _combat_prompt(state: State) -> str:
    combat = state.combat
    attack, defense = (side.total for side in combat.sides)
    return f"Perform a combat action or pass (attack {attack}, defense {defense})."


def _damage_bonus_prompt(state: State) -> str:
    side = state.combat.sides[state.combat.to_act]
    return f"You deal {side.damage} damage: exert one card for its damage bonus, or pass."


def _assignment_prompt(state: State) -> str:
    combat = state.combat
    dealer = combat.sides[1 - combat.to_act]
    return f"Assign the {dealer.damage} damage you take among your combatants, one point at a time."


DECISIONS = {
    "combat_action": DecisionRules(
        prompt=_combat_prompt,
        legal=_legal_combat_actions,
        handlers={
            "exert": _exert_for_total,
            "play_tactic": _play_tactic,
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
