"""MULTIPLAYER GAMES, the 2-versus-2 team game (Creating a Match, "Number of Players": "a
multiplayer 2-versus-2 team game for 4 players"): sides and turn order, the three quests,
reach, power, commanders, winning and losing, and leaving the game.

Seats are in turn order and alternate sides: seats 0 and 2 (Ayla and Cato) against 1 and 3
(Bren and Dax). In a position whose first player is seat 0, seat 3 is the fourth player, whose
level 2 quest is removed: quests 0, 1 and 2 are Ayla's, Bren's and Cato's, and seats 0 and 1
have quests 0 and 1 in reach, seats 2 and 3 quests 1 and 2.
"""

import pytest

from game.engine import actions, api
from game.engine.errors import InvalidDecklist, NotAllowed
from game.engine.positions import Placed
from game.engine.state import opponents, side_of, teammates
from tests.game.engine.scenario import (
    ability,
    act,
    at,
    avatar,
    decklist,
    end_turn,
    item,
    seat,
    team_position,
    the,
    titled,
    unit,
)

AYLA, BREN, CATO, DAX = (avatar(name, health=20) for name in ("Ayla", "Bren", "Cato", "Dax"))
A1, B1, A2, B2 = 0, 1, 2, 3
SIDES = [[decklist(AYLA), decklist(CATO)], [decklist(BREN), decklist(DAX)]]
STRIKER = unit("Striker", attack=3, defense=1, health=3)
GUARD = unit("Guard", attack=1, defense=1, health=1)
SCOUT = unit("Scout", attack=1, defense=1, health=1)
FOCUS = ability("Focus", level=1)


def four(*extra: dict, **seats) -> tuple:
    """The four seats of a position, each given its ``seat(...)`` options by name."""
    return tuple(
        seat(hero, **seats.get(name, {}))
        for hero, name in zip((AYLA, BREN, CATO, DAX), ("ayla", "bren", "cato", "dax"), strict=True)
    )


def turns(state: api.State, count: int) -> list[dict]:
    """The events until ``count`` turns have begun, every player keeping his hand, ending
    his Main Phase at once and discarding his first cards down to the hand limit."""
    events: list[dict] = []
    while sum(event["type"] == "turn_started" for event in events) < count:
        decision = api.legal_actions(state)
        chosen = {"redraw": actions.keep(), "main": actions.done()}
        events += act(state, chosen.get(decision.kind, decision.actions[0]))
    return events


def begun(events: list[dict]) -> list[int]:
    return [event["seat"] for event in events if event["type"] == "turn_started"]


def finish_combat(state: api.State, exerts: dict[int, list[int]]) -> list[dict]:
    """Play the combat on: each seat exerts the cards listed for it, then passes; damage
    goes where the engine lists it first."""
    events = []
    while state.combat is not None and state.winner is None:
        decision = api.legal_actions(state)
        wanted = [
            action
            for action in decision.actions
            if action["kind"] == "exert" and action.get("card") in exerts.get(decision.seat, [])
        ]
        events += act(state, wanted[0] if wanted else decision.actions[-1])
    return events


# Seats grouped in sides, and turn order


def test_new_game_seats_two_sides_alternating_in_turn_order():
    """ "The game is always a two-sided contest" (MULTIPLAYER GAMES, "Teammates"); players
    alternate back and forth (TURN SEQUENCE), so each turn passes to the other side."""
    state = api.new_game(SIDES, seed=3)

    assert [titled(state, player.avatar) for player in state.seats] == [
        "Ayla",
        "Bren",
        "Cato",
        "Dax",
    ]
    assert state.teams.sides == [[A1, A2], [B1, B2]]
    assert teammates(state, A1) == [A2] and opponents(state, A1) == [B1, B2]
    seats = begun(turns(state, 8))
    assert seats == [(state.first + offset) % 4 for offset in range(8)]
    assert [side_of(state, each) for each in seats] == [
        side_of(state, state.first),
        1 - side_of(state, state.first),
    ] * 4


def test_a_two_player_game_given_as_two_sides_of_one_is_the_two_player_game():
    """The normal game for 2 players (Creating a Match, "Number of Players") is the same
    game however its seats are given: the same state, byte for byte."""
    plain = api.new_game([decklist(AYLA), decklist(BREN)], seed=5)
    sided = api.new_game([[decklist(AYLA)], [decklist(BREN)]], seed=5)

    assert sided.teams is None
    assert api.to_json(sided) == api.to_json(plain)
    assert '"teams"' not in api.to_json(plain)


@pytest.mark.parametrize(
    ("decklists", "message"),
    [
        ([[decklist(AYLA)], [decklist(BREN)], [decklist(CATO)]], "two sides, not 3"),
        ([[decklist(AYLA)], [decklist(BREN), decklist(DAX)]], "of 1 and 2 players"),
        ([[decklist(AYLA)] * 3, [decklist(BREN)] * 3], "of 3 and 3 players"),
        ([decklist(AYLA)], "two decklists"),
        ([[decklist(AYLA), "deck"], [decklist(BREN), decklist(DAX)]], "a list of decklists"),
    ],
)
def test_new_game_refuses_sides_the_rulebook_has_no_game_for(decklists, message):
    with pytest.raises(InvalidDecklist, match=message):
        api.new_game(decklists, seed=1)


# Set-up: three quests, the fourth player's extra card


def test_three_quests_in_play_and_the_fourth_players_level_2_quest_removed():
    """ "There are always three quests in play in a multiplayer game. In any four-player
    game, the fourth player's level 2 quest is removed from the game, and that player draws
    an extra card for his hand" (MULTIPLAYER GAMES, "Quests")."""
    state = api.new_game(SIDES, seed=11)
    fourth = (state.first + 3) % 4

    assert len(state.quests) == 3
    assert [state.cards[quest.card].owner for quest in state.quests] == [
        each for each in range(4) if each != fourth
    ]
    assert [titled(state, card) for card in state.seats[fourth].removed] == [
        f"{titled(state, state.seats[fourth].avatar)}'s Quest 2"
    ]
    assert [len(player.hand) for player in state.seats] == [
        7 if each == fourth else 6 for each in range(4)
    ]


def test_the_fourth_player_redraws_seven_cards():
    """His redrawn hand keeps the extra card (MULTIPLAYER GAMES, "Quests"; SETTING UP A
    GAME, "Redraw Your Hand")."""
    state = api.new_game(SIDES, seed=2)
    fourth = (state.first + 3) % 4
    while state.deciding != fourth:
        act(state, actions.keep())

    act(state, actions.redraw())

    assert len(state.seats[fourth].hand) == 7


def test_each_player_on_a_team_draws_two_cards():
    """ "Each player on a team that has more than one player draws two cards in the draw
    phase, just like normal rules" (MULTIPLAYER GAMES, "Drawing Cards"); the first player
    still draws none on the first turn of the game (DRAW PHASE)."""
    state = api.new_game(SIDES, seed=4)

    events = turns(state, 4)

    drawn = [
        sum(event["type"] == "draw" and event["seat"] == each for event in events)
        for each in range(4)
    ]
    assert drawn == [0 if each == state.first else 2 for each in range(4)]


# Reach and power


def test_units_are_played_only_to_the_two_quests_in_reach():
    """ "Normally, you'll only be able to play units to two of the three available quest
    locations. These two quests are the ones you have in reach" (MULTIPLAYER GAMES)."""
    state = team_position(*four(cato={"hand": (GUARD,)}), first=0, turn=3)
    guard = the(state, A2, "Guard")

    plays = [action for action in api.legal_actions(state).actions if action["kind"] == "play"]

    assert plays == [
        actions.play(guard, state.quests[1].card),
        actions.play(guard, state.quests[2].card),
    ]
    assert state.teams.reach == [[0, 1], [0, 1], [1, 2], [1, 2]]


def test_power_comes_from_the_quests_completed_at_the_locations_in_reach():
    """ "You receive power each turn based on the quests completed at the locations that are
    in reach for you" (MULTIPLAYER GAMES, "Power"): Ayla completed a quest at quest 0, which
    Bren has in reach and Cato does not."""
    state = team_position(*four(ayla={"completed": 1}), first=0, turn=1)

    gained = [event for event in end_turn(state) if event["type"] == "power_gained"]
    gained += [event for event in end_turn(state) if event["type"] == "power_gained"]

    assert [(event["seat"], event["amount"]) for event in gained] == [(B1, 4), (A2, 3)]
    assert state.teams.completions == [1, 0, 0]


def test_a_player_attempts_only_a_quest_in_his_reach():
    """The rulebook is silent on whether a player may attempt a quest out of his reach
    (docs/rule-choices.md): reach is where he acts, the quests where he may play units
    (MULTIPLAYER GAMES, "Quests") and where his avatar may be attacked ("Attacking Raid
    Commander": "any avatar within reach of that quest"); so his avatar quests there only.
    Ayla reaches quests 0 and 1, not Cato's quest 2."""
    state = team_position(*four(ayla={"playmat": (FOCUS,)}), first=0, turn=1, phase="quest")
    saved = api.to_json(state)

    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (A1, "choose_quest")
    assert decision.actions == [
        actions.attempt_quest(state.quests[0].card),
        actions.attempt_quest(state.quests[1].card),
    ]
    with pytest.raises(NotAllowed, match=r"quest 2 is out of seat 0's reach \(quests \[0, 1\]\)"):
        act(state, actions.attempt_quest(state.quests[2].card))
    assert api.to_json(state) == saved


def test_a_player_whose_reach_extends_may_attempt_the_quest_it_covers():
    """Bren leaves; Dax's reach extends to quest 0 ("Quests": "your reach is extended to
    cover one of his quests"), and Dax may attempt it."""
    state = team_position(*four(dax={"playmat": (FOCUS,)}), first=3, turn=1, phase="quest")
    act(state, api.leave(B1))

    quests = [action["quest"] for action in api.legal_actions(state).actions]

    assert quests == [quest.card for quest in state.quests]


# Commanders


def test_the_raider_commands_his_teammates_units_and_chooses_the_avatar_in_reach():
    """ "You become the commander of any of your teammates' units at a quest when you begin
    a raid there during your turn. If there are no opposing units at that quest, the raiding
    units you command may attack any avatar within reach of that quest. If there is more than
    one such avatar, you may choose which to attack" (MULTIPLAYER GAMES, "Attacking Raid
    Commander"). Quest 1 is in reach of both Bren and Dax."""
    state = team_position(
        *four(ayla={"playmat": (at(STRIKER, 1),)}, cato={"playmat": (at(GUARD, 1),)}),
        first=0,
        turn=1,
    )
    quest = state.quests[1].card
    raids = [action for action in api.legal_actions(state).actions if action["kind"] == "raid"]
    assert raids == [
        actions.raid(quest, state.seats[B1].avatar),
        actions.raid(quest, state.seats[B2].avatar),
    ]

    act(state, actions.raid(quest, state.seats[B2].avatar))

    attacking, defending = state.combat.sides
    assert (attacking.seat, attacking.combatants) == (
        A1,
        [the(state, A1, "Striker"), the(state, A2, "Guard")],
    )
    assert (defending.seat, defending.combatants) == (B2, [state.seats[B2].avatar])


def test_a_raid_where_only_one_opposing_avatar_is_in_reach_names_none():
    """Quest 2 is in reach of Dax only: the raid attacks his avatar, with nothing to choose;
    Cato's unit there raids under Ayla's command though Ayla has none there."""
    state = team_position(*four(cato={"playmat": (at(GUARD, 2),)}), first=0, turn=1)
    quest = state.quests[2].card

    assert actions.raid(quest) in api.legal_actions(state).actions
    act(state, actions.raid(quest))

    assert state.combat.sides[1].combatants == [state.seats[B2].avatar]
    assert state.combat.sides[0].combatants == [the(state, A2, "Guard")]


def test_the_player_with_the_most_defending_units_commands_the_defense():
    """ "The player who has the most units defending will be the commander (even if that
    player doesn't have that quest location in reach)" (MULTIPLAYER GAMES, "Defending Raid
    Commander"): Dax has two units at quest 0, out of his reach, Bren one."""
    state = team_position(
        *four(
            ayla={"playmat": (at(STRIKER, 0),)},
            bren={"playmat": (at(GUARD, 0),)},
            dax={"playmat": (at(GUARD, 0), at(SCOUT, 0))},
        ),
        first=0,
        turn=1,
    )

    act(state, actions.raid(state.quests[0].card))

    defending = state.combat.sides[1]
    assert defending.seat == B2
    assert sorted(defending.combatants) == sorted(
        [the(state, B1, "Guard"), the(state, B2, "Guard"), the(state, B2, "Scout")]
    )


def test_the_attacker_decides_who_defends_on_a_tie():
    """ "If there is a tie for which player has the most defending units there, the
    attacking player decides who defends" (MULTIPLAYER GAMES, "Defending Raid Commander")."""
    state = team_position(
        *four(
            ayla={"playmat": (at(STRIKER, 1),)},
            bren={"playmat": (at(GUARD, 1),)},
            dax={"playmat": (at(GUARD, 1),)},
        ),
        first=0,
        turn=1,
    )
    act(state, actions.raid(state.quests[1].card))

    decision = api.legal_actions(state)
    assert (decision.seat, decision.kind) == (A1, "choose_commander")
    assert decision.actions == [actions.commander(B1), actions.commander(B2)]
    events = act(state, actions.commander(B2))

    assert state.combat.sides[1].seat == B2
    assert {"type": "commander_chosen", "seat": B2, "by": A1} in events
    assert (api.legal_actions(state).seat, api.legal_actions(state).kind) == (A1, "combat_action")


def test_a_quest_attempt_meets_every_opposing_unit_under_one_commander():
    """Questing by an opposing avatar is attacking a raid location too: the avatar fights
    the units of both opponents there, commanded by the player with most of them."""
    state = team_position(
        *four(
            ayla={"playmat": (FOCUS,)},
            bren={"playmat": (at(GUARD, 1), at(SCOUT, 1))},
            dax={"playmat": (at(GUARD, 1),)},
        ),
        first=0,
        turn=1,
        phase="quest",
    )

    act(state, actions.attempt_quest(state.quests[1].card))

    attacking, defending = state.combat.sides
    assert attacking.combatants == [state.seats[A1].avatar]
    assert defending.seat == B1 and len(defending.combatants) == 3


def test_each_side_of_a_combat_has_one_player_who_makes_all_its_decisions():
    """ "Each combat, whether it involves avatars or units, is a two-sided event and one
    player makes all the decisions for one side" (MULTIPLAYER GAMES, "Commanders"): Bren
    exerts Dax's unit for defense and assigns the damage among both players' units."""
    state = team_position(
        *four(
            ayla={"playmat": (at(STRIKER, 0),)},
            bren={"playmat": (at(GUARD, 0), at(SCOUT, 0))},
            dax={"playmat": (at(GUARD, 0),)},
        ),
        first=0,
        turn=1,
    )
    act(state, actions.raid(state.quests[0].card))
    daxs_guard = the(state, B2, "Guard")
    deciders = set()

    act(state, actions.exert(the(state, A1, "Striker"), "attack"))
    decision = api.legal_actions(state)
    assert decision.seat == B1 and actions.exert(daxs_guard, "defense") in decision.actions
    act(state, actions.exert(daxs_guard, "defense"))
    while state.combat is not None:
        decision = api.legal_actions(state)
        deciders.add(decision.seat)
        act(state, decision.actions[-1])

    assert deciders == {A1, B1}
    assert state.cards[daxs_guard].exerted or daxs_guard in state.seats[B2].discard


def test_you_and_your_on_a_commanded_unit_mean_its_commander():
    """ "Jedi Padawan says, 'This unit gets +1 attack for each of your abilities.' Your
    teammate, the owner of this card, has two abilities. You have three. When you become the
    commander of this unit, it gets +3 attack" (MULTIPLAYER GAMES, "Commanders")."""
    padawan = unit(
        "Jedi Padawan",
        attack=0,
        rules={
            "statics": [
                {
                    "effect": {
                        "primitive": "for_each",
                        "counted": {"side": "yours", "types": ["ability"]},
                        "effect": [{"primitive": "modify", "stat": "attack", "amount": 1}],
                    },
                    "applies_to": {"self": True},
                    "condition": None,
                }
            ]
        },
    )
    state = team_position(
        *four(
            ayla={"playmat": (ability("Calm"), ability("Insight"), ability("Patience"))},
            cato={"playmat": (Placed(padawan, quest=1), ability("Resolve"), ability("Will"))},
        ),
        first=0,
        turn=1,
    )
    card = the(state, A2, "Jedi Padawan")
    assert api.view(state, A1)["quests"][1]["units"][A2][0]["attack"] == 2

    act(state, actions.raid(state.quests[1].card, state.seats[B1].avatar))

    assert api.view(state, A1)["quests"][1]["units"][A2][0]["attack"] == 3
    assert actions.exert(card, "attack") in api.legal_actions(state).actions
    events = act(state, actions.exert(card, "attack"))
    assert events[0]["amount"] == 3 and state.combat.sides[0].total == 3


def when_this_unit(event: str, effect: dict, **printed) -> dict:
    """A unit whose text says "When this unit <event>, you <effect>"."""
    trigger = {
        "event": event,
        "subject": {"self": True},
        "condition": None,
        "optional": False,
        "effect": [effect],
    }
    return unit(f"Unit that {event}", rules={"triggers": [trigger]}, **{"health": 3, **printed})


YOU_DRAW = {"primitive": "draw", "player": "you", "amount": 1}
YOU_GAIN_POWER = {"primitive": "gain_power", "amount": 1}


def drawn(events: list[dict], who: int) -> int:
    return sum(event["type"] == "draw" and event["seat"] == who for event in events)


def raid_with_catos_unit(card: dict, *, exert: bool) -> tuple[api.State, list[dict]]:
    """Ayla raids Bren at quest 1, which every seat has in reach, with Cato's unit there
    alone, exerting it for attack (or not); the combat is passed to its end. Returns the
    state and the raid's events."""
    state = team_position(*four(cato={"playmat": (at(card, 1),)}), first=0, turn=1)
    events = act(state, actions.raid(state.quests[1].card, state.seats[B1].avatar))
    exerted = [the(state, A2, card["title"])] if exert else []
    events += finish_combat(state, {A1: exerted, B1: [state.seats[B1].avatar]})
    return state, events


def test_a_commanded_unit_that_wins_a_combat_speaks_to_its_commander():
    """ "While you are the commander of a teammate's unit, 'you' and 'your' in that card's
    game text refers to you, rather than that card's owner" (MULTIPLAYER GAMES,
    "Commanders"): the combat is won as it ends, and "When this unit wins a combat, you draw
    a card" draws for Ayla, who commanded Cato's unit there; Cato draws nothing."""
    winner = when_this_unit("wins_combat", YOU_DRAW, attack=3)

    state, events = raid_with_catos_unit(winner, exert=True)

    assert any(event["type"] == "combat_ended" and event["winner"] == A1 for event in events)
    assert (drawn(events, A1), drawn(events, A2)) == (1, 0)


def test_a_commanded_unit_that_loses_a_combat_speaks_to_its_commander():
    """The same for "When this unit loses a combat, you draw a card": Bren's avatar defends
    with 1 against nothing, and Ayla, the commander, draws."""
    loser = when_this_unit("loses_combat", YOU_DRAW, attack=1)

    state, events = raid_with_catos_unit(loser, exert=False)

    assert any(event["type"] == "combat_ended" and event["winner"] == B1 for event in events)
    assert the(state, A2, loser["title"]) in state.quests[1].units[A2]
    assert (drawn(events, A1), drawn(events, A2)) == (1, 0)


def test_a_commanded_unit_that_begins_attacking_speaks_to_its_commander():
    """ "When this unit begins attacking, you gain 1 power" gives Ayla the power, as the
    combat begins."""
    attacker = when_this_unit("begins_attacking", YOU_GAIN_POWER, attack=3)

    state, events = raid_with_catos_unit(attacker, exert=True)

    gained = [event for event in events if event["type"] == "power_gained"]
    assert gained == [{"type": "power_gained", "seat": A1, "amount": 1}]


def test_a_commanded_unit_destroyed_in_its_combat_speaks_to_its_commander():
    """ "When this unit is destroyed, you draw a card" on Cato's unit, destroyed by the
    combat's damage under Ayla's command: the damage and the destruction happened in that
    combat, so Ayla draws, though the unit has left the combat when the text is read."""
    doomed = when_this_unit("destroyed", YOU_DRAW, attack=0, health=1)

    state, events = raid_with_catos_unit(doomed, exert=False)

    assert the(state, A2, doomed["title"]) in state.seats[A2].discard
    assert (drawn(events, A1), drawn(events, A2)) == (1, 0)


def test_a_defending_commanders_units_win_and_lose_for_him():
    """The defending commander (the player with the most units defending, MULTIPLAYER GAMES,
    "Defending Raid Commander") is "you" for his teammate's unit too: Bren commands his two
    units and Dax's at quest 1; each side's unit wins or loses, and only the commanders draw."""
    defender = when_this_unit("wins_combat", YOU_DRAW, defense=3)
    attacker = when_this_unit("loses_combat", YOU_DRAW, attack=1)
    state = team_position(
        *four(
            bren={"playmat": (at(GUARD, 1), at(SCOUT, 1))},
            cato={"playmat": (at(attacker, 1),)},
            dax={"playmat": (at(defender, 1),)},
        ),
        first=0,
        turn=1,
    )
    events = act(state, actions.raid(state.quests[1].card))
    assert [side.seat for side in state.combat.sides] == [A1, B1]

    events += finish_combat(
        state, {A1: [the(state, A2, attacker["title"])], B1: [the(state, B2, defender["title"])]}
    )

    assert any(event["type"] == "combat_ended" and event["winner"] == B1 for event in events)
    assert [drawn(events, each) for each in (A1, B1, A2, B2)] == [1, 1, 0, 0]


def test_a_commanded_units_text_speaks_to_its_commander_when_the_attacker_loses_in_combat():
    """Ayla, with 1 health left, attempts quest 1 against Bren's two units and Dax's, all
    under Bren's command; their damage destroys her avatar, her turn ends there and the
    combat with it. "When this unit deals damage to an avatar, you draw a card" on Dax's
    unit still draws for Bren, who commanded it (MULTIPLAYER GAMES, "Commanders")."""
    dealer = unit(
        "Avatar Hunter",
        rules={
            "triggers": [
                {
                    "event": "deals_damage",
                    "subject": {"self": True},
                    "recipient": {"side": "any", "types": ["avatar"]},
                    "condition": None,
                    "optional": False,
                    "effect": [YOU_DRAW],
                }
            ]
        },
    )
    state = team_position(
        *four(
            ayla={"avatar_damage": 19, "playmat": (FOCUS,)},
            bren={"playmat": (at(GUARD, 1), at(SCOUT, 1))},
            dax={"playmat": (at(dealer, 1),)},
        ),
        first=0,
        turn=1,
        phase="quest",
    )
    events = act(state, actions.attempt_quest(state.quests[1].card))
    assert state.combat.sides[1].seat == B1

    events += finish_combat(state, {B1: [the(state, B1, "Guard")]})

    assert {"type": "player_lost", "seat": A1, "reason": "avatar_destroyed"} in events
    assert state.active == B1
    assert (drawn(events, B1), drawn(events, B2)) == (2 + 1, 0)


# Winning and losing


def test_a_quest_completed_with_an_empty_quest_pile_wins_for_the_team():
    """ "Only one player on a team needs to complete a quest with his quest pile empty for
    that team to win" (MULTIPLAYER GAMES, "Winning the Game")."""
    state = team_position(
        *four(cato={"completed": 3, "tokens": (0, 0, 5), "playmat": (FOCUS,)}),
        first=0,
        turn=3,
        phase="quest",
    )
    act(state, actions.attempt_quest(state.quests[2].card))

    events = act(state, actions.apply_ability(the(state, A2, "Focus")))

    assert (state.winner, state.win_reason) == (A2, "quests_completed")
    assert events[-1] == {
        "type": "game_won",
        "seat": A2,
        "reason": "quests_completed",
        "seats": [A1, A2],
    }


def test_teammates_completions_are_counted_separately():
    """ "If two teammates have each completed two quests, they don't win the game yet"
    (MULTIPLAYER GAMES, "Winning the Game"): Ayla's third completed quest doesn't win."""
    state = team_position(
        *four(
            ayla={"completed": 2, "tokens": (4, 0, 0), "playmat": (FOCUS,)},
            cato={"completed": 2},
        ),
        first=0,
        turn=1,
        phase="quest",
    )
    act(state, actions.attempt_quest(state.quests[0].card))

    act(state, actions.apply_ability(the(state, A1, "Focus")))

    assert state.winner is None
    assert len(state.seats[A1].completed) == 3 and state.teams.completions == [3, 0, 2]


def raid_to_destroy_bren() -> api.State:
    """Ayla's Striker raids Bren, who has 1 health left, an item, a unit and level tokens."""
    state = team_position(
        *four(
            ayla={"playmat": (at(STRIKER, 0),)},
            bren={
                "avatar_damage": 19,
                "playmat": (item("Visor"), at(GUARD, 1)),
                "tokens": (0, 1, 0),
            },
            cato={"playmat": (at(STRIKER, 2),)},
            dax={"avatar_damage": 19},
        ),
        first=0,
        turn=1,
    )
    act(state, actions.raid(state.quests[0].card))
    finish_combat(state, {A1: [the(state, A1, "Striker")]})
    return state


def test_a_destroyed_player_loses_and_leaves_while_his_teammates_play_on():
    """ "If your avatar is destroyed, your teammates continue playing"; "all of that player's
    cards and tokens are destroyed except that any quests that player has in play remain in
    play" (MULTIPLAYER GAMES, "Winning the Game", "Leaving the Game"); Dax's reach extends
    to Bren's quest 0 ("Quests")."""
    state = raid_to_destroy_bren()

    assert state.winner is None and state.teams.left == [B1]
    assert sorted(titled(state, card) for card in state.seats[B1].discard) == ["Guard", "Visor"]
    assert state.quests[1].tokens[B1] == 0
    assert titled(state, state.quests[1].card) == "Bren's Quest 2"
    assert state.teams.reach[B2] == [0, 1, 2]
    assert (api.legal_actions(state).seat, api.legal_actions(state).kind) == (A1, "main")
    assert opponents(state, A1) == [B2]

    end_turn(state)

    assert state.active == A2


def test_the_team_wins_when_the_last_opposing_avatar_is_destroyed():
    """ "Your team wins the game when the last opposing avatar is destroyed" (MULTIPLAYER
    GAMES, "Winning the Game"): Ayla raids with Cato's Striker at quest 2 against Dax."""
    state = raid_to_destroy_bren()

    act(state, actions.raid(state.quests[2].card))
    events = finish_combat(state, {A1: [the(state, A2, "Striker")]})

    assert (state.winner, state.win_reason) == (A1, "avatar_destroyed")
    assert events[-1]["seats"] == [A1, A2]


def test_a_player_who_must_draw_from_an_empty_deck_loses_and_the_next_player_takes_his_turn():
    """ "If at any time you need to draw a card and have none remaining, you lose the game.
    Your teammates continue playing" (MULTIPLAYER GAMES, "Winning the Game")."""
    state = team_position(*four(bren={"bystanders": 0}), first=0, turn=1)

    events = end_turn(state)

    assert {"type": "player_lost", "seat": B1, "reason": "deck_empty"} in events
    assert state.winner is None and state.active == A2
    assert (api.legal_actions(state).seat, api.legal_actions(state).kind) == (A2, "main")


def test_leaving_the_game_destroys_the_players_cards_and_tokens_but_not_his_quests():
    """ "When a player leaves a game (for example, when ... he can't reconnect), all of that
    player's cards and tokens are destroyed except that any quests that player has in play
    remain in play" (MULTIPLAYER GAMES, "Leaving the Game"): Bren concedes in Ayla's turn."""
    state = team_position(
        *four(bren={"playmat": (item("Visor"), at(GUARD, 0)), "tokens": (2, 0, 0)}),
        first=0,
        turn=1,
    )
    quests = [quest.card for quest in state.quests]

    events = act(state, api.leave(B1))

    assert {"type": "left_game", "seat": B1} in events
    assert [quest.card for quest in state.quests] == quests
    assert state.quests[0].tokens[B1] == 0 and not state.quests[0].units[B1]
    assert len(state.seats[B1].discard) == 2
    assert api.legal_actions(state).seat == A1
    with pytest.raises(NotAllowed, match="already left"):
        act(state, api.leave(B1))


def test_the_player_taking_his_turn_leaves_and_the_next_turn_begins():
    state = team_position(*four(), first=0, turn=1)

    act(state, api.leave(A1))

    assert state.active == B1 and api.legal_actions(state).seat == B1


def test_the_last_player_of_a_side_leaving_gives_the_other_side_the_game():
    state = team_position(*four(), first=0, turn=1)
    act(state, api.leave(B1))

    events = act(state, api.leave(B2))

    assert (state.winner, state.win_reason) == (A1, "left")
    assert events[-1]["seats"] == [A1, A2]


def test_a_game_with_a_player_who_left_replays_from_its_seed_and_actions():
    state = api.new_game(SIDES, seed=8)
    played = [actions.keep()] * 4 + [api.leave((state.first + 1) % 4), actions.done()]
    for action in played:
        act(state, action)

    assert api.to_json(api.replay(SIDES, 8, played)) == api.to_json(state)


# What each seat sees


def test_a_seat_sees_its_own_hand_but_not_its_teammates():
    """ "You can't view the cards held in the hands of your opponents" (THE GAME SCREEN,
    "Player Info Panel"); a teammate's hand is hidden too: only its seat's own view shows it."""
    state = api.new_game(SIDES, seed=6)

    for viewer in range(4):
        seen = api.view(state, viewer)
        assert [player["hand"] is not None for player in seen["players"]] == [
            each == viewer for each in range(4)
        ]
        assert seen["sides"] == [[A1, A2], [B1, B2]]
    assert all(player["hand"] is None for player in api.view(state, None)["players"])


def test_the_chat_log_tells_the_team_games_events():
    """The game messages of the chat log (THE GAME SCREEN, "Game Messages") for what only team
    games do: the removed quest, a player leaving the game."""
    opening: list[dict] = []
    state = api.new_game(SIDES, seed=6, events=opening)
    names = ["Ayla", "Bren", "Cato", "Dax"]
    fourth = (state.first + 3) % 4
    removed = next(event for event in opening if event["type"] == "quest_removed")

    assert api.render(removed, None, names, api.card_titles(state)) == (
        f"* {names[fourth]}'s Quest 2 is removed from the game: three quests are in play."
    )
    lines = [
        api.render(event, B2, names, api.card_titles(state)) for event in act(state, api.leave(B1))
    ]
    assert lines[:2] == [
        "* Bren loses the game by leaving the game.",
        "* Your reach extends to another quest.",
    ]
    assert (
        "* Bren leaves the game: Bren's cards and tokens are destroyed, "
        "Bren's quests remain in play." in lines
    )
