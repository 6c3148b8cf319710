"""Small card and decklist builders for the engine's tests: cards written inline, as the
rulebook's examples need them."""

import random

from starholds.engine import api
from starholds.engine.invariants import invariant_violations

EMPIRES = [
    {
        "slug": "varn",
        "name": "Varn Hegemony",
        "major": True,
        "heavy_weapon": "Shard Lance",
        "system": "armor",
        "adapts": False,
    },
    {
        "slug": "oru",
        "name": "Oru Concord",
        "major": True,
        "heavy_weapon": "Tide Cannon",
        "system": "magnifier",
        "adapts": False,
    },
    {
        "slug": "zell",
        "name": "Zell Lattice",
        "major": True,
        "heavy_weapon": "Arc Coil",
        "system": "field",
        "adapts": False,
    },
    {
        "slug": "tyr",
        "name": "Tyr Swarm",
        "major": True,
        "heavy_weapon": "Sting Lance",
        "system": "thrusters",
        "adapts": False,
    },
    {
        "slug": "keth",
        "name": "Keth Freeblades",
        "major": False,
        "heavy_weapon": "Hook Cannon",
        "system": "",
        "adapts": True,
    },
]


def card(title: str, card_type: str, strength: int, **fields) -> dict:
    face = {
        "number": fields.pop("number", 1),
        "rarity": "C",
        "title": title,
        "type": card_type,
        "reaction": False,
        "strength": strength,
        "empire": "",
        "cost": {},
        "output": {},
        "shields": 0,
        "phasers": 0,
        "heavy": 0,
        "system": None,
        "passive": None,
        "tech": "",
        "text": "",
        "lore": "",
        "artist": "Test",
        "rules": {},
    }
    face.update(fields)
    return face


def terrain(title: str = "Dustwell", strength: int = 4, **output) -> dict:
    return card(title, "terrain", strength, output=output or {"supply": 2, "energy": 2})


def ship(title: str = "Picket", strength: int = 3, **fields) -> dict:
    fields.setdefault("cost", {"supply": 1, "energy": 1})
    fields.setdefault("shields", 1)
    fields.setdefault("phasers", 2)
    return card(title, "ship", strength, **fields)


def decklist(cards: list[dict], empire: str = "varn", reserve: list[dict] | None = None) -> dict:
    return {"empire": empire, "empires": EMPIRES, "deck": cards, "reserve": reserve or []}


def simple_deck(empire: str = "varn") -> dict:
    """40 cards: terrain and ships with Phasers (and a heavy weapon on the larger ones)."""
    cards = []
    for index in range(4):
        cards += [terrain(f"World {index}", 3 + index)] * 3
        cards += [ship(f"Frigate {index}", 2 + index)] * 3
        cards += [ship(f"Gunship {index}", 3 + index, heavy=1)] * 3
    cards += [terrain("Nebula Fields", 2, economy=2)] * 3
    cards += [ship("Courier", 1, cost={"supply": 1}, phasers=1, shields=0)]
    return decklist(cards, empire)


def play_randomly(
    state: api.State, seed: int, limit: int = 20_000, check: bool = True
) -> list[dict]:
    """Random legal actions to the game's end (or ``limit``), every invariant checked after
    every action; the actions taken."""
    chooser = random.Random(seed)
    taken = []
    while state.winner is None and state.phase != "over" and len(taken) < limit:
        action = chooser.choice(api.legal_actions(state).actions)
        events = api.apply(state, action)
        taken.append(action)
        if check:
            problems = invariant_violations(state, events)
            assert problems == [], (len(taken), action, problems)
    return taken


# What an eager player prefers, best first: everything not listed comes last.
EAGER = ("engage", "arm", "power", "play", "place", "target", "take", "act", "add", "fire")


def eager_choice(state: api.State, chooser: random.Random) -> dict:
    """An eager player: engages and arms all it can, plays every card, fires at Sector HQs when
    it can (else at a random card), never scraps or discards, passes on reactions."""
    actions = api.legal_actions(state).actions
    for kind in EAGER:
        found = [action for action in actions if action["kind"] == kind]
        if found:
            return chooser.choice(found)
    volleys = [action for action in actions if action["kind"] == "volley"]
    at_hq = [action for action in volleys if "seat" in action]
    at_ships = [
        action
        for action in volleys
        if "card" in action
        and state.definitions[state.cards[action["card"]].definition]["type"] in ("ship", "dragon")
    ]
    if volleys:
        return chooser.choice(at_hq or at_ships or volleys)
    for kind in ("done", "pass", "next"):
        found = [action for action in actions if action["kind"] == kind]
        if found:
            return found[0]
    return chooser.choice(actions)


def play_eagerly(state: api.State, seed: int, limit: int = 20_000) -> list[dict]:
    chooser = random.Random(seed)
    taken = []
    while state.winner is None and state.phase != "over" and len(taken) < limit:
        action = eager_choice(state, chooser)
        events = api.apply(state, action)
        taken.append(action)
        problems = invariant_violations(state, events)
        assert problems == [], (len(taken), action, problems)
    return taken


def position(seats: list[dict], **options) -> api.State:
    from starholds.engine.positions import build

    return build(seats, empires=EMPIRES, **options)


def act(state: api.State, *actions: dict) -> list[dict]:
    """Applies actions in turn, answering every reaction window with passes in between."""
    events = []
    for action in actions:
        events += api.apply(state, action)
        events += pass_all(state)
    return events


def pass_all(state: api.State) -> list[dict]:
    events = []
    while state.window is not None and state.pending is None:
        events += api.apply(state, {"kind": "pass"})
    return events


def kinds(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]
