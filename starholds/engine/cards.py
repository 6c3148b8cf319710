"""What a card is now: its printed fields, its keywords, and the statistics the rules compute
from its stack (combined parts, refits, modifiers, systems). Reads only; nothing here changes
the state."""

from collections.abc import Iterator

from starholds.engine.state import State
from starholds.engine.vocabulary import ECONOMY_STANDS_FOR, POINT_TYPES, UNIT_TYPES


def printed(state: State, card: int) -> dict:
    return state.definitions[state.cards[card].definition]


def kind(state: State, card: int) -> str:
    return printed(state, card)["type"]


def title(state: State, card: int) -> str:
    return printed(state, card)["title"]


def keyword(state: State, card: int, name: str) -> dict | None:
    for entry in printed(state, card)["rules"].get("keywords", ()):
        if entry["keyword"] == name:
            return entry
    return None


def entries(state: State, card: int, when: str) -> list[tuple[int, dict]]:
    """The card's effect entries of one timing, with their index."""
    return [
        (index, entry)
        for index, entry in enumerate(printed(state, card)["rules"].get("effects", ()))
        if entry["when"] == when
    ]


def is_part(state: State, card: int) -> bool:
    """A card combined into another: it counts only through its host."""
    host = state.cards[card].on
    return host is not None and card in state.cards[host].parts


def whole(state: State, card: int) -> list[int]:
    """The card and the cards combined into it."""
    return [card, *state.cards[card].parts]


def stack(state: State, card: int) -> Iterator[int]:
    """The card and everything on or against it, at any depth."""
    yield card
    entry = state.cards[card]
    for other in (*entry.parts, *entry.attached):
        yield from stack(state, other)


def unit_of(state: State, card: int) -> int | None:
    """The unit (ship, dragon, base) a crew, ability or equipment card is in play on."""
    location = state.cards[card].on
    while location is not None:
        if kind(state, location) in UNIT_TYPES:
            return location
        location = state.cards[location].on
    return None


def basis(state: State, card: int) -> int:
    """The basis of the card's stack (rulebook, "Card Play Terms")."""
    while (location := state.cards[card].on) is not None:
        card = location
    return card


def disabled(state: State, card: int) -> bool:
    """A card a ``disables`` card lies against cannot engage."""
    return any(
        keyword(state, other, "disables") is not None for other in state.cards[card].attached
    )


def suspended(state: State, monster: int) -> bool:
    """A monster whose location's stack holds an engaged card that suspends monsters, or that
    lies against a card immune to monsters, has no effect."""
    location = state.cards[monster].on
    if location is None:
        return False
    immunity = keyword(state, location, "immune")
    if immunity is not None and immunity["to"] == "monsters":
        return True
    return any(
        keyword(state, other, "suspends_monsters") is not None and state.cards[other].engaged
        for other in stack(state, basis(state, location))
        if kind(state, other) != "monster"
    )


def tech_usable(state: State, equipment: int) -> bool:
    """Exclusive and foreign technology work only on a unit of their empire, or with the
    help the rulebook names (Empire Specific Equipment, Adapted Technology)."""
    face = printed(state, equipment)
    if not face["tech"]:
        return True
    unit = unit_of(state, equipment)
    if unit is None:
        return False
    empire = printed(state, unit)["empire"]
    if empire == face["empire"]:
        return True
    adapts = bool(empire) and state.empires.get(empire, {}).get("adapts", False)
    helper = any(
        keyword(state, other, "foreign_technology") is not None and state.cards[other].engaged
        for other in stack(state, unit)
    )
    if face["tech"] == "foreign":
        return adapts or helper
    return adapts and helper


def works(state: State, card: int) -> bool:
    """Whether the card's keywords apply now."""
    entry = state.cards[card]
    if entry.zone != "play":
        return False
    card_type = kind(state, card)
    if card_type in ("occurrence", "hazard", "luck", "agenda"):
        return True
    if card_type == "monster":
        return not suspended(state, card)
    if card_type == "equipment":
        if not tech_usable(state, card):
            return False
        if printed(state, card)["passive"]:
            return True
    return entry.engaged


def riders(state: State, unit: int) -> Iterator[int]:
    """The cards carried by a unit: on it, at any depth, short of another unit or terrain."""
    for other in state.cards[unit].attached:
        if kind(state, other) in UNIT_TYPES or kind(state, other) == "terrain":
            continue
        yield other
        yield from riders(state, other)


def refit(state: State, unit: int, stat: str) -> int:
    if not state.cards[unit].attached:
        return 0
    total = 0
    for other in riders(state, unit):
        entry = keyword(state, other, "refit")
        if entry is not None and entry["stat"] == stat and works(state, other):
            total += entry["value"]
    return total


def refit_table(state: State) -> dict[int, dict[str, int]]:
    """Every unit's refits at once, by unit and statistic (for views of the whole table)."""
    table: dict[int, dict[str, int]] = {}
    for card, entry in enumerate(state.cards):
        if entry.zone != "play" or entry.on is None:
            continue
        found = keyword(state, card, "refit")
        if found is None or not works(state, card):
            continue
        unit = unit_of(state, card)
        if unit is not None:
            bonus = table.setdefault(unit, {})
            bonus[found["stat"]] = bonus.get(found["stat"], 0) + found["value"]
    return table


def printed_strength(state: State, card: int) -> int:
    return sum(printed(state, part)["strength"] for part in whole(state, card))


def strength(state: State, card: int) -> int:
    """Strength as modified by other cards (refits), combined parts included."""
    total = printed_strength(state, card)
    if kind(state, card) in UNIT_TYPES:
        total += refit(state, card, "strength")
    return total


def _summed(state: State, card: int, name: str) -> int:
    return sum(printed(state, part)[name] for part in whole(state, card))


def system(state: State, card: int) -> dict | None:
    face = printed(state, card)
    return face["system"]


def max_shields(state: State, card: int) -> int:
    if kind(state, card) not in UNIT_TYPES and kind(state, card) != "terrain":
        return 0
    found = system(state, card)
    if found is not None and found["kind"] in ("armor", "field"):
        return 0
    total = _summed(state, card, "shields")
    if kind(state, card) in UNIT_TYPES:
        total += refit(state, card, "shields")
    return total


def shields_left(state: State, card: int) -> int:
    return max(0, max_shields(state, card) - state.cards[card].shield_damage)


def phasers(state: State, card: int) -> int:
    if kind(state, card) not in UNIT_TYPES:
        return 0
    return _summed(state, card, "phasers") + refit(state, card, "phasers")


def heavy_weapons(state: State, card: int) -> int:
    if kind(state, card) not in UNIT_TYPES:
        return 0
    return _summed(state, card, "heavy") + refit(state, card, "heavy")


def phaser_damage(state: State, card: int) -> int:
    """Damage of each Phaser: 1, plus the energy powered into a magnifier."""
    found = system(state, card)
    if found is not None and found["kind"] == "magnifier":
        return 1 + state.cards[card].powered
    return 1


def armor_left(state: State, card: int) -> int:
    found = system(state, card)
    if found is None or found["kind"] != "armor":
        return 0
    return max(0, found["max"] - state.cards[card].armor_used)


def thrust(state: State, card: int) -> int:
    found = system(state, card)
    if found is None or found["kind"] != "thrusters":
        return 0
    return state.cards[card].powered


def system_capacity(state: State, card: int) -> int:
    """How much more energy the unit's system may take this turn."""
    found = system(state, card)
    if found is None or found["kind"] == "armor":
        return 0
    room = found["max"] - state.cards[card].powered
    if found["kind"] == "field":
        room = min(room, (2 * strength(state, card) - state.cards[card].field_points) // 2)
    return max(0, room)


def command_weight(strength_value: int) -> int:
    """Command slots in halves (Command Limits): 2 for strength 3 or more, 1 for strength 2."""
    if strength_value >= 3:
        return 2
    return 1 if strength_value == 2 else 0


def is_minor_unit(state: State, seat: int, card: int) -> bool:
    empire = printed(state, card)["empire"]
    return (
        bool(empire)
        and empire != state.seats[seat].empire
        and not state.empires[empire]["major"]
        and kind(state, card) in ("ship", "dragon")
    )


def command_used(state: State, seat: int, extra: tuple[int, bool] | None = None) -> int:
    """Command slots in use, in halves; ``extra`` adds a unit about to be played (its strength
    and whether it is a minor empire ship). One minor empire ship is free (Minor Empire Command
    Rating Bonus)."""
    weights = [
        (command_weight(printed_strength(state, card)), is_minor_unit(state, seat, card))
        for card in units(state, seat)
    ]
    if extra is not None:
        weights.append((command_weight(extra[0]), extra[1]))
    total = sum(weight for weight, _ in weights)
    free = max((weight for weight, minor in weights if minor), default=0)
    return total - free


def units(state: State, seat: int) -> Iterator[int]:
    """The units the seat controls: in its fleet, or on its terrain (units lie nowhere else)."""
    for card in state.seats[seat].fleet:
        card_type = kind(state, card)
        if card_type in UNIT_TYPES:
            yield card
        elif card_type == "terrain":
            for other in state.cards[card].attached:
                if kind(state, other) in UNIT_TYPES and state.cards[other].controller == seat:
                    yield other


def in_play(state: State, seat: int) -> Iterator[int]:
    """Every card in play the seat controls."""
    for card, entry in enumerate(state.cards):
        if entry.zone == "play" and entry.controller == seat:
            yield card


def terrain_output(state: State, terrain: int) -> dict[str, int]:
    """A terrain's output with the modifiers of its stack (Terrain Output Modifiers: positive
    additive modifiers are not cumulative, nor positive multiplicative ones; negative additive
    ones all count; additive before multiplicative)."""
    output: dict[str, int] = {}
    for part in whole(state, terrain):
        for point, amount in printed(state, part)["output"].items():
            output[point] = output.get(point, 0) + amount
    best_add: dict[str, int] = {}
    penalties: dict[str, int] = {}
    best_mul: dict[str, int] = {}
    for other in stack(state, terrain):
        if other in whole(state, terrain):
            continue
        modifier = keyword(state, other, "terrain_modifier")
        if modifier is None or not works(state, other):
            continue
        point, value = modifier["point"], modifier["value"]
        if modifier["op"] == "mul":
            best_mul[point] = max(best_mul.get(point, 1), value)
        elif value > 0:
            best_add[point] = max(best_add.get(point, 0), value)
        else:
            penalties[point] = penalties.get(point, 0) + value
    for point in set(output) | set(best_add) | set(penalties):
        total = output.get(point, 0) + best_add.get(point, 0) + penalties.get(point, 0)
        output[point] = max(0, total) * best_mul.get(point, 1)
    return output


def generated(state: State, seat: int) -> dict[str, int]:
    """The points a seat generates this allocation, less what reactions drained (command
    excepted: it makes slots, not points)."""
    points = dict.fromkeys(POINT_TYPES, 0)
    for card in in_play(state, seat):
        if is_part(state, card):
            continue
        entry = state.cards[card]
        if kind(state, card) == "terrain":
            if entry.engaged:
                for point, amount in terrain_output(state, card).items():
                    points[point] += amount
        elif printed(state, card)["output"] and entry.engaged:
            for point, amount in printed(state, card)["output"].items():
                points[point] += amount
    for card, entry in enumerate(state.cards):
        modifier = keyword(state, card, "fleet_modifier") if entry.zone == "play" else None
        if modifier is None or not works(state, card):
            continue
        beneficiary = entry.controller
        if entry.on is not None:
            beneficiary = state.cards[basis(state, card)].controller
        if beneficiary == seat:
            points[modifier["point"]] += modifier["value"]
    for point, amount in state.seats[seat].drained.items():
        points[point] -= amount
    points.pop("command")
    return points


def remaining(state: State, seat: int) -> dict[str, int]:
    spent = state.seats[seat].spent
    return {
        point: max(0, amount - spent.get(point, 0))
        for point, amount in generated(state, seat).items()
    }


def payment(
    state: State, seat: int, cost: dict[str, int], left: dict[str, int] | None = None
) -> dict[str, int] | None:
    """How ``cost`` would be paid from the seat's points (each type first, economy for the rest),
    or None if it cannot. ``left``: the seat's remaining points, if already counted."""
    if left is None:
        left = remaining(state, seat)
    paid: dict[str, int] = {}
    economy = left["economy"]
    for point, amount in cost.items():
        own = min(left.get(point, 0), amount)
        if own:
            paid[point] = own
        rest = amount - own
        if rest:
            if point not in ECONOMY_STANDS_FOR or rest > economy:
                return None
            economy -= rest
            paid["economy"] = paid.get("economy", 0) + rest
    return paid


def command_points(state: State, seat: int) -> int:
    """Command slots for the complete turn: one per starting player, plus generated command."""
    total = len(state.seats)
    for card in in_play(state, seat):
        entry = state.cards[card]
        if not entry.engaged or is_part(state, card):
            continue
        if kind(state, card) == "terrain":
            total += terrain_output(state, card).get("command", 0)
        else:
            total += printed(state, card)["output"].get("command", 0)
        bonus = keyword(state, card, "command")
        if bonus is not None:
            total += bonus["value"]
    return total


def protects_hq(state: State, seat: int) -> bool:
    """Whether a ship or dragon the seat controls protects its Sector HQ."""
    return any(kind(state, card) in ("ship", "dragon") for card in units(state, seat))
