"""Combat and damage, scenario by scenario (rulebook: "Weapons Fire Phase", "Combat and Damage",
"Damaging the Sector HQ", "Terrain Cards", "Heavy Weapons", "Discarded Cards", "Splash Damage",
"Victory Celebration", "Armor System", "Phaser Magnifier", "Electromagnetic Field",
"Maneuvering Thrusters")."""

import pytest

from starholds.engine import api
from tests.starholds.engine.builders import act, card, position, ship, terrain

GUNSHIP = ship("Gunship", 4, phasers=3, heavy=2)
WORLD = terrain("World", 4)


def firing(target_fleet: list[dict], *, hq_damage: int = 0, attacker: dict = GUNSHIP, **stack):
    """Seat 0 in its Weapons Fire Phase with one engaged, armed unit; seat 1 holds
    ``target_fleet``; seat 2 looks on (so the game goes on after an elimination)."""
    return position(
        [
            {"fleet": [{"card": attacker, "armed": attacker["heavy"], **stack}]},
            {"fleet": target_fleet, "hq_damage": hq_damage},
            {"fleet": [{"card": ship("Watcher", 3)}]},
        ],
        phase="fire",
    )


def fire_at(state: api.State, target: dict, *weapons: str) -> list[dict]:
    gunner = state.seats[0].fleet[0]
    return act(
        state,
        {"kind": "volley", **target},
        *({"kind": "add", "card": gunner, "weapon": weapon} for weapon in weapons),
        {"kind": "fire"},
    )


def test_the_25th_point_destroys_the_sector_hq_and_the_players_cards_leave_play():
    """Victory Conditions; Damaging the Sector HQ: the 25th point eliminates the player and all
    his cards are removed from play."""
    state = firing([{"card": WORLD}], hq_damage=22)
    events = fire_at(state, {"seat": 1}, "phaser")
    assert state.seats[1].hq_damage == 25 and not state.seats[1].alive
    assert {"type": "eliminated", "seat": 1, "reason": "hq_destroyed"} in events
    assert state.seats[1].fleet == [] and len(state.seats[1].discard) == 1
    assert state.winner is None


def test_the_last_player_left_wins():
    """Victory Conditions: to win you must be the last remaining player."""
    state = position([{"fleet": [{"card": GUNSHIP, "armed": 2}]}, {"hq_damage": 24}], phase="fire")
    fire_at(state, {"seat": 1}, "phaser")
    assert state.winner == 0 and state.result == "last_standing"


def test_a_ship_protects_the_sector_hq_and_only_ships_fire_at_it():
    """Damaging the Sector HQ: fired at only if no ship protects it; only ships (and dragons)
    may fire at it."""
    guarded = firing([{"card": ship("Guard", 2)}])
    assert {"kind": "volley", "seat": 1} not in api.legal_actions(guarded).actions
    base = card("Bastion", "base", 5, shields=2, phasers=4)
    from_base = position(
        [{"fleet": [{"card": WORLD, "attached": [{"card": base}]}]}, {"fleet": [{"card": WORLD}]}],
        phase="fire",
    )
    actions = api.legal_actions(from_base).actions
    assert {"kind": "volley", "seat": 1} not in actions
    assert {"kind": "volley", "card": from_base.seats[1].fleet[0]} in actions


def test_phasers_never_damage_terrain_structure_heavy_weapons_do():
    """Terrain Cards; Heavy Weapons: heavy weapons are the only weapons that damage the
    structure of terrain."""
    state = firing([{"card": WORLD}])
    world = state.seats[1].fleet[0]
    fire_at(state, {"card": world}, "phaser")
    assert state.cards[world].damage == 0
    state = firing([{"card": WORLD}])
    fire_at(state, {"card": world}, "phaser", "heavy")
    assert state.cards[world].damage == 2


def test_heavy_weapons_fire_only_when_armed_with_ammunition():
    """Point Types, ammunition: one ammunition point arms one heavy weapon."""
    state = firing([{"card": WORLD}], armed=0)
    gunner = state.seats[0].fleet[0]
    api.apply(state, {"kind": "volley", "card": state.seats[1].fleet[0]})
    assert {"kind": "add", "card": gunner, "weapon": "heavy"} not in api.legal_actions(
        state
    ).actions


def test_shields_take_damage_first_then_strength_and_a_destroyed_card_takes_its_stack():
    """Combat and Damage; Discarded Cards: Shields first; a card reduced to zero is discarded
    with the cards played on it."""
    crew = card("Gunner", "crew", 1)
    target = ship("Cutter", 3, shields=2)
    state = firing([{"card": target, "attached": [{"card": crew}]}])
    cutter = state.seats[1].fleet[0]
    fire_at(state, {"card": cutter}, "phaser")
    assert state.cards[cutter].shield_damage == 2 and state.cards[cutter].damage == 1
    state = firing([{"card": target, "attached": [{"card": crew}]}])
    fire_at(state, {"card": cutter}, "phaser", "heavy")
    assert state.cards[cutter].zone == "discard"
    assert [state.cards[card].zone for card in state.seats[1].discard] == ["discard"] * 2


def test_ships_on_a_destroyed_terrain_stay_in_play():
    """Ship Cards: a ship is not destroyed if the terrain it is on is destroyed."""
    state = firing([{"card": terrain("Rock", 1), "attached": [{"card": ship("Miner", 2)}]}])
    rock = state.seats[1].fleet[0]
    miner = state.cards[rock].attached[0]
    fire_at(state, {"card": rock}, "heavy")
    assert state.cards[rock].zone == "discard"
    assert state.cards[miner].zone == "play" and state.seats[1].fleet == [miner]


def test_a_terrain_under_a_base_cannot_be_fired_at():
    """Base Cards: the terrain may not be targeted until the base is destroyed."""
    base = card("Outpost", "base", 3, shields=1)
    state = firing([{"card": WORLD, "attached": [{"card": base}]}])
    world = state.seats[1].fleet[0]
    targets = [action.get("card") for action in api.legal_actions(state).actions]
    assert world not in targets and state.cards[world].attached[0] in targets


def test_one_volley_per_target_in_a_phase():
    """Weapons Volley, step e: only one volley against each target in a Weapons Fire Phase."""
    twin = ship("Twin", 3, phasers=1)
    state = position(
        [
            {"fleet": [{"card": twin}, {"card": twin}]},
            {"fleet": [{"card": ship("Hulk", 6, shields=0)}]},
        ],
        phase="fire",
    )
    hulk = state.seats[1].fleet[0]
    first = state.seats[0].fleet[0]
    act(state, {"kind": "volley", "card": hulk})
    act(state, {"kind": "add", "card": first, "weapon": "phaser"}, {"kind": "fire"})
    assert {"kind": "volley", "card": hulk} not in api.legal_actions(state).actions


def test_six_points_on_a_sector_hq_earn_a_victory_celebration():
    """Victory Celebration: 6 or more Sector HQ damage from weapons fire draws 1 card."""
    big = ship("Dreadnought", 6, phasers=6)
    state = position(
        [{"fleet": [{"card": big}], "deck": [WORLD]}, {"fleet": [{"card": WORLD}]}],
        phase="fire",
    )
    events = fire_at(state, {"seat": 1}, "phaser")
    assert {"type": "celebration", "seat": 0} in events
    assert len(state.seats[0].hand) == 1


def test_armor_reduces_structural_damage_then_drops():
    """Armor System: structural damage less the armor's current strength, which then drops 1."""
    armored = ship("Varn Wall", 5, empire="varn", shields=0, system={"kind": "armor", "max": 2})
    state = firing([{"card": armored}])
    wall = state.seats[1].fleet[0]
    fire_at(state, {"card": wall}, "phaser", "heavy")
    assert state.cards[wall].damage == 3 and state.cards[wall].armor_used == 1


@pytest.mark.parametrize(("powered", "damage"), [(0, 3), (1, 6), (2, 9)])
def test_a_magnifier_adds_its_energy_to_each_phaser(powered, damage):
    """Phaser Magnifier: each energy point adds one damage to each Phaser."""
    lens = ship("Oru Lens", 4, empire="oru", phasers=3, system={"kind": "magnifier", "max": 2})
    state = firing([{"card": ship("Hulk", 10, shields=0)}], attacker=lens, powered=powered)
    hulk = state.seats[1].fleet[0]
    fire_at(state, {"card": hulk}, "phaser")
    assert state.cards[hulk].damage == damage


def test_a_field_takes_two_points_per_energy_and_spends_them_like_shields():
    """Electromagnetic Field: energy times nodes, at most twice the strength; re-powered from
    scratch at each allocation."""
    warden = ship(
        "Field Warden",
        2,
        empire="zell",
        shields=0,
        cost={"energy": 1},
        system={"kind": "field", "max": 3},
    )
    state = position(
        [
            {"fleet": [{"card": terrain("Well", 3, energy=3)}, {"card": warden, "engaged": False}]},
            {},
        ],
        phase="allocation",
    )
    unit = state.seats[0].fleet[1]
    act(
        state,
        {"kind": "engage", "card": unit},
        {"kind": "power", "card": unit},
        {"kind": "power", "card": unit},
    )
    assert state.cards[unit].field_points == 4
    assert {"kind": "power", "card": unit} not in api.legal_actions(state).actions


def test_thrusters_reduce_each_volley_by_their_energy():
    """Maneuvering Thrusters: opponent volleys against the unit lose the energy applied."""
    dart = ship("Dart", 5, empire="tyr", shields=0, system={"kind": "thrusters", "max": 2})
    state = firing([{"card": dart, "powered": 2}])
    fire_at(state, {"card": state.seats[1].fleet[0]}, "phaser")
    assert state.cards[state.seats[1].fleet[0]].damage == 1
