"""Starholds' closed card vocabulary, as data, and the checks that hold card data to it.

Everything a card may say is named here, and the engine rules on every name
(docs/starholds/vocabulary.md explains each one with the rulebook section it comes from). A card is
a dict of printed fields plus a structured ``rules`` part; a set file is ``{"set": header, "cards":
[card, ...]}``, its header naming the set's empires. ``validate_card(card, empires)`` returns the
problems of one card (each message names the card and the field); ``load_set(path)`` reads a set
file and raises ``InvalidCardData`` listing every problem.

Pure data: tuples, frozensets and ``MappingProxyType``; nothing here changes at run time.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

CARD_TYPES = (
    "terrain",
    "base",
    "ship",
    "dragon",
    "crew",
    "ability",
    "equipment",
    "occurrence",
    "hazard",
    "luck",
    "monster",
    "agenda",
)
CARD_TYPE_LETTERS = MappingProxyType(
    {
        "terrain": "T",
        "base": "B",
        "ship": "S",
        "dragon": "D",
        "crew": "C",
        "ability": "A",
        "equipment": "E",
        "occurrence": "O",
        "hazard": "H",
        "luck": "L",
        "monster": "M",
        "agenda": "G",
    }
)
# Cards that stay in play once played; the others act and are discarded after use unless
# they carry ``lasts`` or ``disables`` (rulebook, "General Errata - Discard After Use").
PERMANENT_TYPES = frozenset(
    {"terrain", "base", "ship", "dragon", "crew", "ability", "equipment", "monster"}
)
# Units (rulebook glossary, "Unit"): what carries Shields, weapons, equipment and systems.
UNIT_TYPES = frozenset({"base", "ship", "dragon"})
# Standard targets of weapons fire (rulebook, "Weapons Fire Phase": terrain, ships, dragons,
# bases; monsters only when they say they are destroyed by damage: ``vulnerable``).
STANDARD_TARGET_TYPES = frozenset({"terrain", "base", "ship", "dragon"})
# Cards that take command slots (rulebook, "Command Limits").
COMMAND_TYPES = frozenset({"base", "ship", "dragon"})

RARITIES = ("C", "U", "R")

# Point types (rulebook, "Point Types"). Economy is paid as any other type but command.
POINT_TYPES = ("economy", "supply", "energy", "ammunition", "research", "repair", "command")
# What a card's engagement cost may ask for.
COST_POINT_TYPES = ("supply", "energy", "research")
# What economy may stand in for.
ECONOMY_STANDS_FOR = frozenset({"supply", "energy", "ammunition", "research", "repair"})

WEAPON_KINDS = MappingProxyType(
    {
        "phaser": "A free weapon of an engaged card: 1 damage each, never to terrain structure.",
        "heavy": "The empire's heavy weapon: 1 ammunition armed per weapon, 1 damage each, the "
        "only weapon that damages terrain structure.",
    }
)

# The signature ship systems of the major empires, each powered with energy during the
# Point Allocation Phase up to the card's ``max`` (rulebook, "Ship Systems").
SHIP_SYSTEMS = MappingProxyType(
    {
        "armor": "Instead of Shields: structural damage from each volley or card damage is "
        "reduced by the armor's current value, which then drops by 1; never repaired. "
        "Needs no energy.",
        "magnifier": "Each energy point powered into it adds 1 to the damage of each Phaser "
        "of the unit this turn.",
        "field": "Instead of Shields: 2 field points per energy point (at most twice the "
        "unit's strength), spent like Shields, reset at each allocation; a unit just "
        "played starts with a field equal to its strength.",
        "thrusters": "Each energy point powered into it reduces every opponent volley and "
        "card damage against the unit by 1 this turn.",
    }
)
SHIELDLESS_SYSTEMS = frozenset({"armor", "field"})
TECH_KINDS = ("", "exclusive", "foreign")
# The types an R/ card may have: ships and dragons enter the fleet when played in reaction,
# the others are discarded after use (docs/starholds/choices.md, "Reactions").
REACTION_TYPES = frozenset({"ship", "dragon", "occurrence", "hazard", "luck"})

# Where a card says it is played: derived from its type (see ``placements`` in the engine).
REACTABLE_EVENTS = MappingProxyType(
    {
        "allocation": "A player begins allocating points (Point Allocation Phase).",
        "card_play": "A card is played (either Play Cards Phase, or as a reaction).",
        "card_action": "A card in play takes a card action.",
        "weapons_fire": "A weapons volley is declared.",
        "discard": "A card is discarded in the Discard Cards Phase.",
    }
)

TIMINGS = MappingProxyType(
    {
        "play": "When the card is played from the hand (as a Card Play).",
        "action": "A card action: once per complete turn, in either Play Cards Phase, while "
        "the card is engaged.",
        "each_turn": "At its controller's Record Keeping Step, while it is in play.",
        "reaction": "When played from the hand in reaction mode (R/ cards only) to the event "
        "named by ``reacts_to``.",
    }
)

SIDES = ("own", "opponent", "any")
CONDITION_KINDS = MappingProxyType(
    {
        "terrain_in_play": "You control at least ``amount`` terrain cards.",
        "units_in_play": "You control at least ``amount`` ships, dragons and bases.",
        "destroyed_this_turn": "Your weapons fire and card damage destroyed at least "
        "``amount`` opponent cards this player turn.",
        "hq_damage_this_turn": "You scored at least ``amount`` Sector HQ damage this turn.",
        "hand_size": "You hold at least ``amount`` cards.",
    }
)


@dataclass(frozen=True)
class Primitive:
    """One entry of the vocabulary: its parameters (name to parameter kind), the card types it
    means something on, and why it exists."""

    doc: str
    params: Mapping[str, str] = field(default_factory=dict)
    card_types: frozenset[str] = frozenset(CARD_TYPES)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


_ATTACHED = frozenset({"base", "ship", "crew", "ability", "equipment"})
_AGAINST = frozenset({"occurrence", "hazard", "luck", "monster"})

KEYWORDS = MappingProxyType(
    {
        "combines": Primitive(
            "May be played onto an own card of the same type that also combines: one card "
            "of their summed strength, Shields, weapons and output (Ship Cards, Terrain Cards).",
            card_types=frozenset({"terrain", "ship", "dragon"}),
        ),
        "terrain_modifier": Primitive(
            "Changes the output of one point type of the terrain at the basis of its stack "
            "while engaged: ``op`` add (any sign) or mul (2 or more). Positive modifiers of one "
            "kind are not cumulative; additive before multiplicative (Terrain Output Modifiers).",
            {"point": "output_point", "op": "op", "value": "integer"},
            _ATTACHED | _AGAINST,
        ),
        "fleet_modifier": Primitive(
            "Adds ``value`` (any sign) to the fleet's points of one type at each allocation "
            "while engaged; played against an opponent, to that opponent's fleet.",
            {"point": "output_point", "value": "integer"},
        ),
        "command": Primitive(
            "Adds ``value`` command slots while engaged at allocation (Command Limits).",
            {"value": "amount"},
            frozenset(PERMANENT_TYPES - {"monster"}),
        ),
        "immune": Primitive(
            "This card is not affected by weapons fire, card damage or monsters (``to``).",
            {"to": "immunity"},
        ),
        "suspends_monsters": Primitive(
            "Monsters played against this card's stack have no effect while it is engaged.",
            card_types=frozenset({"base", "ship", "crew", "equipment", "ability"}),
        ),
        "foreign_technology": Primitive(
            "Its unit may engage foreign technology; on a unit of an empire that adapts "
            "technology, exclusive technology too (Empire Specific Equipment).",
            card_types=frozenset({"crew", "ability"}),
        ),
        "refit": Primitive(
            "Adds ``value`` to a statistic (phasers, heavy, shields, strength) of the unit at "
            "the basis of its stack while this card works.",
            {"stat": "stat", "value": "amount"},
            frozenset({"equipment", "crew", "ability"}),
        ),
        "shield_regeneration": Primitive(
            "Regenerates ``value`` Shield points each Record Keeping Step instead of 1.",
            {"value": "amount"},
            UNIT_TYPES,
        ),
        "damages_terrain": Primitive(
            "Its card damage may be scored on the structure of terrain (Terrain Cards).",
        ),
        "unique": Primitive(
            "One copy per deck; never placed in the reserve fleet (Reserve Fleet Restrictions).",
        ),
        "lasts": Primitive(
            "Stays in play ``turns`` complete turns, then is discarded at its controller's "
            "Record Keeping Step (Complete Turn).",
            {"turns": "amount"},
        ),
        "vulnerable": Primitive(
            "A standard target of weapons fire; destroyed by damage equal to its strength.",
            card_types=frozenset({"monster"}),
        ),
        "played_to": Primitive(
            "Where a card that stays on another is played when no play effect names its "
            "target: a card of ``types`` on the ``side`` given.",
            {"side": "side", "types": "types"},
            _AGAINST,
        ),
        "disables": Primitive(
            "The card it is played against cannot engage while this card is on it.",
            card_types=_AGAINST,
        ),
    }
)

EFFECTS = MappingProxyType(
    {
        "damage": Primitive(
            "Card damage (not weapons fire) to the target: Shields first, then strength; "
            "``structural`` skips Shields (Card Damage Is Not Weapons Fire).",
            {"amount": "amount", "structural": "flag"},
        ),
        "disengage": Primitive("The target is disengaged until its next Engagement Phase."),
        "repair": Primitive(
            "Removes up to ``amount`` damage from the target, Shields first.", {"amount": "amount"}
        ),
        "repair_fleet": Primitive(
            "Removes up to ``amount`` damage from each of the controller's units.",
            {"amount": "amount"},
        ),
        "draw": Primitive("The controller draws ``amount`` cards.", {"amount": "amount"}),
        "discard_random": Primitive(
            "The target player discards ``amount`` cards from the hand, at random.",
            {"amount": "amount"},
        ),
        "return_to_hand": Primitive(
            "The target stack returns to its owners' hands (Discarded Cards: Returned to the Hand)."
        ),
        "destroy": Primitive("The target is discarded with what is played on or against it."),
        "control": Primitive(
            "The controller takes control of the target unit while this card is in play; "
            "it needs a free command slot (Control)."
        ),
        "drain": Primitive(
            "The allocating player loses ``amount`` points of a type this turn.",
            {"point": "output_point", "amount": "amount"},
        ),
        "void": Primitive(
            "Cancels what it reacts to: a played card is discarded, a card action or a volley "
            "is lost (Voided Card Plays, Voided Damage)."
        ),
        "reduce_volley": Primitive(
            "The volley it reacts to loses ``amount`` damage points.", {"amount": "amount"}
        ),
        "intercept": Primitive(
            "This unit enters play and takes the volley first; what is left splashes onto the "
            "original target (Splash Damage)."
        ),
    }
)
# The effects that need a card in play as their target, a player as their target, or none.
CARD_TARGET_EFFECTS = frozenset(
    {"damage", "disengage", "repair", "return_to_hand", "destroy", "control"}
)
PLAYER_TARGET_EFFECTS = frozenset({"discard_random"})
# The effects allowed in reaction to each event; ``drain``, ``void``, ``reduce_volley`` and
# ``intercept`` are reaction-only.
REACTION_EFFECTS = MappingProxyType(
    {
        "allocation": frozenset({"drain", "damage", "draw"}),
        "card_play": frozenset({"void", "damage", "draw"}),
        "card_action": frozenset({"void", "damage", "draw"}),
        "weapons_fire": frozenset({"void", "reduce_volley", "intercept", "damage", "draw"}),
        "discard": frozenset({"damage", "draw"}),
    }
)
REACTION_ONLY_EFFECTS = frozenset({"drain", "void", "reduce_volley", "intercept"})
AGENDA_BENEFITS = frozenset({"draw", "repair_fleet"})
AGENDA_MODES = ("hidden", "exposed")

PARAMETER_KINDS = MappingProxyType(
    {
        "amount": "A whole number from 1 to 25.",
        "integer": "A non-zero whole number from -10 to 10.",
        "flag": "true or false.",
        "output_point": f"One of {', '.join(POINT_TYPES[:-1])}.",
        "op": "add or mul.",
        "immunity": "weapons, card_damage or monsters.",
        "stat": "phasers, heavy, shields or strength.",
        "side": "own, opponent or any.",
        "types": "A non-empty list of card types.",
    }
)
_KIND_VALUES = MappingProxyType(
    {
        "output_point": frozenset(POINT_TYPES[:-1]),
        "op": frozenset({"add", "mul"}),
        "immunity": frozenset({"weapons", "card_damage", "monsters"}),
        "stat": frozenset({"phasers", "heavy", "shields", "strength"}),
        "side": frozenset(SIDES),
    }
)
# Optional parameters (every other parameter is required).
OPTIONAL_PARAMS = frozenset({"structural"})

PRINTED_FIELDS = (
    "number",
    "rarity",
    "title",
    "type",
    "reaction",
    "strength",
    "empire",
    "cost",
    "output",
    "shields",
    "phasers",
    "heavy",
    "system",
    "passive",
    "tech",
    "text",
    "lore",
    "artist",
    "rules",
)
EMPIRE_FIELDS = ("slug", "name", "major", "heavy_weapon", "system", "adapts")


class InvalidCardData(ValueError):
    """Card or set data that breaks the vocabulary; the message lists every problem."""


@dataclass(frozen=True)
class Empire:
    slug: str
    name: str
    major: bool
    heavy_weapon: str
    system: str
    adapts: bool


def _label(card: Mapping) -> str:
    return f"card {card.get('number', '?')} {card.get('title', '?')!r}"


def _check_param(kind: str, value: object) -> bool:
    if kind == "amount":
        return type(value) is int and 1 <= value <= 25
    if kind == "integer":
        return type(value) is int and value != 0 and -10 <= value <= 10
    if kind == "flag":
        return type(value) is bool
    if kind == "types":
        return isinstance(value, list) and bool(value) and set(value) <= set(CARD_TYPES)
    return value in _KIND_VALUES[kind]


def _check_params(
    where: str, entry: Mapping, primitive: Primitive, name_key: str, problems: list[str]
) -> None:
    extra = set(entry) - set(primitive.params) - {name_key}
    if extra:
        problems.append(f"{where}: unknown parameter(s) {', '.join(sorted(extra))}")
    for param, kind in primitive.params.items():
        if param not in entry:
            if param not in OPTIONAL_PARAMS:
                problems.append(f"{where}: missing parameter {param!r} ({PARAMETER_KINDS[kind]})")
        elif not _check_param(kind, entry[param]):
            problems.append(f"{where}: parameter {param!r} must be {PARAMETER_KINDS[kind]}")


def _check_points(label: str, name: str, points: object, allowed, problems: list[str]) -> None:
    if not isinstance(points, dict):
        problems.append(f"{label}: field {name!r} must be an object of point type to number")
        return
    for point, amount in points.items():
        if point not in allowed:
            problems.append(f"{label}: field {name!r}: unknown point type {point!r}")
        if type(amount) is not int or not 1 <= amount <= 10:
            problems.append(f"{label}: field {name!r}: {point} must be a number from 1 to 10")


def _check_target(where: str, target: object, problems: list[str]) -> None:
    if target == "location":
        return
    if not isinstance(target, dict):
        problems.append(f"{where}: 'target' must be \"location\" or an object")
        return
    extra = set(target) - {"side", "types", "max_strength", "player"}
    if extra:
        problems.append(f"{where}: target: unknown field(s) {', '.join(sorted(extra))}")
    if target.get("side") not in SIDES:
        problems.append(f"{where}: target: 'side' must be one of {', '.join(SIDES)}")
    if target.get("player"):
        if "types" in target or "max_strength" in target:
            problems.append(f"{where}: a player target names no card types")
        return
    types = target.get("types")
    if not isinstance(types, list) or not types or not set(types) <= set(CARD_TYPES):
        problems.append(f"{where}: target: 'types' must be a non-empty list of card types")
    if "max_strength" in target and not _check_param("amount", target["max_strength"]):
        problems.append(f"{where}: target: 'max_strength' must be {PARAMETER_KINDS['amount']}")


def _check_effect_entry(label: str, index: int, entry: object, card: Mapping, problems) -> None:
    where = f"{label}: rules.effects[{index}]"
    if not isinstance(entry, dict):
        problems.append(f"{where}: must be an object")
        return
    extra = set(entry) - {"when", "reacts_to", "target", "effect", "discard"}
    if extra:
        problems.append(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
    when = entry.get("when")
    if when not in TIMINGS:
        problems.append(f"{where}: 'when' must be one of {', '.join(TIMINGS)}")
        return
    reacts_to = entry.get("reacts_to")
    if when == "reaction":
        if not card.get("reaction"):
            problems.append(f"{where}: only R/ cards (reaction: true) react")
        if reacts_to not in REACTABLE_EVENTS:
            problems.append(f"{where}: 'reacts_to' must be one of {', '.join(REACTABLE_EVENTS)}")
            return
    elif reacts_to is not None:
        problems.append(f"{where}: 'reacts_to' belongs to reactions only")
    if (
        when == "each_turn"
        and card.get("type") not in PERMANENT_TYPES
        and not _keyword(card, "lasts")
    ):
        problems.append(f"{where}: an each_turn effect needs a card that stays in play")
    if "discard" in entry and (type(entry["discard"]) is not bool or when != "action"):
        problems.append(f"{where}: 'discard' (true or false) belongs to actions only")
    effects = entry.get("effect")
    if not isinstance(effects, list) or not effects:
        problems.append(f"{where}: 'effect' must be a non-empty list")
        return
    target = entry.get("target")
    names = set()
    for position, effect in enumerate(effects):
        at = f"{where}.effect[{position}]"
        name = effect.get("primitive") if isinstance(effect, dict) else None
        if name not in EFFECTS:
            problems.append(f"{at}: unknown primitive {name!r}")
            continue
        names.add(name)
        _check_params(at, effect, EFFECTS[name], "primitive", problems)
        if when == "reaction" and name not in REACTION_EFFECTS[reacts_to]:
            problems.append(f"{at}: {name} cannot react to {reacts_to}")
        if when != "reaction" and name in REACTION_ONLY_EFFECTS:
            problems.append(f"{at}: {name} is a reaction effect")
        if name == "intercept" and card.get("type") not in ("ship", "dragon"):
            problems.append(f"{at}: only ships and dragons intercept")
    card_targeted = names & CARD_TARGET_EFFECTS
    player_targeted = names & PLAYER_TARGET_EFFECTS
    if card_targeted and player_targeted:
        problems.append(f"{where}: one entry targets either cards or a player, not both")
    if card_targeted or player_targeted:
        if target is None:
            problems.append(f"{where}: {', '.join(sorted(names))} needs a 'target'")
        else:
            _check_target(where, target, problems)
            if player_targeted and (not isinstance(target, dict) or not target.get("player")):
                problems.append(f'{where}: discard_random targets a player ("player": true)')
            if card_targeted and isinstance(target, dict) and target.get("player"):
                problems.append(f"{where}: {', '.join(sorted(card_targeted))} targets a card")
            if target == "location" and when in ("play", "reaction"):
                problems.append(f"{where}: a card just played has no location yet")
    elif target is not None:
        problems.append(f"{where}: nothing in 'effect' uses the 'target'")


def _keyword(card: Mapping, name: str) -> Mapping | None:
    rules = card.get("rules")
    if not isinstance(rules, dict):
        return None
    for keyword in rules.get("keywords", ()):
        if isinstance(keyword, dict) and keyword.get("keyword") == name:
            return keyword
    return None


def _check_rules(label: str, card: Mapping, problems: list[str]) -> None:
    rules = card.get("rules")
    if not isinstance(rules, dict):
        problems.append(f"{label}: field 'rules' must be an object")
        return
    extra = set(rules) - {"keywords", "effects", "agenda"}
    if extra:
        problems.append(f"{label}: rules: unknown field(s) {', '.join(sorted(extra))}")
    keywords = rules.get("keywords", [])
    if not isinstance(keywords, list):
        problems.append(f"{label}: rules.keywords must be a list")
        keywords = []
    seen = set()
    for index, keyword in enumerate(keywords):
        where = f"{label}: rules.keywords[{index}]"
        name = keyword.get("keyword") if isinstance(keyword, dict) else None
        if name not in KEYWORDS:
            problems.append(f"{where}: unknown keyword {name!r}")
            continue
        if name in seen:
            problems.append(f"{where}: keyword {name} appears twice")
        seen.add(name)
        primitive = KEYWORDS[name]
        if card.get("type") not in primitive.card_types:
            problems.append(f"{where}: {name} means nothing on a {card.get('type')} card")
        _check_params(where, keyword, primitive, "keyword", problems)
        if name == "terrain_modifier" and keyword.get("op") == "mul":
            if type(keyword.get("value")) is int and keyword["value"] < 2:
                problems.append(f"{where}: a multiplicative modifier multiplies by 2 or more")
    effects = rules.get("effects", [])
    if not isinstance(effects, list):
        problems.append(f"{label}: rules.effects must be a list")
        effects = []
    for index, entry in enumerate(effects):
        _check_effect_entry(label, index, entry, card, problems)
    timings = [entry.get("when") for entry in effects if isinstance(entry, dict)]
    if card.get("reaction") and "reaction" not in timings:
        problems.append(f"{label}: an R/ card needs a reaction effect")
    if (
        card.get("type") in ("occurrence", "hazard", "luck")
        and not effects
        and not ({"terrain_modifier", "fleet_modifier", "disables"} & seen)
    ):
        problems.append(f"{label}: an {card.get('type')} card must do something")
    agenda = rules.get("agenda")
    if (agenda is not None) != (card.get("type") == "agenda"):
        problems.append(f"{label}: rules.agenda belongs on (and only on) agenda cards")
    if agenda is not None:
        _check_agenda(label, agenda, problems)


def _check_agenda(label: str, agenda: object, problems: list[str]) -> None:
    where = f"{label}: rules.agenda"
    if not isinstance(agenda, dict):
        problems.append(f"{where}: must be an object")
        return
    if set(agenda) != {"mode", "condition", "benefit"}:
        problems.append(f"{where}: needs exactly mode, condition and benefit")
    if agenda.get("mode") not in AGENDA_MODES:
        problems.append(f"{where}: 'mode' must be hidden or exposed")
    condition = agenda.get("condition")
    if (
        not isinstance(condition, dict)
        or set(condition) != {"kind", "amount"}
        or condition.get("kind") not in CONDITION_KINDS
        or not _check_param("amount", condition.get("amount"))
    ):
        problems.append(
            f"{where}: 'condition' must be {{kind, amount}} with kind one of "
            f"{', '.join(CONDITION_KINDS)}"
        )
    benefit = agenda.get("benefit")
    if not isinstance(benefit, list) or not benefit:
        problems.append(f"{where}: 'benefit' must be a non-empty list")
        return
    for index, effect in enumerate(benefit):
        name = effect.get("primitive") if isinstance(effect, dict) else None
        if name not in AGENDA_BENEFITS:
            problems.append(
                f"{where}.benefit[{index}]: must be one of {', '.join(sorted(AGENDA_BENEFITS))}"
            )
            continue
        _check_params(f"{where}.benefit[{index}]", effect, EFFECTS[name], "primitive", problems)


def _check_counts(label: str, card: Mapping, problems: list[str]) -> None:
    for name in ("shields", "phasers", "heavy"):
        value = card.get(name)
        if type(value) is not int or not 0 <= value <= 10:
            problems.append(f"{label}: field {name!r} must be a number from 0 to 10")
        elif value and card.get("type") not in UNIT_TYPES | {"terrain"} and name == "shields":
            problems.append(f"{label}: only units and terrain have Shields")
        elif value and card.get("type") not in UNIT_TYPES and name != "shields":
            problems.append(f"{label}: only ships, dragons and bases carry weapons ({name})")


def validate_card(card: object, empires: Mapping[str, Empire]) -> list[str]:
    """The problems of one card against the vocabulary and the set's empires; [] if none."""
    if not isinstance(card, dict):
        return [f"card {card!r}: must be an object"]
    label = _label(card)
    problems: list[str] = []
    missing = [name for name in PRINTED_FIELDS if name not in card]
    if missing:
        problems.append(f"{label}: missing field(s) {', '.join(missing)}")
    extra = set(card) - set(PRINTED_FIELDS)
    if extra:
        problems.append(f"{label}: unknown field(s) {', '.join(sorted(extra))}")
    if missing:
        return problems
    if type(card["number"]) is not int or card["number"] < 1:
        problems.append(f"{label}: field 'number' must be a positive number")
    if card["rarity"] not in RARITIES:
        problems.append(f"{label}: field 'rarity' must be one of {', '.join(RARITIES)}")
    for name in ("title", "text", "lore", "artist"):
        if not isinstance(card[name], str) or (name == "title" and not card[name].strip()):
            problems.append(f"{label}: field {name!r} must be text")
    kind = card["type"]
    if kind not in CARD_TYPES:
        problems.append(f"{label}: field 'type' must be one of {', '.join(CARD_TYPES)}")
        return problems
    if type(card["reaction"]) is not bool:
        problems.append(f"{label}: field 'reaction' must be true or false")
    if card["reaction"] and kind not in REACTION_TYPES:
        problems.append(f"{label}: a {kind} card cannot be an R/ card")
    if type(card["strength"]) is not int or not 1 <= card["strength"] <= 10:
        problems.append(f"{label}: field 'strength' must be a number from 1 to 10")
    empire = card["empire"]
    if empire and empire not in empires:
        problems.append(f"{label}: field 'empire': {empire!r} is not an empire of the set")
    _check_points(label, "cost", card["cost"], COST_POINT_TYPES, problems)
    _check_points(label, "output", card["output"], POINT_TYPES, problems)
    if card["cost"] and kind in ("occurrence", "hazard", "luck", "agenda", "monster", "terrain"):
        problems.append(f"{label}: a {kind} card has no engagement cost")
    if card["output"] and kind not in ("terrain", "base", "ship", "crew"):
        problems.append(f"{label}: only terrain, bases, ships and crew generate points")
    _check_counts(label, card, problems)
    _check_system(label, card, empires, problems)
    if kind == "equipment":
        if type(card["passive"]) is not bool:
            problems.append(f"{label}: field 'passive' must be true or false on equipment")
        if card["tech"] not in TECH_KINDS:
            problems.append(f"{label}: field 'tech' must be '', 'exclusive' or 'foreign'")
        elif card["tech"] and not empire:
            problems.append(f"{label}: {card['tech']} technology belongs to an empire")
    elif card["passive"] is not None or card["tech"] != "":
        problems.append(f"{label}: 'passive' and 'tech' belong to equipment (null and '')")
    _check_rules(label, card, problems)
    return problems


def _check_system(label: str, card: Mapping, empires: Mapping[str, Empire], problems) -> None:
    system = card["system"]
    if system is None:
        return
    if not isinstance(system, dict) or set(system) != {"kind", "max"}:
        problems.append(f"{label}: field 'system' must be null or {{kind, max}}")
        return
    if card["type"] not in UNIT_TYPES:
        problems.append(f"{label}: only units carry a ship system")
    if system["kind"] not in SHIP_SYSTEMS:
        problems.append(f"{label}: system kind must be one of {', '.join(SHIP_SYSTEMS)}")
        return
    if not _check_param("amount", system["max"]) or system["max"] > 10:
        problems.append(f"{label}: system max must be a number from 1 to 10")
    empire = empires.get(card["empire"])
    if empire is None or empire.system != system["kind"]:
        problems.append(f"{label}: the {system['kind']} system is not its empire's system")
    if system["kind"] in SHIELDLESS_SYSTEMS and card["shields"]:
        problems.append(f"{label}: a unit with {system['kind']} has no Shields")


def parse_empires(header: Mapping) -> dict[str, Empire]:
    """The set header's empires by slug; raises InvalidCardData naming what is wrong."""
    problems = []
    empires: dict[str, Empire] = {}
    for index, entry in enumerate(header.get("empires", ())):
        where = f"set.empires[{index}]"
        if not isinstance(entry, dict) or set(entry) != set(EMPIRE_FIELDS):
            problems.append(f"{where}: needs exactly {', '.join(EMPIRE_FIELDS)}")
            continue
        if entry["slug"] in empires:
            problems.append(f"{where}: empire {entry['slug']!r} appears twice")
        if entry["system"] not in ("", *SHIP_SYSTEMS):
            problems.append(f"{where}: 'system' must be '' or one of {', '.join(SHIP_SYSTEMS)}")
        if entry["major"] and not (entry["system"] and entry["heavy_weapon"]):
            problems.append(f"{where}: a major empire has a heavy weapon and a system")
        if not all(type(entry[name]) is bool for name in ("major", "adapts")):
            problems.append(f"{where}: 'major' and 'adapts' must be true or false")
        empires[entry["slug"]] = Empire(**entry)
    if problems:
        raise InvalidCardData("\n".join(problems))
    return empires


def validate_set(data: object) -> list[str]:
    """The problems of a whole set (header, each card, numbering); [] if none."""
    if not isinstance(data, dict) or not isinstance(data.get("set"), dict):
        return ["the set file must be an object with a 'set' header and 'cards'"]
    header = data["set"]
    problems = [
        f"set: missing field {name!r}"
        for name in ("number", "code", "name", "released", "empires")
        if name not in header
    ]
    try:
        empires = parse_empires(header)
    except InvalidCardData as error:
        return problems + str(error).splitlines()
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        return [*problems, "the set has no 'cards' list"]
    numbers = set()
    for card in cards:
        problems.extend(validate_card(card, empires))
        if isinstance(card, dict):
            if card.get("number") in numbers:
                problems.append(f"{_label(card)}: number used twice")
            numbers.add(card.get("number"))
    return problems


def load_set(path: Path | str) -> dict:
    """A set file read and checked; raises InvalidCardData listing every problem."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    problems = validate_set(data)
    if problems:
        raise InvalidCardData(f"{path}:\n" + "\n".join(problems))
    return data
