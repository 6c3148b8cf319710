"""Card effects in words, for a prompt that must say what a "you may" would do.

The engine carries a card's structured rules, not its printed text, so a prompt such as
"Scavenger: draw a card? (optional)" is spelled here from the effect primitives of
docs/card-rules.md. The words follow the set's printed text where it has a habit ("destroy an
opposing item that costs 1 or less", "heal 1 damage from it").
"""

from collections.abc import Callable, Mapping
from types import MappingProxyType

from game.engine.events import ATTRIBUTE_NAMES, DURATIONS, PROHIBITIONS

PLURALS = MappingProxyType({"ability": "abilities"})
COUNTED = MappingProxyType({"all": "each"})
WHERE = MappingProxyType(
    {
        "anywhere": "",
        "this_quest": " at this quest",
        "combat": " in the combat",
        "combat_quest": " at the combat's quest",
    }
)
SIDES = MappingProxyType(
    {"friendly": "friendly ", "yours": "your ", "opposing": "opposing ", "any": ""}
)
# A player has one avatar: the rulebook's text names it rather than choosing among them.
AVATARS = MappingProxyType(
    {"friendly avatar": "your avatar", "opposing avatar": "the opposing avatar"}
)
STAT_NAMES = MappingProxyType({**ATTRIBUTE_NAMES, "health": "health"})


def effects_phrase(effects: list[dict]) -> str:
    """What ``effects`` do, as the rest of "you may ...": "draw a card, then gain 1 power"."""
    return ", then ".join(effect_phrase(effect) for effect in effects)


def effect_phrase(effect: dict) -> str:
    return PHRASES[effect["primitive"]](effect)


def cards_phrase(selector: dict) -> str:
    """The cards a selector names: "it", "this quest", "an opposing item that costs 1 or
    less", "each friendly unit"."""
    if selector.get("self"):
        return "this quest" if selector.get("types") == ["quest"] else "this card"
    if selector.get("event_card"):
        return "that card"
    if selector.get("chosen"):
        return "it"
    types = selector.get("types", ["card"])
    if types == ["quest"] and selector.get("where") == "this_quest":
        return "this quest"
    count = selector.get("count", 1)
    many = count != 1 and count != "all"
    nouns = " or ".join(_plural(kind) if many else kind for kind in types)
    words = " ".join(
        word
        for word in (
            "other" if selector.get("other") else "",
            selector.get("state", ""),
            SIDES[selector.get("side", "any")].strip(),
            selector.get("trait", ""),
            nouns,
        )
        if word
    )
    where = WHERE[selector.get("where", "anywhere")]
    costing = ""
    if "max_cost" in selector:
        costing = f" that {'cost' if many else 'costs'} {selector['max_cost']} or less"
    if types == ["avatar"] and count == 1 and words in ("friendly avatar", "opposing avatar"):
        return AVATARS[words]
    if count == 1:
        # "a unit", "an item"; "an other" is spelled "another".
        counted = "an" if words[0] in "aeio" else "a"
        if words.startswith("other "):
            return f"another {words.removeprefix('other ')}{costing}{where}"
    else:
        counted = COUNTED.get(str(count), str(count))
    return f"{counted} {words}{costing}{where}"


def _plural(noun: str) -> str:
    return PLURALS.get(noun, f"{noun}s")


def _cards(amount: int) -> str:
    return "a card" if amount == 1 else f"{amount} cards"


def _by(effect: dict, verb: str) -> str:
    """``verb`` done by the effect's player: "draw a card", "have your opponent draw a card"."""
    return verb if effect.get("player", "you") == "you" else f"have your opponent {verb}"


def _signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def _tokens(amount: int) -> str:
    return "a level token" if amount == 1 else f"{amount} level tokens"


def _for_each(effect: dict) -> str:
    counted = dict(effect["counted"], count="all")
    return f"{effects_phrase(effect['effect'])} for {cards_phrase(counted)}"


# The words of each effect primitive (vocabulary.EFFECTS), as the rest of "you may ...".
PHRASES: Mapping[str, Callable[[dict], str]] = MappingProxyType(
    {
        "gain_power": lambda e: f"gain {e['amount']} power",
        "draw": lambda e: _by(e, f"draw {_cards(e['amount'])}"),
        "discard": lambda e: _by(e, f"discard {_cards(e['amount'])}"),
        "deal_damage": lambda e: f"deal {e['amount']} damage to {cards_phrase(e['target'])}",
        "heal": lambda e: f"heal {e['amount']} damage from {cards_phrase(e['target'])}",
        "shield": lambda e: f"give {cards_phrase(e['target'])} shield {e['amount']}",
        "modify": lambda e: (
            f"give {cards_phrase(e['target'])} {_signed(e['amount'])} "
            f"{STAT_NAMES[e['stat']]}{DURATIONS[e['duration']]}"
        ),
        "add_total": lambda e: _by(e, f"add {_signed(e['amount'])} to the combat total"),
        "add_damage": lambda e: _by(e, f"add {_signed(e['amount'])} to the combat damage"),
        "exert": lambda e: f"exert {cards_phrase(e['target'])}",
        "ready": lambda e: f"ready {cards_phrase(e['target'])}",
        "destroy": lambda e: f"destroy {cards_phrase(e['target'])}",
        "return_to_hand": lambda e: f"return {cards_phrase(e['target'])} to its owner's hand",
        "move_unit": lambda e: f"move {cards_phrase(e['target'])} to the other quest",
        "withdraw": lambda e: f"withdraw {cards_phrase(e['target'])} from the combat",
        "join_combat": lambda e: f"have {cards_phrase(e['target'])} join the combat",
        "grant_keyword": lambda e: (
            f"give {cards_phrase(e['target'])} {e['keyword']}{DURATIONS[e['duration']]}"
        ),
        "remove_keyword": lambda e: (
            f"have {cards_phrase(e['target'])} lose {e['keyword']}{DURATIONS[e['duration']]}"
        ),
        "prohibit": lambda e: (
            f"stop {cards_phrase(e['target'])} from being able to "
            f"{PROHIBITIONS[e['action']]}{DURATIONS[e['duration']]}"
        ),
        "search": lambda e: f"search your deck for {cards_phrase(e['card'])}",
        "recover": lambda e: (
            f"return {cards_phrase(e['card'])} from your discard pile to your hand"
        ),
        "create_card": lambda e: f"create {e['card']}",
        "add_level_tokens": lambda e: f"put {_tokens(e['amount'])} on {cards_phrase(e['target'])}",
        "move_level_tokens": lambda e: _by(e, f"move {_tokens(e['amount'])} to the other quest"),
        "raid_again": lambda e: f"raid {cards_phrase(e['target'])} again",
        "begin_avatar_combat": lambda e: f"begin an avatar combat at {cards_phrase(e['target'])}",
        "target": lambda e: f"target {cards_phrase(e['target'])}",
        "link": lambda e: f"link this card to {cards_phrase(e['target'])}",
        "for_each": _for_each,
        "win_game": lambda e: (
            "win the game" if e["player"] == "you" else "have your opponents win the game"
        ),
    }
)
