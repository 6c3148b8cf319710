"""GLOSSARY keywords: one or more tests per keyword, each checking the glossary's sentence.

Jason (seat 0) takes the first turn unless a test says otherwise; Tyler is his opponent. Cards
are defined inline, with the keyword under test in their ``rules`` (docs/card-rules.md).
"""

from game.engine import actions, api, rules
from game.engine.positions import card_ids
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    at,
    avatar,
    complete_quests,
    decklist,
    end_turn,
    item,
    keep_hands,
    position,
    put_in_hand,
    put_into_play,
    quest_at,
    seat,
    start,
    tactic,
    the,
    titles,
    unit,
)

# Card text


def keywords(*names: str) -> dict:
    return {"keywords": [{"keyword": name} for name in names]}


AN_OPPOSING_UNIT = {"side": "opposing", "types": ["unit"]}
EVERY_OPPOSING_UNIT = {"side": "opposing", "types": ["unit"], "count": "all"}
PAY_ONE_POWER = [{"primitive": "power", "amount": 1}]
EXERT_THIS_CARD = [{"primitive": "exert_self"}]


def main_action(cost: list[dict], *effect: dict) -> dict:
    return {"actions": [{"timing": "main", "cost": cost, "effect": list(effect)}]}


def static(modifier: dict, applies_to: dict) -> dict:
    return {"effect": modifier, "applies_to": applies_to, "condition": None}


# A gun that can fire once per power point: each use is one separate point of damage.
BLASTER_TURRET = item(
    "Blaster Turret",
    rules=main_action(
        PAY_ONE_POWER, {"primitive": "deal_damage", "target": AN_OPPOSING_UNIT, "amount": 1}
    ),
)
THERMAL_DETONATOR = item(
    "Thermal Detonator",
    rules=main_action(EXERT_THIS_CARD, {"primitive": "destroy", "target": EVERY_OPPOSING_UNIT}),
)
REPULSOR_FIELD = item(
    "Repulsor Field",
    rules=main_action(
        EXERT_THIS_CARD, {"primitive": "return_to_hand", "target": EVERY_OPPOSING_UNIT}
    ),
)
MEDITATION = ability("Meditation", level=2)
TROOPER = unit("Trooper", attack=2, health=2)
GUARD = unit("Guard", defense=1, health=2)
WATCHMAN = unit("Watchman", defense=1, health=2)


def game(jason_cards=(), tyler_cards=(), *, first=FIRST, jason=None, tyler=None, created=()):
    """A game between Jason and Tyler with their decks' cards, stopped at the redraw."""
    return start(
        decklist(jason or avatar("Jason"), *jason_cards, created=list(created)),
        decklist(tyler or avatar("Tyler"), *tyler_cards),
        first=first,
    )


def raid_and_win(state, at: int, attacker: int) -> list[dict]:
    """The player taking the turn raids from quest ``at``, exerts ``attacker`` for attack and
    both players pass: he wins unless the defenders added something."""
    act(state, actions.raid(quest_at(state, at)))
    act(state, actions.exert(attacker, "attack"))
    act(state, actions.pass_())
    return act(state, actions.pass_())


def stat(state, card: int, name: str) -> int:
    return rules.attribute(state, card, name)


def attack_and_defense(state, card: int) -> tuple[int, int]:
    return stat(state, card, "attack"), stat(state, card, "defense")


# agility

AGILE_SCOUT = unit("Agile Scout", rules=keywords("agility"))
RECRUIT = unit("Recruit", cost=1)


def test_agility_unit_is_readied_when_an_opposing_unit_is_played_to_its_quest():
    """agility: "Whenever an opposing unit is played to the quest of a unit that has this
    keyword, the unit that has agility is readied." Not at the other quest, and not when its
    own player plays a unit there."""
    state = game([RECRUIT, AGILE_SCOUT], [AGILE_SCOUT, AGILE_SCOUT])
    tylers_scout_here = put_into_play(state, SECOND, "Agile Scout", at=0, exerted=True)
    tylers_scout_away = put_into_play(state, SECOND, "Agile Scout", at=1, exerted=True)
    jasons_scout = put_into_play(state, FIRST, "Agile Scout", at=0)
    recruit = put_in_hand(state, FIRST, "Recruit")
    keep_hands(state)
    state.cards[jasons_scout].exerted = True  # say a card effect exerted it this turn

    events = act(state, actions.play(recruit, quest_at(state, 0)))

    assert not state.cards[tylers_scout_here].exerted
    assert {"type": "readied", "seat": SECOND, "cards": [tylers_scout_here]} in events
    assert state.cards[tylers_scout_away].exerted
    assert state.cards[jasons_scout].exerted


# ambush

AMBUSHER = unit("Ambusher", cost=1, attack=1, rules=keywords("ambush"))


def test_ambush_unit_is_played_as_a_combat_action_and_joins_the_combat():
    """ambush: "You can play your unit that has this keyword as a combat action. It joins the
    combat." A unit without ambush can't be played during combat."""
    state = game([TROOPER, AMBUSHER, RECRUIT], [GUARD])
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, SECOND, "Guard", at=0)
    ambusher = put_in_hand(state, FIRST, "Ambusher")
    recruit = put_in_hand(state, FIRST, "Recruit")
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))

    decision = api.legal_actions(state)
    act(state, actions.play(ambusher, quest_at(state, 0)))

    assert decision.kind == "combat_action"
    assert actions.play(ambusher, quest_at(state, 0)) in decision.actions
    assert not [a for a in decision.actions if a["kind"] == "play" and a["card"] == recruit]
    assert state.combat.sides[0].combatants == [trooper, ambusher]
    assert ambusher in state.quests[0].units[FIRST]
    assert state.seats[FIRST].power == 2


# durable

DURABLE_WALKER = unit("Durable Walker", health=2, rules=keywords("durable"))


def test_durable_unit_cant_be_destroyed_by_an_effect():
    """durable: "Your unit that has this keyword can't leave play unless it has 0 health."
    An effect that destroys every opposing unit leaves it on the playmat."""
    state = game([THERMAL_DETONATOR], [DURABLE_WALKER, GUARD])
    detonator = put_into_play(state, FIRST, "Thermal Detonator")
    walker = put_into_play(state, SECOND, "Durable Walker", at=0)
    guard = put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)

    act(state, actions.activate(detonator, 0))

    assert guard in state.seats[SECOND].discard
    assert state.quests[0].units[SECOND] == [walker]


def test_durable_unit_cant_be_returned_to_hand():
    """durable: "Your unit that has this keyword can't leave play unless it has 0 health."
    Returning to hand is leaving play too."""
    state = game([REPULSOR_FIELD], [DURABLE_WALKER, GUARD])
    field = put_into_play(state, FIRST, "Repulsor Field")
    walker = put_into_play(state, SECOND, "Durable Walker", at=0)
    guard = put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)

    act(state, actions.activate(field, 0))

    assert guard in state.seats[SECOND].hand
    assert walker not in state.seats[SECOND].hand
    assert state.quests[0].units[SECOND] == [walker]


def test_durable_unit_with_0_health_is_destroyed():
    """durable: "Your unit that has this keyword can't leave play unless it has 0 health."
    Damage equal to its health destroys it like any unit."""
    state = game([BLASTER_TURRET], [DURABLE_WALKER])
    turret = put_into_play(state, FIRST, "Blaster Turret")
    walker = put_into_play(state, SECOND, "Durable Walker", at=0)
    keep_hands(state)

    act(state, actions.activate(turret, 0))
    act(state, actions.activate(turret, 0))

    assert walker in state.seats[SECOND].discard
    assert state.quests[0].units[SECOND] == []


# elusive

ELUSIVE_SCOUT = unit(
    "Elusive Scout",
    attack=1,
    defense=1,
    rules={
        "keywords": [{"keyword": "elusive"}],
        "actions": [
            {
                "timing": "main",
                "cost": EXERT_THIS_CARD,
                "effect": [
                    {
                        "primitive": "modify",
                        "target": {"self": True},
                        "stat": "attack",
                        "amount": 2,
                        "duration": "turn",
                    }
                ],
            }
        ],
    },
)


def test_elusive_unit_cant_be_chosen_by_an_opposing_effect():
    """elusive: "This unit can't be affected by other cards." Jason's turret, aimed at "an
    opposing unit", can only hit the other one."""
    state = game([BLASTER_TURRET], [ELUSIVE_SCOUT, GUARD])
    turret = put_into_play(state, FIRST, "Blaster Turret")
    scout = put_into_play(state, SECOND, "Elusive Scout", at=0)
    guard = put_into_play(state, SECOND, "Guard", at=1)
    keep_hands(state)

    act(state, actions.activate(turret, 0))

    assert api.legal_actions(state).kind == "main"  # no choice: the guard was the only target
    assert state.cards[guard].damage == 1
    assert state.cards[scout].damage == 0


def test_elusive_unit_cant_be_chosen_when_it_is_the_only_opposing_unit():
    """elusive: "This unit can't be affected by other cards." With nothing else to hit, the
    turret's action can't be used (MAIN PHASE: no action whose effect can't happen at all)."""
    state = game([BLASTER_TURRET], [ELUSIVE_SCOUT])
    turret = put_into_play(state, FIRST, "Blaster Turret")
    put_into_play(state, SECOND, "Elusive Scout", at=0)
    keep_hands(state)

    assert actions.activate(turret, 0) not in api.legal_actions(state).actions


def test_elusive_unit_is_affected_by_its_own_text():
    """elusive: "This unit can't be affected by other cards." Its own text is no other card:
    "Exert this unit → it gets +2 attack until end of turn" works."""
    state = game([ELUSIVE_SCOUT])
    scout = put_into_play(state, FIRST, "Elusive Scout", at=0)
    keep_hands(state)

    act(state, actions.activate(scout, 0))

    assert stat(state, scout, "attack") == 3


def test_elusive_unit_ignores_the_statics_of_other_cards_friendly_or_opposing():
    """elusive: "This unit can't be affected by other cards." Neither Tyler's banner (his
    units get +1 attack) nor Jason's fear aura (opposing units get -1 defense) changes it."""
    banner = item(
        "War Banner",
        rules={
            "statics": [
                static(
                    {"primitive": "modify", "stat": "attack", "amount": 1},
                    {"side": "friendly", "types": ["unit"]},
                )
            ]
        },
    )
    aura = ability(
        "Fear Aura",
        rules={
            "statics": [
                static(
                    {"primitive": "modify", "stat": "defense", "amount": -1},
                    {"side": "opposing", "types": ["unit"]},
                )
            ]
        },
    )
    guard = unit("Banner Guard", attack=1, defense=2)
    state = game([aura], [ELUSIVE_SCOUT, banner, guard])
    put_into_play(state, FIRST, "Fear Aura")
    put_into_play(state, SECOND, "War Banner")
    scout = put_into_play(state, SECOND, "Elusive Scout", at=0)
    plain = put_into_play(state, SECOND, "Banner Guard", at=0)
    keep_hands(state)

    assert attack_and_defense(state, plain) == (2, 1)
    assert attack_and_defense(state, scout) == (1, 1)


# entanglement

# docs/card-rules.md's example: "Its controller's avatar gets -1 defense".
DARK_WHISPER = ability(
    "Dark Whisper",
    cost=1,
    rules={
        "keywords": [{"keyword": "entanglement"}],
        "statics": [
            static(
                {"primitive": "modify", "stat": "defense", "amount": -1},
                {"side": "friendly", "types": ["avatar"]},
            )
        ],
    },
)


def test_entanglement_ability_is_played_exerted_under_the_opponents_control():
    """entanglement: "An ability that has this keyword is played exerted, under an opponent's
    control." Its "friendly" avatar is then the opponent's."""
    state = game([DARK_WHISPER], jason=avatar("Jason", defense=2), tyler=avatar("Tyler", defense=2))
    whisper = put_in_hand(state, FIRST, "Dark Whisper")
    keep_hands(state)

    events = act(state, actions.play(whisper))

    assert whisper in state.seats[SECOND].abilities
    assert whisper not in state.seats[FIRST].abilities
    assert state.cards[whisper].exerted
    assert state.cards[whisper].controller == SECOND
    assert state.seats[FIRST].power == 2  # Jason played it, so Jason paid
    assert stat(state, state.seats[SECOND].avatar, "defense") == 1
    assert stat(state, state.seats[FIRST].avatar, "defense") == 2
    assert events[0]["entangled"] == SECOND


# evasion

EVASIVE_SCOUT = unit("Evasive Scout", defense=1, rules=keywords("evasion"))
EVASIVE_SENTRY = unit("Evasive Sentry", defense=1, rules=keywords("sentry", "evasion"))


def test_evasion_gives_one_total_defense_when_combat_begins():
    """evasion: "Whenever combat begins involving one or more of your combatants that have
    evasion, you get +1 total defense." Two such combatants still give +1."""
    state = game([TROOPER], [EVASIVE_SCOUT, EVASIVE_SCOUT])
    put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, SECOND, "Evasive Scout", at=0)
    put_into_play(state, SECOND, "Evasive Scout", at=0)
    keep_hands(state)

    events = act(state, actions.raid(quest_at(state, 0)))

    assert [side.total for side in state.combat.sides] == [0, 1]
    added = [event for event in events if event["type"] == "total_added"]
    assert added == [
        {"type": "total_added", "seat": SECOND, "amount": 1, "total": 1, "keyword": "evasion"}
    ]


def test_evasion_of_a_unit_that_joins_the_combat_adds_nothing():
    """evasion: "Whenever combat begins involving one or more of your combatants that have
    evasion, you get +1 total defense." A card that joins a combat "doesn't trigger game text
    that has phrases such as ... 'combat begins involving' it" (glossary, joining combat)."""
    state = game([TROOPER], [EVASIVE_SENTRY])
    put_into_play(state, FIRST, "Trooper", at=1)
    sentry = put_into_play(state, SECOND, "Evasive Sentry", at=0)
    keep_hands(state)

    act(state, actions.raid(quest_at(state, 1)))  # no units there: Tyler's avatar is attacked

    assert sentry in state.combat.sides[1].combatants
    assert state.combat.sides[1].total == 0


# expertise

EXPERT = unit("Expert", attack=1, defense=1, rules=keywords("expertise"))


def test_expertise_unit_permanently_gets_plus_one_at_the_end_of_its_players_turn():
    """expertise: "At the end of your turn, your unit that has this keyword permanently gets
    +1 attack and +1 defense." Only at the end of its own player's turn, and it stays."""
    state = game([EXPERT], [EXPERT])
    jasons = put_into_play(state, FIRST, "Expert", at=0)
    tylers = put_into_play(state, SECOND, "Expert", at=1)
    keep_hands(state)

    end_turn(state)
    after_jasons_turn = [attack_and_defense(state, card) for card in (jasons, tylers)]
    end_turn(state)
    after_tylers_turn = [attack_and_defense(state, card) for card in (jasons, tylers)]

    assert after_jasons_turn == [(2, 2), (1, 1)]
    assert after_tylers_turn == [(2, 2), (2, 2)]


# intel

INFORMANT = unit("Informant", cost=1, rules=keywords("intel"))
DATAPAD = item("Datapad", cost=1, rules=keywords("intel"))
SPY = unit("Spy", cost=1, rules=keywords("intel"))
HEAVY_WALKER = unit("Heavy Walker", cost=4)
MEDIUM_WALKER = unit("Medium Walker", cost=3)
INTEL_WALKER = unit("Intel Walker", cost=4, rules=keywords("intel"))


def test_intel_playing_another_card_that_costs_4_spends_intel_for_1_power_each():
    """intel: "Whenever you play another card that costs 4 or more, your card that has Intel
    loses that keyword and you gain 1 power." The opponent's Intel is not his to spend."""
    state = game([INFORMANT, DATAPAD, HEAVY_WALKER], [SPY])
    informant = put_into_play(state, FIRST, "Informant", at=0)
    datapad = put_into_play(state, FIRST, "Datapad")
    spy = put_into_play(state, SECOND, "Spy", at=0)
    walker = put_in_hand(state, FIRST, "Heavy Walker")
    complete_quests(state, FIRST, 1)  # 4 power in the Draw Phase
    keep_hands(state)

    act(state, actions.play(walker, quest_at(state, 1)))

    assert not rules.has_keyword(state, informant, "intel")
    assert not rules.has_keyword(state, datapad, "intel")
    assert rules.has_keyword(state, spy, "intel")
    assert state.seats[FIRST].power == 4 - 4 + 2


def test_intel_playing_a_card_that_costs_less_than_4_keeps_intel():
    """intel: "Whenever you play another card that costs 4 or more, ..." A cost of 3 is not
    enough."""
    state = game([INFORMANT, MEDIUM_WALKER])
    informant = put_into_play(state, FIRST, "Informant", at=0)
    walker = put_in_hand(state, FIRST, "Medium Walker")
    complete_quests(state, FIRST, 1)
    keep_hands(state)

    act(state, actions.play(walker, quest_at(state, 1)))

    assert rules.has_keyword(state, informant, "intel")
    assert state.seats[FIRST].power == 4 - 3


def test_intel_card_that_costs_4_keeps_its_own_intel_when_played():
    """intel: "Whenever you play another card that costs 4 or more, your card that has Intel
    loses that keyword and you gain 1 power." The card just played is not another card."""
    state = game([INTEL_WALKER])
    walker = put_in_hand(state, FIRST, "Intel Walker")
    complete_quests(state, FIRST, 1)
    keep_hands(state)

    act(state, actions.play(walker, quest_at(state, 0)))

    assert rules.has_keyword(state, walker, "intel")
    assert state.seats[FIRST].power == 0


def test_intel_playing_a_tactic_that_costs_4_spends_intel():
    """intel: "Whenever you play another card that costs 4 or more, your card that has Intel
    loses that keyword and you gain 1 power." A tactic is a card played from the hand too
    (COMBAT, "Playing a Tactic")."""
    big_tactic = tactic("All-Out Assault", cost=4)
    state = game([INFORMANT, TROOPER, big_tactic], [GUARD])
    informant = put_into_play(state, FIRST, "Informant", at=1)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, SECOND, "Guard", at=0)
    assault = put_in_hand(state, FIRST, "All-Out Assault")
    complete_quests(state, FIRST, 1)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    assert trooper in state.combat.sides[0].combatants

    act(state, actions.play_tactic(assault))

    assert not rules.has_keyword(state, informant, "intel")
    assert state.seats[FIRST].power == 4 - 4 + 1


# invulnerable

INVULNERABLE_DROID = unit("Invulnerable Droid", defense=0, health=1, rules=keywords("invulnerable"))


def test_invulnerable_unit_takes_no_combat_damage():
    """invulnerable: "A unit or avatar that has this keyword can't take damage of any kind."
    It loses the combat, is dealt the damage, and takes none."""
    state = game([TROOPER], [INVULNERABLE_DROID])
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    droid = put_into_play(state, SECOND, "Invulnerable Droid", at=0)
    keep_hands(state)

    events = raid_and_win(state, 0, trooper)

    assert {"type": "combat_decided", "winner": FIRST, "attack": 2, "defense": 0} in events
    assert {"type": "damage_dealt", "card": droid, "amount": 1, "by": [trooper]} in events
    assert state.cards[droid].damage == 0
    assert droid in state.quests[0].units[SECOND]


def test_invulnerable_unit_takes_no_damage_from_an_effect():
    """invulnerable: "A unit or avatar that has this keyword can't take damage of any kind." """
    state = game([BLASTER_TURRET], [INVULNERABLE_DROID])
    turret = put_into_play(state, FIRST, "Blaster Turret")
    droid = put_into_play(state, SECOND, "Invulnerable Droid", at=0)
    keep_hands(state)

    events = act(state, actions.activate(turret, 0))

    assert "damaged" not in [event["type"] for event in events]
    assert state.cards[droid].damage == 0
    assert droid in state.quests[0].units[SECOND]


# operative

OPERATIVE = unit("Operative", attack=2, rules=keywords("operative"))
# "{main} Exert this item → Your avatar begins combat against the opposing avatar at a quest."
CHALLENGE = item(
    "Challenge",
    rules=main_action(
        EXERT_THIS_CARD,
        {"primitive": "begin_avatar_combat", "target": {"side": "any", "types": ["quest"]}},
    ),
)


def test_operative_unit_joins_when_its_avatar_begins_combat_against_an_avatar():
    """operative: "When your avatar begins combat against another avatar, if your unit that
    has this keyword is ready, it joins the combat." A card effect begins such a combat
    (COMBAT); an exerted operative stays out."""
    state = position(
        seat(
            avatar("Jason"),
            playmat=(CHALLENGE, at(OPERATIVE, 1), at(OPERATIVE, 0, exerted=True)),
        ),
        seat(avatar("Tyler")),
    )
    ready_one, exerted_one = card_ids(state, FIRST, "Operative")
    jason = state.seats[FIRST].avatar

    act(state, actions.activate(the(state, FIRST, "Challenge"), 0))
    events = act(state, actions.choose(quest_at(state, 0)))
    act(state, actions.exert(ready_one, "attack"))

    assert state.combat.sides[0].combatants == [jason, ready_one]
    assert {"type": "joined_combat", "card": ready_one} in events
    assert {"type": "joined_combat", "card": exerted_one} not in events
    assert state.combat.sides[0].total == 2


def test_operative_unit_stays_out_when_its_avatar_fights_units():
    """operative: "When your avatar begins combat against another avatar, ..." Attempting a
    quest against Tyler's units is not such a combat."""
    state = position(
        seat(avatar("Jason"), playmat=(at(OPERATIVE, 1), MEDITATION)),
        seat(avatar("Tyler"), playmat=(at(GUARD, 0),)),
        phase="quest",
    )
    operative = the(state, FIRST, "Operative")

    act(state, actions.attempt_quest(quest_at(state, 0)))

    assert state.combat.sides[0].combatants == [state.seats[FIRST].avatar]
    assert operative not in state.combat.sides[0].combatants


# pin

PINNED_TROOPER = unit("Pinned Trooper", attack=1, health=3, rules=keywords("pin"))


def test_pin_exerting_deals_1_damage_then_removes_pin():
    """pin: "When a card that has this keyword becomes exerted, deal 1 damage to it, then
    remove the pin keyword from it." """
    state = game([PINNED_TROOPER])
    trooper = put_into_play(state, FIRST, "Pinned Trooper", at=0)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))

    events = act(state, actions.exert(trooper, "attack"))

    assert state.cards[trooper].damage == 1
    assert {"type": "damaged", "card": trooper, "amount": 1} in events
    assert not rules.has_keyword(state, trooper, "pin")


def test_pin_completing_a_quest_removes_pin_from_all_the_players_cards():
    """pin: "Whenever a player completes a quest, he removes the pin keyword from all his
    cards." Tyler's cards keep theirs; nothing is exerted, so no damage."""
    state = game([PINNED_TROOPER, MEDITATION], [PINNED_TROOPER])
    jasons = put_into_play(state, FIRST, "Pinned Trooper", at=0)
    tylers = put_into_play(state, SECOND, "Pinned Trooper", at=0)
    meditation = put_into_play(state, FIRST, "Meditation")
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 1)))  # a level 2 quest, no units there

    events = act(state, actions.apply_ability(meditation))

    assert "quest_completed" in [event["type"] for event in events]
    assert not rules.has_keyword(state, jasons, "pin")
    assert rules.has_keyword(state, tylers, "pin")
    assert state.cards[jasons].damage == 0


# precise

PRECISE_SNIPER = unit("Precise Sniper", attack=2, rules=keywords("precise"))


def test_precise_combatant_lets_its_player_assign_the_damage_the_opponent_takes():
    """precise: "Whenever your opponent is about to assign damage from combat involving your
    card that has this keyword, you assign that damage instead." """
    state = game([PRECISE_SNIPER], [GUARD, WATCHMAN])
    sniper = put_into_play(state, FIRST, "Precise Sniper", at=0)
    put_into_play(state, SECOND, "Guard", at=0)
    watchman = put_into_play(state, SECOND, "Watchman", at=0)
    keep_hands(state)
    raid_and_win(state, 0, sniper)

    decision = api.legal_actions(state)
    act(state, actions.assign_damage(watchman))

    assert (decision.seat, decision.kind) == (FIRST, "assign_damage")
    assert state.cards[watchman].damage == 1


def test_precise_unit_outside_the_combat_changes_nothing():
    """precise: "... from combat involving your card that has this keyword ..." A precise unit
    at the other quest is not involved; Tyler assigns his own damage."""
    state = game([PRECISE_SNIPER, TROOPER], [GUARD, WATCHMAN])
    put_into_play(state, FIRST, "Precise Sniper", at=1)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, SECOND, "Guard", at=0)
    put_into_play(state, SECOND, "Watchman", at=0)
    keep_hands(state)
    raid_and_win(state, 0, trooper)

    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (SECOND, "assign_damage")


# reinforcement

REINFORCEMENTS = unit("Reinforcements", cost=4, rules=keywords("reinforcement"))


def test_reinforcement_card_costs_1_less_from_turn_8():
    """reinforcement: "A card that has this keyword costs -1 power to play on turn 8 or
    later." Turns count every player's: turn 8 is Tyler's fourth."""
    state = game(tyler_cards=[REINFORCEMENTS])
    card = put_in_hand(state, SECOND, "Reinforcements")  # last in hand: never discarded early
    keep_hands(state)
    while state.turn < 6:
        end_turn(state)
    assert state.active == SECOND
    on_turn_6 = api.legal_actions(state)
    end_turn(state)
    cost_on_turn_7 = stat(state, card, "cost")
    end_turn(state)
    assert (state.turn, state.active) == (8, SECOND)

    events = act(state, actions.play(card, quest_at(state, 0)))

    assert actions.play(card, quest_at(state, 0)) not in on_turn_6.actions  # 4 power needed
    assert cost_on_turn_7 == 4
    assert events[0]["cost"] == 3
    assert state.seats[SECOND].power == 0
    assert card in state.quests[0].units[SECOND]


# secondary

SECONDARY_CLONE = unit("Secondary Clone", health=1, rules=keywords("secondary"))


def test_secondary_card_destroyed_is_removed_from_the_game():
    """secondary: "When a card that has this keyword leaves play, remove it from the game." """
    state = game([BLASTER_TURRET], [SECONDARY_CLONE])
    turret = put_into_play(state, FIRST, "Blaster Turret")
    clone = put_into_play(state, SECOND, "Secondary Clone", at=0)
    keep_hands(state)

    events = act(state, actions.activate(turret, 0))

    assert state.seats[SECOND].removed == [clone]
    assert clone not in state.seats[SECOND].discard
    assert {"type": "removed_from_game", "card": clone} in events


def test_secondary_card_returned_to_hand_is_removed_from_the_game():
    """secondary: "When a card that has this keyword leaves play, remove it from the game."
    Returning to hand is leaving play too."""
    state = game([REPULSOR_FIELD], [SECONDARY_CLONE])
    field = put_into_play(state, FIRST, "Repulsor Field")
    clone = put_into_play(state, SECOND, "Secondary Clone", at=0)
    keep_hands(state)

    act(state, actions.activate(field, 0))

    assert state.seats[SECOND].removed == [clone]
    assert clone not in state.seats[SECOND].hand


# sentry

SENTRY = unit("Sentry", defense=1, rules=keywords("sentry"))
RAIDER = unit("Raider", attack=2)


def test_sentry_ready_unit_joins_when_its_avatar_is_attacked():
    """sentry: "Whenever your avatar is attacked, if your unit that has this keyword is
    ready, it joins the combat." From either quest; an exerted sentry stays out."""
    state = game([SENTRY, SENTRY, GUARD], [RAIDER], first=SECOND)
    ready_sentry = put_into_play(state, FIRST, "Sentry", at=0)
    exerted_sentry = put_into_play(state, FIRST, "Sentry", at=0, exerted=True)
    put_into_play(state, FIRST, "Guard", at=0)
    put_into_play(state, SECOND, "Raider", at=1)
    keep_hands(state)

    events = act(state, actions.raid(quest_at(state, 1)))  # Jason has no units there

    assert state.combat.sides[1].combatants == [state.seats[FIRST].avatar, ready_sentry]
    assert {"type": "joined_combat", "card": ready_sentry} in events
    assert exerted_sentry not in state.combat.sides[1].combatants


def test_sentry_stays_out_when_only_units_are_attacked():
    """sentry: "Whenever your avatar is attacked, ..." A raid on Jason's units is not an
    attack on his avatar."""
    state = game([SENTRY, GUARD], [RAIDER], first=SECOND)
    sentry = put_into_play(state, FIRST, "Sentry", at=0)
    guard = put_into_play(state, FIRST, "Guard", at=1)
    put_into_play(state, SECOND, "Raider", at=1)
    keep_hands(state)

    act(state, actions.raid(quest_at(state, 1)))

    assert state.combat.sides[1].combatants == [guard]
    assert sentry not in state.combat.sides[1].combatants


# shield

SHIELDED_GUARD = unit(
    "Shielded Guard", health=2, rules={"keywords": [{"keyword": "shield", "value": 2}]}
)


def test_shield_points_stop_damage_one_point_at_a_time():
    """shield: "When a unit or avatar that has a shield would be dealt a point of damage, it
    loses a point from its shield instead." Shield 2: the first two points are stopped, the
    third is taken."""
    state = game([BLASTER_TURRET], [SHIELDED_GUARD])
    turret = put_into_play(state, FIRST, "Blaster Turret")
    guard = put_into_play(state, SECOND, "Shielded Guard", at=0)
    keep_hands(state)

    act(state, actions.activate(turret, 0))
    act(state, actions.activate(turret, 0))
    after_two = (state.cards[guard].shield, state.cards[guard].damage)
    act(state, actions.activate(turret, 0))

    assert after_two == (0, 0)
    assert (state.cards[guard].shield, state.cards[guard].damage) == (0, 1)
    assert guard in state.quests[0].units[SECOND]


def test_shield_stops_combat_damage_before_it_is_taken():
    """shield: "... it loses a point from its shield instead." 3 combat damage against shield
    2 and health 2: 2 points go to the shield, 1 is taken, and the guard survives."""
    gunner = unit("Gunner", attack=0, damage_bonus=2)
    state = game([TROOPER, gunner], [SHIELDED_GUARD])
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    gunner_card = put_into_play(state, FIRST, "Gunner", at=0)
    guard = put_into_play(state, SECOND, "Shielded Guard", at=0)
    keep_hands(state)
    raid_and_win(state, 0, trooper)

    events = act(state, actions.exert(gunner_card, "damage_bonus"))

    assert {"type": "shield_used", "card": guard, "amount": 2} in events
    assert {"type": "damaged", "card": guard, "amount": 1} in events
    assert guard in state.quests[0].units[SECOND]


# smuggle

CREDIT_CHIP = item("Credit Chip", cost=1)
COUNTERFEIT_CREDITS = ability(
    "Counterfeit Credits",
    level=2,
    rules={"keywords": [{"keyword": "smuggle", "card": "Credit Chip"}]},
)


def test_smuggle_applying_the_ability_creates_a_copy_of_the_named_card_in_hand():
    """smuggle: "When you apply an ability that has this keyword at a quest, a copy of the
    card named in the text that follows the keyword is created in your hand." """
    state = game([COUNTERFEIT_CREDITS], created=[CREDIT_CHIP])
    credits = put_into_play(state, FIRST, "Counterfeit Credits")
    keep_hands(state)
    hand_before = list(state.seats[FIRST].hand)
    act(state, actions.attempt_quest(quest_at(state, 1)))

    act(state, actions.apply_ability(credits))

    new_cards = [card for card in state.seats[FIRST].hand if card not in hand_before]
    assert titles(state, new_cards) == ["Credit Chip"]
    assert actions.play(new_cards[0]) in api.legal_actions(state).actions
    assert titles(state, state.seats[SECOND].hand).count("Credit Chip") == 0


# striketrough

STRIKING_TROOPER = unit("Striking Trooper", attack=1, rules=keywords("striketrough"))


def test_striketrough_gives_one_total_attack_when_combat_begins():
    """striketrough: "Whenever combat begins involving one or more of your combatants that
    have striketrough, you get +1 total attack." Two such combatants still give +1."""
    state = game([STRIKING_TROOPER, STRIKING_TROOPER], [GUARD])
    put_into_play(state, FIRST, "Striking Trooper", at=0)
    put_into_play(state, FIRST, "Striking Trooper", at=0)
    put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)

    events = act(state, actions.raid(quest_at(state, 0)))

    assert [side.total for side in state.combat.sides] == [1, 0]
    added = [event for event in events if event["type"] == "total_added"]
    assert added == [
        {"type": "total_added", "seat": FIRST, "amount": 1, "total": 1, "keyword": "striketrough"}
    ]


def test_striketrough_unit_that_is_not_a_combatant_adds_nothing():
    """striketrough: "... one or more of your combatants that have striketrough ..." One at
    the other quest doesn't fight."""
    state = game([STRIKING_TROOPER, TROOPER], [GUARD])
    put_into_play(state, FIRST, "Striking Trooper", at=1)
    put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)

    act(state, actions.raid(quest_at(state, 0)))

    assert state.combat.sides[0].total == 0


# unique

HADRA_VOSS = unit(
    "Sergeant Hadra Voss",
    cost=1,
    rules={
        "keywords": [{"keyword": "unique"}],
        "actions": [
            {
                "timing": "main",
                "cost": [{"primitive": "destroy_self"}],
                "effect": [{"primitive": "gain_power", "amount": 1}],
            }
        ],
    },
)


def test_unique_second_copy_cant_be_played_while_the_first_is_on_the_playmat():
    """unique: "You can't play another card that has the same title as your card on the
    playmat that has the unique keyword." Once the first is destroyed, the second can be
    played."""
    state = game([HADRA_VOSS, HADRA_VOSS])
    first_copy = put_into_play(state, FIRST, "Sergeant Hadra Voss", at=0)
    second_copy = put_in_hand(state, FIRST, "Sergeant Hadra Voss")
    keep_hands(state)

    while_in_play = api.legal_actions(state)
    act(state, actions.activate(first_copy, 0))  # destroys itself
    after_destroyed = api.legal_actions(state)

    assert not [a for a in while_in_play.actions if a.get("card") == second_copy]
    assert first_copy in state.seats[FIRST].discard
    assert actions.play(second_copy, quest_at(state, 1)) in after_destroyed.actions


def test_unique_copy_of_the_opponent_doesnt_stop_a_play():
    """unique: "... the same title as your card on the playmat ..." Tyler's copy on the
    playmat is not Jason's."""
    state = game([HADRA_VOSS], [HADRA_VOSS])
    put_into_play(state, SECOND, "Sergeant Hadra Voss", at=0)
    jasons_copy = put_in_hand(state, FIRST, "Sergeant Hadra Voss")
    keep_hands(state)

    assert actions.play(jasons_copy, quest_at(state, 0)) in api.legal_actions(state).actions


# versatile

VERSATILE_PILOT = unit("Versatile Pilot", rules=keywords("versatile"))


def test_versatile_unit_gets_the_level_tokens_placed_at_its_quest():
    """versatile: "Whenever you place any number of level tokens at the quest of your unit
    that has this keyword, place an equal number of tokens on that unit." Not at the other
    quest."""
    state = game([VERSATILE_PILOT, VERSATILE_PILOT, MEDITATION])
    here = put_into_play(state, FIRST, "Versatile Pilot", at=1)
    away = put_into_play(state, FIRST, "Versatile Pilot", at=0)
    meditation = put_into_play(state, FIRST, "Meditation")
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 1)))

    act(state, actions.apply_ability(meditation))

    assert state.cards[here].tokens == 2
    assert state.cards[away].tokens == 0


def test_versatile_unit_gets_no_tokens_the_opponent_places():
    """versatile: "Whenever you place any number of level tokens at the quest of your unit
    ..." Jason's tokens don't go on Tyler's versatile unit."""
    state = game([MEDITATION], [VERSATILE_PILOT], jason=avatar("Jason", damage_bonus=0))
    meditation = put_into_play(state, FIRST, "Meditation")
    pilot = put_into_play(state, SECOND, "Versatile Pilot", at=1)
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 1)))
    act(state, actions.pass_())
    act(state, actions.pass_())  # a tie, 0 to 0: one damage each way, nothing to decide
    assert api.legal_actions(state).kind == "apply_ability"

    act(state, actions.apply_ability(meditation))

    assert state.cards[pilot].tokens == 0
