"""COMBAT: combat actions, the winner, the damage bonus and taking damage."""

import pytest

from game.engine import actions, api
from game.engine.effects import CombatInProgress, begin_combat
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    at,
    avatar,
    item,
    kinds,
    position,
    quest_at,
    seat,
    tactic,
    the,
    unit,
)

JASON = avatar("Jason", attack=1, defense=1, damage_bonus=1)
HEAVY_BLASTER = item("Heavy Blaster", attack=2, restriction="weapon")
VIBROKNIFE = item("Vibroknife", damage_bonus=2)
BLAST_VEST = item("Blast Vest", defense=2, restriction="armor")
MEDITATION = ability("Meditation", level=2, defense=1)
IRON_WILL = ability("Iron Will", defense=2)
TROOPER = unit("Trooper", attack=2, defense=1, damage_bonus=1)
SCOUT = unit("Scout", attack=1, defense=1, damage_bonus=2)
QUICK_DRAW = tactic("Quick Draw", cost=1)
# "{attack} Destroy an opposing unit combatant": a card effect that destroys one mid-combat.
THERMAL_DETONATOR = tactic(
    "Thermal Detonator",
    play={
        "timing": ["attack"],
        "condition": None,
        "effect": [
            {
                "primitive": "destroy",
                "target": {"side": "opposing", "types": ["unit"], "where": "combat"},
            }
        ],
    },
)

TYLER = avatar("Tyler", attack=1, defense=1, damage_bonus=1)
GUARD = unit("Guard", attack=1, defense=2, health=2)
SENTRY = unit("Sentry", attack=1, defense=2, health=2)
WATCHMAN = unit("Watchman", attack=1, defense=2, health=2)
RAIDER = unit("Raider", attack=3, defense=1, damage_bonus=1, health=2)


def jason_attempts_a_quest_against(*tyler_units: dict, exerted: tuple[str, ...] = (), hand=()):
    """Jason's first Quest Phase: he attempts quest 0, where Tyler has ``tyler_units``."""
    state = position(
        seat(JASON, hand=hand, playmat=(MEDITATION, HEAVY_BLASTER, VIBROKNIFE)),
        seat(
            TYLER,
            playmat=tuple(at(card, 0, exerted=card["title"] in exerted) for card in tyler_units),
        ),
        phase="quest",
    )
    act(state, actions.attempt_quest(quest_at(state, 0)))
    cards = {title: the(state, FIRST, title) for title in ("Meditation", "Heavy Blaster")}
    cards["Vibroknife"] = the(state, FIRST, "Vibroknife")
    cards.update({card["title"]: the(state, SECOND, card["title"]) for card in tyler_units})
    cards["Jason"] = state.seats[FIRST].avatar
    return state, cards


def tyler_raids_jasons_avatar():
    """Tyler goes first and raids Jason's avatar with his Raider."""
    gear = (HEAVY_BLASTER, VIBROKNIFE, BLAST_VEST, MEDITATION, IRON_WILL)
    state = position(seat(JASON, playmat=gear), seat(TYLER, playmat=(at(RAIDER, 1),)), first=SECOND)
    act(state, actions.raid(quest_at(state, 1)))
    cards = {card["title"]: the(state, FIRST, card["title"]) for card in gear}
    cards["Raider"] = the(state, SECOND, "Raider")
    cards["Jason"] = state.seats[FIRST].avatar
    return state, cards


def test_combat_totals_start_at_zero_and_the_attacker_acts_first():
    state, _ = jason_attempts_a_quest_against(GUARD)

    decision = api.legal_actions(state)

    assert [side.total for side in state.combat.sides] == [0, 0]
    assert (decision.seat, decision.kind) == (FIRST, "combat_action")


def test_combat_actions_alternate_and_two_passes_in_a_row_end_them():
    state, cards = jason_attempts_a_quest_against(GUARD)

    act(state, actions.pass_())
    after_one_pass = api.legal_actions(state)
    act(state, actions.exert(cards["Guard"], "defense"))
    after_an_action = api.legal_actions(state)
    act(state, actions.pass_())
    events = act(state, actions.pass_())

    assert (after_one_pass.seat, after_one_pass.kind) == (SECOND, "combat_action")
    assert (after_an_action.seat, after_an_action.kind) == (FIRST, "combat_action")
    assert {"type": "combat_decided", "winner": SECOND, "attack": 0, "defense": 2} in events


def test_combat_exerting_adds_the_attribute_once():
    state, cards = jason_attempts_a_quest_against(GUARD)

    events = act(state, actions.exert(cards["Heavy Blaster"], "attack"))
    act(state, actions.pass_())

    assert events == [
        {
            "type": "exerted",
            "seat": FIRST,
            "card": cards["Heavy Blaster"],
            "attribute": "attack",
            "amount": 2,
            "total": 2,
        }
    ]
    assert actions.exert(cards["Heavy Blaster"], "attack") not in api.legal_actions(state).actions


def test_combat_items_add_attack_when_the_avatar_attacks():
    state, cards = jason_attempts_a_quest_against(GUARD)

    decision = api.legal_actions(state)

    exerts = [action for action in decision.actions if action["kind"] == "exert"]
    assert exerts == [
        actions.exert(cards["Jason"], "attack"),
        actions.exert(cards["Heavy Blaster"], "attack"),
    ]


def test_combat_abilities_and_armor_add_defense_when_the_avatar_defends():
    state, cards = tyler_raids_jasons_avatar()
    act(state, actions.exert(cards["Raider"], "attack"))

    decision = api.legal_actions(state)

    exerts = [action for action in decision.actions if action["kind"] == "exert"]
    assert exerts == [
        actions.exert(cards[title], "defense")
        for title in ("Jason", "Blast Vest", "Meditation", "Iron Will")
    ]


def test_combat_items_and_abilities_stay_out_when_the_avatar_is_not_a_combatant():
    state = position(seat(JASON, playmat=(HEAVY_BLASTER, IRON_WILL, at(TROOPER, 0))), seat(TYLER))
    trooper = the(state, FIRST, "Trooper")

    act(state, actions.raid(quest_at(state, 0)))

    exerts = [a for a in api.legal_actions(state).actions if a["kind"] == "exert"]
    assert exerts == [actions.exert(trooper, "attack")]


def test_combat_a_tactic_is_a_combat_action_that_pays_its_cost_and_is_discarded():
    state, _ = jason_attempts_a_quest_against(GUARD, hand=(QUICK_DRAW,))
    quick_draw = the(state, FIRST, "Quick Draw")
    assert actions.play_tactic(quick_draw) in api.legal_actions(state).actions

    events = act(state, actions.play_tactic(quick_draw))

    assert events[0] == {"type": "tactic_played", "seat": FIRST, "card": quick_draw, "cost": 1}
    assert state.combat.sides[0].total == 1  # its effect: +1 to your total
    assert state.seats[FIRST].power == 2
    assert quick_draw in state.seats[FIRST].discard
    assert api.legal_actions(state).seat == SECOND


def test_combat_the_winner_deals_one_base_damage():
    state, cards = jason_attempts_a_quest_against(GUARD)
    act(state, actions.exert(cards["Heavy Blaster"], "attack"))
    act(state, actions.pass_())  # Tyler
    act(state, actions.pass_())  # Jason wins, 2 to 0

    events = act(state, actions.pass_())  # no damage bonus

    assert {"type": "damaged", "card": cards["Guard"], "amount": 1} in events
    assert state.cards[cards["Jason"]].damage == 0


def test_combat_tie_deals_one_damage_to_each_side():
    state, cards = jason_attempts_a_quest_against(GUARD)
    act(state, actions.exert(cards["Heavy Blaster"], "attack"))
    act(state, actions.exert(cards["Guard"], "defense"))
    act(state, actions.pass_())
    events = act(state, actions.pass_())  # 2 to 2
    assert {"type": "combat_decided", "winner": None, "attack": 2, "defense": 2} in events

    act(state, actions.pass_())  # Jason adds no damage bonus; the Guard is exerted

    assert state.cards[cards["Guard"]].damage == 1
    assert state.cards[cards["Jason"]].damage == 1


def test_combat_exactly_one_card_is_exerted_for_damage_bonus():
    state, cards = jason_attempts_a_quest_against(GUARD)
    act(state, actions.exert(cards["Heavy Blaster"], "attack"))
    act(state, actions.pass_())
    act(state, actions.pass_())
    bonus = api.legal_actions(state)

    act(state, actions.exert(cards["Vibroknife"], "damage_bonus"))

    assert (bonus.seat, bonus.kind) == (FIRST, "damage_bonus")
    assert bonus.actions == [
        actions.exert(cards["Jason"], "damage_bonus"),
        actions.exert(cards["Vibroknife"], "damage_bonus"),
        actions.pass_(),
    ]
    assert state.combat is None  # 3 damage destroyed the Guard; Jason's avatar stayed ready
    assert cards["Guard"] in state.seats[SECOND].discard
    assert not state.cards[cards["Jason"]].exerted


def test_combat_units_add_their_own_damage_bonus_but_no_item_does():
    state = position(seat(JASON, playmat=(VIBROKNIFE, at(TROOPER, 0), at(SCOUT, 0))), seat(TYLER))
    trooper, scout = the(state, FIRST, "Trooper"), the(state, FIRST, "Scout")
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(trooper, "attack"))
    act(state, actions.pass_())
    act(state, actions.pass_())

    decision = api.legal_actions(state)

    assert decision.actions == [actions.exert(scout, "damage_bonus"), actions.pass_()]


def test_combat_damage_is_distributed_by_the_player_taking_it_never_beyond_destruction():
    state, cards = jason_attempts_a_quest_against(GUARD, SENTRY)
    act(state, actions.exert(cards["Heavy Blaster"], "attack"))
    act(state, actions.pass_())
    act(state, actions.pass_())
    act(state, actions.exert(cards["Vibroknife"], "damage_bonus"))  # 3 damage
    first_point = api.legal_actions(state)

    act(state, actions.assign_damage(cards["Guard"]))
    act(state, actions.assign_damage(cards["Guard"]))

    assert (first_point.seat, first_point.kind) == (SECOND, "assign_damage")
    assert first_point.actions == [
        actions.assign_damage(cards["Guard"]),
        actions.assign_damage(cards["Sentry"]),
    ]
    assert state.combat is None  # the third point could only go to the Sentry
    assert cards["Guard"] in state.seats[SECOND].discard
    assert state.cards[cards["Sentry"]].damage == 1


def test_combat_damage_beyond_what_destroys_every_combatant_is_lost():
    state, cards = jason_attempts_a_quest_against(GUARD)
    act(state, actions.exert(cards["Heavy Blaster"], "attack"))
    act(state, actions.pass_())
    act(state, actions.pass_())

    events = act(state, actions.exert(cards["Vibroknife"], "damage_bonus"))

    assert {"type": "damaged", "card": cards["Guard"], "amount": 2} in events


def test_combat_added_attributes_stay_after_the_card_is_destroyed():
    """A card effect may destroy a combatant mid-combat; what it added stays in the total."""
    state, cards = jason_attempts_a_quest_against(GUARD, SENTRY, hand=(THERMAL_DETONATOR,))
    act(state, actions.pass_())
    act(state, actions.exert(cards["Guard"], "defense"))

    act(state, actions.play_tactic(the(state, FIRST, "Thermal Detonator")))
    act(state, actions.choose(cards["Guard"]))

    assert cards["Guard"] in state.seats[SECOND].discard
    assert state.combat.sides[1].total == 2
    assert state.combat.sides[1].combatants == [cards["Sentry"]]


def test_combat_no_combat_starts_inside_a_combat():
    state = position(seat(JASON, playmat=(at(TROOPER, 0), at(SCOUT, 1))), seat(TYLER))
    act(state, actions.raid(quest_at(state, 0)))

    assert not kinds(api.legal_actions(state)) & {"raid", "attempt_quest", "play"}
    with pytest.raises(CombatInProgress):
        begin_combat(
            state,
            [],
            kind="raid",
            at=1,
            attackers=(FIRST, state.quests[1].units[FIRST]),
            defenders=(SECOND, [state.seats[SECOND].avatar]),
            resume="main_phase",
        )


def test_combat_rulebook_example_jason_and_tyler():
    """COMBAT: Jason attempts a quest where Tyler has three units, two of them exerted.

    The rulebook's Jason exerts "a weapon item" for 2 attack and later "a weapon item" for a +2
    damage bonus; as a card exerted for attack can't exert again, these are two weapons here.
    At 2 attack against 2 defense the combat is a tie, so Tyler deals 1 damage back.
    """
    state, cards = jason_attempts_a_quest_against(
        GUARD, SENTRY, WATCHMAN, exerted=("Sentry", "Watchman")
    )
    assert state.combat.sides[1].combatants == [cards["Guard"], cards["Sentry"], cards["Watchman"]]
    assert [side.total for side in state.combat.sides] == [0, 0]

    # Jason has the first chance; he exerts his weapon for its attack of 2.
    act(state, actions.exert(cards["Heavy Blaster"], "attack"))
    # Tyler exerts his one ready unit, adding its 2 defense.
    act(state, actions.exert(cards["Guard"], "defense"))
    assert [side.total for side in state.combat.sides] == [2, 2]
    act(state, actions.pass_())
    act(state, actions.pass_())

    # Jason exerts a weapon for its +2 damage bonus: 3 damage in all.
    act(state, actions.exert(cards["Vibroknife"], "damage_bonus"))
    # Tyler applies 2 points to one unit, destroying it, and the third to a second unit.
    assert api.legal_actions(state).seat == SECOND
    act(state, actions.assign_damage(cards["Sentry"]))
    act(state, actions.assign_damage(cards["Sentry"]))
    act(state, actions.assign_damage(cards["Watchman"]))

    assert cards["Sentry"] in state.seats[SECOND].discard
    assert state.cards[cards["Watchman"]].damage == 1
    assert state.cards[cards["Guard"]].damage == 0
    assert state.cards[cards["Jason"]].damage == 1
    # The combat is over, and Jason continues with his Quest Phase.
    assert state.combat is None
    assert api.legal_actions(state).kind == "apply_ability"
