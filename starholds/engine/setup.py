"""Set-up (rulebook, "Set-Up", "The Ante", "Reserve Fleet"): decks checked and shuffled, the
ante decides the turn order (highest strength first, ties by a seeded die), the reserve fleets
are turned up, everyone draws 9, and the first player's turn begins."""

import json

from starholds.engine import decks, rng, turn, zones
from starholds.engine.errors import InvalidDecklist
from starholds.engine.options import Options
from starholds.engine.state import Card, Seat, State

MAX_SEATS = 12
DIE = 6


def new_game(decklists: list[dict], seed: int, options: Options, events: list[dict]) -> State:
    if not 2 <= len(decklists) <= MAX_SEATS:
        raise InvalidDecklist(f"Starholds is played by 2 to {MAX_SEATS} players.")
    problems = [
        f"seat {seat}: {problem}"
        for seat, decklist in enumerate(decklists)
        for problem in decks.deck_problems(decklist, len(decklists))
    ]
    if problems:
        raise InvalidDecklist("\n".join(problems))
    definitions: list[dict] = []
    index_of: dict[str, int] = {}
    empires: dict[str, dict] = {}
    all_cards: list[Card] = []
    seats: list[Seat] = []
    for seat, decklist in enumerate(decklists):
        for empire in decklist["empires"]:
            empires.setdefault(empire["slug"], dict(empire))
        player = Seat(empire=decklist["empire"])
        for zone, listed in (("deck", decklist["deck"]), ("reserve", decklist["reserve"])):
            for face in listed:
                key = json.dumps(face, sort_keys=True)
                if key not in index_of:
                    index_of[key] = len(definitions)
                    definitions.append(json.loads(key))
                all_cards.append(Card(definition=index_of[key], owner=seat, controller=seat))
                all_cards[-1].zone = zone
                getattr(player, zone).append(len(all_cards) - 1)
        seats.append(player)
    state = State(
        definitions=definitions,
        empires=empires,
        cards=all_cards,
        seats=seats,
        options=options.to_dict(),
        rng=rng.seed_state(seed),
    )
    for player in state.seats:
        rng.shuffle(state, player.deck)
    antes = {}
    for seat, player in enumerate(state.seats):
        ante = player.deck.pop(0)
        state.cards[ante].zone = "discard"
        player.discard.append(ante)
        antes[seat] = state.definitions[state.cards[ante].definition]["strength"]
        events.append({"type": "ante", "seat": seat, "card": ante})
    state.order = _ante_order(state, antes)
    events.append({"type": "turn_order", "order": list(state.order)})
    for seat in range(len(state.seats)):
        zones.draw(state, seat, options.opening_hand, events)
    state.active = state.order[0]
    turn.begin_turn(state, events)
    return state


def _ante_order(state: State, antes: dict[int, int]) -> list[int]:
    """Highest ante first; players tied roll a die, again while tied (The Ante)."""

    def ranked(group: list[int]) -> list[int]:
        if len(group) == 1:
            return group
        rolls = {seat: rng.below(state, DIE) for seat in group}
        order = []
        for roll in sorted(set(rolls.values()), reverse=True):
            order += ranked([seat for seat in group if rolls[seat] == roll])
        return order

    order = []
    for strength in sorted(set(antes.values()), reverse=True):
        order += ranked([seat for seat in sorted(antes) if antes[seat] == strength])
    return order
