"""The state of one game: plain data that round-trips through JSON exactly.

Every physical card of the game has an id, its index in ``State.cards``. A card's printed
numbers are stored once per game in ``State.definitions`` and referenced by index, so the
state stays small. Zones hold card ids; every card is in exactly one zone: an avatar, a quest
pile, a deck, a hand, a discard pile, an item or ability area, a quest on the playmat, the
units at a quest, or the quests a player has completed.

Seats are listed in turn order. Everything per player is a list indexed by seat. The seats
are grouped in two sides ("The game is always a two-sided contest", MULTIPLAYER GAMES): a
two-player game is two sides of one seat; a team game's seats alternate sides in turn order
and keep what only team games need in ``State.teams``; a heroic encounter seats four heroes
(seats 0 to 3, left to right on the playmat) against a boss (seat 4).
"""

import json
from dataclasses import dataclass, field
from typing import Any

ATTACKING, DEFENDING = 0, 1

# Why a card was exerted (EXERT AND READY: "A symbol shows you why that card was exerted"): for
# its attack or defense in a combat's total, for its damage bonus, to pay a cost, by a card's
# effect, or played so (an entangled ability, glossary "entanglement").
EXERT_REASONS = ("attack", "defense", "damage_bonus", "cost", "effect", "entangled")


@dataclass(slots=True, eq=False)
class Card:
    """One physical card: which definition it is, who owns it, and its state on the playmat."""

    definition: int
    owner: int
    controller: int = 0  # who plays it: the owner, or an entangled ability's opponent
    exerted: bool = False
    # Why it is exerted, one of ``EXERT_REASONS`` ("" while ready, or when a position placed it
    # exerted without saying why): the playmat's exert symbol (EXERT AND READY).
    exerted_for: str = ""
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
            and self.exerted_for == other.exerted_for
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
class Teams:
    """What a game of more than two players keeps beside the two-player shapes (MULTIPLAYER
    GAMES). Quest locations are the indexes of ``State.quests``: a completed quest is replaced
    where it was, so a location stays put.

    ``sides``: the seats of each side, in turn order. ``reach``: the quest locations in reach
    of each seat ("Quests"). ``completions``: how many quests were completed at each location,
    for the power of the seats that have it in reach ("Power"). ``left``: the seats that lost
    and left the game, in order ("Leaving the Game"). ``boss``: the seat of a heroic
    encounter's single-player team ("Single-Player Team (the 'boss')"), None in a team game.
    """

    sides: list[list[int]]
    reach: list[list[int]]
    completions: list[int]
    left: list[int] = field(default_factory=list)
    boss: int | None = None


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
    # None in a two-player game: its two sides of one seat each need nothing more.
    teams: Teams | None = None
    caches: Caches = field(default_factory=Caches, compare=False, repr=False)


# Reading the state


def definition(state: State, card: int) -> dict:
    return state.definitions[state.cards[card].definition]


def card_type(state: State, card: int) -> str:
    return state.definitions[state.cards[card].definition]["type"]


# The sides of a two-player game, which keeps no ``Teams``.
TWO_SIDES = ((0,), (1,))


def sides(state: State) -> "list[list[int]] | tuple[tuple[int, ...], ...]":
    """The seats of each of the two sides."""
    teams = state.teams
    return TWO_SIDES if teams is None else teams.sides


def side_of(state: State, seat: int) -> int:
    """The index of the side ``seat`` plays on: seats alternate sides in turn order."""
    teams = state.teams
    if teams is None:
        return seat
    return 0 if seat in teams.sides[0] else 1


def in_game(state: State, seat: int) -> bool:
    """Whether ``seat`` is still playing: a team game goes on after a player lost
    (MULTIPLAYER GAMES, "Winning the Game")."""
    teams = state.teams
    return teams is None or seat not in teams.left


def teammates(state: State, seat: int) -> list[int]:
    """The other seats on ``seat``'s side that are still in the game."""
    teams = state.teams
    if teams is None:
        return []
    side = teams.sides[side_of(state, seat)]
    return [other for other in side if other != seat and other not in teams.left]


def opponents(state: State, seat: int) -> list[int]:
    """The seats of the other side still in the game, in turn order from ``seat``."""
    teams = state.teams
    if teams is None:
        return [1 - seat]
    count = len(state.seats)
    other_side = teams.sides[1 - side_of(state, seat)]
    following = [(seat + offset) % count for offset in range(1, count)]
    return [other for other in following if other in other_side and other not in teams.left]


def opponent(state: State, seat: int) -> int:
    """The opponent a card's text means by "your opponent": the other player of a
    two-player game; in a team game the commander of the other side of the combat ``seat``
    commands a side of, or else the next opponent in turn order."""
    teams = state.teams
    if teams is None:
        return 1 - seat
    combat = state.combat
    if combat is not None:
        for index, side in enumerate(combat.sides):
            if side.seat == seat:
                return combat.sides[1 - index].seat
    standing = opponents(state, seat)
    # Once the game is won, read its last position: the other side's first player.
    return standing[0] if standing else teams.sides[1 - side_of(state, seat)][0]


def is_boss(state: State, seat: int) -> bool:
    """Whether ``seat`` is the boss of a heroic encounter (MULTIPLAYER GAMES, "Single-Player
    Team (the 'boss')")."""
    teams = state.teams
    return teams is not None and teams.boss == seat


def reach(state: State, seat: int) -> "list[int] | range":
    """The quest locations ``seat`` has in reach: both quests of a two-player game."""
    teams = state.teams
    return range(len(state.quests)) if teams is None else teams.reach[seat]


# JSON

# Every field of a state but its caches, which the other fields imply, and its teams.
_SAVED_FIELDS = tuple(
    name for name in State.__dataclass_fields__ if name not in ("caches", "teams")
)


def to_dict(state: State) -> dict:
    """The state as JSON-ready dicts and lists (sharing the card definitions, not copies).

    A two-player game has no teams and saves without them: its JSON is what it was before
    team games came, so the matches stored then still replay to equal states. A team game
    without a boss saves without one, for the same reason."""
    saved = {name: _plain(getattr(state, name)) for name in _SAVED_FIELDS}
    if state.teams is not None:
        saved["teams"] = teams = _plain(state.teams)
        if teams["boss"] is None:
            # A 2-versus-2 game saves as it did before heroic encounters came.
            del teams["boss"]
    return saved


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
    teams = data.get("teams")
    return State(
        **{
            **data,
            "teams": None if teams is None else Teams(**teams),
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
