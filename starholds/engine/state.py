"""The state of one game: plain data that round-trips through JSON exactly.

Every physical card has an id, its index in ``State.cards``; its printed fields are stored once
per game in ``State.definitions``. Every card is in exactly one zone (``Card.zone``): a seat's
deck, hand, discard pile, reserve fleet, Sector HQ (accomplished agendas), in play, or on the
chain (played and waiting for reactions to resolve). Cards in play form stacks: a card with
``on`` None is the basis of a stack in its controller's fleet (``Seat.fleet``); the others lie
on or against the card ``on`` names, which lists them in ``attached`` (or, for a card combined
into it, in ``parts``).

Seats are indexed as the decklists were given; ``State.order`` is the turn order the ante
decided (Set-Up).
"""

import json
from dataclasses import asdict, dataclass, field
from typing import Any

ZONES = ("deck", "hand", "discard", "reserve", "hq", "play", "chain")
PHASES = ("allocation", "play_a", "fire", "play_b", "discard", "over")


@dataclass(slots=True)
class Card:
    definition: int
    owner: int
    controller: int
    zone: str = "deck"
    on: int | None = None
    attached: list[int] = field(default_factory=list)
    parts: list[int] = field(default_factory=list)
    engaged: bool = False
    damage: int = 0  # structural damage
    shield_damage: int = 0
    field_points: int = 0  # field points left (the ``field`` ship system)
    armor_used: int = 0  # how far the armor system has dropped
    powered: int = 0  # energy powered into its ship system this turn
    armed: int = 0  # heavy weapons armed with ammunition
    fired: list[str] = field(default_factory=list)  # weapon kinds fired this player turn
    research: int = 0  # research points allocated against this monster
    used: int = -1  # the controller's turn number its card action was last used in
    played: int = 0  # the controller's turn number when it was played
    control: int | None = None  # the card whose effect holds control of this one


@dataclass(slots=True)
class Seat:
    empire: str
    deck: list[int] = field(default_factory=list)  # deck[0] is the top card
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)  # the last one is on top
    reserve: list[int] = field(default_factory=list)
    hq: list[int] = field(default_factory=list)  # accomplished agendas on the Sector HQ
    fleet: list[int] = field(default_factory=list)  # the bases of the stacks it controls
    hq_damage: int = 0
    alive: bool = True
    turns: int = 0  # player turns begun
    plays: int = 0  # Card Plays used this player turn
    units_played: int = 0  # ships, bases and dragons played this player turn (Turn 2)
    spent: dict[str, int] = field(default_factory=dict)  # points spent this allocation
    drained: dict[str, int] = field(default_factory=dict)  # points lost to reactions
    command: int = 0  # command slots this complete turn
    restored: bool = False  # the once-a-game agenda restore is used
    scored: int = 0  # Sector HQ damage scored this player turn
    destroyed: int = 0  # opponent cards destroyed this player turn
    accomplished: list[str] = field(default_factory=list)  # agenda titles this complete turn
    volleyed: list[str] = field(default_factory=list)  # targets fired at this phase
    place: int = 0  # finishing place (1 the winner); 0 while playing


@dataclass(slots=True)
class State:
    definitions: list[dict]
    empires: dict[str, dict]
    cards: list[Card]
    seats: list[Seat]
    options: dict[str, int]
    rng: int
    order: list[int] = field(default_factory=list)
    active: int = 0
    round: int = 1
    phase: str = "allocation"
    pending: dict[str, Any] | None = None
    volley: dict[str, Any] | None = None
    window: dict[str, Any] | None = None
    chain: list[dict[str, Any]] = field(default_factory=list)
    winner: int | None = None
    result: str | None = None
    actions: int = 0  # actions applied so far


def to_json(state: State) -> str:
    return json.dumps(asdict(state), sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> State:
    data = json.loads(text)
    data["cards"] = [Card(**card) for card in data["cards"]]
    data["seats"] = [Seat(**seat) for seat in data["seats"]]
    return State(**data)
