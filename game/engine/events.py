"""Events: what changed, as small dicts with a ``type`` and ids, and the chat log's game
messages rendered from them (THE GAME SCREEN, "Game Messages").

An event may name a card the other players must not see (the card a player draws). Each seat
gets events through ``redact``, and messages are rendered for one viewer: "* You draw Field
Kit." for the player who drew, "* Shochu draws a card." for everybody else.
"""

from collections.abc import Sequence

# The fields of an event that only its own seat may see.
PRIVATE_FIELDS = {"draw": ("card",)}

WIN_REASONS = {
    "quests_completed": "completing a quest with an empty quest pile",
    "avatar_destroyed": "destroying the opposing avatar",
    "deck_empty": "the opponent having to draw from an empty deck",
    "all_avatars_destroyed": "taking the turn when every avatar was destroyed at once",
}
ATTRIBUTE_NAMES = {"attack": "attack", "defense": "defense", "damage_bonus": "damage bonus"}
PHASE_NAMES = {"draw": "Draw", "quest": "Quest", "ready": "Ready", "main": "Main"}


def redact(event: dict, viewer: int | None) -> dict:
    """The event as ``viewer`` (a seat, or None for an observer) may see it."""
    private = PRIVATE_FIELDS.get(event["type"], ())
    if not private or event.get("seat") == viewer:
        return event
    return {key: value for key, value in event.items() if key not in private}


def render(event: dict, viewer: int | None, names: Sequence[str], titles: Sequence[str]) -> str:
    """The chat log line for ``event`` as ``viewer`` sees it.

    ``names`` are the players' names by seat, ``titles`` the card titles by card id (see
    ``api.card_titles``). Card names are plain text; the page decorates them.
    """
    event = redact(event, viewer)

    def does(second_person: str, third_person: str, seat_key: str = "seat") -> str:
        """Subject and verb: "You draw" for the viewer's own seat, "Shochu draws" otherwise."""
        seat = event[seat_key]
        return f"You {second_person}" if seat == viewer else f"{names[seat]} {third_person}"

    def whose(seat_key: str = "seat") -> str:
        seat = event[seat_key]
        return "your" if seat == viewer else f"{names[seat]}'s"

    def card(key: str = "card") -> str:
        return titles[event[key]]

    def cards(key: str) -> str:
        return ", ".join(titles[card_id] for card_id in event[key])

    match event:
        case {"type": "first_player"}:
            text = f"{does('go', 'goes')} first."
        case {"type": "avatar_played"}:
            text = f"{does('play', 'plays')} the avatar {card()}."
        case {"type": "quest_played"}:
            text = f"{card()} is played from {whose()} quest pile."
        case {"type": "deck_shuffled"}:
            text = f"{_capitalised(whose())} deck is shuffled."
        case {"type": "draw", "card": _}:
            text = f"{does('draw', 'draws')} {card()}."
        case {"type": "draw"}:
            text = f"{does('draw', 'draws')} a card."
        case {"type": "hand_kept"}:
            text = f"{does('keep', 'keeps')} the opening hand."
        case {"type": "hand_redrawn"}:
            text = f"{does('redraw', 'redraws')} the opening hand."
        case {"type": "turn_started", "turn": turn}:
            text = f"Turn {turn}: {whose()} turn begins."
        case {"type": "phase_started", "phase": phase}:
            text = f"{_capitalised(whose())} {PHASE_NAMES[phase]} Phase."
        case {"type": "power_lost", "amount": amount}:
            text = f"{does('lose', 'loses')} {amount} unspent power."
        case {"type": "power_gained", "amount": amount}:
            text = f"{does('gain', 'gains')} {amount} power."
        case {"type": "quest_attempted"}:
            text = f"{does('attempt', 'attempts')} {card('quest')}."
        case {"type": "card_played", "quest": _}:
            text = f"{does('play', 'plays')} {card()} to {card('quest')}."
        case {"type": "card_played"}:
            text = f"{does('play', 'plays')} {card()}."
        case {"type": "tactic_played"}:
            text = f"{does('play', 'plays')} the tactic {card()}."
        case {"type": "combat_began", "kind": "raid"}:
            text = (
                f"{does('raid', 'raids', 'attacker')} from {card('quest')}: "
                f"{cards('attackers')} against {cards('defenders')}."
            )
        case {"type": "combat_began"}:
            text = (
                f"{does('begin', 'begins', 'attacker')} combat at {card('quest')}: "
                f"{cards('attackers')} against {cards('defenders')}."
            )
        case {"type": "exerted", "attribute": attribute, "amount": amount, "total": total}:
            text = (
                f"{does('exert', 'exerts')} {card()} for {amount} {ATTRIBUTE_NAMES[attribute]} "
                f"({total} in all)."
            )
        case {"type": "passed"}:
            text = f"{does('pass', 'passes')}."
        case {"type": "combat_decided", "winner": None, "attack": attack, "defense": defense}:
            text = f"The combat is a tie, {attack} to {defense}."
        case {"type": "combat_decided", "attack": attack, "defense": defense}:
            text = (
                f"{does('win', 'wins', 'winner')} the combat, {attack} attack to {defense} defense."
            )
        case {"type": "damage_assigned"}:
            text = f"{does('assign', 'assigns')} 1 damage to {card()}."
        case {"type": "damaged", "amount": amount}:
            text = f"{card()} takes {amount} damage."
        case {"type": "destroyed"}:
            text = f"{card()} is destroyed."
        case {"type": "combat_ended"}:
            text = f"The combat at {card('quest')} is over."
        case {"type": "ability_applied", "tokens": tokens}:
            text = f"{does('apply', 'applies')} {card()} to {card('quest')}: {tokens} level tokens."
        case {"type": "quest_completed", "power": power}:
            text = f"{does('complete', 'completes')} {card('quest')} (+{power} power)."
        case {"type": "readied"}:
            text = f"{does('ready', 'readies')} {cards('cards')}."
        case {"type": "discarded"}:
            text = f"{does('discard', 'discards')} {card()}."
        case {"type": "turn_ended"}:
            text = f"{_capitalised(whose())} turn ends."
        case {"type": "game_won", "reason": reason}:
            text = f"{does('win', 'wins')} the game by {WIN_REASONS[reason]}."
        case _:
            raise ValueError(f"no message for event {event!r}")
    return f"* {text}"


def _capitalised(text: str) -> str:
    return text[0].upper() + text[1:]
