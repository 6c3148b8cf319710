"""The basic operations every phase and every card effect uses: reading a card, drawing,
exerting, damaging, putting cards into play and taking them out, and ending the game.

Card attributes and keywords are read only through ``attribute`` and ``has_keyword``, where
the continuous effects apply. Every operation that changes the state appends an event to
``events``.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from game.engine import continuous, rng
from game.engine.actions import Action
from game.engine.state import (
    Combat,
    Quest,
    State,
    definition,
    in_game,
    is_boss,
    side_of,
    sides,
)

Events = list[dict]
# An automatic step of the game: it changes the state and appends what happened.
Step = Callable[[State, Events], None]


class GameEnded(Exception):  # noqa: N818 (a signal, not an error)
    """Unwinds whatever step ended the game; the engine stops there (WINNING THE GAME)."""


class TurnLost(Exception):  # noqa: N818 (a signal, not an error)
    """Unwinds whatever step the player taking the turn lost in, while his teammates play on:
    the engine goes on with the next player's turn (MULTIPLAYER GAMES, "Winning the Game")."""


@dataclass(frozen=True)
class DecisionRules:
    """How one kind of decision works: its prompt, its legal actions and, for each kind of
    action it takes, the handler that carries the action out."""

    prompt: Callable[[State], str]
    legal: Callable[[State], list[Action]]
    handlers: Mapping[str, Callable[[State, Action, Events], None]]
    # Why an action of the right kind is not one of the legal ones, when the rule that
    # forbids it is worth naming (a quest out of reach); None: the legal ones say enough.
    refusal: Callable[[State, Action], str | None] | None = None


def ask(state: State, decision: str, seat: int) -> None:
    """Stop and wait for ``seat`` to make ``decision``."""
    state.step = decision
    state.deciding = seat


# Reading cards


def attribute(state: State, card: int, name: str) -> int | None:
    """The card's current ``cost``, ``attack``, ``defense``, ``damage_bonus``, ``health`` or
    ``level``; None when the card has no such attribute."""
    return continuous.attribute(state, card, name)


def value(state: State, card: int, name: str) -> int:
    """The card's current ``name`` as a number to add or compare: 0 when it has none."""
    return continuous.attribute(state, card, name) or 0


def has_keyword(state: State, card: int, keyword: str) -> bool:
    return continuous.has_keyword(state, card, keyword)


def health_left(state: State, card: int) -> int:
    return value(state, card, "health") - state.cards[card].damage


def current_combat(state: State) -> Combat:
    """The combat in progress: what every step and decision of a combat acts on."""
    combat = state.combat
    if combat is None:
        raise RuntimeError("no combat is in progress")
    return combat


def next_seat(state: State, seat: int) -> int:
    """The seat after ``seat`` in turn order, passing over the players who left the game."""
    count = len(state.seats)
    following = (seat + 1) % count
    while not in_game(state, following):
        following = (following + 1) % count
    return following


def quest_index(state: State, quest_card: int) -> int:
    for index, quest in enumerate(state.quests):
        if quest.card == quest_card:
            return index
    raise KeyError(quest_card)


def controlled(state: State, seat: int) -> list[int]:
    """The seat's cards on the playmat: avatar, items, abilities and units."""
    player = state.seats[seat]
    cards = [player.avatar, *player.items, *player.abilities]
    for quest in state.quests:
        cards += quest.units[seat]
    return cards


def abilities_to_apply(state: State, seat: int) -> list[int]:
    """The seat's ready abilities that have a level: what a quest attempt needs."""
    return [
        card
        for card in state.seats[seat].abilities
        if not state.cards[card].exerted and attribute(state, card, "level") is not None
    ]


# Changing cards


def draw(state: State, seat: int, events: Events, count: int = 1) -> None:
    """Draw from the top of the deck; drawing from an empty deck loses the game, but the
    boss of a heroic encounter reshuffles his discard pile into a new deck instead, and
    draws no more if that is empty too (MULTIPLAYER GAMES, "Single-Player Team")."""
    player = state.seats[seat]
    for _ in range(count):
        if not player.deck:
            if not is_boss(state, seat):
                lose(state, [seat], "deck_empty", events)
                return  # a team game goes on without him
            if not player.discard:
                return
            player.deck = rng.shuffle(state, player.discard)
            player.discard = []
            events.append({"type": "deck_reshuffled", "seat": seat, "count": len(player.deck)})
        card = player.deck.pop(0)
        player.hand.append(card)
        events.append({"type": "draw", "seat": seat, "card": card})


def discard(state: State, seat: int, card: int, events: Events) -> None:
    """Put a card from the hand into the discard pile (glossary, "discard")."""
    player = state.seats[seat]
    player.hand.remove(card)
    player.discard.append(card)
    events.append({"type": "discarded", "seat": seat, "card": card})


def can_exert(state: State, card: int) -> bool:
    return not state.cards[card].exerted and not continuous.prohibited(state, card, "exert")


def exert(state: State, card: int, events: Events, reason: str) -> None:
    """Exert a ready card for ``reason`` (``state.EXERT_REASONS``); a card with pin is dealt 1
    damage and loses pin (glossary, "pin")."""
    state.cards[card].exerted = True
    state.cards[card].exerted_for = reason
    if has_keyword(state, card, "pin"):
        state.cards[card].removed.append("pin")
        events.append({"type": "keyword_lost", "card": card, "keyword": "pin"})
        deal_damage(state, card, 1, events)
        destroy_defeated(state, [card], events)


def can_ready(state: State, card: int) -> bool:
    return state.cards[card].exerted and not continuous.prohibited(state, card, "ready")


def ready(state: State, card: int) -> None:
    state.cards[card].exerted = False
    state.cards[card].exerted_for = ""


def deal_damage(
    state: State, card: int, amount: int, events: Events, by: list[int] | None = None
) -> int:
    """Deal damage to a unit, avatar or starship: each point is stopped if the card is
    invulnerable, or by a shield point, and otherwise taken (glossary, "damage": dealt and
    taken differ). ``by`` are the cards dealing it. Returns the damage taken; call
    ``destroy_defeated`` afterwards."""
    events.append({"type": "damage_dealt", "card": card, "amount": amount, "by": by or []})
    if has_keyword(state, card, "invulnerable"):
        return 0
    instance = state.cards[card]
    stopped = min(amount, continuous.shield_points(state, card))
    if stopped:
        instance.shield -= stopped
        events.append({"type": "shield_used", "card": card, "amount": stopped})
    taken = amount - stopped
    if taken:
        instance.damage += taken
        events.append({"type": "damaged", "card": card, "amount": taken})
    return taken


def heal(state: State, card: int, amount: int, events: Events) -> None:
    healed = min(amount, state.cards[card].damage)
    if healed:
        state.cards[card].damage -= healed
        events.append({"type": "healed", "card": card, "amount": healed})


def damage_room(state: State, card: int) -> int | None:
    """How much damage destroys the card, shield points included; None if nothing can."""
    if has_keyword(state, card, "invulnerable"):
        return None
    return health_left(state, card) + continuous.shield_points(state, card)


def enter_play(state: State, card: int, controller: int) -> None:
    """A card arrives on the playmat: fresh, with its printed shield, and a timestamp."""
    instance = state.cards[card]
    state.clock += 1
    instance.controller = controller
    instance.since = state.clock
    instance.played_turn = state.turn
    instance.shield = continuous.keyword_parameter(state, card, "shield", "value") or 0
    continuous.entered_play(state, card)


def destroy(state: State, card: int, events: Events) -> None:
    """Take a card from the playmat to its owner's discard pile (glossary, "destroy")."""
    leave_play(state, card, "destroyed", events)


def can_leave_play(state: State, card: int) -> bool:
    """A durable unit can't leave play unless it has 0 health (glossary, "durable")."""
    return not has_keyword(state, card, "durable") or health_left(state, card) <= 0


def leave_play(state: State, card: int, how: str, events: Events) -> None:
    """Take a card from the playmat: ``destroyed`` to its owner's discard pile, or
    ``returned`` to his hand; a secondary card is removed from the game instead.

    Its damage, exertion and everything that applied to it are gone, and it stops being a
    combatant. What it added to a combat total stays (glossary, "total attack").
    """
    secondary = has_keyword(state, card, "secondary")
    at = _quest_of(state, card)
    _playmat_zone(state, card).remove(card)
    instance = state.cards[card]
    instance.exerted = False
    instance.exerted_for = ""
    instance.damage = 0
    instance.shield = 0
    instance.tokens = 0
    instance.removed = []
    owner = state.seats[instance.owner]
    if secondary:
        owner.removed.append(card)
    elif how == "destroyed":
        owner.discard.append(card)
    else:
        owner.hand.append(card)
    if state.combat is not None:
        for side in state.combat.sides:
            if card in side.combatants:
                side.combatants.remove(card)
    marks = continuous.left_play(state, card)
    event = {"type": how, "card": card, "seat": instance.controller, "at": at}
    if how == "returned":
        # Its owner's hand is hidden: from now on only he may tell this card from another.
        event.update(seat=instance.owner, title=definition(state, card)["title"])
    if marks and how == "destroyed":
        event["marks"] = [mark["source"] for mark in marks if mark["when_destroyed"]]
        event["effects"] = [mark["when_destroyed"] for mark in marks if mark["when_destroyed"]]
    events.append(event)
    if secondary:
        events.append({"type": "removed_from_game", "card": card})


def destroy_defeated(state: State, cards: list[int], events: Events) -> None:
    """Destroy each of ``cards`` that has no health left, all at once; a player whose avatar
    has none left loses (WINNING THE GAME)."""
    avatars = {player.avatar for player in state.seats}
    for card in cards:
        if card not in avatars and health_left(state, card) <= 0:
            destroy(state, card, events)
    losers = [
        seat
        for seat, player in enumerate(state.seats)
        if health_left(state, player.avatar) <= 0 and in_game(state, seat)
    ]
    if losers:
        lose(state, losers, "avatar_destroyed", events)


def lose(state: State, losers: list[int], reason: str, events: Events) -> None:
    """``losers`` lose at once, for ``reason`` (``avatar_destroyed``, ``deck_empty`` or
    ``left``). If nobody is left, the player taking the turn wins (WINNING THE GAME). In a
    team game a side wins once every player of the other side lost; until then the losers
    leave the game and their teammates play on (MULTIPLAYER GAMES, "Winning the Game")."""
    teams = state.teams
    if teams is None:
        remaining = [seat for seat in range(len(state.seats)) if seat not in losers]
        if len(remaining) == 1:
            win(state, remaining[0], reason, events)
        win(state, state.active, "all_avatars_destroyed", events)
        return
    for seat in losers:
        teams.left.append(seat)
        events.append({"type": "player_lost", "seat": seat, "reason": reason})
    standing = [[seat for seat in side if in_game(state, seat)] for side in teams.sides]
    if not standing[0] and not standing[1]:
        win(state, state.active, "all_avatars_destroyed", events)
    for index, seats in enumerate(standing):
        if not seats:
            other = standing[1 - index]
            win(state, state.active if state.active in other else other[0], reason, events)
    for seat in losers:
        leave_game(state, seat, events)
    if state.turn == 0:
        _leave_before_the_first_turn(state, losers)
    elif state.active in losers:
        _end_lost_turn(state)


def _leave_before_the_first_turn(state: State, losers: list[int]) -> None:
    """Players left while the opening hands were being kept or redrawn: the offers to redraw
    go on in turn order without them, and if the first player left, the next one takes the
    first turn (SETTING UP A GAME)."""
    deciding = state.deciding
    if state.active in losers:
        state.first = state.active = next_seat(state, state.active)
        if deciding in losers and deciding != state.first:
            ask(state, "redraw", state.first)
            return
    if deciding is not None and deciding in losers:
        following = next_seat(state, deciding)
        if following == state.first:
            state.step = "start_turn"
            state.deciding = None
        else:
            ask(state, "redraw", following)


def leave_game(state: State, seat: int, events: Events) -> None:
    """All of the player's cards and tokens are destroyed, except that his quests remain in
    play; the teammates who can reach none of his quest locations yet have one added to
    their reach; a combat side he commanded, or a decision he was making, passes to a
    teammate; his card text waiting to resolve won't (``effects``) (MULTIPLAYER GAMES,
    "Leaving the Game", "Quests")."""
    teams = state.teams
    if teams is None:
        raise RuntimeError("only a team game goes on after a player lost")
    player = state.seats[seat]
    entangled = [
        card for other in state.seats for card in other.abilities if state.cards[card].owner == seat
    ]
    for card in dict.fromkeys([*player.items, *player.abilities, *entangled]):
        leave_play(state, card, "destroyed", events)
    for quest in state.quests:
        for card in list(quest.units[seat]):
            leave_play(state, card, "destroyed", events)
        quest.tokens[seat] = 0
    continuous.left_play(state, player.avatar)
    teammates = [other for other in teams.sides[side_of(state, seat)] if in_game(state, other)]
    _extend_reach(state, seat, teammates, events)
    combat = state.combat
    if combat is not None:
        for side in combat.sides:
            if side.seat == seat and teammates:
                side.seat = teammates[0]
            side.assigned = [card for card in side.assigned if card in side.combatants]
        if state.step == "assign_damage":
            # His combatants are gone: who assigns the damage, and among which, is worked
            # out again from those still in the combat.
            state.step = "damage_assignment_next"
            state.deciding = None
    successor = teammates[0] if teammates else None
    suspended = combat.suspended if combat is not None else None
    for resume in (state.resume, suspended and suspended["resume"]):
        # The decision the game goes back to once card text has resolved.
        if resume is not None and resume[1] == seat:
            resume[1] = successor
    if state.deciding == seat and state.turn > 0:
        if state.step in ("choose", "optional"):
            # His choice in card text: that text stops, the rest goes on resolving.
            state.pending.pop(0)
            state.step = "resolve"
            state.deciding = None
        elif teammates:
            state.deciding = teammates[0]
    events.append({"type": "left_game", "seat": seat})


def _extend_reach(state: State, seat: int, teammates: list[int], events: Events) -> None:
    """Each of the leaver's quest locations that no teammate still playing has in reach
    goes to the teammate nearest it on the playmat, the first in turn order on a tie: in a
    2-versus-2 game his one teammate, in a heroic encounter his neighbour (MULTIPLAYER
    GAMES, "Quests": "your reach is extended to cover one of his quests")."""
    teams = state.teams
    if teams is None or not teammates:
        return
    reaches = teams.reach
    for at in reaches[seat]:
        if any(at in reaches[other] for other in teammates):
            continue
        distances = [min(abs(at - within) for within in reaches[other]) for other in teammates]
        nearest = teammates[distances.index(min(distances))]
        reaches[nearest] = sorted([*reaches[nearest], at])
        events.append({"type": "reach_extended", "seat": nearest, "location": at})


def _end_lost_turn(state: State) -> None:
    """The player taking the turn lost: whatever his turn was doing stops, and the next
    player's turn begins."""
    if state.combat is not None:
        state.combat = None
        continuous.end_of(state, ("combat",))
    state.pending = []
    state.resume = None
    state.attempting = None
    state.deciding = None
    state.step = "turn_over"
    raise TurnLost


def win(state: State, seat: int, reason: str, events: Events) -> None:
    """End the game with ``seat`` the winner."""
    state.winner = seat
    state.win_reason = reason
    state.step = "game_over"
    state.deciding = None
    state.combat = None
    won = {"type": "game_won", "seat": seat, "reason": reason}
    if state.teams is not None:
        won["seats"] = list(sides(state)[side_of(state, seat)])
    events.append(won)
    raise GameEnded


def play_next_quest(state: State, seat: int, events: Events, replacing: int | None = None) -> None:
    """Play the lowest-level quest of the seat's quest pile: a new quest when the game opens,
    or in place of the quest at index ``replacing`` once that one is completed (QUEST PHASE).
    The level tokens at a replaced quest go with it."""
    player = state.seats[seat]
    quest = min(player.quest_pile, key=lambda card: value(state, card, "level"))
    player.quest_pile.remove(quest)
    enter_play(state, quest, seat)
    seats = len(state.seats)
    if replacing is None:
        state.quests.append(Quest(card=quest, units=[[] for _ in range(seats)], tokens=[0] * seats))
    else:
        state.quests[replacing].card = quest
        state.quests[replacing].tokens = [0] * seats
    events.append({"type": "quest_played", "seat": seat, "card": quest})


def _quest_of(state: State, card: int) -> int | None:
    for index, quest in enumerate(state.quests):
        for units in quest.units:
            if card in units:
                return index
    return None


def _playmat_zone(state: State, card: int) -> list[int]:
    for player in state.seats:
        for zone in (player.items, player.abilities):
            if card in zone:
                return zone
    for quest in state.quests:
        for units in quest.units:
            if card in units:
                return units
    raise ValueError(f"card {card} is not on the playmat")
