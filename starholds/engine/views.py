"""What one seat may see (``view(state, seat)``; None: an observer): every card in play, every
discard pile, the reserve fleets (turned up after the ante) and the agendas on each Sector HQ;
its own hand; of the others only how many cards they hold and have left in their decks."""

from collections.abc import Callable
from types import MappingProxyType

from starholds.engine import cards
from starholds.engine.state import State


def card_view(state: State, card: int, refits: dict[int, dict[str, int]] | None = None) -> dict:
    """A card as anyone sees it; in play, with its state. ``refits``: cards.refit_table, when
    the caller shows many cards."""
    face = cards.printed(state, card)
    entry = state.cards[card]
    found = {
        "id": card,
        "title": face["title"],
        "type": face["type"],
        "reaction": face["reaction"],
        "strength": face["strength"],
        "empire": face["empire"],
        "owner": entry.owner,
    }
    if entry.zone != "play":
        return found
    if refits is None:
        refits = cards.refit_table(state)
    bonus = refits.get(card, {})
    max_shields = 0
    system = face["system"]
    if face["type"] in ("base", "ship", "dragon", "terrain") and not (
        system is not None and system["kind"] in ("armor", "field")
    ):
        max_shields = sum(
            cards.printed(state, part)["shields"] for part in cards.whole(state, card)
        )
        max_shields += bonus.get("shields", 0)
    found.update(
        controller=entry.controller,
        engaged=entry.engaged,
        current_strength=cards.printed_strength(state, card) + bonus.get("strength", 0),
        damage=entry.damage,
        shields=max(0, max_shields - entry.shield_damage),
        max_shields=max_shields,
        field=entry.field_points,
        armor=cards.armor_left(state, card),
        powered=entry.powered,
        armed=entry.armed,
        research=entry.research,
        parts=[card_view(state, part, refits) for part in entry.parts],
        attached=[card_view(state, other, refits) for other in entry.attached],
    )
    return found


def view(state: State, seat: int | None, deciding: int | None) -> dict:
    return {**public_view(state, deciding), **private_view(state, seat)}


def private_view(state: State, seat: int | None) -> dict:
    """What only ``seat`` sees: its hand, and its points while it allocates."""
    if seat is None:
        return {"seat": None}
    player = state.seats[seat]
    found: dict = {"seat": seat, "hand": [card_view(state, card) for card in player.hand]}
    if player.alive and seat == state.active and state.phase == "allocation":
        found["points"] = cards.remaining(state, seat)
    return found


def public_view(state: State, deciding: int | None, shown: Callable = card_view) -> dict:
    """What every seat and observer sees; ``shown`` draws each card (card_view)."""
    refits = cards.refit_table(state) if shown is card_view else {}
    seats = []
    for index, player in enumerate(state.seats):
        seats.append(
            {
                "seat": index,
                "empire": player.empire,
                "alive": player.alive,
                "place": player.place,
                "hq_damage": player.hq_damage,
                "hand": len(player.hand),
                "deck": len(player.deck),
                "discard": [shown(state, card, refits) for card in player.discard],
                "reserve": [shown(state, card, refits) for card in player.reserve],
                "hq": [shown(state, card, refits) for card in player.hq],
                "fleet": [shown(state, card, refits) for card in player.fleet],
                "plays": player.plays,
                "command": player.command,
                "command_used": cards.command_used(state, index) / 2,
            }
        )
    return {
        "round": state.round,
        "order": list(state.order),
        "active": state.active,
        "phase": state.phase,
        "deciding": deciding,
        "winner": state.winner,
        "result": state.result,
        "seats": seats,
        "chain": [
            {
                "purpose": item["purpose"],
                "seat": item.get("seat"),
                "card": _chain_card(state, item, shown),
            }
            for item in state.chain
        ],
        "volley": None if state.volley is None else dict(state.volley),
        "window": None if state.window is None else state.window["event"],
    }


def _chain_card(state: State, item: dict, shown: Callable) -> dict | None:
    card = item.get("card")
    if card is None or state.cards[card].zone not in ("chain", "play"):
        return None
    return shown(state, card, None)


PRIVATE_FIELDS = MappingProxyType({"draw": ("card",)})


def redact(events: list[dict], seat: int | None) -> list[dict]:
    """The events as ``seat`` may see them: a card drawn is named to its drawer only."""
    shown = []
    for event in events:
        hidden = PRIVATE_FIELDS.get(event["type"], ())
        if hidden and event.get("seat") != seat:
            event = {key: value for key, value in event.items() if key not in hidden}
        shown.append(event)
    return shown
