"""GLOSSARY: the terms the card-rules vocabulary implements, and the rulebook's worked examples
(Rebel High General, Sith Shadow Executioner, Counterfeit Credits), with cards defined inline."""

import pytest

from game.engine import actions, api, rules
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    decklist,
    end_turn,
    item,
    keep_hands,
    put_in_hand,
    put_into_play,
    quest_at,
    start,
    tactic,
    titled,
    unit,
)

ANY_UNIT = {"side": "any", "types": ["unit"]}
FRIENDLY_UNIT = {"side": "friendly", "types": ["unit"]}
OPPOSING_UNIT = {"side": "opposing", "types": ["unit"]}
SELF = {"self": True}
EXERT_SELF = {"primitive": "exert_self"}
PAY_ONE = {"primitive": "power", "amount": 1}


def main_action(*effect: dict, cost: tuple[dict, ...] = (EXERT_SELF,)) -> dict:
    return {"actions": [{"timing": "main", "cost": list(cost), "effect": list(effect)}]}


def gain_power(amount: int = 1) -> dict:
    return {"primitive": "gain_power", "amount": amount}


# "{main} Pay 1 power → Destroy a unit." and "→ Return a unit to its owner's hand.": ways for a
# test to take a card off the playmat through the game itself, as often as power allows.
ORBITAL_STRIKE = item(
    "Orbital Strike",
    rules=main_action({"primitive": "destroy", "target": ANY_UNIT}, cost=(PAY_ONE,)),
)
RECALL_ORDER = item(
    "Recall Order",
    rules=main_action({"primitive": "return_to_hand", "target": ANY_UNIT}, cost=(PAY_ONE,)),
)
# Gives its controller a ready ability with a level, so his Quest Phase attempts a quest.
MEDITATION = ability("Meditation", level=2)


def use(state, card: int, *chosen: int) -> list[dict]:
    """Activate the card's action and answer its "choose" decisions with ``chosen``."""
    events = act(state, actions.activate(card, 0))
    for target in chosen:
        assert api.legal_actions(state).kind == "choose"
        events += act(state, actions.choose(target))
    return events


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [event for event in events if event["type"] == kind]


def stats(state, card: int) -> tuple[int, int]:
    return rules.attribute(state, card, "attack"), rules.attribute(state, card, "defense")


def keep_in_deck(state, seat: int, *titles: str) -> None:
    """Before the hands are kept: every card of ``titles`` dealt into the opening hand trades
    places with a card of the deck that has none of them."""
    player = state.seats[seat]
    for position, card in enumerate(player.hand):
        if titled(state, card) in titles:
            spare = next(other for other in player.deck if titled(state, other) not in titles)
            player.deck[player.deck.index(spare)] = card
            player.hand[position] = spare
    api.forget_decision(state)


# for each


# "This unit gets +1 attack for each other friendly unit."
SQUAD_LEADER = unit(
    "Squad Leader",
    attack=1,
    rules={
        "statics": [
            {
                "effect": {
                    "primitive": "for_each",
                    "counted": {**FRIENDLY_UNIT, "other": True},
                    "effect": [{"primitive": "modify", "stat": "attack", "amount": 1}],
                },
                "applies_to": SELF,
                "condition": None,
            }
        ]
    },
)
# "{main} Exert this unit → For each friendly unit, this unit gets +1 attack until end of turn."
RALLY_CAPTAIN = unit(
    "Rally Captain",
    attack=1,
    rules=main_action(
        {
            "primitive": "for_each",
            "counted": FRIENDLY_UNIT,
            "effect": [
                {
                    "primitive": "modify",
                    "target": SELF,
                    "stat": "attack",
                    "amount": 1,
                    "duration": "turn",
                }
            ],
        }
    ),
)
FOR_EACH_DECK = decklist(
    avatar("Counting Hero"),
    SQUAD_LEADER,
    RALLY_CAPTAIN,
    unit("Line Trooper"),
    unit("Reserve Trooper"),
    ORBITAL_STRIKE,
)
PLAIN_OPPONENT = decklist(avatar("Plain Opponent"))


def test_for_each_an_effect_counts_the_playmat_once_as_it_resolves():
    """Glossary, "for each": "When an effect counts other cards with the phrase "for each," only
    cards on the playmat are counted. Cards in a hand, discard pile, or deck are not counted by
    these effects." An effect counts once, as it resolves."""
    state = start(FOR_EACH_DECK, PLAIN_OPPONENT)
    captain = put_into_play(state, FIRST, "Rally Captain", at=0)
    put_into_play(state, FIRST, "Line Trooper", at=1)
    reserve = put_in_hand(state, FIRST, "Reserve Trooper")
    keep_hands(state)

    use(state, captain)
    counted_as_it_resolved = rules.attribute(state, captain, "attack")
    act(state, actions.play(reserve, quest_at(state, 0)))

    assert counted_as_it_resolved == 1 + 2  # the captain and the trooper; not the card in hand
    assert rules.attribute(state, captain, "attack") == 3  # not recounted once resolved


def test_for_each_a_static_recounts_as_the_playmat_changes():
    """Glossary, "for each": only cards on the playmat are counted; a modifier (a static's
    "for each") is recounted continuously."""
    state = start(FOR_EACH_DECK, PLAIN_OPPONENT)
    leader = put_into_play(state, FIRST, "Squad Leader", at=0)
    trooper = put_into_play(state, FIRST, "Line Trooper", at=1)
    reserve = put_in_hand(state, FIRST, "Reserve Trooper")
    strike = put_into_play(state, FIRST, "Orbital Strike")
    keep_hands(state)
    with_one_other_unit = rules.attribute(state, leader, "attack")

    act(state, actions.play(reserve, quest_at(state, 0)))
    with_two_other_units = rules.attribute(state, leader, "attack")
    use(state, strike, trooper)

    assert with_one_other_unit == 1 + 1  # the reserve in hand doesn't count
    assert with_two_other_units == 1 + 2
    assert trooper in state.seats[FIRST].discard
    assert rules.attribute(state, leader, "attack") == 1 + 1


# joining combat


def begins_triggers() -> dict:
    """Text that gives its controller 1 power for each way a combat begins involving it."""
    return {
        "triggers": [
            {"event": event, "subject": SELF, "condition": None, "effect": [gain_power()]}
            for event in ("combat_begins", "begins_defending")
        ]
    }


JOINING_ATTACKER = decklist(avatar("Attacking Hero"), MEDITATION, unit("Raiding Trooper"))
JOINING_DEFENDER = decklist(
    avatar("Defending Hero"),
    unit("Gate Guard", rules=begins_triggers()),
    unit("Reserve Guard", rules=begins_triggers()),
    unit(
        "Watch Post Sentry",
        rules={**begins_triggers(), "keywords": [{"keyword": "sentry"}]},
    ),
    tactic(
        "Call the Reserve",
        play={
            "timing": ["defend"],
            "condition": None,
            "effect": [{"primitive": "join_combat", "target": FRIENDLY_UNIT}],
        },
    ),
)


def test_joining_combat_a_card_that_joins_triggers_no_begins_text():
    """Glossary, "joining combat": "When a card "joins" a combat, that combat has already
    begun. That card doesn't trigger game text that has phrases such as "begins defending,"
    "begins attacking," or "combat begins involving" it.\""""
    state = start(JOINING_ATTACKER, JOINING_DEFENDER)
    put_into_play(state, FIRST, "Meditation")
    gate_guard = put_into_play(state, SECOND, "Gate Guard", at=0)
    reserve = put_into_play(state, SECOND, "Reserve Guard", at=1)
    call = put_in_hand(state, SECOND, "Call the Reserve")
    keep_hands(state)

    act(state, actions.attempt_quest(quest_at(state, 0)))
    power_from_the_guard_there = state.seats[SECOND].power
    act(state, actions.pass_())
    events = act(state, actions.play_tactic(call))

    # Both of the Gate Guard's texts fired as the combat began with it.
    assert power_from_the_guard_there == 2
    assert {"type": "joined_combat", "card": reserve} in events
    assert state.combat.sides[1].combatants == [gate_guard, reserve]
    assert state.seats[SECOND].power == 2


def test_joining_combat_a_sentry_that_joins_triggers_no_begins_text():
    """Glossary, "joining combat": a card that joins (here by sentry) doesn't trigger "begins
    defending" or "combat begins involving" text."""
    state = start(JOINING_ATTACKER, JOINING_DEFENDER)
    raider = put_into_play(state, FIRST, "Raiding Trooper", at=1)
    sentry = put_into_play(state, SECOND, "Watch Post Sentry", at=0)
    keep_hands(state)

    act(state, actions.raid(quest_at(state, 1)))

    assert state.combat.sides[0].combatants == [raider]
    assert state.combat.sides[1].combatants == [state.seats[SECOND].avatar, sentry]
    assert state.seats[SECOND].power == 0


# link


LINK_DECK = decklist(
    avatar("Linking Hero"),
    unit(
        "Jedi Mentor",
        rules=main_action(
            {
                "primitive": "link",
                "target": {**FRIENDLY_UNIT, "other": True},
                "while_linked": [{"primitive": "modify", "stat": "attack", "amount": 2}],
            }
        ),
    ),
    unit("Padawan", attack=1),
    ORBITAL_STRIKE,
    RECALL_ORDER,
)


def linked_mentor_and_padawan():
    """The Mentor, in the first Main Phase, links itself to the Padawan (+2 attack)."""
    state = start(LINK_DECK, PLAIN_OPPONENT)
    cards = {
        "Jedi Mentor": put_into_play(state, FIRST, "Jedi Mentor", at=0),
        "Padawan": put_into_play(state, FIRST, "Padawan", at=1),
        "Orbital Strike": put_into_play(state, FIRST, "Orbital Strike"),
        "Recall Order": put_into_play(state, FIRST, "Recall Order"),
    }
    keep_hands(state)
    use(state, cards["Jedi Mentor"])
    assert rules.attribute(state, cards["Padawan"], "attack") == 1 + 2
    return state, cards


def test_link_ends_when_the_linking_card_leaves_play():
    """Glossary, "link": "Linking one card to another allows for an ongoing effect that lasts
    until either card leaves play.\""""
    state, cards = linked_mentor_and_padawan()

    use(state, cards["Orbital Strike"], cards["Jedi Mentor"])

    assert rules.attribute(state, cards["Padawan"], "attack") == 1
    assert state.marks == []


def test_link_ends_when_the_linked_card_leaves_play():
    """Glossary, "link": the effect lasts until either card leaves play; played again, the
    linked card comes back without it."""
    state, cards = linked_mentor_and_padawan()
    padawan = cards["Padawan"]

    use(state, cards["Recall Order"], padawan)
    act(state, actions.play(padawan, quest_at(state, 1)))

    assert cards["Jedi Mentor"] in state.quests[0].units[FIRST]
    assert rules.attribute(state, padawan, "attack") == 1
    assert state.marks == []


# permanently: the rulebook's Rebel High General


def all_other_units_here_permanently(stat: str) -> dict:
    return {
        "primitive": "modify",
        "target": {
            "side": "friendly",
            "types": ["unit"],
            "where": "this_quest",
            "other": True,
            "count": "all",
        },
        "stat": stat,
        "amount": 1,
        "duration": "permanent",
    }


# "At the end of your turn, all your other units at this unit's quest permanently get +1 attack
# and +1 defense."
REBEL_HIGH_GENERAL = unit(
    "Rebel High General",
    attack=1,
    defense=1,
    rules={
        "triggers": [
            {
                "event": "end_of_turn",
                "player": "you",
                "condition": None,
                "effect": [
                    all_other_units_here_permanently("attack"),
                    all_other_units_here_permanently("defense"),
                ],
            }
        ]
    },
)
REBELS = decklist(
    avatar("Rebel Commander"),
    REBEL_HIGH_GENERAL,
    unit("Rebel Heavy Trooper", attack=2, defense=2),
    unit("Rebel Lookout", attack=2, defense=2),
    ORBITAL_STRIKE,
    RECALL_ORDER,
)
IMPERIALS = decklist(avatar("Imperial Commander"), ORBITAL_STRIKE)


def high_general_after_one_turn():
    """The High General and a Heavy Trooper at quest 0, a Lookout at quest 1; the Rebel player
    ends his first turn."""
    state = start(REBELS, IMPERIALS)
    cards = {
        "General": put_into_play(state, FIRST, "Rebel High General", at=0),
        "Trooper": put_into_play(state, FIRST, "Rebel Heavy Trooper", at=0),
        "Lookout": put_into_play(state, FIRST, "Rebel Lookout", at=1),
        "Rebel Strike": put_into_play(state, FIRST, "Orbital Strike"),
        "Recall Order": put_into_play(state, FIRST, "Recall Order"),
        "Imperial Strike": put_into_play(state, SECOND, "Orbital Strike"),
    }
    keep_hands(state)
    assert stats(state, cards["Trooper"]) == (2, 2)
    end_turn(state)
    return state, cards


def test_permanently_rebel_high_general_the_change_outlasts_the_general():
    """Glossary, "permanently": "A card changed by an effect that uses the word "permanently"
    keeps its change even if the card that affected it leaves play. A card changed by an
    effect that uses the word "permanently" loses its change when that card itself leaves
    play."

    The rulebook's example: the Heavy Trooper becomes 3/3 at the end of the Rebel's turn, stays
    3/3 when the High General is destroyed during the opponent's turn, and loses the bonus when
    it is destroyed itself during the Rebel's turn."""
    state, cards = high_general_after_one_turn()
    trooper = cards["Trooper"]
    after_the_rebel_turn = {name: stats(state, cards[name]) for name in ("Trooper", "Lookout")}
    general_unchanged = stats(state, cards["General"])

    use(state, cards["Imperial Strike"], cards["General"])
    after_the_general_left = stats(state, trooper)
    end_turn(state)  # the Imperial turn ends; the Rebel's next turn begins
    on_the_next_rebel_turn = stats(state, trooper)
    use(state, cards["Rebel Strike"], trooper)

    assert after_the_rebel_turn == {"Trooper": (3, 3), "Lookout": (2, 2)}  # only at its quest
    assert general_unchanged == (1, 1)  # "other" units
    assert cards["General"] in state.seats[FIRST].discard
    assert after_the_general_left == (3, 3)
    assert on_the_next_rebel_turn == (3, 3)
    assert trooper in state.seats[FIRST].discard
    assert stats(state, trooper) == (2, 2)
    assert not [entry for entry in state.lasting if entry["card"] == trooper]


def test_permanently_a_card_returned_and_played_again_has_lost_its_change():
    """Glossary, "permanently": the changed card loses its change when it leaves play itself,
    here returned to its owner's hand while the High General stays in play."""
    state, cards = high_general_after_one_turn()
    trooper = cards["Trooper"]
    end_turn(state)  # the Imperial turn passes; the Rebel's next Main Phase
    assert stats(state, trooper) == (3, 3)

    use(state, cards["Recall Order"], trooper)
    act(state, actions.play(trooper, quest_at(state, 0)))

    assert cards["General"] in state.quests[0].units[FIRST]
    assert stats(state, trooper) == (2, 2)


# search


SEARCH_DECK = decklist(
    avatar("Searching Hero"),
    unit(
        "Quartermaster",
        rules=main_action({"primitive": "search", "card": {"types": ["item"], "trait": "Weapon"}}),
    ),
    item("Heavy Blaster", attack=2, traits=["Weapon"]),
    item("Vibroknife", damage_bonus=2, traits=["Weapon"]),
    item("Blast Vest", defense=2),
)


def test_search_reveals_the_card_puts_it_in_hand_and_shuffles_the_deck():
    """Glossary, "search": "When you search your deck for a card, reveal it, and then shuffle
    your deck.\""""
    state = start(SEARCH_DECK, PLAIN_OPPONENT)
    quartermaster = put_into_play(state, FIRST, "Quartermaster", at=0)
    keep_in_deck(state, FIRST, "Heavy Blaster", "Vibroknife", "Blast Vest")
    keep_hands(state)
    deck = state.seats[FIRST].deck
    blaster, knife = (
        next(card for card in deck if titled(state, card) == title)
        for title in ("Heavy Blaster", "Vibroknife")
    )
    order_before = list(deck)

    act(state, actions.activate(quartermaster, 0))
    decision = api.legal_actions(state)
    events = act(state, actions.choose(blaster))

    assert (decision.seat, decision.kind) == (FIRST, "choose")
    assert sorted(action["card"] for action in decision.actions) == sorted([blaster, knife])
    types = [event["type"] for event in events]
    assert types.index("searched") < types.index("deck_shuffled")
    searched = of_type(events, "searched")[0]
    assert api.redact(searched, SECOND)["title"] == "Heavy Blaster"  # revealed to everyone
    assert blaster in state.seats[FIRST].hand
    deck_after = state.seats[FIRST].deck
    assert blaster not in deck_after
    assert sorted(deck_after) == sorted(card for card in order_before if card != blaster)
    assert deck_after != [card for card in order_before if card != blaster]


# target


def target_action(**parts) -> dict:
    return main_action({"primitive": "target", "target": OPPOSING_UNIT, **parts})


# The rulebook's Agent Seline Korvath (docs/card-rules.md): "{main} Exert this avatar → Target an
# opposing unit. When it is destroyed, gain 2 power."
TARGETING = decklist(
    avatar("Agent Seline Korvath", rules=target_action(when_destroyed=[gain_power(2)])),
    unit(
        "Bounty Hunter",
        rules=target_action(
            while_targeted=[{"primitive": "modify", "stat": "defense", "amount": -1}],
            when_destroyed=[gain_power(2)],
        ),
    ),
    ORBITAL_STRIKE,
)
TARGETED = decklist(
    avatar("Hunted Hero"),
    unit("Marked Smuggler", defense=2),
    unit("Unmarked Pilot", defense=2),
)


def targeting_scene(*targeting: str):
    state = start(TARGETING, TARGETED)
    cards = {title: put_into_play(state, FIRST, title, at=0) for title in targeting}
    cards["Orbital Strike"] = put_into_play(state, FIRST, "Orbital Strike")
    cards["Marked Smuggler"] = put_into_play(state, SECOND, "Marked Smuggler", at=0)
    cards["Unmarked Pilot"] = put_into_play(state, SECOND, "Unmarked Pilot", at=1)
    cards["Agent Seline Korvath"] = state.seats[FIRST].avatar
    keep_hands(state)
    return state, cards


def test_target_when_the_marked_card_is_destroyed_its_effect_happens():
    """Glossary, "target": "When one card targets another, that allows for an ongoing effect
    that lasts until either card leaves play. Often, the game text of the targeting card
    describes a benefit provided when the targeted card is destroyed. The target gets marked
    with an icon.\""""
    state, cards = targeting_scene()
    seline, smuggler = cards["Agent Seline Korvath"], cards["Marked Smuggler"]

    use(state, seline, smuggler)
    marks = [(mark["kind"], mark["source"], mark["card"]) for mark in state.marks]
    use(state, cards["Orbital Strike"], cards["Unmarked Pilot"])
    power_before = state.seats[FIRST].power
    events = use(state, cards["Orbital Strike"])  # the smuggler is the one unit left

    assert marks == [("target", seline, smuggler)]
    assert smuggler in state.seats[SECOND].discard
    assert {"type": "power_gained", "seat": FIRST, "amount": 2} in events
    assert state.seats[FIRST].power == power_before - 1 + 2  # the strike cost 1
    assert state.marks == []


def test_target_nothing_happens_once_the_targeting_card_has_left_play():
    """Glossary, "target": the ongoing effect lasts until either card leaves play, so once the
    targeting card is gone the marked card neither keeps its change nor triggers the
    benefit when destroyed."""
    state, cards = targeting_scene("Bounty Hunter")
    hunter, smuggler = cards["Bounty Hunter"], cards["Marked Smuggler"]
    use(state, hunter, smuggler)
    assert rules.attribute(state, smuggler, "defense") == 2 - 1

    use(state, cards["Orbital Strike"], hunter)
    defense_after_the_hunter_left = rules.attribute(state, smuggler, "defense")
    power_before = state.seats[FIRST].power
    events = use(state, cards["Orbital Strike"], smuggler)

    assert defense_after_the_hunter_left == 2
    assert smuggler in state.seats[SECOND].discard
    assert of_type(events, "power_gained") == []
    assert state.seats[FIRST].power == power_before - 1


# timestamp


def grows_when_another_unit_is_played() -> dict:
    return {
        "triggers": [
            {
                "event": "played",
                "subject": {**FRIENDLY_UNIT, "other": True},
                "condition": None,
                "effect": [
                    {
                        "primitive": "modify",
                        "target": SELF,
                        "stat": "attack",
                        "amount": 1,
                        "duration": "turn",
                    }
                ],
            }
        ]
    }


TIMESTAMP_DECK = decklist(
    avatar("Timekeeper"),
    unit("Recruit", rules=grows_when_another_unit_is_played()),
    unit("Veteran", rules=grows_when_another_unit_is_played()),
    unit("Newcomer"),
)


@pytest.mark.parametrize(
    "play_order", [("Veteran", "Recruit"), ("Recruit", "Veteran")], ids=["veteran", "recruit"]
)
def test_timestamp_cards_triggered_by_one_event_resolve_oldest_played_first(play_order):
    """Glossary, "timestamp": "A single game event trigger can result in two or more events
    "trying to happen" at the same time. When this occurs, the game processes these events in
    timestamp order. The event triggered by the card that was played first (with the "oldest
    timestamp") takes effect before the card that was played second, and so on.\""""
    state = start(TIMESTAMP_DECK, PLAIN_OPPONENT)
    hand = {title: put_in_hand(state, FIRST, title) for title in (*play_order, "Newcomer")}
    keep_hands(state)
    # Neither the quest they stand at nor their card ids may decide the order.
    for title, at in zip(play_order, (1, 0), strict=True):
        act(state, actions.play(hand[title], quest_at(state, at)))

    events = act(state, actions.play(hand["Newcomer"], quest_at(state, 0)))

    resolved = [event["card"] for event in of_type(events, "changed")]
    assert resolved == [hand[title] for title in play_order]


# withdraw


def withdraw_tactic(title: str, count) -> dict:
    return tactic(
        title,
        play={
            "timing": ["defend"],
            "condition": None,
            "effect": [
                {
                    "primitive": "withdraw",
                    "target": {**FRIENDLY_UNIT, "where": "combat", "count": count},
                }
            ],
        },
    )


QUESTING = decklist(avatar("Questing Hero", attack=1), MEDITATION)
WITHDRAWING = decklist(
    avatar("Withdrawing Hero"),
    unit("Skittish Scout", defense=1, health=2),
    unit("Nervous Picket", defense=1, health=2),
    withdraw_tactic("Fall Back", "all"),
    withdraw_tactic("Cover the Retreat", 1),
)


def quest_attempt_against_scout_and_picket(tactic_title: str):
    """The questing avatar exerts for 1 attack against a Scout and a Picket; the defender then
    plays his withdraw tactic."""
    state = start(QUESTING, WITHDRAWING)
    cards = {
        "Meditation": put_into_play(state, FIRST, "Meditation"),
        "Skittish Scout": put_into_play(state, SECOND, "Skittish Scout", at=0),
        "Nervous Picket": put_into_play(state, SECOND, "Nervous Picket", at=0),
        "Avatar": state.seats[FIRST].avatar,
    }
    withdraw = put_in_hand(state, SECOND, tactic_title)
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 0)))
    act(state, actions.exert(cards["Avatar"], "attack"))
    return state, cards, act(state, actions.play_tactic(withdraw))


def test_withdraw_a_whole_side_ends_the_combat_with_no_winner_and_no_damage():
    """Glossary, "withdraw": "When all of the combatants on one side of a combat withdraw, that
    combat ends. There is no winner or loser and no damage is dealt." The Quest Phase then goes
    on: an ability is still applied."""
    state, cards, events = quest_attempt_against_scout_and_picket("Fall Back")
    scout, picket = cards["Skittish Scout"], cards["Nervous Picket"]

    assert state.combat is None
    ended = of_type(events, "combat_ended")
    assert len(ended) == 1
    assert "winner" not in ended[0]
    assert "winners" not in ended[0] and "losers" not in ended[0]
    assert of_type(events, "combat_decided") == []
    assert of_type(events, "damage_dealt") == []
    assert [state.cards[card].damage for card in (scout, picket, cards["Avatar"])] == [0, 0, 0]
    decision = api.legal_actions(state)
    assert (decision.seat, decision.kind) == (FIRST, "apply_ability")
    act(state, actions.apply_ability(cards["Meditation"]))
    assert state.seats[FIRST].completed  # Meditation's 2 tokens completed the level 2 quest


def test_withdraw_part_of_a_side_leaves_the_combat_going():
    """Glossary, "withdraw": only when all of the combatants on one side withdraw does the
    combat end; a withdrawn combatant takes no damage from it."""
    state, cards, _ = quest_attempt_against_scout_and_picket("Cover the Retreat")
    assert api.legal_actions(state).kind == "choose"
    act(state, actions.choose(cards["Skittish Scout"]))

    assert state.combat is not None
    assert state.combat.sides[1].combatants == [cards["Nervous Picket"]]
    assert api.legal_actions(state).seat == FIRST
    act(state, actions.pass_())
    events = act(state, actions.pass_())  # 1 attack to 0 defense

    assert {"type": "combat_decided", "winner": FIRST, "attack": 1, "defense": 0} in events
    assert state.cards[cards["Nervous Picket"]].damage == 1
    assert state.cards[cards["Skittish Scout"]].damage == 0


# damage: dealt and taken differ


# "{main} Exert this item → Deal 1 damage to an opposing unit. Whenever this item deals damage
# to an opposing unit, draw a card."
BLASTER_TURRET = item(
    "Blaster Turret",
    rules={
        **main_action({"primitive": "deal_damage", "target": OPPOSING_UNIT, "amount": 1}),
        "triggers": [
            {
                "event": "deals_damage",
                "subject": SELF,
                "recipient": OPPOSING_UNIT,
                "condition": None,
                "effect": [{"primitive": "draw", "player": "you", "amount": 1}],
            }
        ],
    },
)
DAMAGE_DEALER = decklist(
    avatar("Gunner"),
    BLASTER_TURRET,
    # "Whenever an opposing unit takes damage, gain 1 power."
    item(
        "Bounty Ledger",
        rules={
            "triggers": [
                {
                    "event": "takes_damage",
                    "subject": OPPOSING_UNIT,
                    "condition": None,
                    "effect": [gain_power()],
                }
            ]
        },
    ),
)
DROIDS = decklist(
    avatar("Droid Master"),
    unit("Shielded Droid", health=3, rules={"keywords": [{"keyword": "shield", "value": 1}]}),
    unit("Bare Droid", health=3),
)


def turret_fires_at(droid_title: str):
    state = start(DAMAGE_DEALER, DROIDS)
    turret = put_into_play(state, FIRST, "Blaster Turret")
    put_into_play(state, FIRST, "Bounty Ledger")
    droid = put_into_play(state, SECOND, droid_title, at=0)
    keep_hands(state)
    hand, power = len(state.seats[FIRST].hand), state.seats[FIRST].power
    events = use(state, turret)
    drew = len(state.seats[FIRST].hand) - hand
    gained = state.seats[FIRST].power - power
    return state, turret, droid, events, drew, gained


def test_damage_a_shield_stops_damage_taken_but_not_damage_dealt():
    """Glossary, "damage": "The damage dealt by an effect to a unit or avatar may not be the
    same as the damage taken by that unit or avatar. Some effects are triggered by damage being
    dealt, and others are triggered by damage being taken.\""""
    state, turret, droid, events, drew, gained = turret_fires_at("Shielded Droid")

    assert {"type": "damage_dealt", "card": droid, "amount": 1, "by": [turret]} in events
    assert of_type(events, "damaged") == []
    assert (state.cards[droid].damage, state.cards[droid].shield) == (0, 0)
    assert drew == 1  # dealt: deals_damage fired
    assert gained == 0  # not taken: takes_damage did not


def test_damage_without_a_shield_is_both_dealt_and_taken():
    """Glossary, "damage": dealt and taken are often the same: with nothing to stop it, the
    damage dealt is taken, and both kinds of text fire."""
    state, _, droid, _, drew, gained = turret_fires_at("Bare Droid")

    assert state.cards[droid].damage == 1
    assert (drew, gained) == (1, 1)


# The rulebook's Sith Shadow Executioner (glossary, "damage")


# "Whenever a unit takes damage during combat, if this unit was played this turn, destroy that
# unit."
SITH_SHADOW_EXECUTIONER = unit(
    "Sith Shadow Executioner",
    attack=2,
    defense=1,
    damage_bonus=0,
    rules={
        "triggers": [
            {
                "event": "takes_damage",
                "subject": {"side": "any", "types": ["unit"], "where": "combat"},
                "condition": {"condition": "played_this_turn", "subject": SELF},
                "effect": [{"primitive": "destroy", "target": {"event_card": True}}],
            }
        ]
    },
)
SITH = decklist(
    avatar("Sith Lord"),
    SITH_SHADOW_EXECUTIONER,
    BLASTER_TURRET,
)


def executioner_raids(droid_title: str, *, played_this_turn: bool = True):
    """The Executioner raids a droid at quest 0 and wins 2 to 0: the droid is dealt 1 damage.
    ``played_this_turn``: played from hand in this Main Phase, else on the playmat already."""
    state = start(SITH, DROIDS)
    droid = put_into_play(state, SECOND, droid_title, at=0)
    if played_this_turn:
        executioner = put_in_hand(state, FIRST, "Sith Shadow Executioner")
        keep_hands(state)
        act(state, actions.play(executioner, quest_at(state, 0)))
    else:
        executioner = put_into_play(state, FIRST, "Sith Shadow Executioner", at=0)
        keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(executioner, "attack"))
    act(state, actions.pass_())
    events = act(state, actions.pass_())
    assert {"type": "combat_decided", "winner": FIRST, "attack": 2, "defense": 0} in events
    assert {"type": "damage_dealt", "card": droid, "amount": 1, "by": [executioner]} in events
    return state, droid


def test_damage_sith_shadow_executioner_spares_a_shielded_unit():
    """Glossary, "damage": "If a unit is dealt 1 damage but that unit has a +1 shield, it is
    not destroyed because the unit actually took no damage.\""""
    state, droid = executioner_raids("Shielded Droid")

    assert droid in state.quests[0].units[SECOND]
    assert state.cards[droid].damage == 0


def test_damage_sith_shadow_executioner_destroys_a_unit_that_takes_combat_damage():
    """Glossary, "damage": Sith Shadow Executioner says, "Whenever a unit takes damage during
    combat, if this unit was played this turn, destroy that unit." Without a shield the unit
    takes the damage (1 of its 3 health) and is destroyed."""
    state, droid = executioner_raids("Bare Droid")

    assert droid not in state.quests[0].units[SECOND]
    assert droid in state.seats[SECOND].discard


def test_damage_sith_shadow_executioner_needs_to_have_been_played_this_turn():
    """The Executioner's condition, "if this unit was played this turn": on the playmat since
    an earlier turn, it destroys nothing."""
    state, droid = executioner_raids("Bare Droid", played_this_turn=False)

    assert droid in state.quests[0].units[SECOND]
    assert state.cards[droid].damage == 1


def test_damage_sith_shadow_executioner_ignores_damage_outside_combat():
    """The Executioner's text is about damage taken "during combat": the Turret's damage in the
    Main Phase is taken, but no combat is going on."""
    state = start(SITH, DROIDS)
    executioner = put_in_hand(state, FIRST, "Sith Shadow Executioner")
    turret = put_into_play(state, FIRST, "Blaster Turret")
    droid = put_into_play(state, SECOND, "Bare Droid", at=0)
    keep_hands(state)
    act(state, actions.play(executioner, quest_at(state, 0)))

    use(state, turret)

    assert state.cards[droid].damage == 1
    assert droid in state.quests[0].units[SECOND]


# "can't" beats "can"


CANT_READY = {"primitive": "prohibit", "action": "ready"}
SHACKLERS = decklist(
    avatar("Warden"),
    # "{main} Exert this item → An opposing unit can't ready while this item is in play."
    item(
        "Ion Shackles",
        rules=main_action({**CANT_READY, "target": OPPOSING_UNIT, "duration": "while_in_play"}),
    ),
    # "Opposing Droid units can't ready."
    item(
        "Ion Field",
        rules={
            "statics": [
                {
                    "effect": CANT_READY,
                    "applies_to": {**OPPOSING_UNIT, "trait": "Droid"},
                    "condition": None,
                }
            ]
        },
    ),
)
SHACKLED = decklist(
    avatar("Prisoner"),
    unit("Battle Droid", traits=["Droid"]),
    unit("Clone Trooper"),
    # "At the start of your turn, ready all your units."
    item(
        "Reveille Bugle",
        rules={
            "triggers": [
                {
                    "event": "start_of_turn",
                    "player": "you",
                    "condition": None,
                    "effect": [{"primitive": "ready", "target": {**FRIENDLY_UNIT, "count": "all"}}],
                }
            ]
        },
    ),
)


def shackled_droid(*, with_bugle: bool):
    """The Warden goes first and shackles the exerted Battle Droid; the exerted Clone Trooper
    is left alone. Returns the state at the prisoner's first Main Phase, the cards, and the
    events from the start of his turn up to his Ready Phase."""
    state = start(SHACKLERS, SHACKLED)
    shackles = put_into_play(state, FIRST, "Ion Shackles")
    droid = put_into_play(state, SECOND, "Battle Droid", at=0, exerted=True)
    clone = put_into_play(state, SECOND, "Clone Trooper", at=1, exerted=True)
    if with_bugle:
        put_into_play(state, SECOND, "Reveille Bugle")
    keep_hands(state)
    use(state, shackles, droid)
    events = end_turn(state)
    started = events.index({"type": "turn_started", "seat": SECOND, "turn": 2})
    ready_phase = events.index({"type": "phase_started", "seat": SECOND, "phase": "ready"})
    return state, droid, clone, events[started:ready_phase]


def test_cant_beats_can_a_ready_effect_does_not_ready_a_card_that_cant_ready():
    """Glossary, "game text": "When one card's game text says that you "can" do something and
    another card says you "can't," the latter takes precedence." The Bugle readies every
    friendly unit but the one that can't ready."""
    state, droid, clone, before_the_ready_phase = shackled_droid(with_bugle=True)

    readied = [
        card for event in of_type(before_the_ready_phase, "readied") for card in event["cards"]
    ]
    assert readied == [clone]
    assert state.cards[droid].exerted


def test_cant_beats_can_the_ready_phase_does_not_ready_a_card_that_cant_ready():
    """Glossary, "game text": "can't" takes precedence over "can"; the Ready Phase readies every
    exerted card but the one that can't ready."""
    state, droid, clone, _ = shackled_droid(with_bugle=False)

    assert state.cards[droid].exerted
    assert not state.cards[clone].exerted


def test_cant_beats_can_a_static_prohibition_holds_through_the_ready_phase():
    """Glossary, "game text": a continuous "can't ready" wins over the Ready Phase too."""
    state = start(SHACKLED, SHACKLERS)
    droid = put_into_play(state, FIRST, "Battle Droid", at=0, exerted=True)
    clone = put_into_play(state, FIRST, "Clone Trooper", at=0, exerted=True)
    put_into_play(state, SECOND, "Ion Field")

    keep_hands(state)

    assert state.cards[droid].exerted
    assert not state.cards[clone].exerted


# smuggle: the rulebook's Counterfeit Credits


CREDIT_CHIP = item("Credit Chip", cost=1)
SMUGGLER = decklist(
    avatar("Smuggler"),
    ability(
        "Counterfeit Credits",
        level=2,
        rules={"keywords": [{"keyword": "smuggle", "card": "Credit Chip"}]},
    ),
    created=[CREDIT_CHIP],
)


def test_smuggle_counterfeit_credits_creates_a_credit_chip_in_hand():
    """Glossary, "smuggle": "When you apply an ability that has this keyword at a quest, a copy
    of the card named in the text that follows the keyword is created in your hand." For
    example, applying Counterfeit Credits ("Smuggle: Credit Chip.") creates a Credit Chip."""
    state = start(SMUGGLER, PLAIN_OPPONENT)
    credits = put_into_play(state, FIRST, "Counterfeit Credits")
    keep_hands(state)
    hand_before = list(state.seats[FIRST].hand)
    deck_size = len(state.seats[FIRST].deck)
    cards_before = len(state.cards)
    act(state, actions.attempt_quest(quest_at(state, 1)))  # no opposing units: no combat

    events = act(state, actions.apply_ability(credits))

    created = [card for card in state.seats[FIRST].hand if card not in hand_before]
    assert len(created) == 1
    chip = created[0]
    assert titled(state, chip) == "Credit Chip"
    assert chip >= cards_before  # a new copy, not a card of the deck
    assert (state.cards[chip].owner, state.cards[chip].controller) == (FIRST, FIRST)
    assert {"type": "card_created", "seat": FIRST, "card": chip, "title": "Credit Chip"} in events
    assert len(state.seats[FIRST].deck) == deck_size
    assert credits in state.seats[FIRST].discard
    assert actions.play(chip) in api.legal_actions(state).actions
