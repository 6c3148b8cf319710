"""What must hold of every state the engine reaches; the arena and ``simulate`` check it after
every action: each card in exactly one zone, Card Play and command limits, Shields, strength
and points never negative, eliminated players without cards in play, and each seat's view
hiding what it must.

They run after every action of long simulated runs, so each check compares whole lists at
once and looks card by card only to name what it found wrong."""

from starholds.engine import cards
from starholds.engine.state import State
from starholds.engine.turn import MAX_CARD_PLAYS, deciding
from starholds.engine.views import private_view, public_view

_LISTED = ("deck", "hand", "discard", "reserve", "hq")


def invariant_violations(state: State, events: list[dict]) -> list[str]:
    problems = zone_violations(state)
    problems += limit_violations(state, events)
    problems += damage_violations(state)
    problems += view_violations(state)
    return problems


def zone_violations(state: State) -> list[str]:
    """Every card is listed exactly once, where its ``zone`` says: in a list of its owner's,
    at the head of its controller's fleet, on the card its ``on`` names, or on the chain."""
    entries = state.cards
    listed: list[int] = []  # every card listed anywhere, and where (``zones``)
    zones: list[str] = []
    owners: list[int] = []  # the seat whose own list holds each of the first cards listed
    for seat, player in enumerate(state.seats):
        for zone in _LISTED:
            held = getattr(player, zone)
            listed += held
            zones += [zone] * len(held)
            owners += [seat] * len(held)
    problems = []
    if [entries[card].owner for card in listed] != owners:
        problems += [
            f"card {card} lies in the {zone} of seat {seat}"
            for card, zone, seat in zip(listed, zones, owners, strict=True)
            if entries[card].owner != seat
        ]
    for seat, player in enumerate(state.seats):
        listed += player.fleet
        zones += ["play"] * len(player.fleet)
        problems += [
            f"card {card} heads a fleet it is not in"
            for card in player.fleet
            if entries[card].on is not None or entries[card].controller != seat
        ]
    for host, entry in enumerate(entries):
        if entry.attached or entry.parts:
            stacked = (*entry.attached, *entry.parts)
            listed += stacked
            zones += ["play"] * len(stacked)
            problems += [
                f"card {card} is on {host} without pointing at it"
                for card in stacked
                if entries[card].on != host
            ]
    for item in state.chain:
        if "card" in item and entries[item["card"]].zone == "chain":
            listed.append(item["card"])
            zones.append("chain")
    everyone = range(len(entries))
    if sorted(listed) != list(everyone) or [entries[card].zone for card in listed] != zones:
        found: list[list[str]] = [[] for _ in entries]
        for card, zone in zip(listed, zones, strict=True):
            found[card].append(zone)
        problems += [
            f"card {card} ({entries[card].zone}) is found in {found[card]}"
            for card in everyone
            if found[card] != [entries[card].zone]
        ]
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
    dead = {seat for seat, player in enumerate(state.seats) if not player.alive}
    if dead:
        problems += [
            f"eliminated seat {entry.controller} still controls card {card} in play"
            for card, entry in enumerate(state.cards)
            if entry.zone == "play" and entry.controller in dead
        ]
    for event in events:
        if event["type"] != "entered" or cards.kind(state, event["card"]) not in cards.UNIT_TYPES:
            continue
        seat = event["seat"]
        if cards.command_used(state, seat) > 2 * state.seats[seat].command:
            problems.append(f"seat {seat} played a unit beyond its command slots")
    return problems


def damage_violations(state: State) -> list[str]:
    """Cards in play: damage, Shield damage, field and armor never negative, and no card that
    strength protects left in play with none (cards leaving play are reset, zones.put)."""
    problems = []
    for card, entry in enumerate(state.cards):
        if entry.zone != "play":
            continue
        if min(entry.damage, entry.shield_damage, entry.field_points, entry.armor_used) < 0:
            problems.append(f"card {card} has negative damage, Shields or field")
        if not entry.damage or cards.is_part(state, card):
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


def shown_cards(state: State) -> set[int]:
    """Every card the part of the view all seats share shows: the cards ``public_view`` draws,
    each with the cards on and against it as ``views.card_view`` draws them."""
    shown: set[int] = set()

    def note(state: State, card: int, refits: object = None) -> None:
        shown.add(card)
        entry = state.cards[card]
        if entry.zone == "play":
            for other in (*entry.parts, *entry.attached):
                note(state, other)

    public_view(state, deciding(state), note)
    return shown


def view_violations(state: State) -> list[str]:
    """The part every seat sees shows no card of a hand or deck; each seat's own part shows
    exactly its own hand (views.view joins the one to the other)."""
    problems = []
    leaked = shown_cards(state) & hidden_cards(state, None)
    if leaked:
        problems.append(f"every view shows hidden cards {sorted(leaked)}")
    for seat, player in enumerate(state.seats):
        shown = [card["id"] for card in private_view(state, seat)["hand"]]
        if shown != player.hand:
            problems.append(f"the view of seat {seat} shows {shown} as its hand")
    return problems
