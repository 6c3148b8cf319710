"""Positions: a game set up as it stands at some moment of play, for tests, tutorials and
scenarios (docs/style.md, "Positions are built, not poked").

    from game.engine.positions import Placed, Position, SeatSetup, build

    state = build(
        Position(
            seats=(
                SeatSetup(
                    avatar=jason,
                    quests=jason_quests,
                    hand=(quick_draw,),
                    playmat=(Placed(heavy_blaster), Placed(trooper, quest=0, exerted=True)),
                ),
                SeatSetup(avatar=tyler, quests=tyler_quests, playmat=(Placed(guard, quest=1),)),
            ),
            first=0,
            turn=1,
            phase="main",
        )
    )

A card is the dict of printed fields a decklist holds (``game.engine.decklists.card_definition``
for a card of a set, or a test's own card). ``build`` checks the position against the rules
(``InvalidPosition`` says what is wrong), puts every card in the zone it names, and stops at
the decision of the active player's Quest or Main Phase, so the game goes on through
``api.legal_actions`` and ``api.apply`` like any other.

Card ids follow the seats, then in each seat: the avatar, the quest pile, then the hand, the
playmat, the discard pile and the deck, each in the order given; ``card_ids`` finds them by
title.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from game.engine import continuous, effects, phases, rules, setup
from game.engine.deckrules import QUEST_LEVELS
from game.engine.errors import InvalidPosition
from game.engine.invariants import invariant_violations
from game.engine.printed import has_printed_keyword
from game.engine.state import EXERT_REASONS, Caches, State, card_type, is_boss

PHASES = ("quest", "main")
PLAYMAT_TYPES = ("unit", "item", "ability")


@dataclass(frozen=True)
class Placed:
    """A card on the playmat: a unit at the quest of index ``quest`` (0 or 1; 0, 1 or 2 in a
    team game), an item or an ability beside its avatar. ``exerted_for``: why an exerted card
    was exerted (``state.EXERT_REASONS``), if it matters. ``played_this_turn``: it entered
    play in the position's turn (for "if this unit was played this turn")."""

    card: dict
    quest: int | None = None
    exerted: bool = False
    exerted_for: str = ""
    damage: int = 0
    played_this_turn: bool = False


@dataclass(frozen=True)
class SeatSetup:
    """One player's cards, power and progress.

    ``quests`` is the whole quest pile, one quest of each level 2, 4, 5 and 6; the lowest is
    on the playmat (the seat's own quest: quest ``seat``, in a team game the seats' quests in
    seat order, the fourth player's removed from the game). ``completed`` quests are the
    lowest ones, each replaced by the next at the seat's own quest. ``tokens`` are the seat's
    level tokens at each quest (none by default). ``deck`` lists the deck from the top and is
    not shuffled. ``power`` is by default what the Draw Phase gives the active player and 0
    for the others. ``created``: the cards this seat's cards can create (smuggle).
    """

    avatar: dict
    quests: Sequence[dict]
    hand: Sequence[dict] = ()
    playmat: Sequence[Placed] = ()
    discard: Sequence[dict] = ()
    deck: Sequence[dict] = ()
    completed: int = 0
    tokens: Sequence[int] = ()
    power: int | None = None
    avatar_damage: int = 0
    avatar_exerted: bool = False
    created: Sequence[dict] = ()


@dataclass(frozen=True)
class Position:
    """The seats in turn order: two, or four of a 2-versus-2 team game (seats 0 and 2 against
    1 and 3, as ``new_game`` seats two sides), or five of a heroic encounter (heroes 0 to 3
    against the boss, seat 4, who has no quest of his own on the playmat); who took the first
    turn, the turn number (counting every player's turns from the first player's), the active
    player's phase (``quest`` or ``main``) and the seed of the game's random numbers (later
    shuffles)."""

    seats: Sequence[SeatSetup]
    first: int = 0
    turn: int = 1
    phase: str = "main"
    seed: int = 0


def build(position: Position) -> State:
    """The game in ``position``, waiting for the active player's decision.

    The cards on the playmat are as if played: each has a timestamp in the order given, its
    printed shield, and its statics and triggers in force; an entangled ability is under the
    opponent's control. Their "when played" text happened before the position and doesn't
    happen again. Raises ``InvalidPosition`` for what the rules don't allow: a card of the
    wrong type for its zone, a unit at no quest, more than three abilities, two cards of one
    restriction or unique title, damage that would have destroyed a card, more quests
    completed than leave one to play, a Quest Phase with no ability to apply, ...
    """
    _check_shape(position)
    seats = position.seats
    decklists: list = [
        {
            "avatar": seat.avatar,
            "quests": list(seat.quests),
            "deck": [
                *seat.hand,
                *(placed.card for placed in seat.playmat),
                *seat.discard,
                *seat.deck,
            ],
            "created": list(seat.created),
        }
        for seat in seats
    ]
    if len(decklists) == 4:
        decklists = [decklists[0::2], decklists[1::2]]
    elif len(decklists) == 5:
        decklists = [decklists[:4], decklists[4:]]
    try:
        state = setup.create_state(decklists, position.seed)
    except ValueError as error:
        raise InvalidPosition(str(error)) from None
    state.first = position.first
    state.turn = position.turn
    state.active = (position.first + position.turn - 1) % len(seats)
    events: list[dict] = []
    for seat, player in enumerate(state.seats):
        rules.enter_play(state, player.avatar, seat)
    fourth = setup.fourth_player(state)
    for seat in range(len(seats)):
        if seat == fourth:
            setup.remove_level_2_quest(state, seat, events)
        elif not is_boss(state, seat):
            rules.play_next_quest(state, seat, events)
    for seat, spec in enumerate(seats):
        _complete_quests(state, seat, spec.completed, events)
    for seat, spec in enumerate(seats):
        _deal_out(state, seat, spec)
    for seat, spec in enumerate(seats):
        _finish_seat(state, seat, spec)
    _check_board(state)
    _open_phase(state, position.phase)
    problems = invariant_violations(state, [])
    if problems:
        raise InvalidPosition("; ".join(problems))
    # Nothing worked out while building may outlive it; the first listing starts afresh.
    state.caches = Caches()
    return state


def card_ids(state: State, seat: int, title: str) -> list[int]:
    """The ids of the seat's cards titled ``title``, in the order the position listed them."""
    return [
        card
        for card, instance in enumerate(state.cards)
        if instance.owner == seat and state.definitions[instance.definition]["title"] == title
    ]


def _check_shape(position: Position) -> None:
    """What can be checked on the position itself, before any card is placed."""
    count = len(position.seats)
    if count not in (2, 4, 5):
        raise InvalidPosition(
            f"a position has two seats, four of a team game or five of a heroic encounter, "
            f"not {count}"
        )
    if position.first not in range(count):
        raise InvalidPosition(
            f"the first player is seat {_either(range(count))}, not {position.first!r}"
        )
    quests = 2 if count == 2 else 3
    boss = setup.HEROES if count == 5 else None
    if position.turn < 1:
        raise InvalidPosition(f"turns are counted from 1, not {position.turn!r}")
    if position.phase not in PHASES:
        raise InvalidPosition(f"the phase is one of {PHASES}, not {position.phase!r}")
    for seat, spec in enumerate(position.seats):
        where = f"seat {seat}"
        levels = sorted(quest.get("level") or 0 for quest in spec.quests)
        if levels != sorted(QUEST_LEVELS):
            raise InvalidPosition(
                f"{where}'s quest pile holds one quest of each level {QUEST_LEVELS}, not {levels}"
            )
        if not 0 <= spec.completed < len(spec.quests):
            raise InvalidPosition(
                f"{where} completed {spec.completed} quests: from 0 to {len(spec.quests) - 1}, "
                "since completing the last one wins the game"
            )
        if spec.tokens and (len(spec.tokens) != quests or min(spec.tokens) < 0):
            raise InvalidPosition(
                f"{where}'s tokens are {('two', 'three')[quests - 2]} counts, one for each quest"
            )
        if spec.completed and seat == setup.fourth_seat(count, position.first, boss):
            who = "fourth hero" if count == 5 else "fourth player"
            raise InvalidPosition(f"{where} is the {who}: he has no quest of his own")
        if spec.completed and seat == boss:
            raise InvalidPosition(f"{where} is the boss: he has no quest of his own")
        if spec.power is not None and spec.power < 0:
            raise InvalidPosition(f"{where} has {spec.power} power")
        for placed in spec.playmat:
            kind = placed.card.get("type")
            title = placed.card.get("title")
            if placed.exerted_for and (
                not placed.exerted or placed.exerted_for not in EXERT_REASONS
            ):
                raise InvalidPosition(
                    f"{where}'s {title!r} is exerted for one of {EXERT_REASONS}, and only if "
                    f"exerted, not {placed.exerted_for!r}"
                )
            if kind not in PLAYMAT_TYPES:
                raise InvalidPosition(f"{where}'s {title!r} is a {kind}, not on the playmat")
            if (kind == "unit") != (placed.quest is not None):
                raise InvalidPosition(
                    f"{where}'s {title!r}: a unit is at a quest ({_either(range(quests))}), "
                    "nothing else is"
                )
            if placed.quest is not None and placed.quest not in range(quests):
                raise InvalidPosition(
                    f"{where}'s {title!r} is at quest {placed.quest}: {_either(range(quests))}"
                )
            if placed.damage < 0:
                raise InvalidPosition(f"{where}'s {title!r} has negative damage")


def _either(values: range) -> str:
    """``0 or 1``, ``0, 1 or 2``."""
    words = [str(value) for value in values]
    return f"{', '.join(words[:-1])} or {words[-1]}"


def _complete_quests(state: State, seat: int, count: int, events: list[dict]) -> None:
    """The seat's lowest quests, completed one after the other at its own quest."""
    player = state.seats[seat]
    fourth = setup.fourth_player(state)
    own = seat if fourth is None or seat < fourth else seat - 1
    for _ in range(count):
        completed = state.quests[own].card
        player.completed.append(completed)
        if state.teams is not None:
            state.teams.completions[own] += 1
        continuous.left_play(state, completed)
        rules.play_next_quest(state, seat, events, replacing=own)


def _deal_out(state: State, seat: int, spec: SeatSetup) -> None:
    """The seat's deck cards, in the order the decklist listed them, into their zones."""
    player = state.seats[seat]
    ids = iter(player.deck)
    player.hand = [next(ids) for _ in spec.hand]
    placed_ids = [next(ids) for _ in spec.playmat]
    player.discard = [next(ids) for _ in spec.discard]
    player.deck = list(ids)
    for card, placed in zip(placed_ids, spec.playmat, strict=True):
        _place(state, seat, card, placed)


def _place(state: State, seat: int, card: int, placed: Placed) -> None:
    """Put the card on the playmat as playing it would (``effects.play_card``), without its
    cost or what playing it sets off."""
    kind = card_type(state, card)
    if kind == "unit":
        controller = seat
        state.quests[placed.quest or 0].units[seat].append(card)
    elif kind == "item":
        controller = seat
        state.seats[seat].items.append(card)
    else:
        controller = effects.ability_controller(state, seat, card)
        state.seats[controller].abilities.append(card)
    rules.enter_play(state, card, controller)
    instance = state.cards[card]
    instance.exerted = placed.exerted
    instance.exerted_for = placed.exerted_for
    instance.damage = placed.damage
    instance.played_turn = state.turn if placed.played_this_turn else 0


def _finish_seat(state: State, seat: int, spec: SeatSetup) -> None:
    player = state.seats[seat]
    avatar = state.cards[player.avatar]
    avatar.damage = spec.avatar_damage
    avatar.exerted = spec.avatar_exerted
    for index, tokens in enumerate(spec.tokens):
        state.quests[index].tokens[seat] = tokens
    if spec.power is not None:
        player.power = spec.power
    elif seat == state.active:
        player.power = phases.turn_power(state, seat)


def _check_board(state: State) -> None:
    """The limits of the playmat, read with every card's statics in force."""
    for seat, player in enumerate(state.seats):
        where = f"seat {seat}"
        if len(player.abilities) > effects.ABILITY_LIMIT:
            raise InvalidPosition(
                f"{where} has {len(player.abilities)} abilities: at most {effects.ABILITY_LIMIT}"
            )
        restrictions = [
            state.definitions[state.cards[card].definition]["restriction"] for card in player.items
        ]
        doubled = sorted({kind for kind in restrictions if kind and restrictions.count(kind) > 1})
        if doubled:
            raise InvalidPosition(f"{where} has two cards of the restriction {doubled[0]!r}")
        unique = [
            _title(state, card)
            for card in rules.controlled(state, seat)
            if has_printed_keyword(state, card, "unique")
        ]
        doubled = sorted({title for title in unique if unique.count(title) > 1})
        if doubled:
            raise InvalidPosition(f"{where} has two unique {doubled[0]!r} on the playmat")
        for card in rules.controlled(state, seat):
            health = rules.attribute(state, card, "health")
            damage = state.cards[card].damage
            if damage and health is None:
                raise InvalidPosition(f"{where}'s {_title(state, card)!r} can't take damage")
            if health is not None and damage >= health:
                raise InvalidPosition(
                    f"{where}'s {_title(state, card)!r} has {damage} damage: {health} health "
                    "would have destroyed it"
                )


def _open_phase(state: State, phase: str) -> None:
    """The active player's decision in ``phase``: the quest to attempt, or his Main Phase."""
    state.phase = phase
    if phase == "main":
        rules.ask(state, "main", state.active)
        return
    if not rules.abilities_to_apply(state, state.active):
        raise InvalidPosition(
            "without a ready ability that has a level, the Quest Phase ends at once "
            "(QUEST PHASE): set up the Main Phase instead"
        )
    rules.ask(state, "choose_quest", state.active)


def _title(state: State, card: int) -> str:
    return state.definitions[state.cards[card].definition]["title"]
