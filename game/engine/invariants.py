"""What must hold of every state the engine reaches, checked on any state: ``simulate`` checks
it after every action of every game it plays, and the position builder on every position.

Compiled with the engine (``make engine``): after every action it must cost a small part of
what the action itself costs.
"""

from game.engine.phases import HAND_LIMIT
from game.engine.state import State


def invariant_violations(state: State, events: list[dict]) -> list[str]:
    """What is wrong with ``state`` just after the action that emitted ``events``: a card
    not in exactly one zone, a seat with less than no power (Power cost), a hand above the
    limit at the end of a turn (Ending Your Main Phase)."""
    problems = zone_violations(state)
    for seat, player in enumerate(state.seats):
        if player.power < 0:
            problems.append(f"seat {seat} has {player.power} power")
    for event in events:
        if event["type"] == "turn_ended":
            ended: int = event["seat"]
            hand = len(state.seats[ended].hand)
            if hand > HAND_LIMIT:
                problems.append(f"seat {ended} ended a turn with {hand} cards in hand")
    return problems


def zone_violations(state: State) -> list[str]:
    """Every card id must be in exactly one zone: an avatar, a quest pile, a deck, a hand, a
    discard pile, an item or ability area, the completed or removed cards, a quest on the
    playmat or the units at one."""
    if _each_card_once(state):
        return []
    # Something is wrong: count how many zones hold each card, to say which are misplaced.
    held = [0] * len(state.cards)
    strays: list[int] = []
    for player in state.seats:
        _count(held, strays, player.avatar)
        _count_all(held, strays, player.quest_pile)
        _count_all(held, strays, player.deck)
        _count_all(held, strays, player.hand)
        _count_all(held, strays, player.discard)
        _count_all(held, strays, player.items)
        _count_all(held, strays, player.abilities)
        _count_all(held, strays, player.completed)
        _count_all(held, strays, player.removed)
    for quest in state.quests:
        _count(held, strays, quest.card)
        for units in quest.units:
            _count_all(held, strays, units)
    problems = []
    misplaced = [card for card, zones in enumerate(held) if zones != 1]
    if misplaced:
        problems.append(f"cards not in exactly one zone: {misplaced}")
    if strays:
        problems.append(f"ids in a zone that are no card's: {strays}")
    return problems


def _count_all(held: list[int], strays: list[int], cards: list[int]) -> None:
    for card in cards:
        _count(held, strays, card)


def _count(held: list[int], strays: list[int], card: int) -> None:
    if 0 <= card < len(held):
        held[card] += 1
    else:
        strays.append(card)


def _each_card_once(state: State) -> bool:
    """Whether every card is in exactly one zone: the quick answer, stopping at the first
    card met twice or at an id that is no card's. As many placed as there are cards, none
    twice, means each once."""
    seen = [False] * len(state.cards)
    placed = 0
    for player in state.seats:
        if not (
            _place(seen, player.avatar)
            and _place_all(seen, player.quest_pile)
            and _place_all(seen, player.deck)
            and _place_all(seen, player.hand)
            and _place_all(seen, player.discard)
            and _place_all(seen, player.items)
            and _place_all(seen, player.abilities)
            and _place_all(seen, player.completed)
            and _place_all(seen, player.removed)
        ):
            return False
        placed += 1 + len(player.quest_pile) + len(player.deck) + len(player.hand)
        placed += len(player.discard) + len(player.items) + len(player.abilities)
        placed += len(player.completed) + len(player.removed)
    for quest in state.quests:
        if not _place(seen, quest.card):
            return False
        placed += 1
        for units in quest.units:
            if not _place_all(seen, units):
                return False
            placed += len(units)
    return placed == len(seen)


def _place_all(seen: list[bool], cards: list[int]) -> bool:
    size = len(seen)
    for card in cards:
        if card < 0 or card >= size or seen[card]:
            return False
        seen[card] = True
    return True


def _place(seen: list[bool], card: int) -> bool:
    """Marks ``card`` seen; False if it was already, or if it is no card's id."""
    if card < 0 or card >= len(seen) or seen[card]:
        return False
    seen[card] = True
    return True
