"""Card text in play: activated actions, tactics, triggers, statics, raiding a second time, and
level tokens placed or moved by effects (docs/card-rules.md against the rulebook's MAIN PHASE,
COMBAT, QUEST PHASE and GLOSSARY)."""

import pytest

from game.engine import actions, api, rules
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    complete_quests,
    decklist,
    end_turn,
    item,
    keep_hands,
    put_in_hand,
    put_into_play,
    quest,
    quest_at,
    start,
    tactic,
    unit,
)

# The vocabulary of docs/card-rules.md, spelled once.

SELF = {"self": True}
THIS_QUEST = {"side": "any", "types": ["quest"], "where": "this_quest"}
PAY_ONE = {"primitive": "power", "amount": 1}
EXERT_THIS = {"primitive": "exert_self"}
DESTROY_THIS = {"primitive": "destroy_self"}


def activated(timing: str, costs: list[dict], *effects: dict) -> dict:
    return {"timing": timing, "cost": costs, "effect": list(effects)}


def trigger(event: str, *effects: dict, condition=None, optional=False, **parameters) -> dict:
    return {
        "event": event,
        **parameters,
        "condition": condition,
        "optional": optional,
        "effect": list(effects),
    }


def static(modifier: dict, applies_to: dict, condition=None) -> dict:
    return {"effect": modifier, "applies_to": applies_to, "condition": condition}


def add_total(amount: int) -> dict:
    return {"primitive": "add_total", "player": "you", "amount": amount}


def deal_damage(target: dict, amount: int) -> dict:
    return {"primitive": "deal_damage", "target": target, "amount": amount}


def draw() -> dict:
    return {"primitive": "draw", "player": "you", "amount": 1}


def gain_power(amount: int) -> dict:
    return {"primitive": "gain_power", "amount": amount}


def raid_again() -> dict:
    return {"primitive": "raid_again", "target": THIS_QUEST}


def opposing(*types: str, **fields) -> dict:
    return {"side": "opposing", "types": list(types), **fields}


def friendly(*types: str, **fields) -> dict:
    return {"side": "friendly", "types": list(types), **fields}


def defending(subject: dict) -> dict:
    return {"condition": "combat_role", "subject": subject, "role": "defending"}


# Shared steps


def fight_out(state) -> list[dict]:
    """Both sides pass until the combat is over; damage goes wherever it must."""
    events = []
    while state.combat is not None:
        legal = api.legal_actions(state).actions
        events += act(state, actions.pass_() if actions.pass_() in legal else legal[0])
    return events


def drawn_by(seat: int, events: list[dict]) -> int:
    return sum(1 for event in events if event["type"] == "draw" and event["seat"] == seat)


def between(events: list[dict], first: dict, last: dict) -> list[dict]:
    """The events after the first one matching ``first`` and before the next matching
    ``last`` (each a dict of fields the event must have)."""

    def matches(event, fields):
        return all(event.get(key) == value for key, value in fields.items())

    start_at = next(index for index, event in enumerate(events) if matches(event, first))
    end_at = next(
        index for index, event in enumerate(events) if index > start_at and matches(event, last)
    )
    return events[start_at + 1 : end_at]


# MAIN PHASE and COMBAT: activated actions

VETERAN_MAIN, VETERAN_ATTACK, VETERAN_DEFEND = 0, 1, 2

ACTIONS_JASON = decklist(
    avatar("Jason"),
    unit(
        "Veteran",
        health=3,
        rules={
            "actions": [
                activated(
                    "main",
                    [PAY_ONE],
                    {
                        "primitive": "modify",
                        "target": SELF,
                        "stat": "attack",
                        "amount": 1,
                        "duration": "turn",
                    },
                ),
                # Drawing can happen anywhere: only the timing keeps these out of the
                # Main Phase.
                activated("attack", [PAY_ONE], draw()),
                activated("defend", [PAY_ONE], draw()),
            ]
        },
    ),
    unit("Reservist", rules={"actions": [activated("attack", [PAY_ONE], add_total(1))]}),
    item("Targeting Scope", rules={"actions": [activated("attack", [PAY_ONE], add_total(1))]}),
    ability("Iron Resolve", rules={"actions": [activated("defend", [PAY_ONE], add_total(1))]}),
    ability("Meditation", level=2),
    unit(
        "Sniper",
        rules={
            "actions": [activated("main", [EXERT_THIS, PAY_ONE], deal_damage(opposing("unit"), 1))]
        },
    ),
    unit(
        "Saboteur",
        rules={
            "actions": [
                activated(
                    "main",
                    [PAY_ONE],
                    {"primitive": "destroy", "target": opposing("item", state="exerted")},
                )
            ]
        },
    ),
    unit(
        "Volley Team",
        rules={
            "actions": [activated("main", [PAY_ONE], deal_damage(opposing("unit", count=2), 1))]
        },
    ),
    unit(
        "Grenadier",
        rules={
            "actions": [
                activated("attack", [EXERT_THIS], deal_damage(opposing("unit", where="combat"), 2))
            ]
        },
    ),
)
ACTIONS_TYLER = decklist(
    avatar("Tyler"),
    unit("Guard", defense=1, health=2),
    unit("Watchman", defense=1, health=2),
    unit("Raider", attack=2, health=3),
    unit("Second Raider", attack=2, health=3),
    unit(
        "Shieldbearer",
        health=3,
        rules={"actions": [activated("defend", [EXERT_THIS], add_total(2))]},
    ),
    item("Field Radio"),
    item("Datapad"),
)


def tyler_raids(state, at: int) -> None:
    """Tyler, in his turn, raids from the quest of index ``at`` and passes his first chance
    to act: Jason, defending, decides next."""
    act(state, actions.raid(quest_at(state, at)))
    act(state, actions.pass_())


def test_main_phase_only_main_phase_actions_are_usable_in_your_main_phase():
    """MAIN PHASE: "Activated actions you can use in your Main Phase begin with the Main Phase
    icon." The {attack} and {defend} ones are combat actions."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    keep_hands(state)

    legal = api.legal_actions(state).actions
    act(state, actions.activate(veteran, VETERAN_MAIN))

    assert actions.activate(veteran, VETERAN_MAIN) in legal
    assert actions.activate(veteran, VETERAN_ATTACK) not in legal
    assert actions.activate(veteran, VETERAN_DEFEND) not in legal
    assert rules.attribute(state, veteran, "attack") == 2


def test_combat_main_phase_actions_are_not_usable_even_in_a_raid_begun_in_the_main_phase():
    """COMBAT, Using Activated Actions: "You can't use Main Phase actions during combat, even if
    the combat is taking place during your Main Phase." Attacking, the {attack} ones are."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    keep_hands(state)

    act(state, actions.raid(quest_at(state, 0)))
    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (FIRST, "combat_action")
    assert actions.activate(veteran, VETERAN_MAIN) not in decision.actions
    assert actions.activate(veteran, VETERAN_ATTACK) in decision.actions
    assert actions.activate(veteran, VETERAN_DEFEND) not in decision.actions


def test_combat_defend_actions_are_usable_only_while_defending():
    """COMBAT, Combat Actions: an activated action "that begins with the attack icon (if
    you're attacking) or the defend icon (if you're defending)"."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    put_into_play(state, SECOND, "Raider", at=0)
    keep_hands(state)
    end_turn(state)  # Jason keeps his 3 power for Tyler's turn

    tyler_raids(state, 0)
    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (FIRST, "combat_action")
    assert actions.activate(veteran, VETERAN_DEFEND) in decision.actions
    assert actions.activate(veteran, VETERAN_ATTACK) not in decision.actions
    assert actions.activate(veteran, VETERAN_MAIN) not in decision.actions


def test_combat_only_combatants_actions_are_usable_and_no_gear_without_the_avatar():
    """COMBAT: "You can't use an activated action on a unit or avatar that is not a combatant.
    You can only use activated actions on item and ability cards if your avatar is a
    combatant." A raid with units leaves the avatar out."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    reservist = put_into_play(state, FIRST, "Reservist", at=1)
    scope = put_into_play(state, FIRST, "Targeting Scope")
    keep_hands(state)

    act(state, actions.raid(quest_at(state, 0)))
    legal = api.legal_actions(state).actions

    assert actions.activate(veteran, VETERAN_ATTACK) in legal
    assert actions.activate(reservist, 0) not in legal
    assert actions.activate(scope, 0) not in legal


def test_combat_item_actions_are_usable_when_the_avatar_is_an_attacking_combatant():
    """COMBAT: item actions are usable "if your avatar is a combatant"; the units at the quest
    Jason attempts don't fight alongside his avatar, so theirs are not."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    put_into_play(state, FIRST, "Meditation")
    scope = put_into_play(state, FIRST, "Targeting Scope")
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)

    act(state, actions.attempt_quest(quest_at(state, 0)))
    legal = api.legal_actions(state).actions

    assert actions.activate(scope, 0) in legal
    assert actions.activate(veteran, VETERAN_ATTACK) not in legal


def test_combat_ability_actions_are_usable_only_while_the_avatar_defends():
    """COMBAT: ability actions are usable only "if your avatar is a combatant": not when
    Tyler raids Jason's unit, but when he raids where Jason has no unit, against his avatar."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    resolve = put_into_play(state, FIRST, "Iron Resolve")
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    put_into_play(state, SECOND, "Raider", at=0)
    put_into_play(state, SECOND, "Second Raider", at=1)
    keep_hands(state)
    end_turn(state)

    tyler_raids(state, 0)
    against_a_unit = api.legal_actions(state).actions
    fight_out(state)
    tyler_raids(state, 1)
    against_the_avatar = api.legal_actions(state).actions

    assert actions.activate(veteran, VETERAN_DEFEND) in against_a_unit
    assert actions.activate(resolve, 0) not in against_a_unit
    assert actions.activate(resolve, 0) in against_the_avatar


def test_main_phase_an_actions_costs_are_paid_before_its_effect():
    """MAIN PHASE: the part before the arrow "is the cost you must pay to perform it", such as
    "exerting the card that has the action"; the effect comes after."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    sniper = put_into_play(state, FIRST, "Sniper", at=0)
    guard = put_into_play(state, SECOND, "Guard", at=1)
    keep_hands(state)

    events = act(state, actions.activate(sniper, 0))

    kinds = [event["type"] for event in events]
    assert kinds.index("exerted_for_cost") < kinds.index("damage_dealt")
    assert kinds.index("power_paid") < kinds.index("damage_dealt")
    assert state.cards[sniper].exerted
    assert state.seats[FIRST].power == 2
    assert state.cards[guard].damage == 1


def test_main_phase_an_action_is_used_any_number_of_times_while_its_cost_can_be_paid():
    """MAIN PHASE: "Within the limits of paying these costs, you may perform an activated
    action any number of times during a single turn." With no power left it can't be paid."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    keep_hands(state)

    for _ in range(3):
        act(state, actions.activate(veteran, VETERAN_MAIN))
    before = api.to_json(state)

    assert rules.attribute(state, veteran, "attack") == 4
    assert state.seats[FIRST].power == 0
    assert actions.activate(veteran, VETERAN_MAIN) not in api.legal_actions(state).actions
    with pytest.raises(api.IllegalAction):
        act(state, actions.activate(veteran, VETERAN_MAIN))
    assert api.to_json(state) == before


def test_main_phase_an_action_that_exerts_its_card_cant_be_used_once_the_card_is_exerted():
    """MAIN PHASE: the cost "exerting the card that has the action" can't be paid twice: only a
    ready card can be exerted (glossary, "exert")."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    sniper = put_into_play(state, FIRST, "Sniper", at=0)
    put_into_play(state, SECOND, "Guard", at=1)
    put_into_play(state, SECOND, "Watchman", at=1)
    keep_hands(state)

    act(state, actions.activate(sniper, 0))
    act(state, actions.choose(api.legal_actions(state).actions[0]["card"]))

    assert state.seats[FIRST].power == 2  # power would still pay for it
    assert actions.activate(sniper, 0) not in api.legal_actions(state).actions
    with pytest.raises(api.IllegalAction):
        act(state, actions.activate(sniper, 0))


def test_main_phase_an_action_whose_effect_cant_happen_at_all_is_not_usable():
    """MAIN PHASE: "You can't use an activated action if you can't complete any part of its
    effect." Without an opposing unit, "deal 1 damage to an opposing unit" can't happen."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    sniper = put_into_play(state, FIRST, "Sniper", at=0)
    keep_hands(state)

    assert actions.activate(sniper, 0) not in api.legal_actions(state).actions


def test_main_phase_destroy_an_exerted_enemy_item_needs_an_exerted_enemy_item():
    """MAIN PHASE: "if the effect of an activated action is to 'destroy an exerted enemy item,'
    you can't use the action unless there is an exerted enemy item for you to destroy.\""""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    saboteur = put_into_play(state, FIRST, "Saboteur", at=0)
    radio = put_into_play(state, SECOND, "Field Radio")
    datapad = put_into_play(state, SECOND, "Datapad", exerted=True)
    keep_hands(state)

    usable_with_an_exerted_item = api.legal_actions(state).actions
    act(state, actions.activate(saboteur, 0))

    assert actions.activate(saboteur, 0) in usable_with_an_exerted_item
    assert datapad in state.seats[SECOND].discard
    assert state.seats[SECOND].items == [radio]
    assert state.seats[FIRST].power == 2  # power would still pay for it
    assert actions.activate(saboteur, 0) not in api.legal_actions(state).actions


def test_main_phase_a_partial_effect_is_carried_out_as_far_as_it_can_be():
    """MAIN PHASE: "If you can't carry out the full effects of an activated action, but can
    still perform some portion of it, you may still use that effect." Up to 2 opposing units
    are dealt damage; Tyler has one."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    volley = put_into_play(state, FIRST, "Volley Team", at=0)
    guard = put_into_play(state, SECOND, "Guard", at=1)
    keep_hands(state)
    assert actions.activate(volley, 0) in api.legal_actions(state).actions

    act(state, actions.activate(volley, 0))

    assert state.cards[guard].damage == 1
    assert api.legal_actions(state).kind == "main"


def test_combat_an_action_may_deal_more_damage_than_its_target_has_health_left():
    """MAIN PHASE: "if the effect of an activated action is to 'deal 2 damage to an enemy unit
    combatant,' you may still use the action even if the only enemy unit combatant available
    has only 1 health remaining.\""""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    grenadier = put_into_play(state, FIRST, "Grenadier", at=0)
    guard = put_into_play(state, SECOND, "Guard", at=0, damage=1)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    assert actions.activate(grenadier, 0) in api.legal_actions(state).actions

    act(state, actions.activate(grenadier, 0))

    assert state.cards[grenadier].exerted
    assert guard in state.seats[SECOND].discard


def test_combat_using_an_activated_action_is_a_combat_action():
    """COMBAT, Combat Actions: players alternate, each performing "one action, or 'pass'", an
    activated action being one; "if both players pass consecutively, this stage of the combat
    ends", so an action between two passes keeps it going."""
    state = start(ACTIONS_JASON, ACTIONS_TYLER)
    veteran = put_into_play(state, FIRST, "Veteran", at=0)
    shieldbearer = put_into_play(state, SECOND, "Shieldbearer", at=0)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))

    act(state, actions.pass_())
    act(state, actions.activate(shieldbearer, 0))
    after_tylers_action = api.legal_actions(state)
    act(state, actions.activate(veteran, VETERAN_ATTACK))
    after_jasons_action = api.legal_actions(state)
    act(state, actions.pass_())  # Tyler; Jason's pass before Tyler's action doesn't count
    after_tylers_pass = api.legal_actions(state)
    events = act(state, actions.pass_())

    assert (after_tylers_action.seat, after_tylers_action.kind) == (FIRST, "combat_action")
    assert (after_jasons_action.seat, after_jasons_action.kind) == (SECOND, "combat_action")
    assert (after_tylers_pass.seat, after_tylers_pass.kind) == (FIRST, "combat_action")
    assert {"type": "combat_decided", "winner": SECOND, "attack": 0, "defense": 2} in events


# COMBAT: tactics

TACTICS_JASON = decklist(
    avatar("Jason"),
    unit("Trooper", health=3),
    tactic(
        "Flanking Strike",
        play={"timing": ["attack"], "condition": None, "effect": [add_total(2)]},
    ),
    tactic(
        "Hold the Line",
        play={"timing": ["defend"], "condition": None, "effect": [add_total(2)]},
    ),
    tactic(
        "Veteran's Gambit",
        play={
            "timing": ["attack", "defend"],
            "condition": {"condition": "quests_completed", "player": "you", "at_least": 1},
            "effect": [add_total(1)],
        },
    ),
    tactic(
        "Adrenaline",
        cost=1,
        play={
            "timing": ["attack", "defend"],
            "condition": None,
            "effect": [
                {
                    "primitive": "modify",
                    "target": friendly("unit", "avatar", where="combat"),
                    "stat": "attack",
                    "amount": 2,
                    "duration": "combat",
                }
            ],
        },
    ),
    tactic("Overwhelming Force", cost=4),
)
TACTICS_TYLER = decklist(
    avatar("Tyler"),
    tactic(
        "Flanking Strike",
        play={"timing": ["attack"], "condition": None, "effect": [add_total(2)]},
    ),
    tactic(
        "Hold the Line",
        play={"timing": ["defend"], "condition": None, "effect": [add_total(2)]},
    ),
)


def test_combat_tactics_can_be_played_only_during_combat():
    """COMBAT, Playing a Tactic: "Tactic cards can be played *only* during combat." """
    state = start(TACTICS_JASON, TACTICS_TYLER)
    put_into_play(state, FIRST, "Trooper", at=0)
    strike = put_in_hand(state, FIRST, "Flanking Strike")
    keep_hands(state)

    in_the_main_phase = api.legal_actions(state).actions
    act(state, actions.raid(quest_at(state, 0)))
    in_the_raid = api.legal_actions(state).actions

    assert not [action for action in in_the_main_phase if action.get("card") == strike]
    assert actions.play_tactic(strike) in in_the_raid


def test_combat_a_tactic_is_played_only_with_the_icon_of_your_side():
    """COMBAT, Playing a Tactic: "eligible tactics use the attack icon (if you're attacking) or
    the defend icon (if you're defending)." """
    state = start(TACTICS_JASON, TACTICS_TYLER)
    put_into_play(state, FIRST, "Trooper", at=0)
    jasons_strike = put_in_hand(state, FIRST, "Flanking Strike")
    jasons_hold = put_in_hand(state, FIRST, "Hold the Line")
    tylers_strike = put_in_hand(state, SECOND, "Flanking Strike")
    tylers_hold = put_in_hand(state, SECOND, "Hold the Line")
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))

    attacking = api.legal_actions(state).actions
    act(state, actions.pass_())
    defending = api.legal_actions(state).actions

    assert actions.play_tactic(jasons_strike) in attacking
    assert actions.play_tactic(jasons_hold) not in attacking
    assert actions.play_tactic(tylers_hold) in defending
    assert actions.play_tactic(tylers_strike) not in defending


def test_combat_a_tactic_is_played_only_if_its_condition_holds():
    """TYPES OF CARDS, Tactic: "Tactics usually have conditions in their game text that limit
    how they can be played": "Play only if you have completed a quest"."""
    without_a_quest = start(TACTICS_JASON, TACTICS_TYLER)
    with_a_quest = start(TACTICS_JASON, TACTICS_TYLER)
    complete_quests(with_a_quest, FIRST, 1)
    gambits = []
    for state in (without_a_quest, with_a_quest):
        put_into_play(state, FIRST, "Trooper", at=0)
        gambits.append(put_in_hand(state, FIRST, "Veteran's Gambit"))
        keep_hands(state)
        act(state, actions.raid(quest_at(state, 0)))

    assert actions.play_tactic(gambits[0]) not in api.legal_actions(without_a_quest).actions
    assert actions.play_tactic(gambits[1]) in api.legal_actions(with_a_quest).actions


def test_combat_a_tactic_pays_its_cost_is_discarded_and_its_effect_lasts_until_combat_ends():
    """TYPES OF CARDS, Tactic: "When a tactic card is played, its effect occurs and then it's
    placed in the discard pile." COMBAT: "The effects of a tactic are immediate, and last only
    until the end of the combat." Its power cost must be paid (MAIN PHASE, Power cost)."""
    state = start(TACTICS_JASON, TACTICS_TYLER)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    adrenaline = put_in_hand(state, FIRST, "Adrenaline")
    too_costly = put_in_hand(state, FIRST, "Overwhelming Force")
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    assert actions.play_tactic(too_costly) not in api.legal_actions(state).actions

    played = act(state, actions.play_tactic(adrenaline))
    next_to_act = api.legal_actions(state).seat
    act(state, actions.pass_())  # Tyler
    exerted = act(state, actions.exert(trooper, "attack"))
    fight_out(state)

    assert [event["type"] for event in played] == ["tactic_played", "changed"]
    assert played[0]["cost"] == 1
    assert state.seats[FIRST].power == 2
    assert adrenaline in state.seats[FIRST].discard
    assert adrenaline not in state.seats[FIRST].hand
    assert next_to_act == SECOND
    assert exerted[0]["amount"] == 3
    assert rules.attribute(state, trooper, "attack") == 1


# Triggers: "when", "whenever" and "at" text

ANY_QUEST = {"side": "any", "types": ["quest"]}

TRIGGERS_JASON = decklist(
    avatar("Jason"),
    unit("Recruiter", rules={"triggers": [trigger("played", draw(), subject=SELF)]}),
    *[
        unit(
            "Scavenger",
            rules={"triggers": [trigger("played", draw(), subject=SELF, optional=True)]},
        )
    ]
    * 2,
    unit(
        "Glory Seeker",
        attack=2,
        health=3,
        rules={
            "triggers": [
                trigger("wins_combat", gain_power(1), subject=SELF),
                trigger("loses_combat", gain_power(2), subject=SELF),
            ]
        },
    ),
    unit(
        "Commando",
        health=3,
        rules={
            "triggers": [
                trigger(
                    "begins_attacking",
                    deal_damage(opposing("unit", where="combat"), 1),
                    subject=SELF,
                )
            ]
        },
    ),
    unit(
        "Ambush Commando",
        health=3,
        rules={
            "keywords": [{"keyword": "ambush"}],
            "triggers": [
                trigger(
                    "begins_attacking",
                    deal_damage(opposing("unit", where="combat"), 1),
                    subject=SELF,
                )
            ],
        },
    ),
    unit(
        "Executioner",
        rules={
            "actions": [
                activated(
                    "main",
                    [PAY_ONE],
                    {"primitive": "destroy", "target": opposing("unit", count="all")},
                )
            ]
        },
    ),
    unit(
        "Bouncer",
        rules={
            "actions": [
                activated(
                    "main",
                    [PAY_ONE],
                    {"primitive": "return_to_hand", "target": opposing("unit", count="all")},
                )
            ]
        },
    ),
    unit(
        "Sniper",
        rules={"actions": [activated("main", [EXERT_THIS], deal_damage(opposing("unit"), 1))]},
    ),
    item("Night Watch", rules={"triggers": [trigger("end_of_turn", draw(), player="you")]}),
    ability("Meditation", level=2),
    ability(
        "Whispers",
        level=1,
        rules={"triggers": [trigger("ability_applied", draw(), subject=SELF, quest=ANY_QUEST)]},
    ),
    quests=[
        quest(
            "Win the Swoop Circuit",
            2,
            rules={
                "triggers": [trigger("quest_completed", gain_power(2), quest=SELF, player="you")]
            },
        ),
        quest("Jason's Quest 4", 4),
        quest("Jason's Quest 5", 5),
        quest("Jason's Quest 6", 6),
    ],
)
TRIGGERS_TYLER = decklist(
    avatar("Tyler"),
    unit("Guard", defense=1, health=3),
    unit("Martyr", rules={"triggers": [trigger("destroyed", gain_power(2), subject=SELF)]}),
    unit("Scrap Hauler", rules={"triggers": [trigger("leaves_play", draw(), subject=SELF)]}),
    unit(
        "Sore Loser",
        health=3,
        rules={
            "triggers": [
                trigger("wins_combat", gain_power(1), subject=SELF),
                trigger("loses_combat", draw(), subject=SELF),
            ]
        },
    ),
    unit(
        "Stubborn Guard",
        health=3,
        rules={
            "triggers": [
                trigger("takes_damage", gain_power(1), subject=SELF, condition=defending(SELF))
            ]
        },
    ),
    unit(
        "Drill Sergeant",
        rules={
            "triggers": [
                trigger(
                    "start_of_turn",
                    {"primitive": "exert", "target": friendly("unit", count="all")},
                    player="you",
                )
            ]
        },
    ),
    unit(
        "Eager Recruit",
        rules={
            "triggers": [
                trigger(
                    "start_of_turn",
                    draw(),
                    player="you",
                    condition={
                        "condition": "count",
                        "selector": friendly("unit", state="ready"),
                        "at_least": 2,
                    },
                )
            ]
        },
    ),
    item("Morning Briefing", rules={"triggers": [trigger("start_of_turn", draw(), player="you")]}),
)


def test_main_phase_a_played_trigger_happens_when_the_card_is_played():
    """docs/card-rules.md, Events: "played: the subject is played ("when this unit is
    played")"."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    recruiter = put_in_hand(state, FIRST, "Recruiter")
    keep_hands(state)

    events = act(state, actions.play(recruiter, quest_at(state, 0)))

    assert [event["type"] for event in events] == ["card_played", "draw"]
    assert events[1]["seat"] == FIRST


def test_glossary_game_text_a_you_may_trigger_asks_its_controller_to_accept_or_decline():
    """docs/card-rules.md: "optional: true means 'you may' (otherwise the effect is
    mandatory)"; the card's controller decides."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    declined_one = put_in_hand(state, FIRST, "Scavenger")
    accepted_one = put_in_hand(state, FIRST, "Scavenger")
    keep_hands(state)

    act(state, actions.play(declined_one, quest_at(state, 0)))
    asked = api.legal_actions(state)
    declined = act(state, actions.decline())
    act(state, actions.play(accepted_one, quest_at(state, 0)))
    accepted = act(state, actions.accept())

    assert (asked.seat, asked.kind) == (FIRST, "optional")
    assert asked.prompt == "Scavenger: draw a card? (optional)"
    assert asked.actions == [actions.accept(), actions.decline()]
    assert drawn_by(FIRST, declined) == 0
    assert {"type": "declined", "seat": FIRST, "card": declined_one} in declined
    assert drawn_by(FIRST, accepted) == 1


def test_glossary_destroy_destroyed_and_leaves_play_triggers_happen_after_leaving_play():
    """Glossary, destroy: "it's taken from the playmat and put into your discard pile";
    "When this unit is destroyed" and "When this unit leaves play" text still happens."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    executioner = put_into_play(state, FIRST, "Executioner", at=0)
    martyr = put_into_play(state, SECOND, "Martyr", at=0)
    hauler = put_into_play(state, SECOND, "Scrap Hauler", at=1)
    keep_hands(state)

    events = act(state, actions.activate(executioner, 0))

    assert {martyr, hauler} <= set(state.seats[SECOND].discard)
    assert state.seats[SECOND].power == 2
    assert drawn_by(SECOND, events) == 1


def test_glossary_a_card_returned_to_hand_leaves_play_but_is_not_destroyed():
    """docs/card-rules.md, Events: "leaves_play: the subject leaves play for any reason";
    returning to hand is not being destroyed (glossary, destroy: "put into your discard
    pile")."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    bouncer = put_into_play(state, FIRST, "Bouncer", at=0)
    martyr = put_into_play(state, SECOND, "Martyr", at=0)
    hauler = put_into_play(state, SECOND, "Scrap Hauler", at=1)
    keep_hands(state)

    events = act(state, actions.activate(bouncer, 0))

    assert {martyr, hauler} <= set(state.seats[SECOND].hand)
    assert drawn_by(SECOND, events) == 1  # Scrap Hauler's text
    assert state.seats[SECOND].power == 0  # not the Martyr's


def test_draw_phase_a_start_of_turn_trigger_happens_before_the_draw_phase():
    """docs/card-rules.md, Events: "start_of_turn: the player's turn begins (before his Draw
    Phase)"; "At the start of your turn" is its controller's turn only."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    put_into_play(state, SECOND, "Morning Briefing")

    jasons_turn = keep_hands(state)
    tylers_turn = end_turn(state)

    assert drawn_by(SECOND, jasons_turn) == 0
    before_the_draw_phase = between(
        tylers_turn,
        {"type": "turn_started", "seat": SECOND},
        {"type": "phase_started", "phase": "draw"},
    )
    assert drawn_by(SECOND, before_the_draw_phase) == 1
    assert len(state.seats[SECOND].hand) == 6 + 1 + 2


def test_draw_phase_a_trigger_condition_is_checked_when_the_turn_starts():
    """docs/card-rules.md: a trigger's "condition is checked when the event happens". The
    Drill Sergeant (played first) exerts every unit before the Eager Recruit's text resolves;
    both were ready as the turn started, so the Recruit still draws."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    sergeant = put_into_play(state, SECOND, "Drill Sergeant", at=0)
    recruit = put_into_play(state, SECOND, "Eager Recruit", at=0)
    keep_hands(state)

    events = end_turn(state)

    before_the_draw_phase = between(
        events,
        {"type": "turn_started", "seat": SECOND},
        {"type": "phase_started", "phase": "draw"},
    )
    assert [event["type"] for event in before_the_draw_phase] == [
        "exerted_by_effect",
        "exerted_by_effect",
        "draw",
    ]
    assert {event.get("card") for event in before_the_draw_phase[:2]} == {sergeant, recruit}


def test_main_phase_an_end_of_turn_trigger_happens_after_the_hand_limit():
    """MAIN PHASE, Ending Your Main Phase: the hand limit is met when you click DONE;
    docs/card-rules.md: "end_of_turn: the player's turn ends (after the hand limit)"."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    put_into_play(state, FIRST, "Night Watch")
    put_in_hand(state, FIRST, "Recruiter")
    put_in_hand(state, FIRST, "Bouncer")
    keep_hands(state)  # eight cards in hand

    events = end_turn(state)

    kinds = [event["type"] for event in events]
    assert kinds.index("discarded") < kinds.index("turn_ended")
    assert drawn_by(FIRST, events[kinds.index("turn_ended") :]) == 1
    assert len(state.seats[FIRST].hand) == 8


def test_combat_the_winners_win_and_the_losers_lose_the_combat():
    """COMBAT: "The player that has the largest total on his side of the combat wins";
    "whenever this unit wins a combat" and "loses a combat" text follows the outcome."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    seeker = put_into_play(state, FIRST, "Glory Seeker", at=0)
    put_into_play(state, SECOND, "Sore Loser", at=0)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(seeker, "attack"))

    events = fight_out(state)

    assert {"type": "combat_decided", "winner": FIRST, "attack": 2, "defense": 0} in events
    assert state.seats[FIRST].power == 3 + 1
    assert drawn_by(SECOND, events) == 1
    assert state.seats[SECOND].power == 0


def test_combat_a_tie_is_neither_won_nor_lost():
    """COMBAT: "If the players have the same total, then it's an undecided struggle": nobody
    wins, so neither "wins a combat" nor "loses a combat" text happens."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    put_into_play(state, FIRST, "Glory Seeker", at=0)
    loser = put_into_play(state, SECOND, "Sore Loser", at=0)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))

    events = fight_out(state)

    assert {"type": "combat_decided", "winner": None, "attack": 0, "defense": 0} in events
    assert state.cards[loser].damage == 1
    assert state.seats[FIRST].power == 3
    assert state.seats[SECOND].power == 0
    assert drawn_by(SECOND, events) == 0


def test_quest_phase_when_you_complete_this_quest_happens_though_the_quest_is_replaced():
    """QUEST PHASE: "A completed quest is replaced with one from your quest pile"; its "When you
    complete this quest" text still happens (docs/card-rules.md, quest_completed)."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    meditation = put_into_play(state, FIRST, "Meditation")
    swoop_circuit = quest_at(state, 0)
    keep_hands(state)
    act(state, actions.attempt_quest(swoop_circuit))

    events = act(state, actions.apply_ability(meditation))

    assert state.seats[FIRST].completed == [swoop_circuit]
    assert quest_at(state, 0) != swoop_circuit
    assert {"type": "power_gained", "seat": FIRST, "amount": 2} in events
    assert state.seats[FIRST].power == 3 + 1 + 2


def test_quest_phase_when_you_apply_this_ability_happens_though_the_ability_is_destroyed():
    """Glossary, apply: "a number of level tokens equal to that ability's level are created
    at that quest. Then the ability is destroyed"; its "When you apply this ability" text
    still happens."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    whispers = put_into_play(state, FIRST, "Whispers")
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 1)))

    events = act(state, actions.apply_ability(whispers))

    assert whispers in state.seats[FIRST].discard
    assert drawn_by(FIRST, events) == 1


def test_glossary_joining_combat_doesnt_trigger_begins_attacking():
    """Glossary, joining combat: a card that joins "doesn't trigger game text that has phrases
    such as 'begins defending,' 'begins attacking'"; a raider begins attacking. Each Commando
    deals 1 damage to an opposing unit combatant when it begins attacking."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    put_into_play(state, FIRST, "Commando", at=0)
    ambusher = put_in_hand(state, FIRST, "Ambush Commando")
    guard = put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)

    act(state, actions.raid(quest_at(state, 0)))
    damage_as_the_raid_began = state.cards[guard].damage
    act(state, actions.play(ambusher, quest_at(state, 0)))

    assert damage_as_the_raid_began == 1
    assert ambusher in state.combat.sides[0].combatants
    assert state.cards[guard].damage == 1


def test_glossary_damage_a_trigger_condition_is_checked_when_the_damage_is_taken():
    """docs/card-rules.md: a trigger's "condition is checked when the event happens". The
    Stubborn Guard gains Tyler 1 power whenever it takes damage while defending: not from the
    Sniper's action, but from the combat damage of a raid it defends against."""
    state = start(TRIGGERS_JASON, TRIGGERS_TYLER)
    sniper = put_into_play(state, FIRST, "Sniper", at=1)
    seeker = put_into_play(state, FIRST, "Glory Seeker", at=0)
    stubborn = put_into_play(state, SECOND, "Stubborn Guard", at=0)
    keep_hands(state)

    act(state, actions.activate(sniper, 0))
    power_after_the_sniper = state.seats[SECOND].power
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(seeker, "attack"))
    fight_out(state)

    assert power_after_the_sniper == 0
    assert state.cards[stubborn].damage == 2
    assert state.seats[SECOND].power == 1


# Statics: continuous effects

STATICS_JASON = decklist(
    avatar("Jason"),
    unit("Trooper", health=3),
    unit("Outrider", health=3),
    unit(
        "Night Sentinel",
        health=3,
        rules={
            "statics": [
                static(
                    {"primitive": "modify", "stat": "defense", "amount": 2},
                    SELF,
                    {"condition": "turn", "player": "opponent"},
                )
            ]
        },
    ),
    unit(
        "Bulwark",
        health=3,
        rules={
            "statics": [
                static(
                    {"primitive": "modify", "stat": "defense", "amount": 1}, SELF, defending(SELF)
                )
            ]
        },
    ),
    unit(
        "Banner Bearer",
        rules={
            "statics": [
                static(
                    {"primitive": "modify", "stat": "attack", "amount": 1},
                    friendly("unit", where="this_quest", other=True),
                )
            ],
            "actions": [activated("main", [DESTROY_THIS], gain_power(1))],
        },
    ),
)
STATICS_TYLER = decklist(avatar("Tyler"), unit("Raider", attack=2, health=3))


def test_glossary_game_text_a_static_applies_while_its_condition_holds():
    """docs/card-rules.md, statics: the modifier applies "while the card with the text is in
    play and the optional condition holds": the Night Sentinel gets +2 defense during the
    opponent's turn only."""
    state = start(STATICS_JASON, STATICS_TYLER)
    sentinel = put_into_play(state, FIRST, "Night Sentinel", at=0)
    put_into_play(state, SECOND, "Raider", at=0)
    keep_hands(state)
    defense_in_jasons_turn = rules.attribute(state, sentinel, "defense")
    end_turn(state)

    tyler_raids(state, 0)
    exerted = act(state, actions.exert(sentinel, "defense"))

    assert defense_in_jasons_turn == 1
    assert exerted[0]["amount"] == 3


def test_glossary_game_text_a_static_for_a_defending_unit_applies_only_while_it_defends():
    """docs/card-rules.md, Conditions: "combat_role: a card matching the subject is a combatant
    on that side of the current combat": the Bulwark gets +1 defense while defending, not
    while attacking, nor once the combat is over."""
    state = start(STATICS_JASON, STATICS_TYLER)
    bulwark = put_into_play(state, FIRST, "Bulwark", at=0)
    put_into_play(state, SECOND, "Raider", at=0)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    defense_while_attacking = rules.attribute(state, bulwark, "defense")
    fight_out(state)
    end_turn(state)

    tyler_raids(state, 0)
    exerted = act(state, actions.exert(bulwark, "defense"))
    fight_out(state)

    assert defense_while_attacking == 1
    assert exerted[0]["amount"] == 2
    assert rules.attribute(state, bulwark, "defense") == 1


def test_glossary_game_text_a_static_applies_only_while_its_card_is_in_play():
    """docs/card-rules.md, statics: applied "while the card with the text is in play": the
    Banner Bearer's other units at its quest get +1 attack from when it is played until it is
    destroyed, and units at the other quest never do."""
    state = start(STATICS_JASON, STATICS_TYLER)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    outrider = put_into_play(state, FIRST, "Outrider", at=1)
    banner = put_in_hand(state, FIRST, "Banner Bearer")
    keep_hands(state)
    attack_with_the_banner_in_hand = rules.attribute(state, trooper, "attack")

    act(state, actions.play(banner, quest_at(state, 0)))
    attack_with_the_banner_in_play = rules.attribute(state, trooper, "attack")
    outrider_attack = rules.attribute(state, outrider, "attack")
    act(state, actions.activate(banner, 0))

    assert attack_with_the_banner_in_hand == 1
    assert attack_with_the_banner_in_play == 2
    assert outrider_attack == 1
    assert banner in state.seats[FIRST].discard
    assert rules.attribute(state, trooper, "attack") == 1


# Raiding a second time

RAIDS_JASON = decklist(
    avatar("Jason", health=30),
    unit("Trooper", health=5),
    unit(
        "Smuggler Captain",
        health=5,
        rules={"actions": [activated("main", [PAY_ONE], raid_again())]},
    ),
    *[
        unit(
            "Daring Pilot",
            health=5,
            rules={"triggers": [trigger("played", raid_again(), subject=SELF)]},
        )
    ]
    * 2,
    *[
        unit(
            "Pacifist",
            health=5,
            rules={"statics": [static({"primitive": "prohibit", "action": "raid"}, SELF)]},
        )
    ]
    * 2,
)
RAIDS_TYLER = decklist(
    avatar("Tyler", health=30),
    unit(
        "Opportunist",
        health=5,
        rules={"triggers": [trigger("begins_defending", raid_again(), subject=SELF)]},
    ),
)


def raid_and_fight(state, at: int) -> list[dict]:
    """A raid from the quest of index ``at`` in which both sides only pass."""
    return act(state, actions.raid(quest_at(state, at))) + fight_out(state)


def test_glossary_raid_a_second_time_text_allows_a_second_raid_from_that_quest():
    """MAIN PHASE, Raiding: "You may raid once each turn from each of the two quests."
    Glossary, raid: "Some game text allows you to raid a 'second time' from one of your
    quests. This text raises the number of times you're allowed to raid from that quest
    during that turn from one to two.\""""
    state = start(RAIDS_JASON, RAIDS_TYLER)
    captain = put_into_play(state, FIRST, "Smuggler Captain", at=0)
    keep_hands(state)
    raid_from_the_captains_quest = actions.raid(quest_at(state, 0))

    raid_and_fight(state, 0)
    after_one_raid = api.legal_actions(state).actions
    events = act(state, actions.activate(captain, 0))
    after_the_captains_action = api.legal_actions(state).actions
    raid_and_fight(state, 0)

    assert raid_from_the_captains_quest not in after_one_raid
    assert {"type": "raid_again", "seat": FIRST, "quest": quest_at(state, 0)} in events
    assert raid_from_the_captains_quest in after_the_captains_action
    assert raid_from_the_captains_quest not in api.legal_actions(state).actions


def test_glossary_raid_never_more_than_twice_from_a_quest_however_many_such_cards():
    """Glossary, raid: "*You may never raid more than twice each turn from a quest*, no matter
    how many such cards you play." Two Daring Pilots each say "When this unit is played, you
    may raid a second time this turn from this quest"."""
    state = start(RAIDS_JASON, RAIDS_TYLER)
    pilots = [put_in_hand(state, FIRST, "Daring Pilot") for _ in range(2)]
    keep_hands(state)
    granted = []
    for pilot in pilots:
        granted += act(state, actions.play(pilot, quest_at(state, 0)))

    raid_and_fight(state, 0)
    raid_and_fight(state, 0)

    # The second pilot's text finds the quest already at two raids: it can do nothing more.
    assert [event["type"] for event in granted].count("raid_again") == 1
    assert state.quests[0].raids == 2
    assert actions.raid(quest_at(state, 0)) not in api.legal_actions(state).actions


def test_glossary_raid_a_second_time_lasts_only_that_turn():
    """Glossary, raid: the text raises the raids allowed from the quest "during that turn";
    in Jason's next turn he raids from it once again."""
    state = start(RAIDS_JASON, RAIDS_TYLER)
    captain = put_into_play(state, FIRST, "Smuggler Captain", at=0)
    keep_hands(state)
    act(state, actions.activate(captain, 0))
    end_turn(state)
    end_turn(state)  # Tyler's turn

    raid_and_fight(state, 0)

    assert state.active == FIRST
    assert actions.raid(quest_at(state, 0)) not in api.legal_actions(state).actions


def test_glossary_raid_a_second_time_is_allowed_to_the_player_whose_card_says_so():
    """Glossary, raid: the text raises "the number of times you're allowed to raid"; "you" is
    the card's controller (docs/card-rules.md). Tyler's Opportunist resolves as Jason's raid
    against it begins: only the player taking the turn raids, so it allows Tyler nothing
    and gives Jason, raiding in his own turn, nothing either."""
    state = start(RAIDS_JASON, RAIDS_TYLER)
    put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, SECOND, "Opportunist", at=0)
    keep_hands(state)

    events = raid_and_fight(state, 0)

    assert "raid_again" not in [event["type"] for event in events]
    assert state.quests[0].raids_allowed == 1
    assert actions.raid(quest_at(state, 0)) not in api.legal_actions(state).actions


def test_glossary_raid_units_that_cant_raid_dont_take_part():
    """Glossary, raid: "When you raid from a quest, all ready units on your side join it";
    glossary, game text: "can't" beats "can", so a unit that can't raid stays out, and a
    quest where no unit may raid offers no raid."""
    state = start(RAIDS_JASON, RAIDS_TYLER)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, FIRST, "Pacifist", at=0)
    put_into_play(state, FIRST, "Pacifist", at=1)
    keep_hands(state)
    legal = api.legal_actions(state).actions

    events = act(state, actions.raid(quest_at(state, 0)))

    assert actions.raid(quest_at(state, 1)) not in legal
    began = next(event for event in events if event["type"] == "combat_began")
    assert began["attackers"] == [trooper]


def test_main_phase_a_second_raid_already_allowed_from_a_quest_cant_be_allowed_again():
    """MAIN PHASE: "You can't use an activated action if you can't complete any part of its
    effect." Once the Smuggler Captain's quest allows two raids, "you may raid a second time
    this turn from this quest" can do nothing more there: "never more than twice"."""
    state = start(RAIDS_JASON, RAIDS_TYLER)
    captain = put_into_play(state, FIRST, "Smuggler Captain", at=0)
    keep_hands(state)

    act(state, actions.activate(captain, 0))

    assert state.seats[FIRST].power == 2  # power would still pay for it
    assert actions.activate(captain, 0) not in api.legal_actions(state).actions


# QUEST PHASE: level tokens placed or moved by an effect

LEVEL_TOKENS_JASON = decklist(
    avatar(
        "Jason",
        rules={
            "actions": [
                activated(
                    "main",
                    [PAY_ONE],
                    {"primitive": "move_level_tokens", "player": "you", "amount": 1},
                )
            ]
        },
    ),
    unit(
        "Pathfinder",
        rules={
            "actions": [
                activated(
                    "main",
                    [PAY_ONE],
                    {"primitive": "add_level_tokens", "target": THIS_QUEST, "amount": 2},
                )
            ]
        },
    ),
    ability("Glimpse", level=1),
)
LEVEL_TOKENS_TYLER = decklist(avatar("Tyler"))


def attempt_with_glimpse_next_turn(state, at: int) -> list[dict]:
    """Jason readies a level 1 ability, ends his turn and, after Tyler's, attempts the quest
    of index ``at`` with it."""
    glimpse = put_into_play(state, FIRST, "Glimpse")
    end_turn(state)
    end_turn(state)  # Tyler's turn
    events = act(state, actions.attempt_quest(quest_at(state, at)))
    return events + act(state, actions.apply_ability(glimpse))


def test_quest_phase_level_tokens_placed_by_an_effect_complete_the_quest_at_the_next_attempt():
    """QUEST PHASE, More on the Quest Phase: if level tokens an effect puts at a quest make a
    player's tokens there enough to complete it, "he doesn't complete it until the next time
    he quests there" (docs/card-rules.md: add_level_tokens too)."""
    state = start(LEVEL_TOKENS_JASON, LEVEL_TOKENS_TYLER)
    pathfinder = put_into_play(state, FIRST, "Pathfinder", at=0)
    level_2_quest = quest_at(state, 0)
    keep_hands(state)

    placed = act(state, actions.activate(pathfinder, 0))
    tokens_placed = state.quests[0].tokens[FIRST]
    quest_then = quest_at(state, 0)
    completed = attempt_with_glimpse_next_turn(state, 0)

    assert tokens_placed == 2
    assert quest_then == level_2_quest
    assert "quest_completed" not in [event["type"] for event in placed]
    assert {
        "type": "quest_completed",
        "seat": FIRST,
        "quest": level_2_quest,
        "at": 0,
        "power": 1,
    } in completed
    assert state.seats[FIRST].completed == [level_2_quest]


def test_quest_phase_level_tokens_moved_by_an_effect_complete_the_quest_at_the_next_attempt():
    """QUEST PHASE, More on the Quest Phase: "If a level token is moved and makes a player's
    total level tokens at a quest high enough to complete it, he doesn't complete it until
    the next time he quests there.\""""
    state = start(LEVEL_TOKENS_JASON, LEVEL_TOKENS_TYLER)
    level_2_quest, other_quest = quest_at(state, 0), quest_at(state, 1)
    state.quests[0].tokens[FIRST] = 1  # say Jason applied a level 1 ability at each quest
    state.quests[1].tokens[FIRST] = 1
    keep_hands(state)
    jason = state.seats[FIRST].avatar

    act(state, actions.activate(jason, 0))
    asked = api.legal_actions(state)
    moved = act(state, actions.choose(other_quest))
    tokens_after_the_move = [quest.tokens[FIRST] for quest in state.quests]
    quest_then = quest_at(state, 0)
    completed = attempt_with_glimpse_next_turn(state, 0)

    assert (asked.seat, asked.kind) == (FIRST, "choose")
    assert tokens_after_the_move == [2, 0]
    assert quest_then == level_2_quest
    assert "quest_completed" not in [event["type"] for event in moved]
    assert {
        "type": "quest_completed",
        "seat": FIRST,
        "quest": level_2_quest,
        "at": 0,
        "power": 1,
    } in completed
