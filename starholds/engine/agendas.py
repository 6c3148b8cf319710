"""Agenda cards (rulebook, "Agenda Cards"): a hidden agenda is exposed from the hand the moment
its condition holds; an exposed one, played earlier, pays once a complete turn has passed since
it was played. An accomplished agenda goes onto the Sector HQ; 25 strength there restores the
Sector HQ once a game, and later agendas are discarded when accomplished."""

from collections.abc import Callable
from types import MappingProxyType

from starholds.engine import cards, effects, zones
from starholds.engine.state import State

RESTORE_STRENGTH = 25


def _units(state: State, seat: int) -> int:
    return sum(
        cards.kind(state, card) in cards.UNIT_TYPES and not cards.is_part(state, card)
        for card in cards.in_play(state, seat)
    )


def _terrain(state: State, seat: int) -> int:
    return sum(
        cards.kind(state, card) == "terrain" and not cards.is_part(state, card)
        for card in cards.in_play(state, seat)
    )


MEASURES: MappingProxyType[str, Callable[[State, int], int]] = MappingProxyType(
    {
        "terrain_in_play": _terrain,
        "units_in_play": _units,
        "destroyed_this_turn": lambda state, seat: state.seats[seat].destroyed,
        "hq_damage_this_turn": lambda state, seat: state.seats[seat].scored,
        "hand_size": lambda state, seat: len(state.seats[seat].hand),
    }
)


def met(state: State, seat: int, card: int) -> bool:
    condition = cards.printed(state, card)["rules"]["agenda"]["condition"]
    return MEASURES[condition["kind"]](state, seat) >= condition["amount"]


def check(state: State, events: list[dict]) -> None:
    """Accomplishes every agenda whose condition holds, seat by seat in turn order."""
    for seat in state.order:
        player = state.seats[seat]
        if not player.alive or state.winner is not None:
            continue
        waiting = [card for card in player.hand if _agenda_mode(state, card) == "hidden"]
        waiting += [
            card
            for card in player.fleet
            if _agenda_mode(state, card) == "exposed" and state.cards[card].played < player.turns
        ]
        for card in waiting:
            if cards.title(state, card) in player.accomplished or not met(state, seat, card):
                continue
            accomplish(state, seat, card, events)


def _agenda_mode(state: State, card: int) -> str | None:
    agenda = cards.printed(state, card)["rules"].get("agenda")
    return None if agenda is None else agenda["mode"]


def accomplish(state: State, seat: int, card: int, events: list[dict]) -> None:
    player = state.seats[seat]
    player.accomplished.append(cards.title(state, card))
    events.append({"type": "agenda", "seat": seat, "card": card})
    zones.lift(state, card)
    if player.restored:
        zones.put(state, card, "discard", events)
    else:
        zones.put(state, card, "hq", events)
    for benefit in cards.printed(state, card)["rules"]["agenda"]["benefit"]:
        effects.resolve(state, seat, card, {"effect": [benefit]}, {}, events)
    on_hq = sum(cards.printed(state, other)["strength"] for other in player.hq)
    if not player.restored and on_hq >= RESTORE_STRENGTH:
        player.restored = True
        player.hq_damage = 0
        events.append({"type": "hq_restored", "seat": seat})
        for other in list(player.hq):
            zones.lift(state, other)
            zones.put(state, other, "discard", events)
