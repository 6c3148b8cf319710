"""TURN SEQUENCE: the Draw, Quest, Ready and Main Phases, and the hand limit at the end.

Automatic steps (``STEPS``) run on their own; decisions (``DECISIONS``) wait for the player
taking the turn. Combats begun here (a quest attempt, a raid) resume at the step they name.
"""

from game.engine import actions, combat, rules
from game.engine.rules import DecisionRules, Events
from game.engine.state import State

BASE_POWER = 3
CARDS_DRAWN = 2
COMPLETION_POWER = 1
ABILITY_LIMIT = 3
HAND_LIMIT = 7
RAIDS_PER_QUEST = 1


def _start_turn(state: State, events: Events) -> None:
    state.turn += 1
    for quest in state.quests:
        quest.raids = 0
    events.append({"type": "turn_started", "seat": state.active, "turn": state.turn})
    _draw_phase(state, events)


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
    player.power = BASE_POWER + sum(len(seat.completed) for seat in state.seats)
    events.append({"type": "power_gained", "seat": state.active, "amount": player.power})
    if state.turn > 1:
        rules.draw(state, state.active, events, CARDS_DRAWN)
    state.step = "quest_phase"


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
    return [actions.attempt_quest(quest.card) for quest in state.quests]


def _attempt_quest(state: State, action: actions.Action, events: Events) -> None:
    """The avatar alone fights every opposing unit at the quest (ready or exerted); the
    player's own units there don't fight alongside it."""
    seat = state.active
    at = rules.quest_index(state, action["quest"])
    state.attempting = at
    events.append({"type": "quest_attempted", "seat": seat, "quest": action["quest"]})
    defending_seat = rules.opponent(state, seat)
    defenders = list(state.quests[at].units[defending_seat])
    if defenders:
        combat.begin_combat(
            state,
            events,
            kind="quest",
            at=at,
            attackers=(seat, [state.seats[seat].avatar]),
            defenders=(defending_seat, defenders),
            resume="quest_apply",
        )
    else:
        state.step = "quest_apply"


def _quest_apply(state: State, events: Events) -> None:
    """Win or lose, a ready ability with a level is applied; if the combat exerted them all,
    the Quest Phase ends (QUEST PHASE, "More on the Quest Phase")."""
    if rules.abilities_to_apply(state, state.active):
        rules.ask(state, "apply_ability", state.active)
    else:
        state.attempting = None
        state.step = "ready_phase"


def _legal_abilities(state: State) -> list[actions.Action]:
    return [actions.apply_ability(card) for card in rules.abilities_to_apply(state, state.active)]


def _apply_ability(state: State, action: actions.Action, events: Events) -> None:
    """Level tokens equal to the ability's level are created at the quest, the ability is
    destroyed, and enough tokens complete the quest (glossary, "apply")."""
    seat, card = state.active, action["card"]
    quest = state.quests[state.attempting]
    level = rules.attribute(state, card, "level")
    quest.tokens[seat] += level
    events.append(
        {
            "type": "ability_applied",
            "seat": seat,
            "card": card,
            "quest": quest.card,
            "tokens": level,
        }
    )
    rules.destroy(state, card, events)
    if quest.tokens[seat] >= rules.attribute(state, quest.card, "level"):
        _complete_quest(state, seat, state.attempting, events)
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
        {"type": "quest_completed", "seat": seat, "quest": completed, "power": COMPLETION_POWER}
    )
    if not player.quest_pile:
        rules.win(state, seat, "quests_completed", events)
    player.completed.append(completed)
    rules.play_next_quest(state, seat, events, replacing=at)


# READY PHASE


def _ready_phase(state: State, events: Events) -> None:
    _begin_phase(state, "ready", events)
    seat = state.active
    player = state.seats[seat]
    own_cards = [player.avatar, *player.items, *player.abilities]
    own_cards += [card for quest in state.quests for card in quest.units[seat]]
    exerted = [card for card in own_cards if state.cards[card].exerted]
    for card in exerted:
        state.cards[card].exerted = False
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
    for card in player.hand:
        if rules.attribute(state, card, "cost") > player.power:
            continue
        kind = rules.card_type(state, card)
        if kind == "unit":
            legal += [actions.play(card, quest.card) for quest in state.quests]
        elif kind == "item" or (kind == "ability" and len(player.abilities) < ABILITY_LIMIT):
            legal.append(actions.play(card))
    for quest in state.quests:
        if quest.raids < RAIDS_PER_QUEST and _raiders(state, seat, quest.units[seat]):
            legal.append(actions.raid(quest.card))
    legal.append(actions.done())
    return legal


def _raiders(state: State, seat: int, units: list[int]) -> list[int]:
    return [card for card in units if not state.cards[card].exerted]


def _play(state: State, action: actions.Action, events: Events) -> None:
    """Pay the cost and put the card on the playmat: a unit at the quest of the player's
    choice, an item or an ability beside the avatar (MAIN PHASE, "Playing Cards")."""
    seat, card = state.active, action["card"]
    player = state.seats[seat]
    cost = rules.attribute(state, card, "cost")
    player.power -= cost
    player.hand.remove(card)
    kind = rules.card_type(state, card)
    played = {"type": "card_played", "seat": seat, "card": card, "cost": cost}
    if kind == "unit":
        state.quests[rules.quest_index(state, action["quest"])].units[seat].append(card)
        events.append({**played, "quest": action["quest"]})
    else:
        (player.items if kind == "item" else player.abilities).append(card)
        events.append(played)
    if kind == "item":
        _enforce_restriction(state, seat, card, events)
    state.step = "main_phase"


def _enforce_restriction(state: State, seat: int, card: int, events: Events) -> None:
    """One card for each restriction on the playmat: the card already there is destroyed and
    the player draws a card (TYPES OF CARDS, "Restrictions")."""
    restriction = rules.definition(state, card)["restriction"]
    if not restriction:
        return
    for other in state.seats[seat].items:
        if other != card and rules.definition(state, other)["restriction"] == restriction:
            rules.destroy(state, other, events)
            rules.draw(state, seat, events)
            return


def _raid(state: State, action: actions.Action, events: Events) -> None:
    """All ready units at one quest attack the opposing units there or, if there are none,
    the opposing avatar; once per quest each turn (MAIN PHASE, "Raiding")."""
    seat = state.active
    at = rules.quest_index(state, action["quest"])
    quest = state.quests[at]
    quest.raids += 1
    defending_seat = rules.opponent(state, seat)
    defenders = list(quest.units[defending_seat]) or [state.seats[defending_seat].avatar]
    combat.begin_combat(
        state,
        events,
        kind="raid",
        at=at,
        attackers=(seat, _raiders(state, seat, quest.units[seat])),
        defenders=(defending_seat, defenders),
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
    events.append({"type": "turn_ended", "seat": state.active, "turn": state.turn})
    state.active = rules.next_seat(state, state.active)
    state.step = "start_turn"


STEPS = {
    "start_turn": _start_turn,
    "quest_phase": _quest_phase,
    "quest_apply": _quest_apply,
    "ready_phase": _ready_phase,
    "main_phase": _main_phase,
    "hand_limit": _hand_limit,
    "end_turn": _end_turn,
}

DECISIONS = {
    "choose_quest": DecisionRules(
        prompt=lambda state: "Choose a quest to attempt.",
        legal=_legal_quests,
        handlers={"attempt_quest": _attempt_quest},
    ),
    "apply_ability": DecisionRules(
        prompt=lambda state: "Choose a ready ability with a level to apply at the quest.",
        legal=_legal_abilities,
        handlers={"apply_ability": _apply_ability},
    ),
    "main": DecisionRules(
        prompt=lambda state: "Play cards, raid, or click Done to end your Main Phase.",
        legal=_legal_main,
        handlers={"play": _play, "raid": _raid, "done": _done},
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
