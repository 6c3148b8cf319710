"""The one public builder of positions (docs/style.md, "Positions are built, not poked"): tests
and scenarios describe a table and get a state the engine plays on, checked as it is built.

    build(
        [
            {"hand": [card], "fleet": [{"card": terrain, "attached": [{"card": ship}]}]},
            {"fleet": [...], "hq_damage": 10},
        ],
        empires=[...], active=0, phase="play_a",
    )

A stack is ``{"card": face, "engaged": True, "damage": 0, "shield_damage": 0, "armed": 0,
"powered": 0, "parts": [face], "attached": [stack], "controller": seat}`` (all but ``card``
optional; ``controller`` for a card played against another player's card).
"""

import json

from starholds.engine import cards, rng
from starholds.engine.invariants import damage_violations, zone_violations
from starholds.engine.options import Options
from starholds.engine.state import Card, Seat, State
from starholds.engine.vocabulary import parse_empires, validate_card

_STACK_FIELDS = frozenset(
    {"card", "engaged", "damage", "shield_damage", "armed", "powered", "parts", "attached"}
    | {"controller"}
)
_SEAT_FIELDS = frozenset(
    {"empire", "hand", "deck", "discard", "reserve", "fleet", "hq_damage", "plays", "turns"}
)


class _Builder:
    def __init__(self, empires: list[dict], options: Options, seed: int) -> None:
        self.state = State(
            definitions=[],
            empires={empire["slug"]: dict(empire) for empire in empires},
            cards=[],
            seats=[],
            options=options.to_dict(),
            rng=rng.seed_state(seed),
        )
        self.index_of: dict[str, int] = {}
        self.empires = parse_empires({"empires": empires})

    def new_card(self, face: dict, owner: int, zone: str) -> int:
        key = json.dumps(face, sort_keys=True)
        if key not in self.index_of:
            problems = validate_card(face, self.empires)
            if problems:
                raise ValueError("; ".join(problems))
            self.index_of[key] = len(self.state.definitions)
            self.state.definitions.append(json.loads(key))
        self.state.cards.append(Card(self.index_of[key], owner, owner, zone=zone))
        return len(self.state.cards) - 1

    def stack(self, spec: dict, owner: int, on: int | None) -> int:
        unknown = set(spec) - _STACK_FIELDS
        if unknown:
            raise ValueError(f"unknown stack field(s) {sorted(unknown)}")
        controller = spec.get("controller", owner)
        card = self.new_card(spec["card"], controller, "play")
        entry = self.state.cards[card]
        entry.on = on
        entry.engaged = spec.get("engaged", True)
        entry.damage = spec.get("damage", 0)
        entry.shield_damage = spec.get("shield_damage", 0)
        entry.armed = spec.get("armed", 0)
        entry.powered = spec.get("powered", 0)
        for face in spec.get("parts", ()):
            part = self.new_card(face, controller, "play")
            self.state.cards[part].on = card
            self.state.cards[part].engaged = entry.engaged
            entry.parts.append(part)
        for other in spec.get("attached", ()):
            entry.attached.append(self.stack(other, controller, card))
        return card


def build(
    seats: list[dict],
    *,
    empires: list[dict],
    active: int = 0,
    phase: str = "play_a",
    options: Options | None = None,
    seed: int = 0,
) -> State:
    """A position: seats in turn order 0, 1, ...; ``active`` begun ``turns`` turns (3 unless a
    seat says) in ``phase``; every seat's command slots counted from its fleet. Raises
    ValueError when a card breaks the vocabulary or the position breaks what every state must
    hold."""
    builder = _Builder(empires, options or Options(), seed)
    state = builder.state
    for seat, spec in enumerate(seats):
        unknown = set(spec) - _SEAT_FIELDS
        if unknown:
            raise ValueError(f"seat {seat}: unknown field(s) {sorted(unknown)}")
        player = Seat(empire=spec.get("empire", empires[0]["slug"]))
        player.hq_damage = spec.get("hq_damage", 0)
        player.plays = spec.get("plays", 0)
        player.turns = spec.get("turns", 3)
        state.seats.append(player)
        for zone in ("hand", "deck", "discard", "reserve"):
            for face in spec.get(zone, ()):
                getattr(player, zone).append(builder.new_card(face, seat, zone))
    for seat, spec in enumerate(seats):
        for stack in spec.get("fleet", ()):
            card = builder.stack(stack, seat, None)
            state.seats[state.cards[card].controller].fleet.append(card)
    state.order = list(range(len(seats)))
    state.active = active
    state.phase = phase
    for seat in range(len(seats)):
        state.seats[seat].command = cards.command_points(state, seat)
    problems = zone_violations(state) + damage_violations(state)
    if problems:
        raise ValueError("the position is not one the game can reach: " + "; ".join(problems))
    return state
