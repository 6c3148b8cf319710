"""The effect primitives of the vocabulary (docs/starholds/vocabulary.md, "Effects") and the
targets a card's effect entry may choose."""

from types import MappingProxyType

from starholds.engine import cards, combat, rng, zones
from starholds.engine.state import State
from starholds.engine.vocabulary import CARD_TARGET_EFFECTS, PLAYER_TARGET_EFFECTS


def target_kind(entry: dict) -> str | None:
    """ "card", "player" or None: what the entry's effects need chosen."""
    names = {effect["primitive"] for effect in entry["effect"]}
    if names & CARD_TARGET_EFFECTS:
        return "card"
    if names & PLAYER_TARGET_EFFECTS:
        return "player"
    return None


def card_candidates(state: State, seat: int, selector: dict) -> list[int]:
    """Cards in play matching a target selector, from ``seat``'s point of view."""
    found = []
    for card, entry in enumerate(state.cards):
        if entry.zone != "play" or cards.is_part(state, card):
            continue
        if cards.kind(state, card) not in selector["types"]:
            continue
        side = selector["side"]
        if side == "own" and entry.controller != seat:
            continue
        if side == "opponent" and entry.controller == seat:
            continue
        if "max_strength" in selector and cards.strength(state, card) > selector["max_strength"]:
            continue
        found.append(card)
    return found


def choices(state: State, seat: int, card: int, entry: dict) -> list[dict]:
    """The choices of target for one entry, as action parameters ({"card": id} or
    {"seat": n}); [{}] when the entry needs none."""
    needed = target_kind(entry)
    if needed is None:
        return [{}]
    if needed == "player":
        return [
            {"seat": other}
            for other, player in enumerate(state.seats)
            if player.alive and other != seat
        ]
    if entry.get("target") == "location":
        location = state.cards[card].on
        return [] if location is None else [{"card": location}]
    return [{"card": found} for found in card_candidates(state, seat, entry["target"])]


def resolve(
    state: State, seat: int, card: int, entry: dict, chosen: dict, events: list[dict]
) -> None:
    """Carries out an entry's effects for ``seat`` (the card's controller) on its target."""
    target = chosen.get("card")
    if entry.get("target") == "location" and target is None:
        target = state.cards[card].on
    for effect in entry["effect"]:
        if effect["primitive"] in CARD_TARGET_EFFECTS:
            if target is None or state.cards[target].zone != "play":
                continue
        if effect["primitive"] in PLAYER_TARGET_EFFECTS and "seat" not in chosen:
            continue
        PRIMITIVES[effect["primitive"]](state, seat, card, effect, target, chosen, events)


def _damage(state, seat, card, effect, target, chosen, events):
    combat.card_damage(
        state, card, target, effect["amount"], effect.get("structural", False), events
    )


def _disengage(state, seat, card, effect, target, chosen, events):
    state.cards[target].engaged = False
    events.append({"type": "disengaged", "card": target})


def repair(state: State, target: int, amount: int, events: list[dict]) -> None:
    entry = state.cards[target]
    shields = min(entry.shield_damage, amount)
    structure = min(entry.damage, amount - shields)
    entry.shield_damage -= shields
    entry.damage -= structure
    if shields or structure:
        events.append({"type": "repaired", "card": target, "amount": shields + structure})


def _repair(state, seat, card, effect, target, chosen, events):
    repair(state, target, effect["amount"], events)


def _repair_fleet(state, seat, card, effect, target, chosen, events):
    for unit in cards.in_play(state, seat):
        if cards.kind(state, unit) in cards.UNIT_TYPES and not cards.is_part(state, unit):
            repair(state, unit, effect["amount"], events)


def _draw(state, seat, card, effect, target, chosen, events):
    zones.draw(state, seat, effect["amount"], events)


def _discard_random(state, seat, card, effect, target, chosen, events):
    victim = state.seats[chosen["seat"]]
    for _ in range(effect["amount"]):
        if not victim.hand:
            return
        lost = victim.hand[rng.below(state, len(victim.hand))]
        zones.lift(state, lost)
        zones.put(state, lost, "discard", events)


def _return_to_hand(state, seat, card, effect, target, chosen, events):
    zones.return_stack(state, target, events)


def _destroy(state, seat, card, effect, target, chosen, events):
    events.append({"type": "destroyed", "card": target, "by": seat})
    zones.discard_stack(state, target, events, by=seat)


def _control(state, seat, card, effect, target, chosen, events):
    """Needs a free command slot; without one the card has no effect (Control)."""
    unit_strength = cards.printed_strength(state, target)
    extra = (unit_strength, cards.is_minor_unit(state, seat, target))
    if cards.command_used(state, seat, extra) > 2 * state.seats[seat].command:
        events.append({"type": "no_command_slot", "seat": seat, "card": target})
        return
    if state.cards[card].zone != "play":
        return
    zones.take_control(state, target, seat, card, events)


def _drain(state, seat, card, effect, target, chosen, events):
    drained = state.seats[state.active].drained
    drained[effect["point"]] = drained.get(effect["point"], 0) + effect["amount"]
    events.append(
        {
            "type": "drained",
            "seat": state.active,
            "point": effect["point"],
            "amount": effect["amount"],
        }
    )


def _void(state, seat, card, effect, target, chosen, events):
    below = chosen["below"]
    state.chain[below]["voided"] = True
    events.append({"type": "voided", "card": state.chain[below].get("card")})


def _reduce_volley(state, seat, card, effect, target, chosen, events):
    if state.volley is not None:
        state.volley["reduced"] += effect["amount"]


def _intercept(state, seat, card, effect, target, chosen, events):
    if state.volley is not None:
        state.volley["interceptor"] = card


PRIMITIVES = MappingProxyType(
    {
        "damage": _damage,
        "disengage": _disengage,
        "repair": _repair,
        "repair_fleet": _repair_fleet,
        "draw": _draw,
        "discard_random": _discard_random,
        "return_to_hand": _return_to_hand,
        "destroy": _destroy,
        "control": _control,
        "drain": _drain,
        "void": _void,
        "reduce_volley": _reduce_volley,
        "intercept": _intercept,
    }
)
