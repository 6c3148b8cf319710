"""The position builder (game.engine.positions): a game set up at a moment of play, checked
against the rules, that goes on through the engine's public API."""

import pytest

from game.engine import actions, api
from game.engine.errors import InvalidPosition
from game.engine.invariants import zone_violations
from game.engine.positions import Placed, Position, SeatSetup, build, card_ids
from tests.game.engine.scenario import (
    BYSTANDER,
    FIRST,
    SECOND,
    ability,
    at,
    avatar,
    item,
    kinds,
    position,
    quest_at,
    quests_of,
    seat,
    tactic,
    the,
    unit,
)

JASON = avatar("Jason", health=20)
TYLER = avatar("Tyler", health=20)
TROOPER = unit("Trooper", cost=2, attack=2, health=3)
GUARD = unit("Guard", defense=2, health=2)
BLASTER = item("Blaster", attack=2, restriction="weapon")
RIFLE = item("Rifle", attack=3, restriction="weapon")
MEDITATION = ability("Meditation", level=2, defense=1)
QUICK_DRAW = tactic("Quick Draw")
SHIELDED = unit("Shielded Guard", rules={"keywords": [{"keyword": "shield", "value": 2}]})
SPEEDER = item(
    "Speeder",
    rules={
        "statics": [
            {
                "applies_to": {"side": "friendly", "types": ["avatar"]},
                "condition": None,
                "effect": {"primitive": "modify", "stat": "attack", "amount": 1},
            }
        ]
    },
)
PLATING = item(
    "Plating",
    restriction="armor",
    rules={
        "statics": [
            {
                "applies_to": {"side": "friendly", "types": ["avatar"]},
                "condition": None,
                "effect": {"primitive": "modify", "stat": "health", "amount": 2},
            }
        ]
    },
)
SNARE = ability("Snare", rules={"keywords": [{"keyword": "entanglement"}]})
HERO_MEDAL = item("Hero's Medal", rules={"keywords": [{"keyword": "unique"}]})


def test_position_puts_every_card_in_the_zone_it_names():
    state = position(
        seat(
            JASON,
            hand=(QUICK_DRAW, TROOPER),
            playmat=(BLASTER, MEDITATION, at(GUARD, 1, exerted=True, damage=1)),
            discard=(RIFLE,),
        ),
        seat(TYLER, playmat=(at(TROOPER, 0),)),
    )
    jason, tyler = state.seats

    assert [state.definitions[state.cards[card].definition]["title"] for card in jason.hand] == [
        "Quick Draw",
        "Trooper",
    ]
    assert jason.items == [the(state, FIRST, "Blaster")]
    assert jason.abilities == [the(state, FIRST, "Meditation")]
    assert jason.discard == [the(state, FIRST, "Rifle")]
    guard = the(state, FIRST, "Guard")
    assert state.quests[1].units[FIRST] == [guard]
    assert (state.cards[guard].exerted, state.cards[guard].damage) == (True, 1)
    assert state.quests[0].units[SECOND] == [the(state, SECOND, "Trooper")]
    assert len(jason.deck) == len(tyler.deck) == 20
    assert [len(player.quest_pile) for player in state.seats] == [3, 3]
    assert zone_violations(state) == []


def test_position_waits_for_the_active_players_main_phase_decision():
    state = position(seat(JASON, hand=(TROOPER,)), seat(TYLER))
    trooper = the(state, FIRST, "Trooper")

    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind, state.phase) == (FIRST, "main", "main")
    assert actions.play(trooper, quest_at(state, 0)) in decision.actions
    api.apply(state, actions.play(trooper, quest_at(state, 0)))
    assert trooper in state.quests[0].units[FIRST]
    assert state.seats[FIRST].power == 1  # 3 from the Draw Phase, 2 for the Trooper


def test_position_the_first_player_takes_the_odd_turns():
    state = position(seat(JASON), seat(TYLER), first=SECOND, turn=4)

    assert (state.first, state.active, state.turn) == (SECOND, FIRST, 4)
    assert api.legal_actions(state).seat == FIRST


def test_position_gives_power_as_the_draw_phase_would_unless_told():
    told = position(seat(JASON), seat(TYLER, power=2), first=SECOND)
    counted = position(seat(JASON, completed=2), seat(TYLER, completed=1))

    assert [player.power for player in told.seats] == [0, 2]
    assert [player.power for player in counted.seats] == [6, 0]  # 3 + every completed quest


def test_position_completed_quests_are_the_lowest_each_replaced_by_the_next():
    state = position(seat(JASON, completed=2, tokens=(3, 1)), seat(TYLER))
    jason = state.seats[FIRST]

    levels = [state.definitions[state.cards[card].definition]["level"] for card in jason.completed]
    assert levels == [2, 4]
    assert state.definitions[state.cards[quest_at(state, 0)].definition]["level"] == 5
    assert [quest.tokens[FIRST] for quest in state.quests] == [3, 1]


def test_position_cards_in_play_are_as_if_played():
    """Statics in force, printed shields, timestamps in the order given, an entangled ability
    under the opponent's control (glossary: "shield", "timestamp", "entanglement")."""
    state = position(
        seat(JASON, playmat=(SPEEDER, at(SHIELDED, 0), SNARE)),
        seat(TYLER),
    )
    jason_avatar = state.seats[FIRST].avatar
    shielded, snare = the(state, FIRST, "Shielded Guard"), the(state, FIRST, "Snare")

    assert api.view(state, FIRST)["players"][FIRST]["avatar"]["attack"] == 2
    assert state.cards[shielded].shield == 2
    assert state.cards[the(state, FIRST, "Speeder")].since < state.cards[shielded].since
    assert state.cards[jason_avatar].since < state.cards[shielded].since
    assert snare in state.seats[SECOND].abilities
    assert state.cards[snare].controller == SECOND


def test_position_in_the_quest_phase_asks_for_a_quest_to_attempt():
    state = position(seat(JASON, playmat=(MEDITATION,)), seat(TYLER), phase="quest")

    decision = api.legal_actions(state)

    assert (decision.kind, state.phase) == ("choose_quest", "quest")
    assert kinds(decision) == {"attempt_quest"}


def test_position_keeps_no_cache_of_what_was_worked_out_while_building():
    state = position(seat(JASON, playmat=(SPEEDER, at(TROOPER, 0))), seat(TYLER))

    caches = state.caches
    assert [caches.index, caches.board, caches.listening, caches.decision, caches.memo] == [
        None
    ] * 5
    assert actions.raid(quest_at(state, 0)) in api.legal_actions(state).actions


def test_position_survives_a_json_round_trip():
    state = position(
        seat(JASON, hand=(QUICK_DRAW,), playmat=(at(TROOPER, 1, exerted=True),)),
        seat(TYLER, avatar_damage=3),
    )

    assert api.from_json(api.to_json(state)) == state


def test_position_card_ids_follow_the_order_given():
    state = position(seat(JASON, hand=(TROOPER,), playmat=(at(TROOPER, 0),)), seat(TYLER))

    in_hand, in_play = card_ids(state, FIRST, "Trooper")

    assert state.seats[FIRST].hand == [in_hand]
    assert state.quests[0].units[FIRST] == [in_play]


def test_position_builds_from_its_dataclasses_alone():
    state = build(
        Position(
            seats=(
                SeatSetup(avatar=JASON, quests=quests_of(JASON), deck=(BYSTANDER,) * 5),
                SeatSetup(
                    avatar=TYLER,
                    quests=quests_of(TYLER),
                    playmat=(Placed(GUARD, quest=0),),
                ),
            ),
            first=SECOND,
            turn=2,
        )
    )

    assert api.legal_actions(state).seat == FIRST
    assert len(state.seats[FIRST].deck) == 5


@pytest.mark.parametrize(
    ("seats", "game", "message"),
    [
        ((seat(JASON, playmat=(TROOPER,)), seat(TYLER)), {}, "a unit is at a quest"),
        ((seat(JASON, playmat=(Placed(BLASTER, quest=0),)), seat(TYLER)), {}, "a unit is at"),
        ((seat(JASON, playmat=(at(TROOPER, 2),)), seat(TYLER)), {}, "at quest 2"),
        ((seat(JASON, playmat=(QUICK_DRAW,)), seat(TYLER)), {}, "a tactic, not on the playmat"),
        ((seat(JASON, playmat=(MEDITATION,) * 4), seat(TYLER)), {}, "4 abilities: at most 3"),
        ((seat(JASON, playmat=(BLASTER, RIFLE)), seat(TYLER)), {}, "restriction 'weapon'"),
        ((seat(JASON, playmat=(HERO_MEDAL,) * 2), seat(TYLER)), {}, "two unique"),
        ((seat(JASON, playmat=(at(TROOPER, 0, damage=3),)), seat(TYLER)), {}, "3 health"),
        ((seat(JASON, avatar_damage=20), seat(TYLER)), {}, "20 health"),
        ((seat(JASON, playmat=(Placed(BLASTER, damage=1),)), seat(TYLER)), {}, "take damage"),
        ((seat(JASON, completed=4), seat(TYLER)), {}, "completing the last one wins"),
        ((seat(JASON, quests=quests_of(JASON)[:3]), seat(TYLER)), {}, "one quest of each"),
        ((seat(JASON, power=-1), seat(TYLER)), {}, "-1 power"),
        ((seat(JASON, tokens=(1,)), seat(TYLER)), {}, "two counts"),
        ((seat(JASON), seat(TYLER)), {"phase": "draw"}, "not 'draw'"),
        ((seat(JASON), seat(TYLER)), {"phase": "quest"}, "the Quest Phase ends at once"),
        ((seat(JASON), seat(TYLER)), {"first": 2}, "seat 0 or 1"),
        ((seat(JASON), seat(TYLER)), {"turn": 0}, "counted from 1"),
        ((seat(JASON, hand=(JASON,)), seat(TYLER)), {}, "not unit or ability"),
    ],
)
def test_position_refuses_what_the_rules_do_not_allow(seats, game, message):
    with pytest.raises(InvalidPosition, match=message):
        position(*seats, **game)


def test_position_reads_limits_with_statics_in_force():
    """Armor that gives the avatar +2 health lets it carry damage that would destroy it
    bare."""
    state = position(seat(JASON, playmat=(PLATING,), avatar_damage=21), seat(TYLER))

    assert api.view(state, None)["players"][FIRST]["health"] == 1
