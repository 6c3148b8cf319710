"""Damage: weapons volleys and card damage (rulebook, "Weapons Fire Phase", "Combat and Damage",
"Card Damage Is Not Weapons Fire", "Splash Damage", "Voided Damage", "Damaging the Sector HQ",
"Victory Celebration")."""

from starholds.engine import cards, zones
from starholds.engine.state import State

# The order damage is taken in: Phasers first, then card damage, then heavy weapons (the
# heavy part is what is left for terrain structure; docs/starholds/choices.md).
DAMAGE_KINDS = ("phaser", "card", "heavy")


def _take(parts: dict[str, int], amount: int) -> int:
    """Removes up to ``amount`` from ``parts`` in DAMAGE_KINDS order; how much it removed."""
    taken = 0
    for damage_kind in DAMAGE_KINDS:
        step = min(parts[damage_kind], amount - taken)
        parts[damage_kind] -= step
        taken += step
    return taken


def hurt(
    state: State,
    target: int,
    parts: dict[str, int],
    events: list[dict],
    *,
    by: int | None,
    structural: bool = False,
    terrain_structure: bool = False,
) -> dict[str, int]:
    """Scores damage (``parts``: phaser, card and heavy points) on a card: its field, then its
    Shields, then its strength; armor reduces the structural part. A card whose damage reaches
    its strength is discarded with its stack. Returns what was left over past destroying it
    (the splash of an interceptor)."""
    parts = {damage_kind: parts.get(damage_kind, 0) for damage_kind in DAMAGE_KINDS}
    left_over = dict.fromkeys(DAMAGE_KINDS, 0)
    entry = state.cards[target]
    immunity = cards.keyword(state, target, "immune")
    weapons = parts["phaser"] + parts["heavy"] > 0
    if immunity is not None and immunity["to"] == ("weapons" if weapons else "card_damage"):
        events.append({"type": "immune", "card": target})
        return left_over
    _take(parts, cards.thrust(state, target))
    shielded = 0
    if not structural:
        used = _take(parts, entry.field_points)
        entry.field_points -= used
        shielded = _take(parts, cards.shields_left(state, target))
        entry.shield_damage += shielded
        shielded += used
    if cards.kind(state, target) == "terrain":
        # Only heavy weapons (and cards that say so) damage terrain structure (Terrain Cards).
        parts["phaser"] = 0
        if not terrain_structure:
            parts["card"] = 0
    structure = sum(parts.values())
    armor = cards.armor_left(state, target)
    if armor and structure and not structural:
        _take(parts, armor)
        entry.armor_used += 1
        structure = sum(parts.values())
    health = cards.strength(state, target) - entry.damage
    if structure >= health:
        _take(parts, health)
        left_over = parts
        events.append({"type": "damaged", "card": target, "shields": shielded, "structure": health})
        events.append({"type": "destroyed", "card": target, "by": by})
        zones.discard_stack(state, target, events, by=by)
    else:
        entry.damage += structure
        events.append(
            {"type": "damaged", "card": target, "shields": shielded, "structure": structure}
        )
    return left_over


def card_damage(
    state: State, source: int, target: int, amount: int, structural: bool, events: list[dict]
) -> None:
    """Card damage from ``source`` (not weapons fire)."""
    hurt(
        state,
        target,
        {"card": amount},
        events,
        by=state.cards[source].controller,
        structural=structural,
        terrain_structure=cards.keyword(state, source, "damages_terrain") is not None,
    )


def volley_damage(state: State) -> dict[str, int]:
    """The declared volley's damage, less reactions' reductions (Phasers first)."""
    volley = state.volley
    parts = {"phaser": 0, "card": 0, "heavy": 0}
    for _card, weapon, damage in volley["weapons"]:
        parts[weapon] += damage
    _take(parts, volley["reduced"])
    return parts


def resolve_volley(state: State, events: list[dict]) -> None:
    """The volley's damage lands: on an interceptor first (its excess splashes onto the original
    target), then on the target card or Sector HQ. Fire at a target gone from play is lost."""
    volley = state.volley
    seat = volley["seat"]
    parts = volley_damage(state)
    interceptor = volley["interceptor"]
    if interceptor is not None and state.cards[interceptor].zone == "play":
        parts = hurt(state, interceptor, parts, events, by=seat)
    total = sum(parts.values())
    if volley["hq"] is not None:
        hq_damage(state, seat, volley["hq"], total, events)
        return
    target = volley["target"]
    if state.cards[target].zone != "play":
        events.append({"type": "volley_lost", "seat": seat})
        return
    if total:
        hurt(state, target, parts, events, by=seat)


def hq_damage(state: State, seat: int, victim: int, amount: int, events: list[dict]) -> None:
    """Damage on a Sector HQ: its 25th point eliminates the player; 6 or more in one volley earn
    the firing player a victory celebration draw."""
    player = state.seats[victim]
    if not amount or not player.alive:
        return
    player.hq_damage += amount
    state.seats[seat].scored += amount
    events.append({"type": "hq_damaged", "seat": victim, "by": seat, "amount": amount})
    if amount >= state.options["celebration"]:
        events.append({"type": "celebration", "seat": seat})
        zones.draw(state, seat, 1, events)
    if player.hq_damage >= state.options["hq_strength"]:
        zones.eliminate(state, victim, "hq_destroyed", events)
