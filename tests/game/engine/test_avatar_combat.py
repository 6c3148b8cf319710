"""COMBAT "as the result of a card effect": the effect ``begin_avatar_combat`` sets one avatar
against the other, and the glossary's operative units join such a combat, and no other.

Jason (seat 0) takes the turn; the set's Tracking Beacon and Dueling Summons begin the
combats, played through the engine's public API from positions built with
``game.engine.positions``.
"""

from pathlib import Path

from game.engine import actions, api
from game.engine.decklists import card_definition, load_set
from game.engine.simulation import view_violations
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    act,
    at,
    avatar,
    item,
    position,
    quest_at,
    seat,
    the,
    unit,
)

SET = load_set(
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
SET_CARDS = {card["title"]: card_definition(card) for card in SET["cards"]}
TRACKING_BEACON = SET_CARDS["Tracking Beacon"]
DUELING_SUMMONS = SET_CARDS["Dueling Summons"]
OUTRIDER = SET_CARDS["Scout Trooper Outrider"]  # Operative; 2 attack, 1 defense, 2 health
BOLT_FOR_THE_HANGAR = SET_CARDS["Bolt for the Hangar"]  # "Play only if your avatar is a
# combatant. It withdraws."

JASON = avatar("Jason", attack=1, defense=1, damage_bonus=1, health=20)
TYLER = avatar("Tyler", attack=1, defense=1, damage_bonus=1, health=20)
TROOPER = unit("Trooper", attack=3, defense=1)
GUARD = unit("Guard", attack=1, defense=2)
# "Whenever this avatar takes damage, it gets +1 attack until end of turn" (as Vorsa Kel).
STUBBORN_TYLER = avatar(
    "Stubborn Tyler",
    rules={
        "triggers": [
            {
                "event": "takes_damage",
                "subject": {"self": True},
                "condition": None,
                "effect": [
                    {
                        "primitive": "modify",
                        "target": {"self": True},
                        "stat": "attack",
                        "amount": 1,
                        "duration": "turn",
                    }
                ],
            }
        ]
    },
)
AT_A_QUEST = {"side": "any", "types": ["quest"]}
BEGIN_AVATAR_COMBAT = {"primitive": "begin_avatar_combat", "target": AT_A_QUEST}
# "{attack} Exert this item → Your avatar begins combat against the opposing avatar."
CHALLENGE_HORN = item(
    "Challenge Horn",
    rules={
        "actions": [
            {
                "timing": "attack",
                "cost": [{"primitive": "exert_self"}],
                "effect": [BEGIN_AVATAR_COMBAT],
            }
        ]
    },
)
# "Ambush. When this unit is played, your avatar begins combat against the opposing avatar at
# this quest."
HOTHEADED_AMBUSHER = unit(
    "Hotheaded Ambusher",
    rules={
        "keywords": [{"keyword": "ambush"}],
        "triggers": [
            {
                "event": "played",
                "subject": {"self": True},
                "condition": None,
                "effect": [
                    {
                        "primitive": "begin_avatar_combat",
                        "target": {"side": "any", "types": ["quest"], "where": "this_quest"},
                    }
                ],
            }
        ],
    },
)


def use_the_beacon(state, quest: int = 0) -> list[dict]:
    """Jason activates his Tracking Beacon and picks the quest the avatars fight at."""
    events = act(state, actions.activate(the(state, FIRST, "Tracking Beacon"), 0))
    return events + act(state, actions.choose(quest_at(state, quest)))


def pass_until_the_combat_is_over(state) -> list[dict]:
    """Both pass their combat actions and add no damage bonus; damage goes where it must."""
    events = []
    while state.combat is not None:
        decision = api.legal_actions(state)
        if decision.kind == "assign_damage":
            events += act(state, decision.actions[0])
        else:
            events += act(state, actions.pass_())
    return events


def test_a_card_effect_begins_combat_between_the_avatars_and_its_player_attacks():
    """COMBAT: avatars can engage in combat "as the result of a card effect"; "the player
    who causes the combat ... are the attackers"."""
    state = position(seat(JASON, playmat=(TRACKING_BEACON,)), seat(TYLER))
    beacon = the(state, FIRST, "Tracking Beacon")
    jason, tyler = state.seats[FIRST].avatar, state.seats[SECOND].avatar
    assert actions.activate(beacon, 0) in api.legal_actions(state).actions

    act(state, actions.activate(beacon, 0))
    quests = api.legal_actions(state)
    events = act(state, actions.choose(quest_at(state, 1)))

    assert quests.actions == [
        actions.choose(quest_at(state, 0)),
        actions.choose(quest_at(state, 1)),
    ]
    assert {
        "type": "combat_began",
        "kind": "effect",
        "quest": quest_at(state, 1),
        "attacker": FIRST,
        "attackers": [jason],
        "defender": SECOND,
        "defenders": [tyler],
    } in events
    decision = api.legal_actions(state)
    assert (decision.seat, decision.kind) == (FIRST, "combat_action")
    assert actions.exert(jason, "attack") in decision.actions
    assert state.seats[FIRST].power == 2  # the Beacon's 1 power
    assert state.cards[beacon].exerted


def test_operative_joins_the_avatar_combat_and_adds_its_attack_but_stays_out_of_a_raid():
    """operative: "When your avatar begins combat against another avatar, if your unit that
    has this keyword is ready, it joins the combat." Jason's units raiding Tyler's avatar is
    not such a combat: his avatar doesn't fight there."""
    state = position(
        seat(JASON, playmat=(TRACKING_BEACON, at(OUTRIDER, 1), at(TROOPER, 0))),
        seat(TYLER),
    )
    jason, tyler = state.seats[FIRST].avatar, state.seats[SECOND].avatar
    outrider, trooper = the(state, FIRST, "Scout Trooper Outrider"), the(state, FIRST, "Trooper")

    raid = act(state, actions.raid(quest_at(state, 0)))
    raiders = list(state.combat.sides[0].combatants)
    raid += pass_until_the_combat_is_over(state)

    duel = use_the_beacon(state)
    duel_sides = [list(side.combatants) for side in state.combat.sides]
    duel += act(state, actions.exert(outrider, "attack"))
    duel += act(state, actions.exert(tyler, "defense"))
    duel += act(state, actions.exert(jason, "attack"))
    duel += pass_until_the_combat_is_over(state)

    assert raiders == [trooper]
    assert {"type": "joined_combat", "card": outrider} not in raid
    assert duel_sides == [[jason, outrider], [tyler]]
    assert {"type": "joined_combat", "card": outrider} in duel
    assert {"type": "combat_decided", "winner": FIRST, "attack": 3, "defense": 1} in duel
    assert state.cards[tyler].damage == 1 + 1  # the raid's point, then the duel's
    assert api.legal_actions(state).kind == "main"


def test_operative_of_the_defending_avatar_joins_too_and_can_take_the_damage():
    """Both avatars begin the combat; Tyler's ready operative joins his side and may be
    assigned the damage his side takes (COMBAT, "Take Damage")."""
    state = position(
        seat(JASON, playmat=(TRACKING_BEACON,)), seat(TYLER, playmat=(at(OUTRIDER, 0),))
    )
    tyler = state.seats[SECOND].avatar
    outrider = the(state, SECOND, "Scout Trooper Outrider")

    use_the_beacon(state)
    defenders = list(state.combat.sides[1].combatants)
    act(state, actions.exert(state.seats[FIRST].avatar, "attack"))
    act(state, actions.pass_())
    act(state, actions.pass_())  # Jason wins, 1 to 0, with nothing left for damage bonus
    assignment = api.legal_actions(state)
    act(state, actions.assign_damage(outrider))

    assert defenders == [tyler, outrider]
    assert (assignment.seat, assignment.kind) == (SECOND, "assign_damage")
    assert state.cards[outrider].damage == 1
    assert state.cards[tyler].damage == 0


def test_an_exerted_operative_stays_out_of_the_avatar_combat():
    state = position(
        seat(JASON, playmat=(TRACKING_BEACON, at(OUTRIDER, 0, exerted=True))), seat(TYLER)
    )

    events = use_the_beacon(state)

    assert state.combat.sides[0].combatants == [state.seats[FIRST].avatar]
    assert "joined_combat" not in [event["type"] for event in events]


def test_avatar_combat_deals_combat_damage_that_triggers_takes_damage_during_combat():
    """The combat is an ordinary one: the winner's damage bonus, the damage taken, and what
    taking it triggers, all before the combat is over."""
    state = position(seat(JASON, playmat=(TRACKING_BEACON,)), seat(STUBBORN_TYLER))
    jason, tyler = state.seats[FIRST].avatar, state.seats[SECOND].avatar
    use_the_beacon(state)
    act(state, actions.exert(jason, "attack"))
    act(state, actions.pass_())

    events = act(state, actions.pass_())  # Jason wins, 1 to 0; his avatar is exerted

    types = [event["type"] for event in events]
    assert {"type": "damaged", "card": tyler, "amount": 1} in events
    assert types.index("changed") < types.index("combat_ended")
    assert api.view(state, None)["players"][SECOND]["avatar"]["attack"] == 2


def test_the_rest_of_the_card_text_resolves_once_the_avatar_combat_is_over():
    """Dueling Summons: "Your avatar begins combat against the opposing avatar at a quest.
    Draw a card." The card is drawn after the combat."""
    state = position(seat(JASON, playmat=(DUELING_SUMMONS,)), seat(TYLER))
    summons = the(state, FIRST, "Dueling Summons")
    hand = len(state.seats[FIRST].hand)

    events = act(state, actions.activate(summons, 0))
    events += act(state, actions.choose(quest_at(state, 0)))
    during = len(state.seats[FIRST].hand)
    events += pass_until_the_combat_is_over(state)

    types = [event["type"] for event in events]
    assert during == hand
    assert types.index("combat_ended") < types.index("draw")
    assert len(state.seats[FIRST].hand) == hand + 1
    assert summons in state.seats[FIRST].removed  # Secondary
    assert api.legal_actions(state).kind == "main"


def test_a_withdrawn_avatar_ends_the_avatar_combat_and_the_text_goes_on():
    """glossary, "withdraw": when all the combatants of one side withdraw the combat ends with
    no winner and no damage; Dueling Summons then draws its card."""
    state = position(
        seat(JASON, playmat=(DUELING_SUMMONS,)), seat(TYLER, hand=(BOLT_FOR_THE_HANGAR,))
    )
    hand = len(state.seats[FIRST].hand)
    act(state, actions.activate(the(state, FIRST, "Dueling Summons"), 0))
    act(state, actions.choose(quest_at(state, 0)))
    act(state, actions.pass_())

    events = act(state, actions.play_tactic(the(state, SECOND, "Bolt for the Hangar")))

    assert {"type": "combat_ended", "quest": quest_at(state, 0), "withdrawn": True} in events
    assert state.combat is None
    assert len(state.seats[FIRST].hand) == hand + 1
    assert [state.cards[player.avatar].damage for player in state.seats] == [0, 0]
    assert (api.legal_actions(state).seat, api.legal_actions(state).kind) == (FIRST, "main")


def test_no_avatar_combat_begins_while_a_combat_is_in_progress():
    """COMBAT: "A new combat can't begin while one is already in progress." An action that
    would begin one isn't legal during a combat, and a trigger's does nothing."""
    state = position(
        seat(JASON, playmat=(CHALLENGE_HORN, at(TROOPER, 0))),
        seat(TYLER, hand=(HOTHEADED_AMBUSHER,), power=3),
    )
    horn = the(state, FIRST, "Challenge Horn")
    ambusher = the(state, SECOND, "Hotheaded Ambusher")

    act(state, actions.raid(quest_at(state, 0)))  # Jason's Trooper attacks Tyler's avatar
    act(state, actions.pass_())
    tyler_may = api.legal_actions(state).actions
    events = act(state, actions.play(ambusher, quest_at(state, 0)))

    assert actions.activate(horn, 0) not in tyler_may
    assert actions.play(ambusher, quest_at(state, 0)) in tyler_may
    assert [event["type"] for event in events].count("combat_began") == 0
    assert state.combat.kind == "raid"
    assert state.combat.sides[1].combatants == [state.seats[SECOND].avatar, ambusher]


def test_avatar_combat_shows_each_seat_only_what_it_may_see_and_round_trips():
    """The combat and its suspended text are in the state, not in any view; the chat log says
    who began it."""
    state = position(
        seat(JASON, hand=(GUARD,), playmat=(DUELING_SUMMONS,)), seat(TYLER, hand=(GUARD,))
    )
    act(state, actions.activate(the(state, FIRST, "Dueling Summons"), 0))
    events = act(state, actions.choose(quest_at(state, 1)))
    began = next(event for event in events if event["type"] == "combat_began")

    observed = api.view(state, None)["combat"]

    assert view_violations(state) == []
    assert observed["kind"] == "effect"
    assert [side["combatants"] for side in observed["sides"]] == [
        [state.seats[FIRST].avatar],
        [state.seats[SECOND].avatar],
    ]
    assert api.render(began, SECOND, ["Jason", "Tyler"], api.card_titles(state)) == (
        "* Jason begins combat at Tyler's Quest 2: Jason against Tyler."
    )
    assert api.from_json(api.to_json(state)) == state
