"""What higher apps decide about the normal Deck Builder's pages.

Rulebook, "Sealed Tournaments": "you cannot return to the normal Deck Builder until the
tournament has concluded or you have dropped from the tournament". Tournaments sit above
decks, so they register a gate at start-up; the Deck Builder's pages ask every gate and send
a player whom one stops to the Limited Deck Builder of the card pool it names.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class BuilderDetour:
    """Where the player builds instead, and why (shown to them)."""

    pool_id: int
    message: str


# gate(*, player): the detour for this player, or None to let them in.
BuilderGate = Callable[..., BuilderDetour | None]

builder_gates: list[BuilderGate] = []


def builder_gate_register(gate: BuilderGate) -> None:
    if gate in builder_gates:
        raise ImproperlyConfigured(f"{gate.__qualname__} is registered twice.")
    builder_gates.append(gate)
