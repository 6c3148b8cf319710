"""Moving cards between zones: drawing, entering play, discarding stacks (rulebook, "Discarded
Cards"), control and its end (Control), and a player's elimination (Victory Conditions). Every
move goes through ``lift`` and a placement, so each card stays in exactly one zone."""

from starholds.engine import cards
from starholds.engine.state import Card, State

_LISTED = ("deck", "hand", "discard", "reserve", "hq")


def lift(state: State, card: int) -> None:
    """Takes the card out of the zone it is in (the caller puts it somewhere)."""
    entry = state.cards[card]
    if entry.zone in _LISTED:
        getattr(state.seats[entry.owner], entry.zone).remove(card)
    elif entry.zone == "play":
        if entry.on is None:
            state.seats[entry.controller].fleet.remove(card)
        else:
            host = state.cards[entry.on]
            (host.parts if card in host.parts else host.attached).remove(card)
    entry.on = None


def _reset(entry: Card) -> None:
    entry.on = None
    entry.attached = []
    entry.parts = []
    entry.engaged = False
    entry.damage = entry.shield_damage = entry.field_points = entry.armor_used = 0
    entry.powered = entry.armed = entry.research = 0
    entry.fired = []
    entry.used = -1
    entry.played = 0
    entry.control = None
    entry.controller = entry.owner


def put(state: State, card: int, zone: str, events: list[dict], *, top: bool = False) -> None:
    """Puts a lifted card into one of its owner's listed zones (a deck's top if ``top``)."""
    entry = state.cards[card]
    _reset(entry)
    entry.zone = zone
    pile = getattr(state.seats[entry.owner], zone)
    if top:
        pile.insert(0, card)
    else:
        pile.append(card)
    if zone == "discard":
        events.append({"type": "discarded", "seat": entry.owner, "card": card})


def draw(state: State, seat: int, count: int, events: list[dict]) -> None:
    """Draws up to ``count`` cards; an empty deck stops the draw and never loses (Draw Cards
    Phase: the Discard Pile is not reshuffled)."""
    player = state.seats[seat]
    for _ in range(count):
        if not player.deck:
            events.append({"type": "deck_empty", "seat": seat})
            return
        card = player.deck.pop(0)
        state.cards[card].zone = "hand"
        player.hand.append(card)
        events.append({"type": "draw", "seat": seat, "card": card})


def enter_play(
    state: State, card: int, seat: int, at: int | None, events: list[dict], *, part: bool = False
) -> None:
    """Puts a lifted card into play for ``seat``: independently (``at`` None) or on ``at``.
    Cards with point requirements enter disengaged, the others engaged (Engaging Cards)."""
    entry = state.cards[card]
    face = cards.printed(state, card)
    entry.zone = "play"
    entry.controller = seat
    entry.on = at
    entry.played = state.seats[seat].turns
    if at is None:
        state.seats[seat].fleet.append(card)
    elif part:
        state.cards[at].parts.append(card)
    else:
        state.cards[at].attached.append(card)
    entry.engaged = not face["cost"] and starts_engaged(state, card)
    if face["system"] is not None and face["system"]["kind"] == "field":
        entry.field_points = face["strength"]
    events.append({"type": "entered", "seat": seat, "card": card, "on": at})


def starts_engaged(state: State, card: int) -> bool:
    """Whether a card without point requirements is engaged where it lies: not when a card
    disables it; non-passive equipment and abilities only on an engaged carrier (Equipment
    Cards, Ability Cards)."""
    if cards.disabled(state, card):
        return False
    card_type = cards.kind(state, card)
    location = state.cards[card].on
    if card_type == "equipment":
        if not cards.tech_usable(state, card):
            return False
        if not cards.printed(state, card)["passive"]:
            return location is not None and state.cards[location].engaged
    if card_type == "ability":
        return location is not None and state.cards[location].engaged
    return True


def discard_stack(state: State, card: int, events: list[dict], by: int | None = None) -> None:
    """The card leaves play with everything on or against it, except ships and dragons on a
    terrain, which stay in play independently (Discarded Cards). ``by``: the seat whose fire or
    card destroyed it (for agendas)."""
    entry = state.cards[card]
    if by is not None and by != entry.controller:
        state.seats[by].destroyed += 1
    for part in list(entry.parts):
        lift(state, part)
        put(state, part, "discard", events)
    terrain = cards.kind(state, card) == "terrain"
    for other in list(entry.attached):
        if terrain and cards.kind(state, other) in ("ship", "dragon"):
            lift(state, other)
            state.cards[other].on = None
            state.seats[state.cards[other].controller].fleet.append(other)
        else:
            discard_stack(state, other, events)
    for held, held_entry in enumerate(state.cards):
        if held_entry.control == card and held_entry.zone == "play":
            release(state, held, events)
    lift(state, card)
    put(state, card, "discard", events)


def return_stack(state: State, card: int, events: list[dict]) -> None:
    """The stack returns to its owners' hands (Discarded Cards: Returned to the Hand)."""
    for other in list(state.cards[card].attached) + list(state.cards[card].parts):
        return_stack(state, other, events)
    for held, held_entry in enumerate(state.cards):
        if held_entry.control == card and held_entry.zone == "play":
            release(state, held, events)
    lift(state, card)
    put(state, card, "hand", events)
    events.append({"type": "returned", "seat": state.cards[card].owner, "card": card})


def take_control(state: State, unit: int, seat: int, holder: int, events: list[dict]) -> None:
    """``seat`` takes control of ``unit`` (and the cards of its side on it) while ``holder``
    stays in play; the unit moves to the new controller's fleet (Control)."""
    previous = state.cards[unit].controller
    lift(state, unit)
    for card in cards.stack(state, unit):
        if state.cards[card].controller == previous:
            state.cards[card].controller = seat
    state.cards[unit].control = holder
    state.seats[seat].fleet.append(unit)
    events.append({"type": "controlled", "seat": seat, "card": unit, "owner": previous})


def release(state: State, unit: int, events: list[dict]) -> None:
    """Control ends: the unit goes back to its owner's fleet (or out of play if its owner has
    been eliminated)."""
    entry = state.cards[unit]
    owner = entry.owner
    entry.control = None
    if not state.seats[owner].alive:
        discard_stack(state, unit, events)
        return
    lift(state, unit)
    for card in cards.stack(state, unit):
        if state.cards[card].owner == owner:
            state.cards[card].controller = owner
    state.seats[owner].fleet.append(unit)
    events.append({"type": "released", "seat": owner, "card": unit})


def eliminate(state: State, seat: int, reason: str, events: list[dict]) -> None:
    """The player is out: every card he owns or controls leaves play (Victory Conditions);
    units of others he controlled go back to them."""
    player = state.seats[seat]
    if not player.alive:
        return
    player.alive = False
    player.place = sum(other.alive for other in state.seats) + 1
    events.append({"type": "eliminated", "seat": seat, "reason": reason})
    for card, entry in enumerate(state.cards):
        if entry.zone == "play" and entry.controller == seat and entry.owner != seat:
            if entry.control is not None and cards.kind(state, card) in cards.UNIT_TYPES:
                release(state, card, events)
    while leaving := [
        card
        for card, entry in enumerate(state.cards)
        if entry.zone == "play" and seat in (entry.owner, entry.controller)
    ]:
        discard_stack(state, leaving[0], events)
    living = [index for index, other in enumerate(state.seats) if other.alive]
    if len(living) == 1:
        finish(state, living[0], "last_standing", events)


def finish(state: State, winner: int | None, result: str, events: list[dict]) -> None:
    state.winner = winner
    state.result = result
    state.phase = "over"
    state.pending = state.volley = state.window = None
    if winner is not None:
        state.seats[winner].place = 1
    events.append({"type": "game_over", "winner": winner, "result": result})
