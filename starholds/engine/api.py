"""Starholds' rules engine contract (like game/engine/api.py):

    state = new_game(decklists, seed, options)   # decklists: starholds.engine.decks
    decision = legal_actions(state)              # one deciding seat and its actions
    events = apply(state, decision.actions[0])
    view(state, seat)                            # what that seat may see; None: observers
    redact(events, seat)                         # the events as that seat may see them
    leave(state, seat)                           # concede or time out: that player is out

``apply`` checks the action against the legal ones before it changes anything, so an illegal
action raises ``IllegalAction`` and leaves the state as it was. The state is plain data
(``to_json``/``from_json``); all randomness comes from the seeded generator in the state, so
``replay(decklists, seed, actions, options)`` rebuilds a game exactly.
"""

from starholds.engine import agendas, cards, setup, turn, views, zones
from starholds.engine.errors import GameOver, IllegalAction, InvalidDecklist
from starholds.engine.options import Options
from starholds.engine.state import State, from_json, to_json
from starholds.engine.turn import Decision

__all__ = (
    "Decision",
    "GameOver",
    "IllegalAction",
    "InvalidDecklist",
    "Options",
    "State",
    "apply",
    "from_json",
    "leave",
    "legal_actions",
    "new_game",
    "redact",
    "replay",
    "to_json",
    "view",
)


def new_game(
    decklists: list[dict],
    seed: int,
    options: Options | None = None,
    events: list[dict] | None = None,
) -> State:
    """A game for 2 to 12 players, set up and waiting for the first player's allocation (or the
    reactions to it). Raises InvalidDecklist listing what breaks the deck rules."""
    found: list[dict] = [] if events is None else events
    return setup.new_game(decklists, seed, options or Options(), found)


def legal_actions(state: State) -> Decision:
    return turn.legal(state)


def apply(state: State, action: dict) -> list[dict]:
    """Applies one legal action; the events it caused."""
    if state.winner is not None or state.phase == "over":
        raise GameOver("The game is over.")
    events: list[dict] = []
    turn.apply_action(state, action, events)
    settle(state, events)
    state.actions += 1
    return events


def settle(state: State, events: list[dict]) -> None:
    """What follows any change: cards with no strength left are discarded, agendas whose
    condition holds are accomplished."""
    while state.winner is None:
        broken = [
            card
            for card, entry in enumerate(state.cards)
            if entry.damage
            and entry.zone == "play"
            and not cards.is_part(state, card)
            and (
                cards.kind(state, card) in cards.UNIT_TYPES or cards.kind(state, card) == "terrain"
            )
            and entry.damage >= cards.strength(state, card)
        ]
        if not broken:
            break
        events.append({"type": "destroyed", "card": broken[0], "by": None})
        zones.discard_stack(state, broken[0], events)
    if state.winner is None:
        agendas.check(state, events)


def view(state: State, seat: int | None) -> dict:
    return views.view(state, seat, turn.deciding(state))


def redact(events: list[dict], seat: int | None) -> list[dict]:
    return views.redact(events, seat)


def leave(state: State, seat: int) -> list[dict]:
    """The player concedes or runs out of time: he is eliminated and his cards leave play; a
    turn of his ends, a reaction of his not yet resolved is withdrawn."""
    if state.winner is not None or state.phase == "over":
        raise GameOver("The game is over.")
    if not 0 <= seat < len(state.seats) or not state.seats[seat].alive:
        raise IllegalAction(f"Seat {seat} is not playing.")
    events: list[dict] = []
    was_active = seat == state.active
    if state.pending is not None and state.pending["seat"] == seat and not was_active:
        withdrawn = state.chain.pop()
        zones.put(state, withdrawn["card"], "discard", events)
        state.pending = None
    zones.eliminate(state, seat, "left", events)
    if state.winner is None:
        if was_active:
            for item in state.chain:
                if "card" in item and state.cards[item["card"]].zone == "chain":
                    zones.put(state, item["card"], "discard", events)
            state.chain, state.pending, state.window, state.volley = [], None, None, None
            turn.pass_turn(state, events)
        elif state.window is not None:
            state.window["asked"] = [other for other in state.window["asked"] if other != seat]
            turn.advance_window(state, events)
        settle(state, events)
    else:
        for item in state.chain:
            if "card" in item and state.cards[item["card"]].zone == "chain":
                zones.put(state, item["card"], "discard", events)
        state.chain = []
    state.actions += 1
    return events


def replay(
    decklists: list[dict], seed: int, actions: list[dict], options: Options | None = None
) -> State:
    state = new_game(decklists, seed, options)
    for action in actions:
        if action.get("kind") == "leave":
            leave(state, action["seat"])
        else:
            apply(state, action)
    return state
