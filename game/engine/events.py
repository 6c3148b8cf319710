"""Events: what changed, as small dicts with a ``type`` and ids, and the chat log's game
messages rendered from them (THE GAME SCREEN, "Game Messages").

An event may name a card the other players must not see (the card a player draws). Each seat
gets events through ``redact``, and messages are rendered for one viewer: "* You draw Field
Kit." for the player who drew, "* Shochu draws a card." for everybody else. ``render_parts``
tells apart the card names of a message, which the Chat Log lets a reader magnify; a name is
in the message only when its viewer may see the card.
"""

from collections.abc import Sequence
from types import MappingProxyType

# The fields of an event that only its own seat may see.
# A card revealed on its way into a hand is named by title: its id would let the other
# players follow it there.
PRIVATE_FIELDS = MappingProxyType(
    {
        "draw": ("card",),
        "searched": ("card",),
        "recovered": ("card",),
        "card_created": ("card",),
        "returned": ("card",),
    }
)

WIN_REASONS = MappingProxyType(
    {
        "quests_completed": "completing a quest with an empty quest pile",
        "avatar_destroyed": "destroying the opposing avatar",
        "deck_empty": "the opponent having to draw from an empty deck",
        "all_avatars_destroyed": "taking the turn when every avatar was destroyed at once",
        "left": "the last opposing player leaving the game",
        "victory_condition": "meeting the encounter's victory condition",
    }
)
# Why a player of a team game lost while his teammates play on (MULTIPLAYER GAMES).
LOSS_REASONS = MappingProxyType(
    {
        "avatar_destroyed": "having the avatar destroyed",
        "deck_empty": "having to draw from an empty deck",
        "left": "leaving the game",
    }
)
ATTRIBUTE_NAMES = MappingProxyType(
    {"attack": "attack", "defense": "defense", "damage_bonus": "damage bonus"}
)
PHASE_NAMES = MappingProxyType({"draw": "Draw", "quest": "Quest", "ready": "Ready", "main": "Main"})
DURATIONS = MappingProxyType(
    {
        "combat": " until end of combat",
        "turn": " until end of turn",
        "permanent": " permanently",
        "while_in_play": "",
    }
)
PROHIBITIONS = MappingProxyType({"exert": "be exerted", "ready": "ready", "raid": "raid"})


# Events with no line of their own: the damage a card takes is told by the damage dealt ("is
# dealt 2 damage", and a shield's stop by a line of its own); a second line for the same hit
# doubled every combat's damage in the log.
TOLD_BY_ANOTHER = frozenset({"damaged"})


def redact(event: dict, viewer: int | None) -> dict:
    """The event as ``viewer`` (a seat, or None for an observer) may see it."""
    private = PRIVATE_FIELDS.get(event["type"], ())
    if not private or event.get("seat") == viewer:
        return event
    return {key: value for key, value in event.items() if key not in private}


# Marks each card name in a message while it is worded: neither a card title (``_Phrasing``
# takes it out of one) nor a player's name holds it.
CARD_MARK = "\x1f"


def render(event: dict, viewer: int | None, names: Sequence[str], titles: Sequence[str]) -> str:
    """The chat log line for ``event`` as ``viewer`` sees it; empty for an event told by
    another's line.

    ``names`` are the players' names by seat, ``titles`` the card titles by card id (see
    ``api.card_titles``). Card names are plain text; ``render_parts`` tells them apart.
    """
    return _marked(event, viewer, names, titles).replace(CARD_MARK, "")


def render_parts(
    event: dict, viewer: int | None, names: Sequence[str], titles: Sequence[str]
) -> list[tuple[str, bool]]:
    """The line of ``render`` in its parts, in order: (text, False) for words, (title, True)
    for the name of a card (the Chat Log makes each a button that magnifies the card). No
    card id is given: a card drawn into a hand and later played would be followed by it."""
    pieces = _marked(event, viewer, names, titles).split(CARD_MARK)
    # Marks come in pairs: the odd pieces are the names.
    return [(piece, index % 2 == 1) for index, piece in enumerate(pieces) if piece]


def _marked(event: dict, viewer: int | None, names: Sequence[str], titles: Sequence[str]) -> str:
    """The line for ``event``, each card name between two ``CARD_MARK``."""
    if event["type"] in TOLD_BY_ANOTHER:
        return ""
    event = redact(event, viewer)
    # Bound methods of one object rather than closures over each other: closures would make
    # a reference cycle on every call, left for the garbage collector (a web process renders
    # thousands of these lines a minute).
    phrasing = _Phrasing(event, viewer, names, titles)
    does, does_, whose, whose_seat = (
        phrasing.does,
        phrasing.does_,
        phrasing.whose,
        phrasing.whose_seat,
    )
    card, cards, keyword = phrasing.card, phrasing.cards, phrasing.keyword
    named = phrasing.named

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
        case {"type": "card_played", "entangled": controller}:
            text = f"{does('play', 'plays')} {card()} under {whose_seat(controller)} control."
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
        case {"type": "damage_dealt", "amount": amount}:
            text = f"{card()} is dealt {amount} damage."
        case {"type": "shield_used", "amount": amount}:
            text = f"{card()}'s shield stops {amount} damage."
        case {"type": "healed", "amount": amount}:
            text = f"{card()} heals {amount} damage."
        case {"type": "keyword_lost"}:
            text = f"{card()} loses {keyword()}."
        case {"type": "power_paid", "amount": amount}:
            text = f"{does('pay', 'pays')} {amount} power."
        case {"type": "exerted_for_cost" | "exerted_by_effect"}:
            text = f"{card()} is exerted."
        case {"type": "shielded", "amount": amount}:
            text = f"{card()} gets a {amount}-point shield."
        case {"type": "changed", "primitive": "modify", "stat": stat, "amount": amount}:
            text = (
                f"{card()} gets {amount:+d} {ATTRIBUTE_NAMES.get(stat, stat)}"
                f"{DURATIONS[event['duration']]}."
            )
        case {"type": "changed", "primitive": "grant_keyword"}:
            text = f"{card()} has {keyword()}{DURATIONS[event['duration']]}."
        case {"type": "changed", "primitive": "remove_keyword"}:
            text = f"{card()} loses {keyword()}{DURATIONS[event['duration']]}."
        case {"type": "changed", "primitive": "prohibit", "action": action}:
            text = f"{card()} can't {PROHIBITIONS[action]}{DURATIONS[event['duration']]}."
        case {"type": "total_added", "amount": amount, "total": total}:
            what = f" ({event['keyword'].capitalize()})" if "keyword" in event else ""
            text = f"{does('get', 'gets')} {amount:+d} to the combat total{what} ({total} in all)."
        case {"type": "damage_added", "amount": amount}:
            text = f"{does('deal', 'deals')} {amount:+d} damage if dealing any in this combat."
        case {"type": "moved"}:
            text = f"{card()} moves to {card('quest')}."
        case {"type": "withdrew"}:
            text = f"{card()} withdraws from the combat."
        case {"type": "joined_combat"}:
            text = f"{card()} joins the combat."
        case {"type": "searched", "title": title}:
            text = (
                f"{does('search', 'searches')} the deck and "
                f"{does_('reveal', 'reveals')} {named(title)}."
            )
        case {"type": "search_failed"}:
            text = f"{does('search', 'searches')} the deck and {does_('find', 'finds')} nothing."
        case {"type": "recovered", "title": title}:
            text = f"{does('return', 'returns')} {named(title)} from the discard pile to the hand."
        case {"type": "card_created", "title": title}:
            text = f"A copy of {named(title)} is created in {whose()} hand."
        case {"type": "tokens_placed", "amount": amount}:
            text = f"{amount} of {whose()} level tokens are placed at {card('quest')}."
        case {"type": "unit_tokens_placed", "amount": amount}:
            text = f"{amount} level tokens are placed on {card()}."
        case {"type": "unit_tokens_removed", "amount": amount}:
            text = f"{amount} level tokens are removed from {card()}."
        case {"type": "tokens_moved", "amount": amount}:
            text = f"{amount} of {whose()} level tokens move from {card('quest')} to {card('to')}."
        case {"type": "raid_again"}:
            text = f"{does('may', 'may')} raid a second time from {card('quest')} this turn."
        case {"type": "targeted", "card": None}:
            text = f"{card('target')} is targeted."
        case {"type": "targeted"}:
            text = f"{card()} targets {card('target')}."
        case {"type": "linked", "card": None}:
            text = f"{card('target')} is linked."
        case {"type": "linked"}:
            text = f"{card()} is linked to {card('target')}."
        case {"type": "declined", "card": None}:
            text = f"{does('decline', 'declines')} an optional effect."
        case {"type": "declined"}:
            text = f"{does('decline', 'declines')} the optional effect of {card()}."
        case {"type": "returned", "title": title}:
            text = f"{named(title)} returns to {whose()} hand."
        case {"type": "removed_from_game"}:
            text = f"{card()} is removed from the game."
        case {"type": "expertise"}:
            text = f"{card()} permanently gets +1 attack and +1 defense (Expertise)."
        case {"type": "combat_ended", "withdrawn": True}:
            text = f"The combat at {card('quest')} ends: a side withdrew."
        case {"type": "turn_ended"}:
            text = f"{_capitalised(whose())} turn ends."
        case {"type": "quest_removed"}:
            text = f"{card()} is removed from the game: three quests are in play."
        case {"type": "commander_chosen"}:
            text = f"{does('command', 'commands')} the defending units."
        case {"type": "player_lost", "reason": reason}:
            text = f"{does('lose', 'loses')} the game by {LOSS_REASONS[reason]}."
        case {"type": "left_game"}:
            text = (
                f"{does('leave', 'leaves')} the game: {whose()} cards and tokens are destroyed, "
                f"{whose()} quests remain in play."
            )
        case {"type": "deck_reshuffled", "count": count}:
            text = (
                f"{_capitalised(whose())} discard pile is shuffled into a new deck of {count} "
                "cards: the boss can't run out of cards."
            )
        case {"type": "reach_extended"}:
            text = f"{_capitalised(whose())} reach extends to another quest."
        case {"type": "game_won", "reason": reason, "seats": seats} if len(seats) > 1:
            # A side wins, not a player (MULTIPLAYER GAMES, "Winning the Game").
            text = f"{phrasing.side(seats)} win the game by {WIN_REASONS[reason]}."
        case {"type": "game_won", "reason": reason}:
            text = f"{does('win', 'wins')} the game by {WIN_REASONS[reason]}."
        case _:
            raise ValueError(f"no message for event {event!r}")
    return f"* {text}"


class _Phrasing:
    """The words of one event's message for one viewer."""

    def __init__(
        self, event: dict, viewer: int | None, names: Sequence[str], titles: Sequence[str]
    ):
        self.event = event
        self.viewer = viewer
        self.names = names
        self.titles = titles

    def does(self, second_person: str, third_person: str, seat_key: str = "seat") -> str:
        """Subject and verb: "You draw" for the viewer's own seat, "Shochu draws" otherwise."""
        seat = self.event[seat_key]
        return (
            f"You {second_person}" if seat == self.viewer else f"{self.names[seat]} {third_person}"
        )

    def does_(self, second_person: str, third_person: str) -> str:
        """The second verb of a sentence, agreeing with its subject."""
        return second_person if self.event["seat"] == self.viewer else third_person

    def side(self, seats: Sequence[int]) -> str:
        """The players of a side: "Ayla and Cato", "You and Cato", "You, Bren and Dax"."""
        names = [self.names[seat] for seat in seats if seat != self.viewer]
        if self.viewer in seats:
            names.insert(0, "You")
        return ", ".join(names[:-1]) + f" and {names[-1]}"

    def whose(self, seat_key: str = "seat") -> str:
        return self.whose_seat(self.event[seat_key])

    def whose_seat(self, seat: int) -> str:
        return "your" if seat == self.viewer else f"{self.names[seat]}'s"

    def card(self, key: str = "card") -> str:
        return self.named(self.titles[self.event[key]])

    def cards(self, key: str) -> str:
        return ", ".join(self.named(self.titles[card_id]) for card_id in self.event[key])

    def named(self, title: str) -> str:
        """A card's name, marked as one (``render_parts``)."""
        return f"{CARD_MARK}{title.replace(CARD_MARK, '')}{CARD_MARK}"

    def keyword(self) -> str:
        return self.event["keyword"].capitalize()


def _capitalised(text: str) -> str:
    return text[0].upper() + text[1:]
