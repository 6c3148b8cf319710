"""Card types at work (rulebook: "Card Types" and each type's section: "Monster Cards",
"Equipment Cards", "Empire Specific Equipment", "Crew Cards", "Ship Cards" (combining),
"Agenda Cards", "Control", "Occurrence Cards", "Reserve Fleet")."""

from starholds.engine import api, cards
from tests.starholds.engine.builders import act, card, kinds, position, ship, terrain

WORLD = terrain("World", 4)


def effect(when: str, *primitives: dict, target=None, **entry) -> dict:
    found = {"when": when, "effect": list(primitives), **entry}
    if target is not None:
        found["target"] = target
    return found


LEECH = card(
    "Leech Swarm",
    "monster",
    3,
    rules={
        "keywords": [{"keyword": "vulnerable"}],
        "effects": [effect("each_turn", {"primitive": "damage", "amount": 1}, target="location")],
    },
)


def test_a_monster_is_played_against_an_opponent_card_and_hurts_it_each_turn():
    """Monster Cards: each monster says where it is played and what damage it causes."""
    state = position(
        [
            {"hand": [LEECH], "fleet": [{"card": WORLD}], "deck": [WORLD] * 3},
            {"fleet": [{"card": ship("Cutter", 3, shields=1)}], "deck": [WORLD] * 3},
        ]
    )
    cutter = state.seats[1].fleet[0]
    act(state, {"kind": "play", "card": state.seats[0].hand[0]})
    leech = state.cards[cutter].attached[0]
    assert state.cards[leech].controller == 0
    for _ in range(4):
        act(state, {"kind": "next"})
    act(state, {"kind": "done"}, *[{"kind": "next"}] * 4)
    assert state.active == 0
    assert state.cards[cutter].shield_damage == 1


def test_research_points_equal_to_its_strength_kill_a_monster():
    """Point Types, research; Monster Cards: how it is killed."""
    state = position(
        [
            {
                "fleet": [
                    {"card": terrain("Lab", 3, research=3)},
                    {"card": ship("Cutter", 3), "attached": [{"card": LEECH, "controller": 1}]},
                ]
            },
            {},
        ],
        phase="allocation",
    )
    leech = state.cards[state.seats[0].fleet[1]].attached[0]
    events = act(state, *[{"kind": "research", "card": leech}] * 3)
    assert state.cards[leech].zone == "discard" and "destroyed" in kinds(events)


def test_an_engaged_crew_that_suspends_monsters_stops_them():
    """Crew Cards (a science officer suspends the hostile effects of monsters)."""
    officer = card("Xenologist", "crew", 2, rules={"keywords": [{"keyword": "suspends_monsters"}]})
    state = position(
        [
            {"fleet": [{"card": WORLD}], "deck": [WORLD] * 3},
            {
                "fleet": [
                    {
                        "card": ship("Cutter", 3, shields=1),
                        "attached": [{"card": officer}, {"card": LEECH, "controller": 0}],
                    }
                ],
                "deck": [WORLD] * 3,
            },
        ],
        phase="discard",
        active=1,
    )
    act(state, {"kind": "next"})
    cutter = state.seats[1].fleet[0]
    assert state.cards[cutter].shield_damage == 0


def test_a_refit_adds_to_its_unit_and_exclusive_technology_works_for_its_empire_only():
    """Equipment Cards; Empire Specific Equipment: exclusive technology only on a unit of its
    empire."""
    lance = card(
        "Varn Lance Mount",
        "equipment",
        2,
        empire="varn",
        passive=True,
        tech="exclusive",
        rules={"keywords": [{"keyword": "refit", "stat": "phasers", "value": 2}]},
    )
    own = ship("Varn Picket", 3, empire="varn", shields=0, system={"kind": "armor", "max": 1})
    other = ship("Picket", 3)
    state = position(
        [
            {
                "fleet": [
                    {"card": own, "attached": [{"card": lance}]},
                    {"card": other, "attached": [{"card": lance}]},
                ]
            },
            {},
        ]
    )
    varn, plain = state.seats[0].fleet
    assert cards.phasers(state, varn) == 4 and cards.phasers(state, plain) == 2


def test_foreign_technology_needs_an_engineer_unless_the_empire_adapts():
    """Empire Specific Equipment; Adapted Technology."""
    foreign = card(
        "Varn Sensor",
        "equipment",
        2,
        empire="varn",
        passive=True,
        tech="foreign",
        rules={"keywords": [{"keyword": "refit", "stat": "shields", "value": 2}]},
    )
    engineer = card("Engineer", "crew", 2, rules={"keywords": [{"keyword": "foreign_technology"}]})
    plain = ship("Picket", 3)
    keth = ship("Keth Raider", 3, empire="keth")
    state = position(
        [
            {
                "fleet": [
                    {"card": plain, "attached": [{"card": foreign}]},
                    {"card": plain, "attached": [{"card": foreign}, {"card": engineer}]},
                    {"card": keth, "attached": [{"card": foreign}]},
                ]
            },
            {},
        ]
    )
    alone, helped, adapting = state.seats[0].fleet
    assert [cards.max_shields(state, unit) for unit in (alone, helped, adapting)] == [1, 3, 3]


def test_combined_ships_add_their_strength_shields_and_weapons():
    """Ship Cards: ships played to other ships combine strength, Shields and weapons."""
    half = ship(
        "Hull Half", 3, shields=1, phasers=1, cost={}, rules={"keywords": [{"keyword": "combines"}]}
    )
    state = position(
        [{"hand": [half], "fleet": [{"card": half}, {"card": ship("Cruiser", 3)}]}, {}, {}]
    )
    first = state.seats[0].fleet[0]
    act(
        state,
        {"kind": "play", "card": state.seats[0].hand[0]},
        {"kind": "place", "at": first, "part": True},
    )
    assert cards.strength(state, first) == 6 and cards.max_shields(state, first) == 2
    assert cards.phasers(state, first) == 2
    assert cards.command_used(state, 0) == 4


def test_an_instant_occurrence_acts_and_is_discarded_after_use():
    """Occurrence Cards; General Errata - Discard After Use."""
    flare = card(
        "Solar Lash",
        "occurrence",
        2,
        rules={
            "effects": [
                effect(
                    "play",
                    {"primitive": "damage", "amount": 2},
                    target={"side": "opponent", "types": ["ship"]},
                )
            ]
        },
    )
    state = position([{"hand": [flare]}, {"fleet": [{"card": ship("Cutter", 3, shields=1)}]}])
    cutter = state.seats[1].fleet[0]
    act(state, {"kind": "play", "card": state.seats[0].hand[0]})
    assert state.cards[cutter].shield_damage == 1 and state.cards[cutter].damage == 1
    assert len(state.seats[0].discard) == 1


def test_card_damage_is_not_weapons_fire():
    """Card Damage Is Not Weapons Fire: a card immune to weapons still takes card damage."""
    flare = card(
        "Solar Lash",
        "occurrence",
        2,
        rules={
            "effects": [
                effect(
                    "play",
                    {"primitive": "damage", "amount": 2},
                    target={"side": "opponent", "types": ["ship"]},
                )
            ]
        },
    )
    ghost = ship(
        "Phase Ghost", 3, shields=0, rules={"keywords": [{"keyword": "immune", "to": "weapons"}]}
    )
    state = position([{"hand": [flare]}, {"fleet": [{"card": ghost}]}])
    act(state, {"kind": "play", "card": state.seats[0].hand[0]})
    assert state.cards[state.seats[1].fleet[0]].damage == 2


def test_control_moves_a_unit_to_the_taker_while_the_card_stays_in_play():
    """Control: the controlling player needs a free command slot; the unit leaves its owner's
    fleet and comes back when control ends."""
    mutiny = card(
        "Mutiny",
        "occurrence",
        4,
        rules={
            "keywords": [{"keyword": "lasts", "turns": 1}],
            "effects": [
                effect(
                    "play", {"primitive": "control"}, target={"side": "opponent", "types": ["ship"]}
                )
            ],
        },
    )
    state = position(
        [
            {"hand": [mutiny], "fleet": [{"card": WORLD}], "deck": [WORLD] * 3},
            {"fleet": [{"card": ship("Cutter", 3)}], "deck": [WORLD] * 3},
        ]
    )
    cutter = state.seats[1].fleet[0]
    act(state, {"kind": "play", "card": state.seats[0].hand[0]})
    assert state.cards[cutter].controller == 0 and cutter in state.seats[0].fleet
    act(state, *[{"kind": "next"}] * 4, {"kind": "done"}, *[{"kind": "next"}] * 4)
    assert state.active == 0
    assert state.cards[cutter].controller == 1 and cutter in state.seats[1].fleet


def agenda(title: str, mode: str, kind: str, amount: int, strength: int = 5) -> dict:
    return card(
        title,
        "agenda",
        strength,
        rules={
            "agenda": {
                "mode": mode,
                "condition": {"kind": kind, "amount": amount},
                "benefit": [{"primitive": "draw", "amount": 1}],
            }
        },
    )


def test_a_hidden_agenda_is_exposed_from_the_hand_when_accomplished():
    """Agenda Cards: hidden agendas are exposed from the hand (not a Card Play) once done."""
    state = position(
        [
            {
                "hand": [agenda("Settle", "hidden", "terrain_in_play", 2), WORLD],
                "fleet": [{"card": WORLD}],
                "deck": [WORLD],
            },
            {},
        ]
    )
    settle = state.seats[0].hand[0]
    events = act(state, {"kind": "play", "card": state.seats[0].hand[1]})
    assert "agenda" in kinds(events) and state.seats[0].hq == [settle]
    assert state.seats[0].plays == 1 and len(state.seats[0].hand) == 1


def test_an_exposed_agenda_pays_only_a_complete_turn_after_it_was_played():
    """Agenda Cards: exposed agendas are played first; their benefit comes one complete turn
    later."""
    state = position(
        [
            {
                "hand": [agenda("Hold", "exposed", "terrain_in_play", 1)],
                "fleet": [{"card": WORLD}],
                "deck": [WORLD] * 5,
            },
            {"deck": [WORLD] * 5},
        ]
    )
    hold = state.seats[0].hand[0]
    act(state, {"kind": "play", "card": hold})
    assert state.cards[hold].zone == "play"
    act(state, *[{"kind": "next"}] * 4, {"kind": "done"}, *[{"kind": "next"}] * 4)
    assert state.cards[hold].zone == "hq"


def test_25_strength_of_agendas_restores_the_sector_hq_once_a_game():
    """Agenda Cards: 25 strength accomplished restores the Sector HQ; once per game."""
    big = [agenda(f"Charter {index}", "hidden", "hand_size", 1, strength=9) for index in range(3)]
    state = position([{"hand": [*big, WORLD], "hq_damage": 20, "deck": [WORLD] * 5}, {}])
    act(state, {"kind": "play", "card": state.seats[0].hand[-1]})
    assert state.seats[0].restored and state.seats[0].hq_damage == 0
    assert state.seats[0].hq == []


def test_a_reserve_swap_takes_a_card_of_equal_or_lower_strength_for_a_card_play():
    """Reserve Fleet: as a Card Play, a hand card goes in and a reserve card of equal or lower
    strength comes out."""
    state = position(
        [{"hand": [terrain("Moon", 2), terrain("Giant", 6)], "reserve": [terrain("Rock", 4)]}, {}]
    )
    moon, giant = state.seats[0].hand
    actions = api.legal_actions(state).actions
    assert {"kind": "swap", "card": giant} in actions and {
        "kind": "swap",
        "card": moon,
    } not in actions
    rock = state.seats[0].reserve[0]
    act(state, {"kind": "swap", "card": giant}, {"kind": "take", "card": rock})
    assert state.seats[0].reserve == [giant] and rock in state.seats[0].hand
    assert state.seats[0].plays == 1


def test_dragons_carry_no_crew_nor_equipment():
    """Dragon Cards: no equipment, crew or occurrence cards may be played to them."""
    wyrm = card("Star Wyrm", "dragon", 5, heavy=2)
    crew = card("Pilot", "crew", 1)
    gear = card(
        "Plating",
        "equipment",
        1,
        passive=True,
        rules={"keywords": [{"keyword": "refit", "stat": "shields", "value": 1}]},
    )
    state = position([{"hand": [crew, gear], "fleet": [{"card": wyrm}]}, {}])
    assert not [action for action in api.legal_actions(state).actions if action["kind"] == "play"]


def test_non_passive_equipment_and_abilities_need_an_engaged_carrier():
    """Equipment Cards: non-passive equipment cannot be engaged on a disengaged unit; Ability
    Cards: not engaged on a disengaged crew."""
    gear = card(
        "Gun Deck",
        "equipment",
        2,
        passive=False,
        rules={"keywords": [{"keyword": "refit", "stat": "phasers", "value": 2}]},
    )
    training = card(
        "Marksman",
        "ability",
        1,
        rules={"keywords": [{"keyword": "refit", "stat": "phasers", "value": 1}]},
    )
    crew = card("Gunner", "crew", 1, cost={"energy": 1})
    state = position(
        [
            {
                "hand": [gear, training],
                "fleet": [
                    {
                        "card": ship("Hulk", 5),
                        "engaged": False,
                        "attached": [{"card": crew, "engaged": False}],
                    }
                ],
            },
            {},
        ]
    )
    hulk = state.seats[0].fleet[0]
    gunner = state.cards[hulk].attached[0]
    gear_id, training_id = state.seats[0].hand
    act(state, {"kind": "play", "card": gear_id}, {"kind": "play", "card": training_id})
    deck, marksman = state.cards[hulk].attached[1], state.cards[gunner].attached[0]
    assert not state.cards[deck].engaged and not state.cards[marksman].engaged
    assert cards.phasers(state, hulk) == 2


def test_a_card_action_works_once_per_complete_turn_and_can_be_reacted_to():
    """Limit on Card Actions: each function once per complete turn; Reaction Cards: a card
    action can be reacted to."""
    mine = card(
        "Proximity Mine",
        "equipment",
        2,
        passive=True,
        rules={
            "effects": [
                effect(
                    "action",
                    {"primitive": "damage", "amount": 2},
                    target={"side": "opponent", "types": ["ship"]},
                )
            ]
        },
    )
    jam = card(
        "Signal Jam",
        "occurrence",
        2,
        reaction=True,
        rules={
            "effects": [
                {"when": "reaction", "reacts_to": "card_action", "effect": [{"primitive": "void"}]}
            ]
        },
    )
    state = position(
        [
            {"fleet": [{"card": ship("Layer", 3), "attached": [{"card": mine}]}]},
            {"hand": [jam], "fleet": [{"card": ship("Cutter", 3, shields=0)}]},
        ]
    )
    layer, cutter = state.seats[0].fleet[0], state.seats[1].fleet[0]
    mine_id = state.cards[layer].attached[0]
    api.apply(state, {"kind": "act", "card": mine_id, "entry": 0})
    api.apply(state, {"kind": "target", "card": cutter})
    act(state, {"kind": "react", "card": state.seats[1].hand[0]})
    assert state.cards[cutter].damage == 0
    assert {"kind": "act", "card": mine_id, "entry": 0} not in api.legal_actions(state).actions


def test_a_discard_can_be_reacted_to():
    """Reaction Cards: the discarding of cards during the Discard Phase can be reacted to."""
    salvage = card(
        "Salvage Rights",
        "luck",
        2,
        reaction=True,
        rules={
            "effects": [
                {
                    "when": "reaction",
                    "reacts_to": "discard",
                    "effect": [{"primitive": "draw", "amount": 1}],
                }
            ]
        },
    )
    state = position([{"hand": [WORLD]}, {"hand": [salvage], "deck": [WORLD]}], phase="discard")
    api.apply(state, {"kind": "discard", "card": state.seats[0].hand[0]})
    act(state, {"kind": "react", "card": state.seats[1].hand[0]})
    assert len(state.seats[1].hand) == 1 and state.cards[state.seats[1].hand[0]].zone == "hand"
