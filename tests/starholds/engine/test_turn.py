"""The player turn (rulebook: "Order of Play" and its seven phases, "Point Allocation Phase",
"Record Keeping Step", "Point Types", "Terrain Output Modifiers", "Command Limits",
"Turn 1 Restrictions", "Turn 2 Restrictions", "Discard Cards Phase", "Draw Cards Phase")."""

from starholds.engine import api, cards
from tests.starholds.engine.builders import act, card, kinds, pass_all, position, ship, terrain

WORLD = terrain("World", 4)


def test_the_phases_come_in_order():
    """Order of Play: allocation, engagement, play cards A, weapons fire, play cards B, discard,
    draw; then the next player's turn."""
    state = position([{"deck": [WORLD] * 5}, {"deck": [WORLD] * 5}], phase="allocation")
    seen = [state.phase]
    for kind in ("done", "next", "next", "next", "next"):
        act(state, {"kind": kind})
        seen.append(state.phase)
    assert seen == ["allocation", "play_a", "fire", "play_b", "discard", "allocation"]
    assert state.active == 1 and len(state.seats[0].hand) == 2


def test_record_keeping_regenerates_one_shield_and_discards_expired_cards():
    """Record Keeping Step: expired cards are discarded first; every Shield regenerates 1."""
    haze_rules = [
        {"keyword": "lasts", "turns": 1},
        {"keyword": "fleet_modifier", "point": "energy", "value": -1},
    ]
    lasting = card("Ion Haze", "hazard", 2, rules={"keywords": haze_rules})
    state = position(
        [
            {"fleet": [{"card": WORLD}], "deck": [WORLD] * 3},
            {
                "fleet": [
                    {"card": ship("Cutter", 3, shields=3), "shield_damage": 3},
                    {"card": lasting},
                ]
            },
        ],
        phase="discard",
    )
    cutter, haze = state.seats[1].fleet
    act(state, {"kind": "next"})
    assert state.active == 1
    assert state.cards[cutter].shield_damage == 2
    assert state.cards[haze].zone == "discard"


def test_economy_pays_for_any_point_type_but_typed_points_go_first():
    """Point Types, economy: declared as any other type each turn."""
    needy = ship("Needy", 3, cost={"energy": 2})
    state = position(
        [
            {
                "fleet": [
                    {"card": terrain("Mart", 3, energy=1, economy=2)},
                    {"card": needy, "engaged": False},
                ]
            },
            {},
        ],
        phase="allocation",
    )
    needy_id = state.seats[0].fleet[1]
    act(state, {"kind": "engage", "card": needy_id})
    assert state.seats[0].spent == {"energy": 1, "economy": 1}
    assert cards.remaining(state, 0)["economy"] == 1


def test_terrain_modifiers_add_before_multiplying_and_positive_ones_do_not_stack():
    """Terrain Output Modifiers: only the greatest positive additive and multiplicative
    modifiers count; additive first."""
    plus = card(
        "Hauler",
        "ship",
        1,
        rules={
            "keywords": [
                {"keyword": "terrain_modifier", "point": "supply", "op": "add", "value": 2}
            ]
        },
    )
    plus_one = card(
        "Tug",
        "ship",
        1,
        rules={
            "keywords": [
                {"keyword": "terrain_modifier", "point": "supply", "op": "add", "value": 1}
            ]
        },
    )
    times = card(
        "Depot",
        "base",
        3,
        rules={
            "keywords": [
                {"keyword": "terrain_modifier", "point": "supply", "op": "mul", "value": 3}
            ]
        },
    )
    drain = card(
        "Blight",
        "monster",
        2,
        rules={
            "keywords": [
                {"keyword": "terrain_modifier", "point": "supply", "op": "add", "value": -1}
            ]
        },
    )
    state = position(
        [
            {
                "fleet": [
                    {
                        "card": terrain("Farm", 3, supply=2),
                        "attached": [
                            {"card": plus},
                            {"card": plus_one},
                            {"card": times},
                            {"card": drain, "controller": 1},
                        ],
                    }
                ]
            },
            {},
        ]
    )
    farm = state.seats[0].fleet[0]
    assert cards.terrain_output(state, farm) == {"supply": (2 + 2 - 1) * 3}


def test_command_slots_come_from_the_number_of_starting_players():
    """Command Limits: as many command points as players started the game; strength 3 or more
    takes a slot, strength 2 half of one; one minor empire ship is free."""
    heavy = ship("Cruiser", 3)
    state = position(
        [
            {
                "fleet": [{"card": WORLD}, {"card": heavy}, {"card": ship("Scout", 2)}],
                "hand": [heavy, ship("Scout", 2), ship("Keth Raider", 4, empire="keth")],
            },
            {},
        ]
    )
    plays = [
        action["card"] for action in api.legal_actions(state).actions if action["kind"] == "play"
    ]
    assert [cards.title(state, card) for card in plays] == ["Scout", "Keth Raider"]
    assert cards.command_points(state, 0) == 2


def test_command_points_do_not_drop_when_players_are_eliminated():
    """Command Limits: the number of players that started the game, whatever happens since."""
    state = position([{"fleet": [{"card": WORLD}]}, {}, {}])
    api.leave(state, 2)
    assert cards.command_points(state, 0) == 3


def test_turn_one_allows_terrain_only_and_turn_two_one_unit():
    """Turn 1 Restrictions; Turn 2 Restrictions."""
    hand = [WORLD, ship("Cutter", 2, cost={}), ship("Skiff", 2, cost={})]
    first = position([{"hand": hand, "turns": 1, "fleet": [{"card": WORLD}]}, {}])
    playable = {
        cards.kind(first, action["card"])
        for action in api.legal_actions(first).actions
        if action["kind"] == "play"
    }
    assert playable == {"terrain"}
    second = position([{"hand": hand, "turns": 2, "fleet": [{"card": WORLD}]}, {}])
    skiff = second.seats[0].hand[2]
    act(second, {"kind": "play", "card": second.seats[0].hand[1]}, {"kind": "place", "at": None})
    assert {"kind": "play", "card": skiff} not in api.legal_actions(second).actions


def test_three_card_plays_a_turn_and_unused_ones_discard_from_the_hand():
    """Play Cards Phase A: a maximum of 3 cards; Discard Cards Phase: remaining Card Plays
    discard cards from the hand."""
    state = position([{"hand": [WORLD] * 5}, {}])
    for _ in range(2):
        act(state, {"kind": "play", "card": state.seats[0].hand[0]})
    act(state, {"kind": "next"}, {"kind": "next"}, {"kind": "next"})
    assert state.phase == "discard"
    act(state, {"kind": "discard", "card": state.seats[0].hand[0]})
    assert not [
        action
        for action in api.legal_actions(state).actions
        if action["kind"] in ("discard", "play")
    ]
    assert state.seats[0].plays == 3


def test_the_draw_depends_on_the_hand_and_an_empty_deck_stops_it():
    """Draw Cards Phase: 2 cards with 9 or fewer, 1 with 10 or 11, none with 12 or more; no
    cards left: no draw, and the Discard Pile is not reshuffled."""
    for held, drawn in ((9, 2), (10, 1), (11, 1), (12, 0)):
        state = position([{"hand": [WORLD] * held, "deck": [WORLD] * 3}, {}], phase="discard")
        act(state, {"kind": "next"})
        assert len(state.seats[0].hand) == held + drawn
    state = position([{"deck": [WORLD], "discard": [WORLD] * 4}, {}], phase="discard")
    events = act(state, {"kind": "next"})
    assert len(state.seats[0].hand) == 1 and len(state.seats[0].discard) == 4
    assert "deck_empty" in kinds(events) and state.seats[0].alive


def test_the_stall_rule_ends_the_game_at_the_round_limit():
    """docs/starholds/choices.md, "The stall rule": the least damaged Sector HQ wins."""
    state = position(
        [{"deck": [WORLD] * 9}, {"deck": [WORLD] * 9, "hq_damage": 3}],
        phase="discard",
        options=api.Options(round_limit=1),
    )
    act(state, {"kind": "next"})
    pass_all(state)
    act(
        state,
        {"kind": "done"},
        {"kind": "next"},
        {"kind": "next"},
        {"kind": "next"},
        {"kind": "next"},
    )
    assert state.winner == 0 and state.result == "round_limit"
