"""MULTIPLAYER GAMES, the Four-man Heroic Encounter (4 versus 1): four heroes, seats 0 to 3
left to right on the playmat, against the boss, seat 4 ("Single-Player Team (the 'boss')").

The fourth hero in turn order has his level 2 quest removed, and the quests at the three
locations are the other heroes', left to right: in a position whose first player is Ayla,
Dax's quest is removed and the quests are Ayla's, Bren's and Cato's. Ayla reaches quest 0,
Bren 0 and 1, Cato 1 and 2, Dax 2, and the boss, Vorath, all three.
"""

import json

import pytest

from game.engine import api, phases
from game.engine.errors import InvalidDecklist, InvalidPosition, NotAllowed
from game.engine.state import is_boss, opponents, side_of, teammates
from tests.game.engine.scenario import (
    ability,
    act,
    at,
    avatar,
    decklist,
    end_turn,
    seat,
    team_position,
    the,
    titled,
    unit,
)
from tests.game.engine.test_team_games import SIDES, begun, finish_combat, turns

AYLA, BREN, CATO, DAX = (avatar(name, health=20) for name in ("Ayla", "Bren", "Cato", "Dax"))
VORATH = avatar("Vorath", health=30)
HEROES = [AYLA, BREN, CATO, DAX]
A, B, C, D, BOSS = 0, 1, 2, 3, 4
ENCOUNTER = [[decklist(hero) for hero in HEROES], [decklist(VORATH)]]
STRIKER = unit("Striker", attack=5, defense=1, health=3)


def five(**seats) -> tuple:
    """The five seats of a position, each given its ``seat(...)`` options by name."""
    names = ("ayla", "bren", "cato", "dax", "vorath")
    return tuple(
        seat(hero, **seats.get(name, {}))
        for hero, name in zip([*HEROES, VORATH], names, strict=True)
    )


def boss_turn(**seats) -> api.State:
    """The position at Dax's Main Phase, the boss's turn next (turn 4 from Ayla's first)."""
    return team_position(*five(**seats), first=A, turn=4)


def drawn(events: list[dict], who: int) -> int:
    return sum(event["type"] == "draw" and event["seat"] == who for event in events)


# Seating and turn order


def test_four_heroes_against_a_boss_sit_left_to_right_and_the_boss_last():
    """ "Four-man Heroic Encounter (4 versus 1)": one side of four heroes, one of the boss;
    the turns go round the five seats in order from the first player."""
    state = api.new_game(ENCOUNTER, seed=3)

    assert [titled(state, player.avatar) for player in state.seats] == [
        "Ayla",
        "Bren",
        "Cato",
        "Dax",
        "Vorath",
    ]
    assert state.teams.sides == [[A, B, C, D], [BOSS]]
    assert state.teams.boss == BOSS and is_boss(state, BOSS) and not is_boss(state, A)
    assert teammates(state, B) == [A, C, D] and opponents(state, B) == [BOSS]
    assert opponents(state, BOSS) == [A, B, C, D] and side_of(state, BOSS) == 1
    assert begun(turns(state, 10)) == [(state.first + offset) % 5 for offset in range(10)]


def test_the_first_player_of_an_encounter_is_drawn_at_random_among_the_five():
    firsts = {api.new_game(ENCOUNTER, seed).first for seed in range(40)}

    assert firsts == {A, B, C, D, BOSS}


def test_the_sides_must_be_four_heroes_then_the_boss():
    with pytest.raises(InvalidDecklist, match="four heroes against a boss"):
        api.new_game([[decklist(VORATH)], [decklist(hero) for hero in HEROES]], seed=1)


# The three quests and reach


def test_three_quests_in_play_the_fourth_heroes_level_2_quest_removed_and_none_of_the_boss():
    """ "There are always three quests in play in a multiplayer game. In any four-player
    game, the fourth player's level 2 quest is removed from the game, and that player draws
    an extra card for his hand" (MULTIPLAYER GAMES, "Quests"); the boss's quests wait. Ayla
    goes first: Dax is the fourth hero."""
    state = api.new_game(ENCOUNTER, seed=8, first=A)

    assert [titled(state, quest.card) for quest in state.quests] == [
        "Ayla's Quest 2",
        "Bren's Quest 2",
        "Cato's Quest 2",
    ]
    assert [titled(state, card) for card in state.seats[D].removed] == ["Dax's Quest 2"]
    assert len(state.seats[BOSS].quest_pile) == 4
    assert [len(player.hand) for player in state.seats] == [6, 6, 6, 7, 6]


@pytest.mark.parametrize(
    ("first", "fourth"), [(A, D), (B, A), (C, B), (D, C), (BOSS, D)], ids="ABCDV"
)
def test_the_fourth_hero_in_turn_order_loses_his_level_2_quest(first, fourth):
    """The rulebook is silent on which hero of a 4-versus-1 game loses his level 2 quest
    (docs/rule-choices.md): "In any four-player game, the fourth player's level 2 quest is
    removed from the game, and that player draws an extra card for his hand" (MULTIPLAYER
    GAMES, "Quests") is read as in a team game, the fourth player in turn order, the boss
    left out. The extra card makes up for coming last: the far-right hero going first gets
    no extra card. The other three heroes' quests are at the locations, left to right."""
    state = api.new_game(ENCOUNTER, seed=8, first=first)

    assert [state.cards[card].owner for card in state.seats[fourth].removed] == [fourth]
    assert [titled(state, card) for card in state.seats[fourth].removed] == [
        f"{titled(state, state.seats[fourth].avatar)}'s Quest 2"
    ]
    assert [state.cards[quest.card].owner for quest in state.quests] == [
        hero for hero in (A, B, C, D) if hero != fourth
    ]
    assert [len(player.hand) for player in state.seats] == [
        7 if seat == fourth else 6 for seat in range(5)
    ]
    assert state.teams.reach == [[0], [0, 1], [1, 2], [2], [0, 1, 2]]


def test_the_heroes_on_the_far_left_and_right_reach_one_quest_and_the_boss_all_three():
    """ "In a 4-versus-1 game, the players to the far left and right begin the game with
    only one quest in reach"; the boss "begins the game with all quests in reach"."""
    state = api.new_game(ENCOUNTER, seed=8)

    assert state.teams.reach == [[0], [0, 1], [1, 2], [2], [0, 1, 2]]


@pytest.mark.parametrize(("hero", "quests"), [(A, [0]), (B, [0, 1]), (D, [2]), (BOSS, [0, 1, 2])])
def test_units_are_played_only_to_the_quests_in_reach(hero, quests):
    first = hero
    state = team_position(
        *five(**{name: {"hand": (STRIKER,)} for name in ("ayla", "bren", "dax", "vorath")}),
        first=first,
    )
    striker = the(state, hero, "Striker")

    plays = [action for action in api.legal_actions(state).actions if action.get("card") == striker]

    assert [action["quest"] for action in plays] == [state.quests[at].card for at in quests]


@pytest.mark.parametrize(("hero", "quests"), [(A, [0]), (B, [0, 1]), (D, [2]), (BOSS, [0, 1, 2])])
def test_a_hero_attempts_only_the_quests_in_his_reach(hero, quests):
    """A player attempts only a quest in his reach (docs/rule-choices.md): the heroes on the
    far left and right one quest each, the boss all three."""
    names = ("ayla", "bren", "cato", "dax", "vorath")
    state = team_position(
        *five(**{names[hero]: {"playmat": (ability("Focus", level=1),)}}),
        first=hero,
        phase="quest",
    )

    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (hero, "choose_quest")
    assert [action["quest"] for action in decision.actions] == [
        state.quests[index].card for index in quests
    ]
    for out in sorted({0, 1, 2} - set(quests)):
        with pytest.raises(NotAllowed, match=f"quest {out} is out of seat {hero}'s reach"):
            act(state, {"kind": "attempt_quest", "quest": state.quests[out].card})


# The boss's power and draws


def test_the_boss_gains_two_power_plus_one_per_opponent():
    """ "The boss starts with two power plus one per opponent rather than the standard 3
    power" (MULTIPLAYER GAMES, "Single-Player Team")."""
    state = boss_turn()

    events = end_turn(state)

    gained = [event for event in events if event["type"] == "power_gained"]
    assert gained == [{"type": "power_gained", "seat": BOSS, "amount": 2 + 4}]


def test_the_boss_gains_power_from_the_quests_completed_at_every_location():
    """The boss has all quests in reach, so every completion adds to his power ("Power");
    a hero has only those at the locations he reaches."""
    state = boss_turn(ayla={"completed": 1}, bren={"completed": 2})

    assert phases.turn_power(state, A) == 3 + 1
    assert phases.turn_power(state, B) == 3 + 1 + 2
    assert phases.turn_power(state, D) == 3
    assert phases.turn_power(state, BOSS) == 2 + 4 + 3


def test_the_boss_gains_one_power_less_for_each_opponent_who_left():
    """The rulebook is silent on a hero who left (docs/rule-choices.md): "two power plus one
    per opponent" counts the opponents still in the game at each of the boss's draw phases."""
    state = boss_turn()
    act(state, api.leave(A))

    assert phases.turn_power(state, BOSS) == 2 + 3


def test_the_boss_draws_one_plus_one_per_opponent_in_his_draw_phase():
    """ "The boss draws more cards in each of his draw phases, equal to one plus one
    additional for each opponent (in a Four-man Heroic Encounter, the boss draws five cards
    each turn)"; a hero draws two ("Drawing Cards")."""
    state = boss_turn()

    boss_events = end_turn(state)
    hero_events = end_turn(state)

    assert drawn(boss_events, BOSS) == 5
    assert drawn(hero_events, A) == 2


def test_the_boss_draws_one_card_less_for_each_opponent_who_left():
    """ "One plus one additional for each opponent" counts those still in the game, not the
    four the encounter began with (docs/rule-choices.md)."""
    state = boss_turn()
    act(state, api.leave(B))
    act(state, api.leave(C))

    events = end_turn(state)

    assert drawn(events, BOSS) == 1 + 2


def test_the_boss_reshuffles_his_discard_pile_into_a_new_deck_instead_of_losing():
    """ "The boss can't lose the game by running out of cards in his deck – he reshuffles
    his discard pile to make a new deck" (glossary, "boss")."""
    discarded = tuple(unit(f"Spent {number}") for number in range(4))
    state = boss_turn(vorath={"bystanders": 2, "discard": discarded})

    events = end_turn(state)

    reshuffled = [event for event in events if event["type"] == "deck_reshuffled"]
    assert reshuffled == [{"type": "deck_reshuffled", "seat": BOSS, "count": 4}]
    assert drawn(events, BOSS) == 5
    assert state.winner is None and not state.teams.left
    assert state.seats[BOSS].discard == [] and len(state.seats[BOSS].deck) == 1
    names = ["Ayla", "Bren", "Cato", "Dax", "Vorath"]
    assert api.render(reshuffled[0], None, names, api.card_titles(state)) == (
        "* Vorath's discard pile is shuffled into a new deck of 4 cards: the boss can't run "
        "out of cards."
    )


def test_the_boss_with_no_deck_and_no_discard_pile_draws_nothing_and_plays_on():
    state = boss_turn(vorath={"bystanders": 1})

    events = end_turn(state)

    assert drawn(events, BOSS) == 1
    assert state.winner is None and state.active == BOSS and not state.teams.left


def test_a_hero_who_must_draw_from_an_empty_deck_loses_and_the_others_play_on():
    state = team_position(*five(ayla={"bystanders": 0}), first=D, turn=2)

    events = end_turn(state)

    assert {"type": "player_lost", "seat": A, "reason": "deck_empty"} in events
    assert state.winner is None and state.active == B


# Leaving the game: reach, and winning


@pytest.mark.parametrize(
    ("leaving", "reach"),
    [
        ([A], [None, [0, 1], [1, 2], [2], [0, 1, 2]]),
        ([A, B], [None, None, [0, 1, 2], [2], [0, 1, 2]]),
        ([D, C], [[0], [0, 1, 2], None, None, [0, 1, 2]]),
        ([B, C], [[0, 1], None, None, [2], [0, 1, 2]]),
        ([A, B, C], [None, None, None, [0, 1, 2], [0, 1, 2]]),
    ],
)
def test_a_neighbour_takes_the_quests_of_a_hero_who_left_that_no_other_hero_reaches(leaving, reach):
    """ "Sometimes, when one of your teammates has his avatar destroyed, your reach is
    extended to cover one of his quests" ("Quests"): the heroes still playing reach every
    quest, the quest that nobody reaches going to the nearest hero."""
    state = boss_turn()

    for hero in leaving:
        act(state, api.leave(hero))

    assert [
        None if each in state.teams.left else within
        for each, within in enumerate(state.teams.reach)
    ] == reach


def test_the_heroes_win_when_the_boss_avatar_is_destroyed():
    """ "Your team wins the game when the last opposing avatar is destroyed" ("Winning the
    Game"): a raid where no boss unit defends attacks the boss's avatar."""
    state = team_position(
        *five(bren={"playmat": (at(STRIKER, 1),)}, vorath={"avatar_damage": 29}), first=B
    )

    act(state, {"kind": "raid", "quest": state.quests[1].card})
    finish_combat(state, {B: [the(state, B, "Striker")]})

    assert state.winner == B and state.win_reason == "avatar_destroyed"
    assert state.teams.left == [BOSS]


def test_the_boss_wins_when_every_hero_has_left():
    state = boss_turn()

    for hero in (A, B, C):
        act(state, api.leave(hero))
        assert state.winner is None
    events = act(state, api.leave(D))

    assert state.winner == BOSS and state.win_reason == "left"
    assert events[-1] == {"type": "game_won", "seat": BOSS, "reason": "left", "seats": [BOSS]}


# Views and saving


def test_a_hero_sees_his_own_hand_and_neither_the_boss_hand_nor_another_heroes():
    state = api.new_game(ENCOUNTER, seed=4)

    for viewer in (A, B, C, D, BOSS, None):
        shown = api.view(state, viewer)
        hands = [player["hand"] is not None for player in shown["players"]]
        assert hands == [each == viewer for each in range(5)]
        assert shown["boss"] == BOSS
        assert shown["reach"] == [[0], [0, 1], [1, 2], [2], [0, 1, 2]]


def test_an_encounter_round_trips_through_json_and_replays():
    state = api.new_game(ENCOUNTER, seed=11)
    played = []
    while state.turn < 8:
        action = api.legal_actions(state).actions[-1]
        act(state, action)
        played.append(action)

    assert api.to_json(api.from_json(api.to_json(state))) == api.to_json(state)
    assert api.to_json(api.replay(ENCOUNTER, 11, played)) == api.to_json(state)


def test_a_team_game_saves_as_it_did_and_its_old_json_still_loads():
    """A 2-versus-2 game's JSON has no boss: matches stored before encounters replay."""
    state = api.new_game(SIDES, seed=3)
    saved = api.to_json(state)

    assert '"boss"' not in saved
    assert api.from_json(saved).teams.boss is None
    assert api.to_json(api.from_json(saved)) == saved
    assert "boss" not in api.view(state, None)


def test_a_position_of_an_encounter_gives_the_boss_no_quest_of_his_own():
    with pytest.raises(InvalidPosition, match="is the boss: he has no quest of his own"):
        team_position(*five(vorath={"completed": 1}))
    assert json.loads(api.to_json(boss_turn()))["teams"]["boss"] == BOSS


def test_a_position_of_an_encounter_removes_the_fourth_heros_quest_in_turn_order():
    """Bren goes first: Ayla is the fourth hero, with no quest of her own; Dax has one."""
    with pytest.raises(InvalidPosition, match="seat 0 is the fourth hero: he has no quest"):
        team_position(*five(ayla={"completed": 1}), first=B)

    state = team_position(*five(dax={"completed": 1}), first=B)

    assert [titled(state, quest.card) for quest in state.quests] == [
        "Bren's Quest 2",
        "Cato's Quest 2",
        "Dax's Quest 4",
    ]
    assert state.teams.completions == [0, 0, 1]
