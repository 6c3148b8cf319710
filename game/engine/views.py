"""What one seat, or an observer, may see of a game.

Hidden information never leaves the engine except to the one seat allowed to see it
(docs/design.md): a player sees his own hand and quest pile; nobody sees a deck's cards or order,
or another player's hand or quest pile; those appear as counts only. Discard piles, the
playmat and completed quests are public.
"""

from typing import Any

from game.engine import continuous, rules
from game.engine.actions import Decision
from game.engine.printed import printed_keywords
from game.engine.state import State, definition


def view(state: State, viewer: int | None, decision: Decision) -> dict:
    """The game as ``viewer`` (a seat, or None for an observer) sees it; the pending decision's
    actions are shown only to the seat that must decide."""
    described: dict[str, Any] = {
        "seat": decision.seat,
        "kind": decision.kind,
        "prompt": decision.prompt,
    }
    if state.pending and decision.kind in ("choose", "optional"):
        pending = state.pending[0]
        described["source"] = pending["source"]
        if pending["steps"]:
            described["effect"] = pending["steps"][0]["primitive"]["primitive"]
    candidates = _candidates_in_play(state, decision)
    if candidates:
        described["candidates"] = candidates
    if viewer is not None and viewer == decision.seat:
        described["actions"] = decision.actions
        if decision.kind == "choose":
            described["choices"] = [
                card_view(state, card) for card in state.pending[0]["choice"]["candidates"]
            ]
    return {
        "viewer": viewer,
        "turn": state.turn,
        "phase": state.phase,
        "active": state.active,
        "first": state.first,
        "decision": described,
        "winner": state.winner,
        "win_reason": state.win_reason,
        "players": [_player(state, seat, viewer) for seat in range(len(state.seats))],
        "quests": [
            {
                "card": card_view(state, quest.card),
                "units": [[card_view(state, card) for card in units] for units in quest.units],
                "tokens": list(quest.tokens),
                "raids": quest.raids,
            }
            for quest in state.quests
        ],
        "attempting": None if state.attempting is None else state.quests[state.attempting].card,
        "combat": _combat(state),
        "marks": [
            {"kind": mark["kind"], "source": mark["source"], "card": mark["card"]}
            for mark in state.marks
        ],
        **_teams(state),
    }


def _candidates_in_play(state: State, decision: Decision) -> list[int]:
    """The cards on the playmat a decision chooses among, which every viewer may see (the
    playmat is public): an effect's targets, or the combatants a combat's damage may be
    assigned to. A choice in a hand or deck is the chooser's alone, and is not listed."""
    if decision.kind == "choose":
        choice = state.pending[0]["choice"]
        if choice["zone"] != "playmat":
            return []
        return [card for card in choice["candidates"] if card not in choice["picked"]]
    if decision.kind == "assign_damage":
        return [action["card"] for action in decision.actions]
    return []


def _teams(state: State) -> dict:
    """A team game's sides, each seat's quest locations in reach and the players who left
    (MULTIPLAYER GAMES), and a heroic encounter's boss seat: public, like the playmat. A
    two-player game's view is as it was, and a 2-versus-2 game's."""
    teams = state.teams
    if teams is None:
        return {}
    return {
        "sides": [list(side) for side in teams.sides],
        "reach": [list(quests) for quests in teams.reach],
        "completions": list(teams.completions),
        "left": list(teams.left),
        **({} if teams.boss is None else {"boss": teams.boss}),
    }


CURRENT = ("cost", "attack", "defense", "damage_bonus", "health")


def card_view(state: State, card: int) -> dict:
    """A face-up card: its current numbers and keywords (with those it gained or lost from
    effects), and its state on the playmat (why it is exerted, if it is)."""
    printed = definition(state, card)
    instance = state.cards[card]
    keywords = continuous.current_keywords(state, card)
    printed_names = [entry["keyword"] for entry in printed_keywords(state, card)]
    return {
        "id": card,
        "owner": instance.owner,
        "controller": instance.controller,
        **{key: value for key, value in printed.items() if key != "rules"},
        **{name: rules.attribute(state, card, name) for name in CURRENT},
        "keywords": keywords,
        "keywords_gained": [name for name in keywords if name not in printed_names],
        "keywords_lost": [name for name in printed_names if name not in keywords],
        "exerted": instance.exerted,
        "exerted_for": instance.exerted_for,
        "damage": instance.damage,
        "shield": instance.shield,
        "tokens": instance.tokens,
    }


def _player(state: State, seat: int, viewer: int | None) -> dict:
    player = state.seats[seat]
    own = seat == viewer
    return {
        "avatar": card_view(state, player.avatar),
        "health": rules.health_left(state, player.avatar),
        "power": player.power,
        "hand": _cards(state, player.hand) if own else None,
        "hand_count": len(player.hand),
        "deck_count": len(player.deck),
        "discard": _cards(state, player.discard),
        "quest_pile": _cards(state, player.quest_pile) if own else None,
        "quest_pile_count": len(player.quest_pile),
        "items": _cards(state, player.items),
        "abilities": _cards(state, player.abilities),
        "completed": _cards(state, player.completed),
        "removed": _cards(state, player.removed),
    }


def _cards(state: State, zone: list[int]) -> list[dict]:
    return [card_view(state, card) for card in zone]


def _combat(state: State) -> dict | None:
    combat = state.combat
    if combat is None:
        return None
    return {
        "kind": combat.kind,
        "quest": state.quests[combat.quest].card,
        "to_act": combat.sides[combat.to_act].seat,
        "sides": [
            {
                "seat": side.seat,
                "combatants": list(side.combatants),
                "total": side.total,
                "damage": side.damage,
                "assigned": list(side.assigned),
            }
            for side in combat.sides
        ],
    }
