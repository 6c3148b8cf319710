"""The rules engine's contract (docs/design.md, "The rules engine contract").

    state = new_game(decklists, seed)
    decision = legal_actions(state)        # who decides now, what about, every legal action
    events = apply(state, decision.actions[0])
    view(state, seat)                      # what that seat may see; view(state, None): observers

``apply`` checks the action against the legal ones before it changes anything, so an illegal
action raises an ``IllegalAction`` and leaves the state as it was. The state is plain data
(``to_json``/``from_json``), and a seed plus the applied actions replay a game exactly.
"""

from collections.abc import Callable, Iterable
from types import MappingProxyType

from game.engine import combat, continuous, effects, phases, rules, select, setup, triggers, views
from game.engine.actions import KINDS, Action, Decision
from game.engine.effects import replaced_by_restriction
from game.engine.errors import (
    GameOver,
    IllegalAction,
    InvalidDecklist,
    NotAllowed,
    NotNow,
    UnknownAction,
)
from game.engine.events import redact, render, render_parts
from game.engine.state import State, from_json, in_game, to_json

__all__ = (
    "Decision",
    "GameOver",
    "IllegalAction",
    "InvalidDecklist",
    "NotAllowed",
    "NotNow",
    "State",
    "UnknownAction",
    "apply",
    "card_titles",
    "from_json",
    "leave",
    "legal_actions",
    "new_game",
    "redact",
    "render",
    "render_parts",
    "replaced_by_restriction",
    "replay",
    "to_json",
    "view",
)

_DECISIONS = MappingProxyType(
    {**setup.DECISIONS, **phases.DECISIONS, **combat.DECISIONS, **effects.DECISIONS}
)
_STEPS = MappingProxyType({**phases.STEPS, **combat.STEPS, **effects.STEPS})
_Handler = Callable[[State, Action, list[dict]], None]


def new_game(
    decklists: list,
    seed: int,
    events: list[dict] | None = None,
    first: int | None = None,
    *,
    checked: bool = True,
) -> State:
    """A new game, set up and waiting for the first player to keep or redraw.

    ``decklists`` has one decklist per seat of a two-player game: ``{"avatar": card,
    "quests": [card, ...], "deck": [card, ...]}``, each card a dict of printed fields (title,
    type, archetype, traits, restriction, cost, attack, defense, damage_bonus, health,
    level, rules); see ``game.engine.decklists``. Or the seats grouped in two sides, a list
    of decklists each: ``[[a, b], [c, d]]`` is a 2-versus-2 team game whose seats alternate
    sides in turn order (a, c, b, d are seats 0 to 3; ``setup.seated``), ``[[a, b, c, d],
    [boss]]`` a Four-man Heroic Encounter (heroes a to d in seats 0 to 3, the boss in seat 4,
    ``state.teams.boss``), and ``[[a], [c]]`` is the two-player game ``[a, c]``. The setup's
    events are appended to ``events`` if given.
    ``first`` is the seat that goes first; None: chosen at random, as the rulebook says.
    ``checked=False`` leaves out the check that the decklists bring every card their cards
    can create (it reads every card's text): for decklists that passed it when their game
    began (``replay``).
    """
    state = setup.create_state(decklists, seed, check_created=checked)
    if first is not None and first not in range(len(state.seats)):
        raise InvalidDecklist(f"there is no seat {first} to go first")
    opening_events = [] if events is None else events
    _run(state, lambda opening, opened: setup.open_game(opening, opened, first), opening_events)
    return state


def legal_actions(state: State) -> Decision:
    """The one decision pending now: the seat that makes it, a prompt, and the complete list
    of legal actions."""
    if state.winner is not None:
        return Decision(seat=None, kind="game_over", prompt="The game is over.")
    cached = state.caches.decision
    if cached is not None and cached[0] == state.applied:
        return cached[1]
    rules_of = _DECISIONS[state.step]
    with continuous.unchanging(state):
        decision = Decision(
            seat=state.deciding,
            kind=state.step,
            prompt=rules_of.prompt(state),
            actions=rules_of.legal(state),
        )
    # Until an action is applied: the client lists the legal actions, then applies one of
    # them, and both calls need the same list. A state is changed only through ``apply``.
    state.caches.decision = (state.applied, decision)
    return decision


def forget_decision(state: State) -> None:
    """Forget the decision last listed: for tools that change a state directly (setting up
    a position) after listing its legal actions."""
    state.caches.decision = None


def apply(state: State, action: object) -> list[dict]:
    """Carry out one legal action and run the game on to the next decision.

    Changes ``state`` in place and returns the events, in order; use ``redact`` or ``render``
    before showing them to a seat. Raises an ``IllegalAction`` (and changes nothing) if the
    action is not one of ``legal_actions(state).actions``.
    """
    proposed = _as_action(state, action)
    if proposed["kind"] == "leave":
        return _leave(state, proposed)
    handler = _handler(state, proposed)
    legal = legal_actions(state).actions
    try:
        # Carry out the engine's own copy: an equal action may hold 1.0 or True for the id 1.
        chosen = legal[legal.index(proposed)]
    except ValueError:
        same_kind = [each for each in legal if each["kind"] == proposed["kind"]]
        refusal = _DECISIONS[state.step].refusal
        reason = None if refusal is None else refusal(state, proposed)
        raise NotAllowed(
            f"{proposed!r} is not allowed now{'' if reason is None else ': ' + reason}; "
            f"the legal ones of its kind: {same_kind}"
        ) from None
    return _carry_out(state, handler, chosen)


def leave(seat: int) -> Action:
    """The action of a player who leaves the game: he concedes, or can't reconnect. Any
    player still in the game may take it at any moment, out of turn, so it is in no list of
    legal actions; it is stored in a match's action log like the others."""
    return {"kind": "leave", "seat": seat}


def _leave(state: State, action: Action) -> list[dict]:
    """The player loses and leaves: in a team game all of his cards and tokens are destroyed
    but his quests remain, and his teammates play on (MULTIPLAYER GAMES, "Leaving the
    Game"); in a two-player game his opponent wins."""
    seat = action.get("seat")
    if not isinstance(seat, int) or seat not in range(len(state.seats)):
        raise NotAllowed(f"{action!r}: there is no seat {seat!r} to leave the game")
    if not in_game(state, seat):
        raise NotAllowed(f"{action!r}: seat {seat} has already left the game")
    return _carry_out(
        state, lambda state, action, events: rules.lose(state, [seat], "left", events), action
    )


def view(state: State, seat: int | None) -> dict:
    """What ``seat`` may see of the game; ``None`` for an observer."""
    decision = legal_actions(state)
    with continuous.unchanging(state):
        return views.view(state, seat, decision)


def replay(
    decklists: list,
    seed: int,
    actions: Iterable[Action],
    first: int | None = None,
    *,
    checked: bool = True,
) -> State:
    """The game reached by applying ``actions`` to a new game: a match as stored.

    ``checked=False`` carries out each action without listing the legal ones first, in about
    half the time, and sets the game up without checking the decklists' created cards: only
    for the engine's own actions, each checked as it was played, in a game whose decklists
    were checked when it began, to verify that they replay (``simulation.simulate``). A
    replay that goes another way then ends in another state, or fails; an action of a kind
    not possible now, or after the end, is still refused.
    """
    state = new_game(decklists, seed, first=first, checked=checked)
    for action in actions:
        if checked or action["kind"] == "leave":
            apply(state, action)
        else:
            _carry_out(state, _handler(state, _as_action(state, action)), action)
    return state


def _as_action(state: State, action: object) -> Action:
    """``action`` if it is an action at all and the game goes on; raises otherwise."""
    if state.winner is not None:
        raise GameOver("the game is over")
    if not isinstance(action, dict) or action.get("kind") not in KINDS:
        raise UnknownAction(f"{action!r} is not an action: its kind must be one of {KINDS}")
    return action


def _handler(state: State, action: Action) -> _Handler:
    """What carries out ``action`` now; raises if no action of its kind is possible now."""
    decision = _DECISIONS[state.step]
    handler = decision.handlers.get(action["kind"])
    if handler is None:
        raise NotNow(
            f"seat {state.deciding} must decide: {decision.prompt(state)} "
            f"A {action['kind']!r} action is not possible now; possible kinds: "
            f"{', '.join(decision.handlers)}."
        )
    return handler


def _carry_out(state: State, handler: _Handler, action: Action) -> list[dict]:
    events: list[dict] = []
    state.applied += 1
    _run(state, lambda state, events: handler(state, action, events), events)
    return events


def card_titles(state: State) -> list[str]:
    """Every card's title by card id, to render events with."""
    return [state.definitions[card.definition]["title"] for card in state.cards]


def _run(state: State, operation: Callable[[State, list[dict]], None], events: list[dict]) -> None:
    """Carry out ``operation``, then the automatic steps that follow, until the game waits
    for a decision or ends. After each step, the text its events trigger is queued, read
    knowing who commanded the combat's units as the step began (``triggers.collect``)."""
    read = len(events)
    commanded = select.commanders(state)
    until: int | None = None
    while True:
        try:
            operation(state, events)
            while True:
                read = triggers.collect(state, events, read, commanded, until)
                until = None
                if state.step not in _STEPS:
                    return
                commanded = select.commanders(state)
                _STEPS[state.step](state, events)
        except rules.GameEnded:
            return
        except rules.TurnLost:
            # The next player's turn begins (``rules.lose``, a team game): run on from there.
            # The lost turn's combat is over; its commanders are for its events alone.
            until = len(events)
            operation = _STEPS[state.step]
