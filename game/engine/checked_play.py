"""One game played to its end by agents, its invariants checked after every action and each
decision timed: the loop of ``simulation.simulate``.

Compiled with the engine (``make engine``), so that what ``simulate`` adds to each action
(the check, the timing) costs little beside the action itself: it calls the compiled engine
directly rather than through the interpreter.
"""

from collections.abc import Callable, Sequence
from time import perf_counter, thread_time
from typing import cast

from game.engine import api
from game.engine.actions import Action, Agent
from game.engine.invariants import invariant_violations
from game.engine.state import State

# A decision shorter than this, in wall-clock seconds, counts its wall-clock time as its CPU
# time, which bounds it (one thread runs at most one second a second): reading the thread's
# CPU clock is a system call that costs about as much as the random agent's whole decision,
# where the wall clock is read without one. The CPU clock is read around a seat's decision
# only when its last one was longer: an agent is quick or slow at every decision, so a quick
# one never pays for the clock, and a slow one's rare quick decision costs one needless read.
SHORT_DECISION = 20e-6


def play_checked(
    state: State,
    players: Sequence[Agent],
    cpu_seconds: Sequence[list[float]],
    wall_seconds: Sequence[list[float]],
    turn_cap: int,
    also_check: Callable[[State], list[str]] | None = None,
) -> tuple[list[Action], list[str]]:
    """Plays ``state`` on until it is won or its turn passes ``turn_cap``, ``players[seat]``
    deciding for each seat. Each decision's CPU time (of this thread; see ``SHORT_DECISION``)
    and wall-clock time go to ``cpu_seconds[seat]`` and ``wall_seconds[seat]``. Returns the
    actions played and what went wrong, as ``"action <number>: <problem>"``: the invariants
    are checked after every action, and ``also_check`` too if given."""
    played: list[Action] = []
    problems: list[str] = []
    slow = [True] * len(players)  # whether the seat's last decision was long
    while state.winner is None and state.turn <= turn_cap:
        decision = api.legal_actions(state)
        seat = cast(int, decision.seat)  # the game goes on, so a seat decides
        cpu = thread_time() if slow[seat] else None
        wall = perf_counter()
        action = players[seat].choose(state, decision)
        took = perf_counter() - wall
        slow[seat] = took >= SHORT_DECISION
        # A long decision after a short one has no CPU reading: its wall-clock time bounds it.
        cpu_seconds[seat].append(thread_time() - cpu if slow[seat] and cpu is not None else took)
        wall_seconds[seat].append(took)
        events = api.apply(state, action)
        played.append(action)
        found = invariant_violations(state, events)
        if also_check is not None:
            found += also_check(state)
        for problem in found:
            problems.append(f"action {len(played)}: {problem}")
    return played, problems
