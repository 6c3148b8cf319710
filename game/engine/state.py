"""The state of one game: plain data that round-trips through JSON exactly.

Every physical card of the game has an id, its index in ``State.cards``. A card's printed
numbers are stored once per game in ``State.definitions`` and referenced by index, so the
state stays small. Zones hold card ids; every card is in exactly one zone: an avatar, a quest
pile, a deck, a hand, a discard pile, an item or ability area, a quest on the playmat, the
units at a quest, or the quests a player has completed.

Seats are listed in turn order. Everything per player is a list indexed by seat, so more than
two players fit the same shapes later (MULTIPLAYER GAMES).
"""

import json
from dataclasses import dataclass, field
from typing import Any

ATTACKING, DEFENDING = 0, 1


@dataclass(slots=True, eq=False)
class Card:
    """One physical card: which definition it is, who owns it, and its state on the playmat."""

    definition: int
    owner: int
    controller: int = 0  # who plays it: the owner, or an entangled ability's opponent
    exerted: bool = False
    damage: int = 0
    shield: int = 0  # shield points left (glossary, "shield")
    tokens: int = 0  # level tokens on the card itself (glossary, "versatile")
    removed: list[str] = field(default_factory=list)  # keywords it lost until it leaves play
    since: int = 0  # when it entered play, for timestamp order (glossary, "timestamp")
    played_turn: int = 0  # the turn it was played in

    def __eq__(self, other: object) -> bool:
        # Written out rather than made by @dataclass, which would make it Python code even
        # compiled: a replay is checked by comparing every card of its game.
        if not isinstance(other, Card):
            return NotImplemented
        return (
            self.definition == other.definition
            and self.owner == other.owner
            and self.controller == other.controller
            and self.exerted == other.exerted
            and self.damage == other.damage
            and self.shield == other.shield
            and self.tokens == other.tokens
            and self.removed == other.removed
            and self.since == other.since
            and self.played_turn == other.played_turn
        )


@dataclass(slots=True)
class Seat:
    """One player's cards and power."""

    avatar: int
    quest_pile: list[int]
    deck: list[int]  # deck[0] is the top card
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    items: list[int] = field(default_factory=list)
    abilities: list[int] = field(default_factory=list)
    # The quests this player completed, his own or an opponent's (QUEST PHASE).
    completed: list[int] = field(default_factory=list)
    # Cards removed from the game (glossary, "secondary").
    removed: list[int] = field(default_factory=list)
    power: int = 0


@dataclass(slots=True)
class Quest:
    """A quest on the playmat, with the units and level tokens each seat has there."""

    card: int
    units: list[list[int]]
    tokens: list[int]
    raids: int = 0  # raids begun from this quest in the current turn
    raids_allowed: int = 1  # two after a "second time" effect (glossary, "raid")


@dataclass(slots=True)
class CombatSide:
    """The attackers or the defenders of a combat.

    ``total`` is the total attack of the attacking side or the total defense of the defending
    side; it starts at 0 and keeps what was added even if the card that added it is destroyed
    (COMBAT; glossary, "total attack").
    """

    seat: int
    combatants: list[int]
    total: int = 0
    damage: int = 0  # what this side deals once it wins or ties, before the other side takes it
    bonus_exerted: bool = False  # exactly one card may be exerted for damage bonus
    extra_damage: int = 0  # added by effects to the damage this side deals if it deals any
    assigned: list[int] = field(default_factory=list)  # one card id per point this side takes


@dataclass(slots=True)
class Combat:
    """A combat in progress; ``sides`` holds the attacking side, then the defending side."""

    kind: str  # "quest" (an avatar attempting a quest), "raid", or "effect" (a card effect)
    quest: int  # index of the quest the combat takes place at
    sides: list[CombatSide]
    resume: str  # the step the turn goes on with once the combat is over
    to_act: int = ATTACKING  # the side that acts next
    passes: int = 0  # consecutive passes; two end the combat actions
    dealing: list[int] = field(default_factory=list)  # sides dealing damage, once decided
    winner: int | None = None  # the winning side's index, once decided (None on a tie)
    # When a card effect began the combat while card text was resolving: what was left to
    # resolve, ``{"pending": [...], "resume": [step, seat]}``, which goes on once it is over.
    suspended: dict | None = None


class Caches:
    """What the engine worked out from one game's state and keeps while it holds (``State.
    caches``): never saved, compared or shown, since the rest of the state implies it.

    It belongs to its game alone, so games played at the same time on many threads never see
    each other's. Each module keeps its own entry and types it where it reads it:

    - ``index``: what is printed on the game's cards (``printed.index``);
    - ``board``: what the statics, lasting effects and marks imply (``continuous``);
    - ``listening``: the listeners by trigger events, for one list of listeners (``triggers``);
    - ``decision``: the decision last listed, with the actions applied when it was (``api``);
    - ``memo``: lookups remembered while the state is only read (``continuous.unchanging``).

    A plain class, not a dataclass: compiled (``make engine``), a dataclass would still be
    built by the Python code its decorator generates, and every state builds one.
    """

    def __init__(self) -> None:
        self.index: Any = None
        self.board: Any = None
        self.listening: tuple[list[int], dict[tuple[str, ...], list[int]]] | None = None
        self.decision: Any = None
        self.memo: dict | None = None


@dataclass(slots=True)
class State:
    """A whole game.

    ``step`` is what happens next: either an automatic step the engine runs on its own, or a
    decision that ``deciding`` (a seat) must make through one of the legal actions.
    """

    definitions: list[dict]
    cards: list[Card]
    seats: list[Seat]
    quests: list[Quest]
    rng: int
    first: int  # the seat that took the first turn
    active: int  # the seat taking the current turn
    turn: int = 0  # turns begun so far, counting every player's
    phase: str = "setup"  # setup, draw, quest, ready, main (the phase meter)
    step: str = "redraw"
    deciding: int | None = None
    attempting: int | None = None  # index of the quest attempted in this Quest Phase
    combat: Combat | None = None
    winner: int | None = None
    win_reason: str | None = None
    clock: int = 0  # counts cards entering play, for timestamps
    applied: int = 0  # actions applied so far
    # Effects with a duration: {"card", "source", "duration", "modifier"} (docs/card-rules.md).
    lasting: list[dict] = field(default_factory=list)
    # Links and targets: {"kind", "source", "card", "controller", "modifiers", "when_destroyed"}.
    marks: list[dict] = field(default_factory=list)
    # The cards on the playmat that have statics, so modifiers are found without a search.
    statics: list[int] = field(default_factory=list)
    # The cards on the playmat that have triggers, for the same reason.
    listeners: list[int] = field(default_factory=list)
    # Effects waiting to resolve, oldest first (see game.engine.effects).
    pending: list[dict] = field(default_factory=list)
    # The step and deciding seat the game returns to once the pending effects are resolved.
    resume: list | None = None
    caches: Caches = field(default_factory=Caches, compare=False, repr=False)


# Reading the state


def definition(state: State, card: int) -> dict:
    return state.definitions[state.cards[card].definition]


def card_type(state: State, card: int) -> str:
    return state.definitions[state.cards[card].definition]["type"]


def opponent(state: State, seat: int) -> int:
    """The other player of a two-player game (teams come with MULTIPLAYER GAMES)."""
    return (seat + 1) % len(state.seats)


# JSON

# Every field of a state but its caches, which the other fields imply.
_SAVED_FIELDS = tuple(name for name in State.__dataclass_fields__ if name != "caches")


def to_dict(state: State) -> dict:
    """The state as JSON-ready dicts and lists (sharing the card definitions, not copies)."""
    return {name: _plain(getattr(state, name)) for name in _SAVED_FIELDS}


def _plain(value):
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def from_dict(data: dict) -> State:
    combat = data["combat"]
    if combat is not None:
        combat = Combat(**{**combat, "sides": [CombatSide(**side) for side in combat["sides"]]})
    return State(
        **{
            **data,
            "cards": [Card(**card) for card in data["cards"]],
            "seats": [Seat(**seat) for seat in data["seats"]],
            "quests": [Quest(**quest) for quest in data["quests"]],
            "combat": combat,
        }
    )


def to_json(state: State) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_json(text: str) -> State:
    return from_dict(json.loads(text))
