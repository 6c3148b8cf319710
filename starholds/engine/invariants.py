"""What must hold of every state the engine reaches; the arena and ``simulate`` check it after
every action: each card in exactly one zone, Card Play and command limits, Shields, strength
and points never negative, eliminated players without cards in play, and each seat's view
hiding what it must."""

from starholds.engine import cards
from starholds.engine.state import ZONES, State
from starholds.engine.turn import MAX_CARD_PLAYS, deciding
from starholds.engine.views import card_ids, private_view, public_view

_LISTED = ("deck", "hand", "discard", "reserve", "hq")


def invariant_violations(state: State, events: list[dict]) -> list[str]:
    problems = zone_violations(state)
    problems += limit_violations(state, events)
    problems += damage_violations(state)
    problems += view_violations(state)
    return problems


def zone_violations(state: State) -> list[str]:
    """Every card is listed exactly once, where its ``zone`` says."""
    found: dict[int, list[str]] = {card: [] for card in range(len(state.cards))}
    for seat, player in enumerate(state.seats):
        for zone in _LISTED:
            for card in getattr(player, zone):
                found[card].append(zone)
                if state.cards[card].owner != seat:
                    found[card].append(f"{zone} of seat {seat}, not its owner's")
        for card in player.fleet:
            found[card].append("play")
            if state.cards[card].on is not None or state.cards[card].controller != seat:
                found[card].append("a fleet it does not head")
    for host, entry in enumerate(state.cards):
        for card in (*entry.attached, *entry.parts):
            found[card].append("play")
            if state.cards[card].on != host:
                found[card].append(f"on {host} without pointing at it")
    for item in state.chain:
        if "card" in item and state.cards[item["card"]].zone == "chain":
            found[item["card"]].append("chain")
    problems = []
    for card, places in found.items():
        zone = state.cards[card].zone
        if zone not in ZONES or places != [zone]:
            problems.append(f"card {card} ({zone}) is found in {places}")
    return problems


def limit_violations(state: State, events: list[dict]) -> list[str]:
    problems = []
    for seat, player in enumerate(state.seats):
        if not 0 <= player.plays <= MAX_CARD_PLAYS:
            problems.append(f"seat {seat} used {player.plays} Card Plays")
        if any(amount < 0 for amount in player.spent.values()):
            problems.append(f"seat {seat} spent negative points")
        if player.alive and player.hq_damage >= state.options["hq_strength"]:
            problems.append(f"seat {seat} plays on with a destroyed Sector HQ")
        if not player.alive and any(True for _ in cards.in_play(state, seat)):
            problems.append(f"eliminated seat {seat} still controls cards in play")
    for event in events:
        if event["type"] != "entered" or cards.kind(state, event["card"]) not in cards.UNIT_TYPES:
            continue
        seat = event["seat"]
        if cards.command_used(state, seat) > 2 * state.seats[seat].command:
            problems.append(f"seat {seat} played a unit beyond its command slots")
    return problems


def damage_violations(state: State) -> list[str]:
    problems = []
    for card, entry in enumerate(state.cards):
        if min(entry.damage, entry.shield_damage, entry.field_points, entry.armor_used) < 0:
            problems.append(f"card {card} has negative damage, Shields or field")
        if not entry.damage or entry.zone != "play" or cards.is_part(state, card):
            continue
        card_type = cards.kind(state, card)
        destructible = card_type in cards.UNIT_TYPES or card_type == "terrain"
        if destructible and entry.damage >= cards.strength(state, card):
            problems.append(f"card {card} is in play with no strength left")
    return problems


def hidden_cards(state: State, seat: int | None) -> set[int]:
    """The cards ``seat`` must not see: every deck, and every hand but its own."""
    hidden = set()
    for other, player in enumerate(state.seats):
        hidden.update(player.deck)
        if other != seat:
            hidden.update(player.hand)
    return hidden


# Where a view lists cards (views.py): each listed card view names its ``id``.
_CARD_LISTS = ("hand", "discard", "reserve", "hq", "fleet", "parts", "attached")


def _ids(found: object) -> set[int]:
    """Every card id a view shows, wherever it lists card views."""
    ids: set[int] = set()
    todo = [found]
    while todo:
        item = todo.pop()
        if type(item) is dict:
            if "id" in item:
                ids.add(item["id"])
            for key in _CARD_LISTS:
                if key in item and type(item[key]) is list:
                    todo.extend(item[key])
            for key in ("seats", "chain"):
                if key in item:
                    todo.extend(item[key])
            if "card" in item and type(item["card"]) is dict:
                todo.append(item["card"])
    return ids


def view_violations(state: State) -> list[str]:
    """The part every seat sees shows no card of a hand or deck; each seat's own part shows no
    card hidden from it (views.view is the one joined to the other)."""
    problems = []
    leaked = _ids(public_view(state, deciding(state), card_ids)) & hidden_cards(state, None)
    if leaked:
        problems.append(f"every view shows hidden cards {sorted(leaked)}")
    for seat in range(len(state.seats)):
        leaked = _ids(private_view(state, seat)) & hidden_cards(state, seat)
        if leaked:
            problems.append(f"the view of seat {seat} shows hidden cards {sorted(leaked)}")
    return problems
