"""The card vocabulary's victory conditions, which heroic encounters state on their boss
avatars (MULTIPLAYER GAMES, "Winning the Game": "Some special scenarios and heroic encounters
will not allow these victory or loss conditions, and they will provide other ways to win"):
the effect ``win_game`` and the conditions ``turn_number`` and ``team_quests_completed``; and
a boss that "can't be damaged" while it has units, from the vocabulary it had already."""

from game.engine import api
from game.engine.events import render
from tests.game.engine.scenario import (
    ability,
    act,
    at,
    avatar,
    end_turn,
    position,
    seat,
    team_position,
    the,
    unit,
)
from tests.game.engine.test_heroic_encounters import AYLA, BREN, CATO, DAX
from tests.game.engine.test_team_games import finish_combat

A, B, C, D, BOSS = 0, 1, 2, 3, 4
NAMES = ["Ayla", "Bren", "Cato", "Dax", "Boss"]
FOCUS = ability("Focus", level=2)
STRIKER = unit("Striker", attack=5, defense=1, health=3)
ACOLYTE = unit("Acolyte", traits=["Acolyte"], attack=0, defense=0, health=1)


def doom_clock(turn: int) -> dict:
    """ "At the end of your turn, if turn N has begun, you win the game." """
    return avatar(
        "Doom Clock",
        health=30,
        rules={
            "triggers": [
                {
                    "event": "end_of_turn",
                    "player": "you",
                    "condition": {"condition": "turn_number", "at_least": turn},
                    "effect": [{"primitive": "win_game", "player": "you"}],
                }
            ]
        },
    )


def saboteurs_target(quests: int) -> dict:
    """ "Whenever an opponent completes a quest, if the opponents have completed N quests in
    all, they win the game." """
    return avatar(
        "Station Director",
        health=30,
        rules={
            "triggers": [
                {
                    "event": "quest_completed",
                    "quest": {"side": "any", "types": ["quest"]},
                    "player": "opponent",
                    "condition": {
                        "condition": "team_quests_completed",
                        "player": "opponent",
                        "at_least": quests,
                    },
                    "effect": [{"primitive": "win_game", "player": "opponent"}],
                }
            ]
        },
    )


def warded(acolytes: int) -> dict:
    """ "While you have N or more Acolytes on the playmat, this avatar is invulnerable." """
    return avatar(
        "Warded Master",
        health=30,
        rules={
            "statics": [
                {
                    "effect": {"primitive": "grant_keyword", "keyword": "invulnerable"},
                    "applies_to": {"self": True},
                    "condition": {
                        "condition": "count",
                        "selector": {"side": "friendly", "types": ["unit"], "trait": "Acolyte"},
                        "at_least": acolytes,
                    },
                }
            ]
        },
    )


def encounter(boss_avatar: dict, **seats) -> tuple:
    names = ("ayla", "bren", "cato", "dax", "boss")
    heroes = (AYLA, BREN, CATO, DAX, boss_avatar)
    return tuple(
        seat(hero, **seats.get(name, {})) for hero, name in zip(heroes, names, strict=True)
    )


# win_game and turn_number


def test_the_doom_clock_does_not_strike_before_its_turn():
    state = position(seat(doom_clock(5)), seat(BREN), turn=3)

    end_turn(state)

    assert state.winner is None


def test_win_game_ends_the_game_for_its_player_once_turn_number_holds():
    state = position(seat(doom_clock(5)), seat(BREN), turn=5)

    events = end_turn(state)

    assert state.winner == 0 and state.win_reason == "victory_condition"
    won = events[-1]
    assert won == {"type": "game_won", "seat": 0, "reason": "victory_condition"}
    assert render(won, 1, ["Vorn", "Bren"], api.card_titles(state)) == (
        "* Vorn wins the game by meeting the encounter's victory condition."
    )


def test_the_boss_wins_for_his_side_at_the_end_of_his_turn_once_the_clock_runs_out():
    """The boss takes turn 10 of a game the first hero began (turns 1 to 5, then 6 to 10)."""
    state = team_position(*encounter(doom_clock(10)), first=A, turn=9)

    events = end_turn(state)

    assert state.winner is None and state.active == BOSS
    events = end_turn(state)
    assert state.winner == BOSS and state.win_reason == "victory_condition"
    assert events[-1]["seats"] == [BOSS]


# team_quests_completed


def hero_completes_a_quest(completed: dict) -> tuple[api.State, list[dict]]:
    """Cato, in his Quest Phase with a level 2 ability, completes his quest (quest 2); the
    other heroes have completed the quests ``completed`` says. Ayla went first: Dax is the
    fourth hero, with no quest of his own."""
    seats = {name: {"completed": count} for name, count in completed.items()}
    seats.setdefault("cato", {})["playmat"] = (FOCUS,)
    state = team_position(*encounter(saboteurs_target(4), **seats), first=A, turn=3, phase="quest")
    events = act(state, {"kind": "attempt_quest", "quest": state.quests[2].card})
    if state.winner is None and state.step == "apply_ability":
        events += act(state, {"kind": "apply_ability", "card": the(state, C, "Focus")})
    return state, events


def test_the_heroes_win_when_their_quests_completed_in_all_reach_the_number():
    """Ayla 2, Bren 1, and Cato's makes 4 completed by the side: no single hero has
    completed his quest pile, yet the heroes win."""
    state, events = hero_completes_a_quest({"ayla": 2, "bren": 1})

    assert state.winner in (A, B, C, D) and state.win_reason == "victory_condition"
    assert events[-1]["seats"] == [A, B, C, D]


def test_the_heroes_quests_in_all_fall_short_by_one():
    state, _ = hero_completes_a_quest({"ayla": 1, "bren": 1})

    assert state.winner is None


def test_the_quests_of_a_hero_who_left_still_count_for_his_side():
    seats = {"ayla": {"completed": 2}, "bren": {"completed": 1}, "cato": {"playmat": (FOCUS,)}}
    state = team_position(*encounter(saboteurs_target(4), **seats), first=A, turn=3, phase="quest")
    act(state, api.leave(A))
    assert state.winner is None

    act(state, {"kind": "attempt_quest", "quest": state.quests[2].card})
    if state.winner is None:
        act(state, {"kind": "apply_ability", "card": the(state, C, "Focus")})

    assert state.win_reason == "victory_condition" and state.winner in (B, C, D)


# A boss that can't be damaged while it has units (count, grant_keyword invulnerable)


def raid_the_boss(acolytes: int) -> api.State:
    """Bren's Striker raids the boss's avatar at quest 1, where no boss unit stands; the
    boss has ``acolytes`` Acolytes at quest 0."""
    state = team_position(
        *encounter(
            warded(2),
            bren={"playmat": (at(STRIKER, 1),)},
            boss={"playmat": tuple(at(ACOLYTE, 0) for _ in range(acolytes))},
        ),
        first=B,
    )
    act(state, {"kind": "raid", "quest": state.quests[1].card})
    finish_combat(state, {B: [the(state, B, "Striker")]})
    return state


def test_the_warded_boss_takes_no_damage_while_two_acolytes_stand():
    state = raid_the_boss(acolytes=2)

    assert state.cards[state.seats[BOSS].avatar].damage == 0


def test_the_warded_boss_is_damaged_once_fewer_acolytes_stand():
    state = raid_the_boss(acolytes=1)

    assert state.cards[state.seats[BOSS].avatar].damage == 1
