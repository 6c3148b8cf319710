"""The player turn (rulebook, "Order of Play"): the seven phases, the legal actions of each
decision and what each action does, and the reaction windows (Reaction Cards).

A decision is one of, in this order of precedence: a pending choice (where a card goes, what
it targets, which reserve card to take), a reaction window (each seat asked in turn order,
"react" or "pass"), or the active player's phase. Actions are small JSON objects; every legal
one is listed by ``legal`` and ``apply_action`` accepts only those.
"""

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from starholds.engine import cards, combat, effects, zones
from starholds.engine.errors import IllegalAction
from starholds.engine.state import State
from starholds.engine.vocabulary import (
    PERMANENT_TYPES,
    STANDARD_TARGET_TYPES,
    UNIT_TYPES,
)

MAX_CARD_PLAYS = 3
Action = dict


@dataclass(frozen=True, slots=True)
class Decision:
    """Who decides now, about what, and every legal action."""

    seat: int | None
    prompt: str
    actions: list[Action]


# ---------------------------------------------------------------- the turn's course


def begin_turn(state: State, events: list[dict]) -> None:
    """Point Allocation Phase, Record Keeping Step: cards whose duration expired are discarded,
    Shields regenerate, monsters act; then the allocation may be reacted to."""
    seat = state.active
    player = state.seats[seat]
    player.turns += 1
    player.plays = player.units_played = player.scored = player.destroyed = 0
    player.spent, player.drained = {}, {}
    player.accomplished, player.volleyed = [], []
    state.phase = "allocation"
    events.append({"type": "turn_began", "seat": seat, "round": state.round})
    for card in list(cards.in_play(state, seat)):
        lasting = cards.keyword(state, card, "lasts")
        entry = state.cards[card]
        if lasting and entry.zone == "play" and player.turns - entry.played >= lasting["turns"]:
            events.append({"type": "expired", "card": card})
            zones.discard_stack(state, card, events)
    for card in list(cards.in_play(state, seat)):
        entry = state.cards[card]
        regeneration = cards.keyword(state, card, "shield_regeneration")
        entry.shield_damage = max(
            0, entry.shield_damage - (regeneration["value"] if regeneration else 1)
        )
        entry.powered = entry.armed = entry.field_points = 0
        entry.fired = []
    for card in list(cards.in_play(state, seat)):
        if state.cards[card].zone != "play" or not cards.works(state, card):
            continue
        for _index, entry in cards.entries(state, card, "each_turn"):
            options = effects.choices(state, seat, card, entry)
            if options:
                effects.resolve(state, seat, card, entry, options[0], events)
            if not state.seats[seat].alive or state.winner is not None:
                return
    for card in cards.in_play(state, seat):
        if cards.printed(state, card)["cost"]:
            state.cards[card].engaged = False
    open_window(state, "allocation", {"purpose": "allocation"}, events)


def end_allocation(state: State, events: list[dict]) -> None:
    """Engagement Phase: cards without point requirements engage where they may; the others
    stay as allocation left them. Command slots for the complete turn are counted."""
    seat = state.active
    for basis in list(state.seats[seat].fleet):
        for card in cards.stack(state, basis):
            entry = state.cards[card]
            if entry.controller != seat:
                continue
            if cards.disabled(state, card):
                entry.engaged = False
            elif not cards.printed(state, card)["cost"]:
                entry.engaged = zones.starts_engaged(state, card)
    state.seats[seat].command = cards.command_points(state, seat)
    state.phase = "play_a"
    events.append({"type": "phase", "seat": seat, "phase": "play_a"})


def next_phase(state: State, events: list[dict]) -> None:
    seat = state.active
    if state.phase == "play_a":
        state.phase = "fire"
        state.seats[seat].volleyed = []
    elif state.phase == "fire":
        state.phase = "play_b"
    elif state.phase == "play_b":
        state.phase = "discard"
    else:
        draw_phase(state, events)
        return
    events.append({"type": "phase", "seat": seat, "phase": state.phase})


def draw_phase(state: State, events: list[dict]) -> None:
    """Draw Cards Phase: 2 cards with 9 or fewer in hand, 1 with 10 or 11, none with 12 or
    more; then the next player's turn."""
    seat = state.active
    hand = len(state.seats[seat].hand)
    zones.draw(state, seat, 2 if hand <= 9 else 1 if hand <= 11 else 0, events)
    pass_turn(state, events)


def pass_turn(state: State, events: list[dict]) -> None:
    """The next living player in turn order begins; the stall rule ends the game after the
    round limit (docs/starholds/choices.md)."""
    if state.winner is not None:
        return
    position = state.order.index(state.active)
    for step in range(1, len(state.order) + 1):
        seat = state.order[(position + step) % len(state.order)]
        if state.seats[seat].alive:
            break
    if state.order.index(seat) <= position:
        state.round += 1
    if state.round > state.options["round_limit"]:
        stall(state, events)
        return
    state.active = seat
    begin_turn(state, events)


def stall(state: State, events: list[dict]) -> None:
    """The stall rule: the living player whose Sector HQ took the least damage wins; a tie
    is a draw."""
    living = [seat for seat, player in enumerate(state.seats) if player.alive]
    least = min(state.seats[seat].hq_damage for seat in living)
    leaders = [seat for seat in living if state.seats[seat].hq_damage == least]
    if len(leaders) == 1:
        zones.finish(state, leaders[0], "round_limit", events)
    else:
        zones.finish(state, None, "round_limit_draw", events)


# ---------------------------------------------------------------- reaction windows


def open_window(state: State, event: str, base: dict, events: list[dict]) -> None:
    """Asks every other living seat, in turn order, whether it reacts (Reaction Cards). Every
    seat is asked, holding a reaction card or not, so no one learns who holds one."""
    base = {**base, "voided": False}
    state.chain = [base]
    position = state.order.index(state.active)
    asked = [
        seat
        for step in range(1, len(state.order))
        if state.seats[seat := state.order[(position + step) % len(state.order)]].alive
    ]
    state.window = {"event": event, "asked": asked, "final": False}
    events.append({"type": "window", "event": event})
    advance_window(state, events)


def advance_window(state: State, events: list[dict]) -> None:
    """Closes the window when nobody is left to ask; after a reaction the active player may
    answer it on his own turn (costing a Card Play)."""
    window = state.window
    if window is None or window["asked"] or state.pending is not None:
        return
    active = state.active
    if len(state.chain) > 1 and not window["final"] and state.seats[active].alive:
        window["final"] = True
        window["asked"] = [active]
        return
    close_window(state, events)


def close_window(state: State, events: list[dict]) -> None:
    """Resolves the chain: the last reaction played first (Last Reaction Card Played Has
    Precedence), then what was reacted to, unless voided."""
    state.window = None
    while len(state.chain) > 1:
        item = state.chain.pop()
        resolve_reaction(state, item, len(state.chain) - 1, events)
        if state.winner is not None:
            return
    base = state.chain.pop()
    if base["purpose"] == "play":
        resolve_play(state, base, events)
    elif base["purpose"] == "action":
        resolve_action(state, base, events)
    elif base["purpose"] == "volley":
        if base["voided"]:
            events.append({"type": "volley_voided", "seat": state.active})
        else:
            combat.resolve_volley(state, events)
        state.volley = None


def resolve_reaction(state: State, item: dict, below: int, events: list[dict]) -> None:
    card, seat = item["card"], item["seat"]
    if item["voided"] or not state.seats[seat].alive:
        zones.put(state, card, "discard", events)
        return
    entry = cards.printed(state, card)["rules"]["effects"][item["entry"]]
    stays = cards.kind(state, card) in ("ship", "dragon") or keeps_card(state, card)
    if stays:
        zones.enter_play(state, card, seat, None, events)
    events.append({"type": "reaction_resolves", "seat": seat, "card": card})
    effects.resolve(state, seat, card, entry, {**item["chosen"], "below": below}, events)
    if not stays:
        zones.put(state, card, "discard", events)


def keeps_card(state: State, card: int) -> bool:
    """An occurrence, hazard or luck card stays in play when it lasts, disables, modifies or
    holds control; otherwise it is discarded after use (General Errata - Discard After Use)."""
    if cards.kind(state, card) in PERMANENT_TYPES or cards.kind(state, card) == "agenda":
        return True
    rules = cards.printed(state, card)["rules"]
    if {keyword["keyword"] for keyword in rules.get("keywords", ())} & {
        "lasts",
        "disables",
        "terrain_modifier",
        "fleet_modifier",
    }:
        return True
    return any(
        effect["primitive"] == "control"
        for entry in rules.get("effects", ())
        for effect in entry["effect"]
    ) or any(entry["when"] == "each_turn" for entry in rules.get("effects", ()))


# ---------------------------------------------------------------- card plays


def placements(state: State, seat: int, card: int) -> list[dict]:
    """Where a card from the hand may go, as action parameters: {"at": id or None} plus
    "part" for a combining card (Card Types: where each type is played)."""
    card_type = cards.kind(state, card)
    combines = cards.keyword(state, card, "combines") is not None
    own = [
        other
        for other in cards.in_play(state, seat)
        if state.cards[other].owner == seat and not cards.is_part(state, other)
    ]

    def of(*types: str) -> list[int]:
        return [other for other in own if cards.kind(state, other) in types]

    top_terrain = [other for other in of("terrain") if state.cards[other].on is None]
    if card_type == "terrain":
        found = [{"at": None}]
        if combines:
            found += [
                {"at": other, "part": True}
                for other in top_terrain
                if cards.keyword(state, other, "combines") and not state.cards[other].parts
            ]
        return found
    if card_type == "base":
        return [
            {"at": other}
            for other in top_terrain
            if not any(cards.kind(state, on) == "base" for on in state.cards[other].attached)
        ]
    if card_type in ("ship", "dragon"):
        found = [{"at": None}] + [{"at": other} for other in top_terrain]
        if combines:
            found += [
                {"at": other, "part": True}
                for other in of(card_type)
                if cards.keyword(state, other, "combines") and not state.cards[other].parts
            ]
        used = cards.command_used(
            state,
            seat,
            (cards.printed(state, card)["strength"], cards.is_minor_unit(state, seat, card)),
        )
        return [place for place in found if command_allows(state, seat, card, place, used)]
    if card_type == "crew":
        return [{"at": other} for other in of("ship", "base", "terrain")]
    if card_type == "ability":
        return [{"at": other} for other in of("crew")]
    if card_type == "equipment":
        return [{"at": other} for other in of("ship", "base")]
    if card_type == "agenda":
        mode = cards.printed(state, card)["rules"]["agenda"]["mode"]
        return [{"at": None}] if mode == "exposed" else []
    return [{"at": target.get("card")} for target in effect_placements(state, seat, card)]


def effect_placements(state: State, seat: int, card: int) -> list[dict]:
    """Where an occurrence, hazard, luck or monster goes: the target of its first play effect
    that names a card, else a card ``played_to`` names, else (monsters) an opponent's terrain,
    ship, dragon or base, else the own fleet."""
    for _index, entry in cards.entries(state, card, "play"):
        if effects.target_kind(entry) == "card":
            return effects.choices(state, seat, card, entry)
    played_to = cards.keyword(state, card, "played_to")
    if played_to is not None:
        selector = {"side": played_to["side"], "types": played_to["types"]}
        return [{"card": found} for found in effects.card_candidates(state, seat, selector)]
    if cards.kind(state, card) == "monster":
        selector = {"side": "opponent", "types": sorted(STANDARD_TARGET_TYPES)}
        return [{"card": found} for found in effects.card_candidates(state, seat, selector)]
    return [{}]


def command_allows(
    state: State, seat: int, card: int, place: dict, used: int | None = None
) -> bool:
    """A unit needs a free command slot (Command Limits); combining counts the combined
    strength. ``used``: the slots in use with the card added, if already counted."""
    if cards.kind(state, card) not in UNIT_TYPES:
        return True
    player = state.seats[seat]
    strength = cards.printed(state, card)["strength"]
    minor = cards.is_minor_unit(state, seat, card)
    if used is None:
        used = cards.command_used(state, seat, (strength, minor))
    if place.get("part"):
        host = cards.printed_strength(state, place["at"])
        used += cards.command_weight(host + strength) - cards.command_weight(host)
        used -= cards.command_weight(strength) if not minor else 0
    return used <= 2 * player.command


def playable(state: State, seat: int, card: int) -> bool:
    """Whether a hand card may be played now (Card Plays, Turn 1 and Turn 2 Restrictions)."""
    player = state.seats[seat]
    if player.plays >= MAX_CARD_PLAYS:
        return False
    card_type = cards.kind(state, card)
    if player.turns == 1 and card_type != "terrain":
        return False
    if player.turns == 2 and card_type in UNIT_TYPES and player.units_played >= 1:
        return False
    if not placements(state, seat, card):
        return False
    for _index, entry in cards.entries(state, card, "play"):
        if not effects.choices(state, seat, card, entry):
            return False
    return True


def start_play(state: State, seat: int, card: int, events: list[dict]) -> None:
    player = state.seats[seat]
    player.plays += 1
    if cards.kind(state, card) in UNIT_TYPES:
        player.units_played += 1
    zones.lift(state, card)
    state.cards[card].zone = "chain"
    events.append({"type": "played", "seat": seat, "card": card})
    item = {"purpose": "play", "card": card, "seat": seat, "chosen": {}, "targets": {}}
    state.chain = [item]
    options = placements(state, seat, card)
    if len(options) == 1:
        place(state, item, options[0], events)
    else:
        state.pending = {"kind": "place", "seat": seat, "card": card, "options": options}


def place(state: State, item: dict, where: dict, events: list[dict]) -> None:
    item["at"] = where.get("at")
    item["part"] = bool(where.get("part"))
    card = item["card"]
    if cards.kind(state, card) in ("occurrence", "hazard", "luck", "monster"):
        for index, entry in cards.entries(state, card, "play"):
            if effects.target_kind(entry) == "card" and item["at"] is not None:
                item["targets"][str(index)] = {"card": item["at"]}
                break
        if not keeps_card(state, card):
            item["at"] = None
    ask_targets(state, item, "play", events)


def ask_targets(state: State, item: dict, when: str, events: list[dict]) -> None:
    """Asks the targets of the item's entries one at a time, then opens the reaction window
    for the play or the action."""
    card, seat = item["card"], item["seat"]
    for index, entry in cards.entries(state, card, when):
        if when == "action" and index != item.get("entry"):
            continue
        if str(index) in item["targets"]:
            continue
        options = effects.choices(state, seat, card, entry)
        if options == [{}] or not options:
            # No target left: the entry has no effect (its target left play meanwhile).
            item["targets"][str(index)] = {}
            continue
        state.pending = {
            "kind": "target",
            "seat": seat,
            "card": card,
            "entry": index,
            "options": options,
        }
        return
    state.pending = None
    event = "card_play" if item["purpose"] == "play" else "card_action"
    open_window(state, event, item, events)


def resolve_play(state: State, item: dict, events: list[dict]) -> None:
    """The played card enters play (or acts and is discarded after use); a voided card play is
    discarded unused (Voided Card Plays)."""
    card, seat = item["card"], item["seat"]
    if item["voided"] or not state.seats[seat].alive:
        zones.put(state, card, "discard", events)
        return
    at = item.get("at")
    if at is not None and state.cards[at].zone != "play":
        events.append({"type": "fizzled", "card": card})
        zones.put(state, card, "discard", events)
        return
    stays = keeps_card(state, card)
    if stays:
        zones.enter_play(state, card, seat, at, events, part=item.get("part", False))
    for index, entry in cards.entries(state, card, "play"):
        effects.resolve(state, seat, card, entry, item["targets"].get(str(index), {}), events)
        if state.winner is not None:
            return
    if not stays:
        zones.put(state, card, "discard", events)


def actions_of(state: State, seat: int, card: int) -> list[int]:
    """The card actions a card may take now: engaged, not used this complete turn, with a
    target (Limit on Card Actions)."""
    entry = state.cards[card]
    if not entry.engaged or entry.used == state.seats[seat].turns or cards.is_part(state, card):
        return []
    return [
        index
        for index, effect_entry in cards.entries(state, card, "action")
        if effects.choices(state, seat, card, effect_entry)
    ]


def resolve_action(state: State, item: dict, events: list[dict]) -> None:
    card, seat = item["card"], item["seat"]
    if item["voided"] or state.cards[card].zone != "play":
        events.append({"type": "action_voided", "card": card})
        return
    entry = cards.printed(state, card)["rules"]["effects"][item["entry"]]
    effects.resolve(state, seat, card, entry, item["targets"].get(str(item["entry"]), {}), events)
    if entry.get("discard") and state.cards[card].zone == "play":
        zones.discard_stack(state, card, events)


# ---------------------------------------------------------------- legal actions


def deciding(state: State) -> int | None:
    """The seat that decides now (what ``legal`` would say, without listing the actions)."""
    if state.winner is not None or state.phase == "over":
        return None
    if state.pending is not None:
        return state.pending["seat"]
    if state.window is not None:
        return state.window["asked"][0]
    return state.active


def legal(state: State) -> Decision:
    if state.winner is not None or state.phase == "over":
        return Decision(None, "The game is over.", [])
    if state.pending is not None:
        pending = state.pending
        if pending["kind"] == "take":
            return Decision(
                pending["seat"],
                "Take a card from the reserve fleet.",
                [{"kind": "take", "card": card} for card in pending["options"]],
            )
        verb = "place" if pending["kind"] == "place" else "target"
        prompt = "Where does the card go?" if verb == "place" else "Choose the target."
        return Decision(
            pending["seat"], prompt, [{"kind": verb, **option} for option in pending["options"]]
        )
    if state.window is not None:
        seat = state.window["asked"][0]
        reactions = [{"kind": "react", "card": card} for card in reaction_cards(state, seat)]
        return Decision(
            seat,
            f"React to {state.window['event'].replace('_', ' ')}?",
            [{"kind": "pass"}, *reactions],
        )
    seat = state.active
    return Decision(seat, PROMPTS[state.phase], _PHASE_ACTIONS[state.phase](state, seat))


PROMPTS = MappingProxyType(
    {
        "allocation": "Allocate points, then finish allocation.",
        "play_a": "Play cards or use card actions (Play Cards Phase A).",
        "fire": "Declare weapons volleys (Weapons Fire Phase).",
        "play_b": "Play cards or use card actions (Play Cards Phase B).",
        "discard": "Discard cards (Discard Cards Phase).",
    }
)


def _allocation_actions(state: State, seat: int) -> list[Action]:
    found: list[Action] = []
    left = cards.remaining(state, seat)
    for card in cards.in_play(state, seat):
        entry = state.cards[card]
        if cards.is_part(state, card):
            continue
        face = cards.printed(state, card)
        if face["cost"] and not entry.engaged and can_engage(state, seat, card, left):
            found.append({"kind": "engage", "card": card})
        if entry.engaged and entry.armed < cards.heavy_weapons(state, card):
            if cards.payment(state, seat, {"ammunition": 1}, left) is not None:
                found.append({"kind": "arm", "card": card})
        if entry.engaged and cards.system_capacity(state, card):
            if cards.payment(state, seat, {"energy": 1}, left) is not None:
                found.append({"kind": "power", "card": card})
        repairable = cards.kind(state, card) in ("ship", "base", "terrain")
        if repairable and (entry.damage or entry.shield_damage):
            if cards.payment(state, seat, {"repair": 1}, left) is not None:
                found.append({"kind": "repair", "card": card})
    if cards.payment(state, seat, {"research": 1}, left) is not None:
        for monster in hostile_monsters(state, seat):
            found.append({"kind": "research", "card": monster})
    found.append({"kind": "done"})
    return found


def can_engage(state: State, seat: int, card: int, left: dict[str, int]) -> bool:
    if cards.disabled(state, card):
        return False
    if cards.payment(state, seat, cards.printed(state, card)["cost"], left) is None:
        return False
    card_type = cards.kind(state, card)
    location = state.cards[card].on
    if card_type == "equipment":
        if not cards.tech_usable(state, card):
            return False
        passive = cards.printed(state, card)["passive"]
        return passive or (location is not None and state.cards[location].engaged)
    if card_type == "ability":
        return location is not None and state.cards[location].engaged
    return True


def hostile_monsters(state: State, seat: int) -> list[int]:
    """Monsters of other players in the seat's stacks (killed by research points equal to
    their strength: Point Types, research)."""
    return [
        card
        for card, entry in enumerate(state.cards)
        if entry.zone == "play"
        and cards.kind(state, card) == "monster"
        and entry.controller != seat
        and entry.on is not None
        and state.cards[cards.basis(state, card)].controller == seat
    ]


def _play_actions(state: State, seat: int) -> list[Action]:
    player = state.seats[seat]
    found: list[Action] = [
        {"kind": "play", "card": card} for card in player.hand if playable(state, seat, card)
    ]
    for card in cards.in_play(state, seat):
        for index in actions_of(state, seat, card):
            found.append({"kind": "act", "card": card, "entry": index})
    if player.plays < MAX_CARD_PLAYS and player.reserve:
        weakest = min(cards.printed(state, card)["strength"] for card in player.reserve)
        for card in player.hand:
            face = cards.printed(state, card)
            if face["strength"] >= weakest and not _single(state, card):
                found.append({"kind": "swap", "card": card})
    found.append({"kind": "next"})
    return found


def _single(state: State, card: int) -> bool:
    return cards.keyword(state, card, "unique") is not None


def fire_targets(state: State, seat: int) -> list[Action]:
    """Standard targets of living opponents not yet fired at this phase, with a weapon able to
    fire at them; a Sector HQ only when no ship or dragon protects it (Damaging the Sector HQ)."""
    player = state.seats[seat]
    shooters = ready_weapons(state, seat)
    if not shooters:
        return []
    ship_ready = any(cards.kind(state, card) in ("ship", "dragon") for card, _ in shooters)
    found: list[Action] = []
    for card, entry in enumerate(state.cards):
        if entry.zone != "play" or entry.controller == seat or cards.is_part(state, card):
            continue
        if f"c{card}" in player.volleyed:
            continue
        card_type = cards.kind(state, card)
        if card_type == "monster":
            if cards.keyword(state, card, "vulnerable") is None:
                continue
        elif card_type not in STANDARD_TARGET_TYPES:
            continue
        if card_type == "terrain" and any(
            cards.kind(state, other) == "base" for other in entry.attached
        ):
            continue
        found.append({"kind": "volley", "card": card})
    if ship_ready:
        for other, opponent in enumerate(state.seats):
            if other == seat or not opponent.alive or f"hq{other}" in player.volleyed:
                continue
            if not cards.protects_hq(state, other):
                found.append({"kind": "volley", "seat": other})
    return found


def ready_weapons(state: State, seat: int) -> list[tuple[int, str]]:
    """Each engaged unit and weapon kind it may still fire this phase."""
    found = []
    for card in cards.in_play(state, seat):
        entry = state.cards[card]
        if not entry.engaged or cards.is_part(state, card):
            continue
        if cards.kind(state, card) not in UNIT_TYPES:
            continue
        if cards.phasers(state, card) and "phaser" not in entry.fired:
            found.append((card, "phaser"))
        if entry.armed and "heavy" not in entry.fired:
            found.append((card, "heavy"))
    return found


def _fire_actions(state: State, seat: int) -> list[Action]:
    volley = state.volley
    if volley is None:
        return [*fire_targets(state, seat), {"kind": "next"}]
    found: list[Action] = []
    for card, weapon in ready_weapons(state, seat):
        if volley["hq"] is not None and cards.kind(state, card) not in ("ship", "dragon"):
            continue
        found.append({"kind": "add", "card": card, "weapon": weapon})
    if volley["weapons"]:
        found.append({"kind": "fire"})
    return found


def _discard_actions(state: State, seat: int) -> list[Action]:
    player = state.seats[seat]
    found: list[Action] = []
    if player.plays < MAX_CARD_PLAYS:
        found += [{"kind": "discard", "card": card} for card in player.hand]
    for card in cards.in_play(state, seat):
        entry = state.cards[card]
        if entry.owner == seat and entry.control is None and not cards.is_part(state, card):
            found.append({"kind": "scrap", "card": card})
    found.append({"kind": "next"})
    return found


_PHASE_ACTIONS: MappingProxyType[str, Callable[[State, int], list[Action]]] = MappingProxyType(
    {
        "allocation": _allocation_actions,
        "play_a": _play_actions,
        "fire": _fire_actions,
        "play_b": _play_actions,
        "discard": _discard_actions,
    }
)


def reaction_cards(state: State, seat: int) -> list[int]:
    """The R/ cards the seat may play now: one of its reaction effects answers the window's
    event and has a target; on his own turn a player needs a Card Play left."""
    player = state.seats[seat]
    if seat == state.active and player.plays >= MAX_CARD_PLAYS:
        return []
    return [card for card in player.hand if reaction_entry(state, seat, card) is not None]


def reaction_entry(state: State, seat: int, card: int) -> int | None:
    window = state.window
    face = cards.printed(state, card)
    if not face["reaction"]:
        return None
    for index, entry in cards.entries(state, card, "reaction"):
        if entry["reacts_to"] != window["event"]:
            continue
        names = {effect["primitive"] for effect in entry["effect"]}
        if names & {"reduce_volley", "intercept"} or (
            "void" in names and window["event"] == "weapons_fire"
        ):
            if not _volley_at(state, seat):
                continue
        if "intercept" in names and not command_allows(state, seat, card, {"at": None}):
            continue
        if "drain" in names and seat == state.active:
            continue
        if not effects.choices(state, seat, card, entry):
            continue
        return index
    return None


def _volley_at(state: State, seat: int) -> bool:
    """Whether the declared volley is aimed at the seat's card or Sector HQ."""
    volley = state.volley
    if volley is None:
        return False
    if volley["hq"] is not None:
        return volley["hq"] == seat
    return state.cards[volley["target"]].controller == seat


# ---------------------------------------------------------------- applying actions


def apply_action(state: State, action: Action, events: list[dict]) -> None:
    decision = legal(state)
    if decision.seat is None:
        raise IllegalAction("The game is over.")
    if action not in decision.actions:
        raise IllegalAction(f"{action!r} is not a legal action now.")
    _HANDLERS[action["kind"]](state, decision.seat, action, events)


def _engage(state, seat, action, events):
    card = action["card"]
    _pay(state, seat, cards.printed(state, card)["cost"])
    state.cards[card].engaged = True
    events.append({"type": "engaged", "card": card})


def _pay(state: State, seat: int, cost: dict[str, int]) -> None:
    paid = cards.payment(state, seat, cost)
    if paid is None:
        raise IllegalAction("Not enough points.")
    spent = state.seats[seat].spent
    for point, amount in paid.items():
        spent[point] = spent.get(point, 0) + amount


def _arm(state, seat, action, events):
    _pay(state, seat, {"ammunition": 1})
    state.cards[action["card"]].armed += 1
    events.append({"type": "armed", "card": action["card"]})


def _power(state, seat, action, events):
    _pay(state, seat, {"energy": 1})
    card = action["card"]
    state.cards[card].powered += 1
    found = cards.system(state, card)
    if found is not None and found["kind"] == "field":
        state.cards[card].field_points = min(
            2 * cards.strength(state, card), state.cards[card].field_points + 2
        )
    events.append({"type": "powered", "card": card})


def _repair(state, seat, action, events):
    _pay(state, seat, {"repair": 1})
    effects.repair(state, action["card"], 1, events)


def _research(state, seat, action, events):
    _pay(state, seat, {"research": 1})
    monster = action["card"]
    state.cards[monster].research += 1
    events.append({"type": "researched", "card": monster})
    if state.cards[monster].research >= cards.printed(state, monster)["strength"]:
        events.append({"type": "destroyed", "card": monster, "by": seat})
        zones.discard_stack(state, monster, events, by=seat)


def _done(state, seat, action, events):
    end_allocation(state, events)


def _play(state, seat, action, events):
    start_play(state, seat, action["card"], events)


def _place(state, seat, action, events):
    where = {key: value for key, value in action.items() if key != "kind"}
    place(state, state.chain[0], where, events)


def _target(state, seat, action, events):
    pending = state.pending
    chosen = {key: value for key, value in action.items() if key != "kind"}
    item = state.chain[-1]
    state.pending = None
    if item["purpose"] == "react":
        item["chosen"] = chosen
        advance_window(state, events)
        return
    item["targets"][str(pending["entry"])] = chosen
    ask_targets(state, item, "play" if item["purpose"] == "play" else "action", events)


def _act(state, seat, action, events):
    card = action["card"]
    state.cards[card].used = state.seats[seat].turns
    events.append({"type": "action", "seat": seat, "card": card})
    item = {"purpose": "action", "card": card, "seat": seat, "entry": action["entry"]}
    item["targets"] = {}
    state.chain = [item]
    ask_targets(state, item, "action", events)


def _swap(state, seat, action, events):
    card = action["card"]
    strength = cards.printed(state, card)["strength"]
    options = [
        other
        for other in state.seats[seat].reserve
        if cards.printed(state, other)["strength"] <= strength
    ]
    state.pending = {"kind": "take", "seat": seat, "card": card, "options": options}


def _take(state, seat, action, events):
    """Reserve Fleet: a hand card of equal or higher strength goes in, the reserve card comes
    out to the hand; one Card Play."""
    given = state.pending["card"]
    state.pending = None
    taken = action["card"]
    player = state.seats[seat]
    player.plays += 1
    zones.lift(state, given)
    zones.lift(state, taken)
    zones.put(state, given, "reserve", events)
    zones.put(state, taken, "hand", events)
    events.append({"type": "swapped", "seat": seat, "given": given, "taken": taken})


def _next(state, seat, action, events):
    next_phase(state, events)


def _volley(state, seat, action, events):
    target, hq = action.get("card"), action.get("seat")
    key = f"c{target}" if target is not None else f"hq{hq}"
    state.seats[seat].volleyed.append(key)
    state.volley = {
        "seat": seat,
        "target": target,
        "hq": hq,
        "weapons": [],
        "reduced": 0,
        "interceptor": None,
    }
    events.append({"type": "volley", "seat": seat, "card": target, "hq": hq})


def _add(state, seat, action, events):
    card, weapon = action["card"], action["weapon"]
    entry = state.cards[card]
    entry.fired.append(weapon)
    if weapon == "phaser":
        damage = cards.phasers(state, card) * cards.phaser_damage(state, card)
    else:
        damage = min(entry.armed, cards.heavy_weapons(state, card))
        entry.armed = 0
    state.volley["weapons"].append([card, weapon, damage])


def _fire(state, seat, action, events):
    events.append(
        {"type": "fire", "seat": seat, "damage": sum(combat.volley_damage(state).values())}
    )
    open_window(state, "weapons_fire", {"purpose": "volley"}, events)


def _discard(state, seat, action, events):
    card = action["card"]
    state.seats[seat].plays += 1
    zones.lift(state, card)
    zones.put(state, card, "discard", events)
    open_window(state, "discard", {"purpose": "discard", "card": card}, events)


def _scrap(state, seat, action, events):
    zones.discard_stack(state, action["card"], events)
    open_window(state, "discard", {"purpose": "discard", "card": action["card"]}, events)


def _pass(state, seat, action, events):
    state.window["asked"].pop(0)
    advance_window(state, events)


def _react(state, seat, action, events):
    card = action["card"]
    index = reaction_entry(state, seat, card)
    if seat == state.active:
        state.seats[seat].plays += 1
    zones.lift(state, card)
    state.cards[card].zone = "chain"
    events.append({"type": "reacted", "seat": seat, "card": card})
    item = {"purpose": "react", "card": card, "seat": seat, "entry": index, "chosen": {}}
    item["voided"] = False
    state.chain.append(item)
    state.window["asked"].pop(0)
    entry = cards.printed(state, card)["rules"]["effects"][index]
    options = effects.choices(state, seat, card, entry)
    if options == [{}]:
        advance_window(state, events)
    else:
        state.pending = {"kind": "target", "seat": seat, "card": card, "entry": index}
        state.pending["options"] = options


_HANDLERS = MappingProxyType(
    {
        "engage": _engage,
        "arm": _arm,
        "power": _power,
        "repair": _repair,
        "research": _research,
        "done": _done,
        "play": _play,
        "place": _place,
        "target": _target,
        "act": _act,
        "swap": _swap,
        "take": _take,
        "next": _next,
        "volley": _volley,
        "add": _add,
        "fire": _fire,
        "discard": _discard,
        "scrap": _scrap,
        "pass": _pass,
        "react": _react,
    }
)
