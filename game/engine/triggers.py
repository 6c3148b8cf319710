"""Triggered abilities: "whenever", "when" and "at" text (docs/card-rules.md, "Events").

The engine's own events say what happened; after every step, the new events are read, in
order, and each card text they trigger is queued as a pending effect (``effects.queue``).
Cards triggered by one event are queued oldest first (glossary, "timestamp"). A card that
has just left play, a quest just completed and an ability just applied still see the events
about themselves ("When this unit is destroyed", "When you complete this quest").
"""

from types import MappingProxyType

from game.engine import effects, select
from game.engine.select import Context
from game.engine.state import State

# The trigger events of the vocabulary (``vocabulary.EVENTS``) each engine event is read as.
TRIGGER_EVENTS = MappingProxyType(
    {
        "card_played": ("played",),
        "destroyed": ("destroyed", "leaves_play"),
        "returned": ("leaves_play",),
        "turn_started": ("start_of_turn",),
        "turn_ended": ("end_of_turn",),
        "combat_began": ("combat_begins", "begins_attacking", "begins_defending"),
        "combat_ended": ("wins_combat", "loses_combat"),
        "damage_dealt": ("deals_damage",),
        "damaged": ("takes_damage",),
        "quest_completed": ("quest_completed",),
        "ability_applied": ("ability_applied",),
    }
)


def collect(
    state: State,
    events: list[dict],
    start: int,
    commanded: dict[int, int] | None = None,
    until: int | None = None,
) -> int:
    """Queue what ``events[start:]`` trigger; returns how many events have been read.

    ``commanded``: who commanded the teammates' units in the combat as the steps that
    emitted the events began (``select.commanders``), for the events up to ``until`` (all
    of them if None). The events are read once their step is over, when a unit may have
    left the combat or the combat may have ended ("When this unit wins a combat"), and a
    commanded unit's text still speaks to its commander (MULTIPLAYER GAMES, "Commanders")."""
    index = start
    while index < len(events):
        event = events[index]
        index += 1
        if event["type"] in TRIGGER_EVENTS:
            then = commanded if until is None or index <= until else None
            for pending in _triggered(state, event, then):
                effects.queue(state, pending)
    return index


def _listening(state: State, names: tuple[str, ...]) -> list[int]:
    """The listeners in play with a trigger on one of ``names``, oldest entry first."""
    caches = state.caches
    listening = caches.listening
    # ``continuous`` replaces the list of listeners when it changes, never changes it in place.
    if listening is None or listening[0] is not state.listeners:
        listening = caches.listening = (state.listeners, {})
    found = listening[1].get(names)
    if found is None:
        definitions = state.definitions
        found = listening[1][names] = [
            card
            for card in state.listeners
            if any(
                trigger["event"] in names
                for trigger in definitions[state.cards[card].definition]["rules"]["triggers"]
            )
        ]
    return found


def _triggered(state: State, event: dict, commanded: dict[int, int] | None) -> list[dict]:
    names = TRIGGER_EVENTS[event["type"]]
    sources = list(_listening(state, names))
    # The card that has just left the playmat, seen where it was ("at this quest").
    left = event.get("card") if event["type"] in ("destroyed", "returned") else None
    if event["type"] == "quest_completed":
        left = event["quest"]
    if event["type"] in ("destroyed", "returned", "ability_applied"):
        sources.append(event["card"])
    if event["type"] == "quest_completed":
        sources.append(event["quest"])
    found = []
    for source in dict.fromkeys(sources):
        card_triggers = state.definitions[state.cards[source].definition]["rules"].get("triggers")
        if not card_triggers:
            continue
        for trigger in card_triggers:
            if trigger["event"] not in names:
                continue
            at = event.get("at") if source == left else select.location(state, source)
            where = Context(
                source, _reader(state, source, event, commanded), at, commanded=commanded
            )
            event_card = _fires(state, trigger, event, where, left)
            if event_card is False:
                continue
            where.event_card = event_card
            if not select.holds(state, trigger.get("condition"), where):
                continue
            found.append(
                (
                    state.cards[source].since,
                    effects.frame(
                        state,
                        source,
                        where.controller,
                        [],
                        trigger["effect"],
                        at=at,
                        event_card=event_card,
                        optional=trigger.get("optional", False),
                    ),
                )
            )
    if event["type"] == "destroyed":
        for source, when_destroyed in zip(
            event.get("marks", ()), event.get("effects", ()), strict=True
        ):
            found.append(
                (
                    state.cards[source].since,
                    effects.frame(
                        state,
                        source,
                        state.cards[source].controller,
                        [],
                        when_destroyed,
                        at=select.location(state, source),
                        event_card=event["card"],
                    ),
                )
            )
    found.sort(key=lambda entry: entry[0])
    return [pending for _, pending in found]


def _reader(state: State, source: int, event: dict, commanded: dict[int, int] | None) -> int:
    """Whose point of view a card's text is read from: its controller's (or commander's, as
    the event happened); but both players attempt both quests, so "When you complete this
    quest" speaks to whoever completes it."""
    if event["type"] == "quest_completed" and event["quest"] == source:
        return event["seat"]
    return select.controller_of(state, source, commanded)


def _player_matches(state: State, where: Context, wanted: str, seat: int) -> bool:
    """Whether the event's ``seat`` is the player the trigger names: "you", an opponent (a
    player of the other side), or any."""
    if wanted == "any":
        return True
    if wanted == "you":
        return seat == where.controller
    return not select.friendly(state, seat, where.controller)


def _fires(state: State, trigger: dict, event: dict, where: Context, left: int | None):
    """The event card if ``trigger`` fires on ``event``, else False."""
    name = trigger["event"]

    def subject(card: int, selector: dict | None = None) -> bool:
        at = event.get("at") if card == left else None
        return select.matches(state, selector or trigger["subject"], card, where, at=at)

    if name in ("played", "destroyed", "leaves_play", "takes_damage"):
        return event["card"] if subject(event["card"]) else False
    if name in ("start_of_turn", "end_of_turn"):
        return None if _player_matches(state, where, trigger["player"], event["seat"]) else False
    if name == "combat_begins":
        cards = event["attackers"] + event["defenders"]
    elif name == "begins_attacking":
        cards = event["attackers"]
    elif name == "begins_defending":
        cards = event["defenders"]
    elif name == "wins_combat":
        cards = event.get("winners", [])
    elif name == "loses_combat":
        cards = event.get("losers", [])
    elif name == "deals_damage":
        if subject(event["card"], trigger["recipient"]) and any(
            subject(card) for card in event["by"]
        ):
            return event["card"]
        return False
    elif name == "quest_completed":
        if _player_matches(state, where, trigger["player"], event["seat"]) and subject(
            event["quest"], trigger["quest"]
        ):
            return event["quest"]
        return False
    elif name == "ability_applied":
        if subject(event["card"]) and subject(event["quest"], trigger["quest"]):
            return event["quest"]
        return False
    else:
        raise ValueError(f"unknown trigger event {name!r}")
    for card in cards:
        if subject(card):
            return card
    return False
