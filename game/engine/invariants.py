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
    limit at the end of a turn (Ending Your Main Phase), a ready card with a reason it was
    exerted (EXERT AND READY)."""
    problems = zone_violations(state)
    for card, instance in enumerate(state.cards):
        if instance.exerted_for and not instance.exerted:
            problems.append(f"card {card} is ready but exerted for {instance.exerted_for}")
    if state.teams is not None:
        problems += team_violations(state, events)
    for seat, player in enumerate(state.seats):
        if player.power < 0:
            problems.append(f"seat {seat} has {player.power} power")
    for index, event in enumerate(events):
        if event["type"] == "turn_ended":
            ended: int = event["seat"]
            hand = len(state.seats[ended].hand)
            if hand > HAND_LIMIT:
                # His hand as the turn ended: less what text resolving after it put there.
                hand -= sum(
                    (later["type"] in _INTO_HAND) - (later["type"] == "discarded")
                    for later in events[index + 1 :]
                    if later.get("seat") == ended
                )
            if hand > HAND_LIMIT:
                problems.append(f"seat {ended} ended a turn with {hand} cards in hand")
    return problems


# The events of a card put into its seat's hand.
_INTO_HAND = frozenset({"draw", "searched", "recovered", "card_created", "returned"})


def team_violations(state: State, events: list[dict]) -> list[str]:
    """What must hold of a team game (MULTIPLAYER GAMES): three quests in play; each seat
    still playing has at least two of them in reach (a hero of a heroic encounter one), and
    plays units and attempts quests only there; each side reaches every quest while it plays
    on; the quests completed at the locations add up to those the players completed; a
    player who left has no card on the playmat and no level tokens. (A unit may stand out
    of its player's reach: a defending commander may have "units defending" where he
    "doesn't have that quest location in reach".)"""
    teams = state.teams
    if teams is None:
        return []
    problems = []
    locations = range(len(state.quests))
    if len(state.quests) != 3:
        problems.append(f"{len(state.quests)} quests in play, not 3")
    # The heroes on the far left and right of a heroic encounter reach one quest.
    fewest = 1 if teams.boss is not None else 2
    for seat in range(len(state.seats)):
        within = teams.reach[seat]
        if seat not in teams.left:
            if len(set(within)) < fewest or not set(within) <= set(locations):
                problems.append(f"seat {seat} has the quests {within} in reach")
        elif state.winner is None:  # those who lost with the game's end stay as they were
            player = state.seats[seat]
            if player.items or player.abilities:
                problems.append(f"seat {seat} left the game with cards beside his avatar")
            if any(quest.units[seat] or quest.tokens[seat] for quest in state.quests):
                problems.append(f"seat {seat} left the game with units or tokens at a quest")
    for side in teams.sides:
        standing = [seat for seat in side if seat not in teams.left]
        covered = {at for seat in standing for at in teams.reach[seat]}
        if standing and covered != set(locations) and state.winner is None:
            problems.append(f"the side {side} reaches only the quests {sorted(covered)}")
    completed = sum(len(player.completed) for player in state.seats)
    if sum(teams.completions) != completed:
        problems.append(f"{teams.completions} quests completed by location, {completed} by player")
    quest_cards = [quest.card for quest in state.quests]
    for event in events:
        # (A quest completed later in the same action has left: nothing to check then.)
        if event["type"] == "card_played" and event.get("quest") in quest_cards:
            at = quest_cards.index(event["quest"])
            if at not in teams.reach[event["seat"]]:
                problems.append(f"seat {event['seat']} played a unit to quest {at}, out of reach")
        if event["type"] == "quest_attempted" and event["quest"] in quest_cards:
            at = quest_cards.index(event["quest"])
            if at not in teams.reach[event["seat"]]:
                problems.append(f"seat {event['seat']} attempted quest {at}, out of reach")
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
