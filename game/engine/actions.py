"""The action vocabulary: what a player may do, as small JSON objects.

An action is a ``kind`` plus the card ids it needs. The web page, the computer opponents and
the tests all build actions with these functions (or the same dicts by hand), and the engine
lists the legal ones with them, so the vocabulary lives in one place.
"""

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from game.engine.state import State

Action = dict[str, Any]

KINDS = (
    "keep",
    "redraw",
    "attempt_quest",
    "apply_ability",
    "play",
    "raid",
    "done",
    "discard",
    "exert",
    "play_tactic",
    "pass",
    "assign_damage",
    "activate",
    "choose",
    "accept",
    "decline",
    "commander",
    "leave",
)


def keep() -> Action:
    """Keep the opening hand (SETTING UP A GAME)."""
    return {"kind": "keep"}


def redraw() -> Action:
    """Redraw the opening hand; the avatar is dealt 1 damage (SETTING UP A GAME)."""
    return {"kind": "redraw"}


def attempt_quest(quest: int) -> Action:
    """Attempt the quest whose card id is ``quest`` (QUEST PHASE)."""
    return {"kind": "attempt_quest", "quest": quest}


def apply_ability(card: int) -> Action:
    """Apply a ready ability that has a level at the attempted quest (QUEST PHASE)."""
    return {"kind": "apply_ability", "card": card}


def play(card: int, quest: int | None = None) -> Action:
    """Play an item, ability or unit from hand; a unit names the quest it goes to."""
    if quest is None:
        return {"kind": "play", "card": card}
    return {"kind": "play", "card": card, "quest": quest}


def raid(quest: int, avatar: int | None = None) -> Action:
    """Raid with all ready units at the quest whose card id is ``quest`` (MAIN PHASE); in a
    team game, against the opposing ``avatar`` chosen among those in reach of the quest
    (MULTIPLAYER GAMES, "Attacking Raid Commander")."""
    if avatar is None:
        return {"kind": "raid", "quest": quest}
    return {"kind": "raid", "quest": quest, "avatar": avatar}


def done() -> Action:
    """End the Main Phase (MAIN PHASE, "Ending Your Main Phase")."""
    return {"kind": "done"}


def discard(card: int) -> Action:
    """Discard a card from hand to meet the hand limit."""
    return {"kind": "discard", "card": card}


def exert(card: int, attribute: str) -> Action:
    """Exert a card in combat to add its ``attack``, ``defense`` or ``damage_bonus``."""
    return {"kind": "exert", "card": card, "attribute": attribute}


def play_tactic(card: int) -> Action:
    """Play a tactic from hand as a combat action."""
    return {"kind": "play_tactic", "card": card}


def pass_() -> Action:
    """Pass a combat action, or add no damage bonus."""
    return {"kind": "pass"}


def assign_damage(card: int) -> Action:
    """Assign one point of the damage your side takes to one of your combatants."""
    return {"kind": "assign_damage", "card": card}


def activate(card: int, action: int) -> Action:
    """Use the activated action of index ``action`` of the card (glossary, "activated
    action")."""
    return {"kind": "activate", "card": card, "action": action}


def choose(card: int) -> Action:
    """Choose a card an effect asks for: a target, a card to discard or to search for."""
    return {"kind": "choose", "card": card}


def commander(seat: int) -> Action:
    """Choose which of the players tied for the most defending units commands the defense
    (MULTIPLAYER GAMES, "Defending Raid Commander")."""
    return {"kind": "commander", "seat": seat}


def accept() -> Action:
    """Use an optional effect ("you may")."""
    return {"kind": "accept"}


def decline() -> Action:
    """Don't use an optional effect."""
    return {"kind": "decline"}


class Decision:
    """Who must decide now, what about, and every action they may take.

    ``seat`` is None once the game is over (``kind`` is then ``"game_over"`` and there are no
    actions). A plain class, not a dataclass: compiled, a dataclass is built by generated
    Python code, and a decision is built for every action of a game.
    """

    def __init__(
        self, seat: int | None, kind: str, prompt: str, actions: list[Action] | None = None
    ):
        self.seat = seat
        self.kind = kind
        self.prompt = prompt
        self.actions: list[Action] = [] if actions is None else actions

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat!r}, kind={self.kind!r}, actions={self.actions!r})"

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "prompt": self.prompt,
            "actions": self.actions,
        }


class Agent(Protocol):
    """Whoever answers decisions for a seat: a person's client, a computer opponent."""

    def choose(self, state: "State", decision: Decision) -> Action:
        """One of ``decision.actions``, looking at the game only through the seat's view."""
