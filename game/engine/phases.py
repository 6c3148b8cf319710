"""TURN SEQUENCE: the Draw, Quest, Ready and Main Phases, and the hand limit at the end.

Automatic steps (``STEPS``) run on their own; decisions (``DECISIONS``) wait for the player
taking the turn. Combats begun here (a quest attempt, a raid) resume at the step they name.
"""

from collections.abc import Mapping
from types import MappingProxyType

from game.engine import actions, continuous, effects, rules
from game.engine.rules import DecisionRules, Events, Step
from game.engine.state import (
    DEFENDING,
    State,
    card_type,
    is_boss,
    opponent,
    opponents,
    reach,
    teammates,
)

BASE_POWER = 3
CARDS_DRAWN = 2
# The boss of a heroic encounter: "two power plus one per opponent rather than the standard 3
# power", and "one plus one additional for each opponent" cards drawn (MULTIPLAYER GAMES,
# "Single-Player Team (the 'boss')").
BOSS_BASE_POWER = 2
BOSS_CARDS_DRAWN = 1
COMPLETION_POWER = 1
HAND_LIMIT = 7
RAIDS_PER_QUEST = 1


def _start_turn(state: State, events: Events) -> None:
    """The turn begins ("at the start of your turn" text happens before the Draw Phase)."""
    state.turn += 1
    for quest in state.quests:
        quest.raids = 0
        quest.raids_allowed = RAIDS_PER_QUEST
    events.append({"type": "turn_started", "seat": state.active, "turn": state.turn})
    state.step = "draw_phase"


def _begin_phase(state: State, phase: str, events: Events) -> None:
    state.phase = phase
    events.append({"type": "phase_started", "seat": state.active, "phase": phase})


# DRAW PHASE


def _draw_phase(state: State, events: Events) -> None:
    """Unspent power is lost, then the player gains 3 plus the quests completed by everyone,
    then draws two cards, except on the first turn of the game."""
    _begin_phase(state, "draw", events)
    player = state.seats[state.active]
    if player.power:
        events.append({"type": "power_lost", "seat": state.active, "amount": player.power})
    player.power = turn_power(state, state.active)
    events.append({"type": "power_gained", "seat": state.active, "amount": player.power})
    if state.turn > 1:
        rules.draw(state, state.active, events, cards_drawn(state, state.active))
    state.step = "quest_phase"


def cards_drawn(state: State, seat: int) -> int:
    """Two cards, and the boss of a heroic encounter one plus one for each opponent still in
    the game (MULTIPLAYER GAMES, "Drawing Cards")."""
    if is_boss(state, seat):
        return BOSS_CARDS_DRAWN + len(opponents(state, seat))
    return CARDS_DRAWN


def turn_power(state: State, seat: int) -> int:
    """3 plus the quests completed by every player (DRAW PHASE); in a team game, plus the
    quests completed at the locations in the seat's reach (MULTIPLAYER GAMES, "Power"). The
    boss of a heroic encounter has 2 plus 1 per opponent still in the game instead of 3, and
    every location in reach ("Single-Player Team (the 'boss')")."""
    teams = state.teams
    if teams is None:
        return BASE_POWER + sum(len(player.completed) for player in state.seats)
    base = BOSS_BASE_POWER + len(opponents(state, seat)) if teams.boss == seat else BASE_POWER
    return base + sum(teams.completions[at] for at in teams.reach[seat])


# QUEST PHASE


def _quest_phase(state: State, events: Events) -> None:
    """Attempting a quest is not optional when a ready ability with a level is on the playmat;
    without one, the Quest Phase ends."""
    _begin_phase(state, "quest", events)
    if rules.abilities_to_apply(state, state.active):
        rules.ask(state, "choose_quest", state.active)
    else:
        state.step = "ready_phase"


def _legal_quests(state: State) -> list[actions.Action]:
    """The quests in reach: both of a two-player game; in a team game the two (a heroic
    encounter's far left and right heroes one, the boss all three) where the player may play
    units and his avatar may be attacked (MULTIPLAYER GAMES, "Quests", "Attacking Raid
    Commander"; docs/rule-choices.md)."""
    quests = state.quests
    return [actions.attempt_quest(quests[at].card) for at in reach(state, state.active)]


def _quest_refusal(state: State, action: actions.Action) -> str | None:
    """Why ``action`` attempts no quest it may: one in play but out of the player's reach."""
    seat = state.active
    for at, quest in enumerate(state.quests):
        if quest.card == action.get("quest") and at not in reach(state, seat):
            return (
                f"quest {at} is out of seat {seat}'s reach (quests {list(reach(state, seat))}): "
                'a player attempts only a quest in his reach (MULTIPLAYER GAMES, "Quests")'
            )
    return None


def _attempt_quest(state: State, action: actions.Action, events: Events) -> None:
    """The avatar alone fights every opposing unit at the quest (ready or exerted); the
    player's own units there don't fight alongside it."""
    seat = state.active
    at = rules.quest_index(state, action["quest"])
    state.attempting = at
    events.append({"type": "quest_attempted", "seat": seat, "quest": action["quest"]})
    defenders = opposing_units(state, seat, at)
    if defenders:
        _begin_defended_combat(
            state, events, "quest", at, [state.seats[seat].avatar], defenders, "quest_apply"
        )
    else:
        state.step = "quest_apply"


def opposing_units(state: State, seat: int, at: int) -> list[int]:
    """The units of ``seat``'s opponents at the quest of index ``at``."""
    units = state.quests[at].units
    if state.teams is None:
        return list(units[1 - seat])
    return [unit for other in opponents(state, seat) for unit in units[other]]


def defending_commanders(state: State, seat: int, at: int) -> list[int]:
    """Who may command the units defending the quest of index ``at`` against ``seat``: the
    player who has the most of them there, even without that quest in reach, or each of
    those tied for the most (MULTIPLAYER GAMES, "Defending Raid Commander")."""
    units = state.quests[at].units
    if state.teams is None:
        return [1 - seat]
    counts = {other: len(units[other]) for other in opponents(state, seat) if units[other]}
    most = max(counts.values())
    return [other for other, count in counts.items() if count == most]


def _begin_defended_combat(
    state: State,
    events: Events,
    kind: str,
    at: int,
    attackers: list[int],
    defenders: list[int],
    resume: str,
) -> None:
    """The active player's combat against units at the quest of index ``at``: their
    defending commander is the player with the most of them there; on a tie the attacking
    player decides who defends, before the first combat action."""
    seat = state.active
    commanders = defending_commanders(state, seat, at)
    effects.begin_combat(
        state,
        events,
        kind=kind,
        at=at,
        attackers=(seat, attackers),
        defenders=(commanders[0], defenders),
        resume=resume,
    )
    if len(commanders) > 1:
        rules.ask(state, "choose_commander", seat)


def _legal_commanders(state: State) -> list[actions.Action]:
    combat = rules.current_combat(state)
    return [
        actions.commander(seat) for seat in defending_commanders(state, state.active, combat.quest)
    ]


def _choose_commander(state: State, action: actions.Action, events: Events) -> None:
    combat = rules.current_combat(state)
    combat.sides[DEFENDING].seat = action["seat"]
    events.append({"type": "commander_chosen", "seat": action["seat"], "by": state.active})
    rules.ask(state, "combat_action", combat.sides[combat.to_act].seat)


def _quest_apply(state: State, events: Events) -> None:
    """Win or lose, a ready ability with a level is applied; if the combat exerted them all,
    the Quest Phase ends (QUEST PHASE, "More on the Quest Phase"). Level tokens an effect
    put there earlier complete the quest at this attempt, even without an ability."""
    if rules.abilities_to_apply(state, state.active):
        rules.ask(state, "apply_ability", state.active)
        return
    _check_completion(state, state.active, _attempted(state), events)
    state.attempting = None
    state.step = "ready_phase"


def _attempted(state: State) -> int:
    """The index of the quest attempted in this Quest Phase."""
    if state.attempting is None:
        raise RuntimeError("no quest is being attempted")
    return state.attempting


def _check_completion(state: State, seat: int, at: int, events: Events) -> None:
    quest = state.quests[at]
    if quest.tokens[seat] >= rules.value(state, quest.card, "level"):
        _complete_quest(state, seat, at, events)


def _legal_abilities(state: State) -> list[actions.Action]:
    return [actions.apply_ability(card) for card in rules.abilities_to_apply(state, state.active)]


def _apply_ability(state: State, action: actions.Action, events: Events) -> None:
    """Level tokens equal to the ability's level are created at the quest, the ability is
    destroyed, and enough tokens complete the quest (glossary, "apply")."""
    seat, card = state.active, action["card"]
    at = _attempted(state)
    quest = state.quests[at]
    level = rules.value(state, card, "level")
    events.append(
        {
            "type": "ability_applied",
            "seat": seat,
            "card": card,
            "quest": quest.card,
            "tokens": level,
        }
    )
    effects.place_level_tokens(state, seat, at, level, events)
    smuggled = continuous.keyword_parameter(state, card, "smuggle", "card")
    if smuggled is not None and rules.has_keyword(state, card, "smuggle"):
        effects.create_card(state, seat, smuggled, events)
    rules.destroy(state, card, events)
    _check_completion(state, seat, at, events)
    state.attempting = None
    state.step = "ready_phase"


def _complete_quest(state: State, seat: int, at: int, events: Events) -> None:
    """The player gains 1 power and the quest is replaced from his own quest pile, even if it
    was the opponent's; completing a quest with an empty quest pile wins the game, and that
    last quest stays where it is."""
    player = state.seats[seat]
    completed = state.quests[at].card
    player.power += COMPLETION_POWER
    events.append(
        {
            "type": "quest_completed",
            "seat": seat,
            "quest": completed,
            "at": at,
            "power": COMPLETION_POWER,
        }
    )
    if not player.quest_pile:
        rules.win(state, seat, "quests_completed", events)
    _remove_pins(state, seat, events)
    player.completed.append(completed)
    if state.teams is not None:
        state.teams.completions[at] += 1
    continuous.left_play(state, completed)
    rules.play_next_quest(state, seat, events, replacing=at)


def _remove_pins(state: State, seat: int, events: Events) -> None:
    """Whenever a player completes a quest, he removes pin from all his cards (glossary)."""
    for card in rules.controlled(state, seat):
        if rules.has_keyword(state, card, "pin"):
            state.cards[card].removed.append("pin")
            events.append({"type": "keyword_lost", "card": card, "keyword": "pin"})


# READY PHASE


def _ready_phase(state: State, events: Events) -> None:
    _begin_phase(state, "ready", events)
    seat = state.active
    player = state.seats[seat]
    own_cards = [player.avatar, *player.items, *player.abilities]
    own_cards += [card for quest in state.quests for card in quest.units[seat]]
    exerted = [card for card in own_cards if rules.can_ready(state, card)]
    for card in exerted:
        rules.ready(state, card)
    if exerted:
        events.append({"type": "readied", "seat": seat, "cards": exerted})
    _begin_phase(state, "main", events)
    state.step = "main_phase"


# MAIN PHASE


def _main_phase(state: State, events: Events) -> None:
    rules.ask(state, "main", state.active)


def _legal_main(state: State) -> list[actions.Action]:
    seat = state.active
    player = state.seats[seat]
    legal = []
    unique = effects.unique_titles(state, seat)
    for card in player.hand:
        kind = card_type(state, card)
        if kind == "tactic" or not effects.may_play(state, seat, card, unique):
            continue
        if kind == "unit":
            legal += [actions.play(card, state.quests[at].card) for at in reach(state, seat)]
        else:
            legal.append(actions.play(card))
    legal += effects.usable_actions(state, seat, "main")
    if state.teams is None:
        for quest in state.quests:
            if quest.raids < quest.raids_allowed and raiders(state, seat, quest.units[seat]):
                legal.append(actions.raid(quest.card))
    else:
        legal += _team_raids(state, seat)
    legal.append(actions.done())
    return legal


def _team_raids(state: State, seat: int) -> list[actions.Action]:
    """The raids of a team game: the player commands his teammates' units at the quest too,
    and where no opposing unit is there, may attack any opposing avatar within reach of that
    quest, choosing which if there are several (MULTIPLAYER GAMES, "Attacking Raid
    Commander")."""
    legal = []
    for at, quest in enumerate(state.quests):
        if quest.raids >= quest.raids_allowed or not raiders(
            state, seat, raiding_units(state, seat, at)
        ):
            continue
        if opposing_units(state, seat, at):
            legal.append(actions.raid(quest.card))
            continue
        targets = avatars_in_reach(state, seat, at)
        if len(targets) == 1:
            legal.append(actions.raid(quest.card))
        else:
            legal += [actions.raid(quest.card, avatar) for avatar in targets]
    return legal


def raiding_units(state: State, seat: int, at: int) -> list[int]:
    """The seat's units at the quest of index ``at`` and, in a team game, his teammates'."""
    units = state.quests[at].units
    return [unit for each in (seat, *teammates(state, seat)) for unit in units[each]]


def avatars_in_reach(state: State, seat: int, at: int) -> list[int]:
    """The avatars of ``seat``'s opponents that have the quest of index ``at`` in reach."""
    return [
        state.seats[other].avatar for other in opponents(state, seat) if at in reach(state, other)
    ]


def raiders(state: State, seat: int, units: list[int]) -> list[int]:
    """The units that raid: the ready ones that may raid ("can't" beats "can")."""
    return [
        card
        for card in units
        if not state.cards[card].exerted and not continuous.prohibited(state, card, "raid")
    ]


def _play(state: State, action: actions.Action, events: Events) -> None:
    """Pay the cost and put the card on the playmat: a unit at the quest of the player's
    choice, an item or an ability beside the avatar (MAIN PHASE, "Playing Cards")."""
    quest = action.get("quest")
    at = None if quest is None else rules.quest_index(state, quest)
    effects.play_card(state, state.active, action["card"], at, events)
    state.step = "main_phase"


def _activate(state: State, action: actions.Action, events: Events) -> None:
    effects.activate(state, action["card"], action["action"], ("main_phase", None))


def _raid(state: State, action: actions.Action, events: Events) -> None:
    """All ready units at one quest attack the opposing units there or, if there are none,
    the opposing avatar; once per quest each turn (MAIN PHASE, "Raiding")."""
    seat = state.active
    at = rules.quest_index(state, action["quest"])
    quest = state.quests[at]
    quest.raids += 1
    if state.teams is None:
        defending_seat = opponent(state, seat)
        defenders = list(quest.units[defending_seat]) or [state.seats[defending_seat].avatar]
        effects.begin_combat(
            state,
            events,
            kind="raid",
            at=at,
            attackers=(seat, raiders(state, seat, quest.units[seat])),
            defenders=(defending_seat, defenders),
            resume="main_phase",
        )
        return
    attackers = raiders(state, seat, raiding_units(state, seat, at))
    defenders = opposing_units(state, seat, at)
    if defenders:
        _begin_defended_combat(state, events, "raid", at, attackers, defenders, "main_phase")
        return
    avatar = action.get("avatar", avatars_in_reach(state, seat, at)[0])
    effects.begin_combat(
        state,
        events,
        kind="raid",
        at=at,
        attackers=(seat, attackers),
        defenders=(state.cards[avatar].owner, [avatar]),
        resume="main_phase",
    )


def _done(state: State, action: actions.Action, events: Events) -> None:
    state.step = "hand_limit"


# The end of the turn


def _hand_limit(state: State, events: Events) -> None:
    """More than seven cards in hand: discard one at a time down to seven."""
    if len(state.seats[state.active].hand) > HAND_LIMIT:
        rules.ask(state, "discard", state.active)
    else:
        state.step = "end_turn"


def _legal_discards(state: State) -> list[actions.Action]:
    return [actions.discard(card) for card in state.seats[state.active].hand]


def _discard(state: State, action: actions.Action, events: Events) -> None:
    rules.discard(state, state.active, action["card"], events)
    state.step = "hand_limit"


def _end_turn(state: State, events: Events) -> None:
    """Expertise units grow, then "at the end of your turn" text happens."""
    seat = state.active
    for quest in state.quests:
        for unit in quest.units[seat]:
            if rules.has_keyword(state, unit, "expertise"):
                for stat in ("attack", "defense"):
                    continuous.add_lasting(
                        state,
                        unit,
                        unit,
                        "permanent",
                        {"primitive": "modify", "stat": stat, "amount": 1},
                    )
                events.append({"type": "expertise", "card": unit})
    events.append({"type": "turn_ended", "seat": seat, "turn": state.turn})
    state.step = "turn_over"


def _turn_over(state: State, events: Events) -> None:
    """Effects lasting until the end of the turn stop; the next player's turn begins."""
    continuous.end_of(state, ("turn", "combat"))
    state.active = rules.next_seat(state, state.active)
    state.step = "start_turn"


STEPS: Mapping[str, Step] = MappingProxyType(
    {
        "start_turn": _start_turn,
        "draw_phase": _draw_phase,
        "quest_phase": _quest_phase,
        "quest_apply": _quest_apply,
        "ready_phase": _ready_phase,
        "main_phase": _main_phase,
        "hand_limit": _hand_limit,
        "end_turn": _end_turn,
        "turn_over": _turn_over,
    }
)

DECISIONS: Mapping[str, DecisionRules] = MappingProxyType(
    {
        "choose_quest": DecisionRules(
            prompt=lambda state: "Choose a quest to attempt.",
            legal=_legal_quests,
            handlers={"attempt_quest": _attempt_quest},
            refusal=_quest_refusal,
        ),
        "apply_ability": DecisionRules(
            prompt=lambda state: "Choose a ready ability with a level to apply at the quest.",
            legal=_legal_abilities,
            handlers={"apply_ability": _apply_ability},
        ),
        "choose_commander": DecisionRules(
            prompt=lambda state: (
                "Players tie for the most defending units: choose who commands the defense."
            ),
            legal=_legal_commanders,
            handlers={"commander": _choose_commander},
        ),
        "main": DecisionRules(
            prompt=lambda state: "Play cards, raid, or click End Main Phase when you are done.",
            legal=_legal_main,
            handlers={"play": _play, "activate": _activate, "raid": _raid, "done": _done},
        ),
        "discard": DecisionRules(
            prompt=lambda state: (
                f"Discard down to {HAND_LIMIT} cards: "
                f"{len(state.seats[state.active].hand) - HAND_LIMIT} more."
            ),
            legal=_legal_discards,
            handlers={"discard": _discard},
        ),
    }
)
