"""The structured rules of a card, and the validation of a card set file.

Beside its printed game text, every card of a set file carries a ``rules`` dict that restates
that text in the small, closed vocabulary of ``game.engine.vocabulary``: keywords, activated
actions (cost → effect), a tactic's play block, triggered abilities and static abilities. The
rules engine implements each entry of the vocabulary once, so a card whose rules validate is
playable. docs/card-rules.md is the contract, with worked examples.

Pure Python (the standard library and the engine's vocabulary only), so that set files are
checked by tests and by the catalog loader alike, without Django.
"""

import datetime
import re
from collections import Counter
from dataclasses import dataclass

from game.engine import deckrules
from game.engine.vocabulary import (
    ARCHETYPES,
    CARD_FILTER_FIELDS,
    CARD_TYPES,
    CONDITIONS,
    COSTS,
    DECK_TYPES,
    DURATIONS,
    EFFECTS,
    EVENT_PLAYERS,
    EVENTS,
    KEYWORD_CARD_TYPES,
    KEYWORD_PARAMETERS,
    KEYWORDS,
    MODIFIERS,
    NUMERIC_ATTRIBUTES,
    PLAYERS,
    PLAYMAT_TYPES,
    PROHIBITIONS,
    RARITIES,
    RESTRICTIONS,
    ROLES,
    SELECTOR_FIELDS,
    SIDES,
    STATES,
    STATS,
    TIMINGS,
    WHERE,
    Primitive,
)

QUEST_LEVELS = deckrules.QUEST_LEVELS
MAX_COPIES = deckrules.MAX_COPIES
MIN_DECK_SIZE = deckrules.MIN_DECK_SIZE
# A starter deck is a full 58-card play deck: 1 avatar, 4 quests and this many other cards.
STARTER_DECK_SIZE = 53
# Longer game text no longer fits the text box of a card face.
MAX_TEXT_LENGTH = 220
ARROW = "→"

CARD_FIELDS = (
    "number",
    "rarity",
    "title",
    "type",
    "archetype",
    "traits",
    "restriction",
    "cost",
    "attack",
    "defense",
    "damage_bonus",
    "health",
    "level",
    "text",
    "lore",
    "artist",
    "rules",
)

# Which numeric fields each card type prints: "required", "optional" or absent (null).
# An item's health is decided by its restriction (only starships have health), see below.
_NUMBERS_BY_TYPE = {
    "avatar": {
        "attack": "required",
        "defense": "required",
        "damage_bonus": "required",
        "health": "required",
    },
    "quest": {"level": "required"},
    "unit": {
        "cost": "required",
        "attack": "required",
        "defense": "required",
        "damage_bonus": "required",
        "health": "required",
    },
    "ability": {"cost": "required", "defense": "optional", "level": "optional"},
    "item": {
        "cost": "required",
        "attack": "optional",
        "defense": "optional",
        "damage_bonus": "optional",
    },
    "tactic": {"cost": "required"},
}

RULE_SECTIONS = ("keywords", "actions", "play", "triggers", "statics")


def printed_keyword(entry: dict) -> str:
    """How a keyword entry is printed at the start of game text: "Shield 2", "Smuggle: X"."""
    name = entry["keyword"]
    if name == "shield":
        return f"Shield {entry.get('value')}"
    if name == "smuggle":
        return f"Smuggle: {entry.get('card')}"
    return name.capitalize()


def validate_card(card: dict, *, known_titles: set[str] | None = None) -> list[str]:
    """Problems of one card dict of a set file, each a readable sentence; [] when valid.

    ``known_titles`` (every title of the set) lets card names in rules, such as a smuggle
    keyword's card, be checked; without it they aren't.
    """
    if not isinstance(card, dict):
        return [f"A card must be an object, not {type(card).__name__}."]
    label = f"Card #{card.get('number', '?')} {card.get('title', '(untitled)')!r}"
    checker = _CardChecker(card, known_titles)
    checker.check()
    return [f"{label}: {problem}" for problem in checker.problems]


def validate_set(data: dict) -> list[str]:
    """Problems of a whole set file: header, every card, numbering, titles, starter decks."""
    if not isinstance(data, dict):
        return ["The set file must be a JSON object."]
    problems = _set_header_problems(data.get("set"))
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        return [*problems, 'The set file needs a non-empty "cards" list.']
    # Malformed numbers and titles are reported per card; only well-formed ones are compared.
    card_dicts = [card for card in cards if isinstance(card, dict)]
    titles = [card["title"] for card in card_dicts if isinstance(card.get("title"), str)]
    for card in cards:
        problems += validate_card(card, known_titles=set(titles))
    problems += _numbering_problems(card_dicts)
    problems += [
        f"The title {title!r} is used by {copies} cards."
        for title, copies in Counter(titles).items()
        if copies > 1
    ]
    cards_by_title = {card["title"]: card for card in card_dicts if card.get("title") in titles}
    decks = data.get("starter_decks", {})
    if not isinstance(decks, dict):
        return [*problems, '"starter_decks" must be an object keyed by archetype.']
    for archetype, deck in decks.items():
        if archetype not in ARCHETYPES or not archetype:
            problems.append(f"Starter deck {archetype!r}: the key must be an archetype.")
            continue
        # A starter deck may say how it plays, in a line the Store shows before it is bought.
        plays = deck.get("plays", "") if isinstance(deck, dict) else ""
        if not isinstance(plays, str):
            problems.append(f'Starter deck {archetype!r}: "plays" must be a line of text.')
        deck_problems = validate_deck(deck, cards_by_title, deck_size=STARTER_DECK_SIZE)
        if not deck_problems and cards_by_title[deck["avatar"]]["archetype"] != archetype:
            deck_problems.append(f"its avatar is not {_article(archetype)} avatar.")
        problems += [f"Starter deck {archetype!r}: {problem}" for problem in deck_problems]
    return problems


def validate_deck(
    deck: dict, cards_by_title: dict[str, dict], *, deck_size: int | None = None
) -> list[str]:
    """The rulebook's DECK BUILDING rules (``game.engine.deckrules``) for a play deck of a set
    file.

    ``deck`` is ``{"avatar": title, "quests": [titles], "deck": {title: copies}}``, with a
    starter deck's optional ``"plays"`` line; with
    ``deck_size`` the deck must hold exactly that many cards, not just at least 50.
    """
    if (
        not isinstance(deck, dict)
        or set(deck) - {"plays"} != {"avatar", "quests", "deck"}
        or not isinstance(deck["quests"], list)
        or not isinstance(deck["deck"], dict)
    ):
        return ['a deck is {"avatar": title, "quests": [titles], "deck": {title: copies}}.']
    avatar = cards_by_title.get(deck["avatar"])
    if avatar is None or avatar.get("type") != "avatar":
        return [f"{deck['avatar']!r} is not an avatar of the set."]
    problems = []
    unknown = [title for title in [*deck["quests"], *deck["deck"]] if title not in cards_by_title]
    problems += [f"{title!r} is not a card of the set." for title in unknown]
    problems += [
        f"{copies} copies of {title!r}; a deck holds 1 to {MAX_COPIES}."
        for title, copies in deck["deck"].items()
        if not _is_count(copies)
    ]
    if problems:
        return problems

    def line(title: str, copies: int = 1) -> deckrules.DeckLine:
        card = cards_by_title[title]
        facts = deckrules.CardFacts(
            title=title,
            card_type=card.get("type"),
            archetype=card.get("archetype") or "",
            level=card.get("level"),
        )
        return deckrules.DeckLine(facts, copies)

    deck_list = deckrules.DeckList(
        avatar=(line(deck["avatar"]),),
        quests=tuple(line(title) for title in deck["quests"]),
        deck=tuple(line(title, copies) for title, copies in deck["deck"].items()),
    )
    problems = [check.explanation for check in deckrules.check_deck(deck_list) if not check.ok]
    if deck_size is not None and deck_list.deck_size != deck_size:
        problems.append(
            f"the deck holds {deck_list.deck_size} cards besides avatar and quests, "
            f"not {deck_size}."
        )
    return problems


def _set_header_problems(header) -> list[str]:
    if not isinstance(header, dict):
        return ['The set file needs a "set" object.']
    problems = []
    if not _is_count(header.get("number")):
        problems.append("The set number must be a positive integer.")
    if not re.fullmatch(r"[A-Z]{3,5}", str(header.get("code", ""))):
        problems.append("The set code must be 3 to 5 capital letters.")
    if not isinstance(header.get("name"), str) or not header["name"].strip():
        problems.append("The set needs a name.")
    try:
        datetime.date.fromisoformat(str(header.get("released")))
    except ValueError:
        problems.append("The set's release date must be an ISO date (YYYY-MM-DD).")
    return problems


def _numbering_problems(cards: list[dict]) -> list[str]:
    numbers = [card["number"] for card in cards if _is_count(card.get("number"))]
    problems = [
        f"The card number {number} is used by {copies} cards."
        for number, copies in Counter(numbers).items()
        if copies > 1
    ]
    if set(numbers) != set(range(1, len(cards) + 1)):
        problems.append(f"The cards must be numbered 1 to {len(cards)} without gaps.")
    return problems


def _known(value, names) -> bool:
    """Whether a value read from the file is one of the names; malformed values are not."""
    return isinstance(value, str) and value in names


def _article(noun) -> str:
    return f"{'an' if str(noun)[:1] in 'aeiou' else 'a'} {noun}"


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _is_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_text(value) -> bool:
    return isinstance(value, str) and bool(value.strip())


@dataclass(frozen=True)
class _Scope:
    """Which card references a selector may use where it stands."""

    event_card: bool = False  # in a trigger about a card, or in a target's when_destroyed
    chosen: bool = False  # after an earlier effect of the same list that chose cards


_NO_REFERENCES = _Scope()


class _CardChecker:
    """Collects the problems of one card; paths such as rules.actions[0].cost[1] locate them."""

    def __init__(self, card: dict, known_titles: set[str] | None):
        self.card = card
        self.card_type = card.get("type")
        self.known_titles = known_titles
        self.problems: list[str] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}" if path else message)

    def check(self) -> None:
        self.check_fields()
        if self.card_type in CARD_TYPES:
            self.check_numbers()
        rules = self.card.get("rules")
        if not isinstance(rules, dict):
            self.problem("rules", "must be an object.")
            return
        self.check_rules(rules)
        # The text is compared with the rules only once both are well formed.
        if isinstance(self.card.get("text"), str) and not self.problems:
            self.check_text(self.card["text"], rules)

    # Printed fields ------------------------------------------------------------------------

    def check_fields(self) -> None:
        card = self.card
        missing = [name for name in CARD_FIELDS if name not in card]
        unknown = sorted(set(card) - set(CARD_FIELDS))
        if missing:
            self.problem("", f"missing field(s) {', '.join(missing)}.")
        if unknown:
            self.problem("", f"unknown field(s) {', '.join(unknown)}.")
        if not _is_count(card.get("number")):
            self.problem("number", "must be a positive integer.")
        if card.get("rarity") not in RARITIES:
            self.problem("rarity", f"{card.get('rarity')!r} is not one of {', '.join(RARITIES)}.")
        if self.card_type not in CARD_TYPES:
            self.problem("type", f"{self.card_type!r} is not one of {', '.join(CARD_TYPES)}.")
        if card.get("archetype") not in ARCHETYPES:
            self.problem(
                "archetype",
                f'{card.get("archetype")!r} is not jedi, rebel, imperial, sith or "" (generic).',
            )
        if self.card_type == "avatar" and card.get("archetype") == "":
            self.problem("archetype", "every avatar has an archetype.")
        traits = card.get("traits")
        if not isinstance(traits, list) or not all(_is_text(trait) for trait in traits):
            self.problem("traits", "must be a list of non-empty strings.")
        elif self.card_type == "avatar" and len(traits) < 2:
            self.problem("traits", "an avatar has a species trait and a career trait.")
        restriction = card.get("restriction")
        if restriction not in RESTRICTIONS:
            self.problem("restriction", f"{restriction!r} is not one of {RESTRICTIONS}.")
        elif restriction and self.card_type != "item":
            self.problem("restriction", "only items have a restriction.")
        for name in ("title", "lore", "artist"):
            if not _is_text(card.get(name)):
                self.problem(name, "must be a non-empty string.")
        # Game text may be empty: a vanilla card has attributes only.
        text = card.get("text")
        if not isinstance(text, str):
            self.problem("text", 'must be a string ("" on a card without game text).')
        elif len(text) > MAX_TEXT_LENGTH:
            self.problem("text", f"{len(text)} characters; a card face fits {MAX_TEXT_LENGTH}.")

    def check_numbers(self) -> None:
        expected = dict(_NUMBERS_BY_TYPE[self.card_type])
        if self.card_type == "item":
            expected["health"] = "required" if self.card.get("restriction") == "starship" else ""
        for name in NUMERIC_ATTRIBUTES:
            value = self.card.get(name)
            presence = expected.get(name, "")
            if value is None:
                if presence == "required":
                    self.problem(name, f"{_article(self.card_type)} needs {_article(name)}.")
            elif not presence:
                starship_only = self.card_type == "item" and name == "health"
                why = " (only starships have health)" if starship_only else ""
                self.problem(name, f"{_article(self.card_type)} has no {name}{why}; use null.")
            elif not _is_number(value):
                self.problem(name, "must be a whole number of 0 or more.")
        level = self.card.get("level")
        if self.card_type == "quest" and level is not None and level not in QUEST_LEVELS:
            self.problem("level", f"a quest's level is one of {QUEST_LEVELS}, not {level}.")

    # Structured rules ----------------------------------------------------------------------

    def check_rules(self, rules: dict) -> None:
        for name in sorted(set(rules) - set(RULE_SECTIONS)):
            self.problem("rules", f"unknown section {name!r}; sections are {RULE_SECTIONS}.")
        for index, entry in enumerate(self.entries(rules, "keywords")):
            self.check_keyword(entry, f"rules.keywords[{index}]")
        for index, action in enumerate(self.entries(rules, "actions")):
            self.check_action(action, f"rules.actions[{index}]")
        for index, trigger in enumerate(self.entries(rules, "triggers")):
            self.check_trigger(trigger, f"rules.triggers[{index}]")
        for index, static in enumerate(self.entries(rules, "statics")):
            self.check_static(static, f"rules.statics[{index}]")
        if self.card_type == "tactic":
            if "play" not in rules:
                self.problem("rules", "a tactic needs a play block.")
            else:
                self.check_play(rules["play"], "rules.play")
        elif "play" in rules:
            self.problem("rules.play", "only tactics have a play block.")

    def entries(self, rules: dict, section: str) -> list:
        entries = rules.get(section, [])
        if not isinstance(entries, list):
            self.problem(f"rules.{section}", "must be a list.")
            return []
        return entries

    def check_keyword(self, entry, path: str) -> None:
        if not self.expect_object(entry, "keyword", path):
            return
        name = entry["keyword"]
        if not _known(name, KEYWORDS):
            self.problem(path, f"unknown keyword {name!r}; keywords are {', '.join(KEYWORDS)}.")
            return
        params = KEYWORD_PARAMETERS.get(name, {})
        self.check_params(entry, "keyword", Primitive("", params), path, _NO_REFERENCES)
        if self.card_type in CARD_TYPES and self.card_type not in KEYWORD_CARD_TYPES[name]:
            self.problem(
                path,
                f"{name} means nothing on {_article(self.card_type)}; it is for "
                f"{', '.join(KEYWORD_CARD_TYPES[name])} cards.",
            )
        if name == "smuggle":
            if self.card.get("level") is None:
                self.problem(path, "smuggle works when the ability is applied; it needs a level.")
            if entry.get("card") == self.card.get("title"):
                self.problem(path, "a card can't smuggle itself.")

    def check_action(self, action, path: str) -> None:
        if not self.expect_keys(action, {"timing", "cost", "effect"}, set(), path):
            return
        if not _known(action["timing"], TIMINGS):
            self.problem(f"{path}.timing", f"{action['timing']!r} is not one of {list(TIMINGS)}.")
        costs = action["cost"]
        if not isinstance(costs, list) or not costs:
            self.problem(f"{path}.cost", "an activated action needs at least one cost.")
        else:
            for index, cost in enumerate(costs):
                self.check_primitive(cost, COSTS, "cost", f"{path}.cost[{index}]", _NO_REFERENCES)
        self.check_effects(action["effect"], f"{path}.effect", _NO_REFERENCES)

    def check_play(self, play, path: str) -> None:
        if not self.expect_keys(play, {"timing", "effect"}, {"condition"}, path):
            return
        timing = play["timing"]
        if (
            not isinstance(timing, list)
            or not timing
            or not all(_known(each, ("attack", "defend")) for each in timing)
            or len(set(timing)) != len(timing)
        ):
            self.problem(
                f"{path}.timing",
                'a tactic is played in combat: a list of "attack" and/or "defend".',
            )
        self.check_condition(play.get("condition"), f"{path}.condition", _NO_REFERENCES)
        self.check_effects(play["effect"], f"{path}.effect", _NO_REFERENCES)

    def check_trigger(self, trigger, path: str) -> None:
        if not self.expect_object(trigger, "event", path):
            return
        name = trigger["event"]
        if not _known(name, EVENTS):
            self.problem(path, f"unknown event {name!r}; events are {', '.join(EVENTS)}.")
            return
        event = EVENTS[name]
        own_keys = {"effect", "condition", "optional"}
        self.check_params(
            {key: value for key, value in trigger.items() if key not in own_keys},
            "event",
            event,
            path,
            _NO_REFERENCES,
        )
        if "optional" in trigger and not isinstance(trigger["optional"], bool):
            self.problem(f"{path}.optional", "must be true or false.")
        scope = _Scope(event_card="subject" in event.params or "quest" in event.params)
        self.check_condition(trigger.get("condition"), f"{path}.condition", scope)
        self.check_effects(trigger.get("effect"), f"{path}.effect", scope)

    def check_static(self, static, path: str) -> None:
        if not self.expect_keys(static, {"effect", "applies_to"}, {"condition"}, path):
            return
        self.check_primitive(
            static["effect"], MODIFIERS, "modifier", f"{path}.effect", _NO_REFERENCES
        )
        self.check_selector(
            static["applies_to"], f"{path}.applies_to", _NO_REFERENCES, choosing=False
        )
        self.check_condition(static.get("condition"), f"{path}.condition", _NO_REFERENCES)

    def check_condition(self, condition, path: str, scope: _Scope) -> None:
        if condition is None:
            return
        if not self.expect_object(condition, "condition", path):
            return
        name = condition["condition"]
        if not _known(name, CONDITIONS):
            self.problem(
                path,
                f"unknown condition {name!r}; conditions are {', '.join(CONDITIONS)} (or null).",
            )
            return
        self.check_params(condition, "condition", CONDITIONS[name], path, scope)

    def check_effects(self, effects, path: str, scope: _Scope, *, modifiers: bool = False) -> None:
        if not isinstance(effects, list) or not effects:
            self.problem(path, "must be a non-empty list.")
            return
        table, kind = (MODIFIERS, "modifier") if modifiers else (EFFECTS, "effect")
        for index, effect in enumerate(effects):
            chose_before = any(
                isinstance(earlier, dict) and isinstance(earlier.get("target"), dict)
                for earlier in effects[:index]
            )
            self.check_primitive(
                effect,
                table,
                kind,
                f"{path}[{index}]",
                _Scope(scope.event_card, chosen=chose_before),
            )

    def check_primitive(
        self, entry, table: dict[str, Primitive], kind: str, path: str, scope: _Scope
    ) -> None:
        if not self.expect_object(entry, "primitive", path):
            return
        name = entry["primitive"]
        if not _known(name, table):
            self.problem(path, f"unknown {kind} primitive {name!r}; known: {', '.join(table)}.")
            return
        self.check_params(entry, "primitive", table[name], path, scope)
        if name == "for_each" and isinstance(entry.get("effect"), list):
            for index, inner in enumerate(entry["effect"]):
                inner_name = inner.get("primitive") if isinstance(inner, dict) else None
                if _known(inner_name, table) and "amount" not in table[inner_name].params:
                    self.problem(
                        f"{path}.effect[{index}]",
                        f"for_each multiplies an amount; {inner_name} has none.",
                    )
        if kind == "cost" and name in ("exert", "destroy"):
            target = entry.get("target")
            if isinstance(target, dict) and target.get("side") != "friendly":
                self.problem(f"{path}.target", "a cost is paid with friendly cards.")
        if kind == "cost" and name == "damage_self" and not self.has_health():
            self.problem(path, "only a card with health can take damage as a cost.")

    def has_health(self) -> bool:
        return self.card_type in ("unit", "avatar") or self.card.get("health") is not None

    def check_params(
        self, entry: dict, name_key: str, primitive: Primitive, path: str, scope: _Scope
    ) -> None:
        given = set(entry) - {name_key}
        required = set(primitive.params) - primitive.optional
        for missing in sorted(required - given):
            self.problem(path, f"{entry[name_key]} needs the parameter {missing!r}.")
        for unknown in sorted(given - set(primitive.params)):
            self.problem(
                path,
                f"{entry[name_key]} has no parameter {unknown!r}; it takes "
                f"{', '.join(primitive.params) or 'none'}.",
            )
        for param in sorted(given & set(primitive.params)):
            # A target's when_destroyed effects refer to the marked card as event_card.
            inner_scope = _Scope(event_card=True) if param == "when_destroyed" else scope
            self.check_value(primitive.params[param], entry[param], f"{path}.{param}", inner_scope)

    def check_value(self, param_type: str, value, path: str, scope: _Scope) -> None:
        choices = {
            "stat": STATS,
            "duration": DURATIONS,
            "player": PLAYERS,
            "event_player": EVENT_PLAYERS,
            "role": ROLES,
            "prohibition": PROHIBITIONS,
        }
        if param_type in choices:
            if not _known(value, choices[param_type]):
                self.problem(path, f"{value!r} is not one of {', '.join(choices[param_type])}.")
        elif param_type == "amount":
            if not _is_count(value):
                self.problem(path, f"{value!r} must be a positive integer.")
        elif param_type == "change":
            if not isinstance(value, int) or isinstance(value, bool) or value == 0:
                self.problem(path, f"{value!r} must be a non-zero integer.")
        elif param_type in ("choice", "filter"):
            self.check_selector(value, path, scope, choosing=param_type == "choice")
        elif param_type == "quest":
            self.check_selector(value, path, scope, choosing=True)
            this_quest_card = value == {"self": True} and self.card_type == "quest"
            if isinstance(value, dict) and not this_quest_card and value.get("types") != ["quest"]:
                self.problem(path, 'must select quests: types ["quest"].')
        elif param_type == "card_filter":
            self.check_card_filter(value, path)
        elif param_type == "title":
            self.check_title(value, path)
        elif param_type == "keyword":
            if not _known(value, KEYWORDS):
                self.problem(path, f"unknown keyword {value!r}.")
        elif param_type == "plain_keyword":
            if not _known(value, KEYWORDS) or value in KEYWORD_PARAMETERS:
                self.problem(path, f"{value!r} is not a keyword without parameter.")
        elif param_type == "effects":
            self.check_effects(value, path, scope)
        elif param_type == "modifiers":
            self.check_effects(value, path, _NO_REFERENCES, modifiers=True)
        else:
            raise ValueError(f"The vocabulary names an unknown parameter type {param_type!r}.")

    def check_title(self, value, path: str) -> None:
        if not _is_text(value):
            self.problem(path, "must be a card title.")
        elif self.known_titles is not None and value not in self.known_titles:
            self.problem(path, f"{value!r} is not the title of a card of the set.")

    def check_card_filter(self, value, path: str) -> None:
        if not isinstance(value, dict):
            self.problem(path, "must be a card filter object.")
            return
        for unknown in sorted(set(value) - set(CARD_FILTER_FIELDS)):
            self.problem(path, f"unknown card filter field {unknown!r}.")
        types = value.get("types")
        if (
            not isinstance(types, list)
            or not types
            or not all(_known(each, DECK_TYPES) for each in types)
        ):
            self.problem(f"{path}.types", f"must be a non-empty list of {DECK_TYPES}.")
        if "trait" in value and not _is_text(value["trait"]):
            self.problem(f"{path}.trait", "must be a trait name.")
        if "max_cost" in value and not _is_number(value["max_cost"]):
            self.problem(f"{path}.max_cost", "must be a whole number of 0 or more.")

    def check_selector(self, selector, path: str, scope: _Scope, *, choosing: bool) -> None:
        if not isinstance(selector, dict):
            self.problem(path, "must be a selector object.")
            return
        for unknown in sorted(set(selector) - set(SELECTOR_FIELDS)):
            self.problem(
                path,
                f"unknown selector field {unknown!r}; fields are {', '.join(SELECTOR_FIELDS)}.",
            )
        references = {
            "self": (
                self.card_type != "tactic",
                "a tactic is never on the playmat; it has no self.",
            ),
            "event_card": (
                scope.event_card,
                "event_card only means something in a trigger "
                "about a card or in a target's when_destroyed.",
            ),
            "chosen": (
                scope.chosen,
                "chosen refers to an earlier effect of the same list that chose cards.",
            ),
        }
        for reference, (allowed, why_not) in references.items():
            if reference in selector:
                if selector != {reference: True}:
                    self.problem(path, f'a {reference} selector has only "{reference}": true.')
                elif not allowed:
                    self.problem(path, why_not)
                return
        self.check_filter_fields(selector, path, choosing=choosing)

    def check_filter_fields(self, selector: dict, path: str, *, choosing: bool) -> None:
        if not _known(selector.get("side"), SIDES):
            self.problem(
                f"{path}.side", f"{selector.get('side')!r} is not one of {', '.join(SIDES)}."
            )
        types = selector.get("types")
        if (
            not isinstance(types, list)
            or not types
            or not all(_known(each, PLAYMAT_TYPES) for each in types)
        ):
            self.problem(f"{path}.types", f"must be a non-empty list of {PLAYMAT_TYPES}.")
            types = []
        where = selector.get("where", "anywhere")
        if not _known(where, WHERE):
            self.problem(f"{path}.where", f"{where!r} is not one of {', '.join(WHERE)}.")
        elif where == "combat" and not set(types) <= {"unit", "avatar"}:
            self.problem(f"{path}.where", "only units and avatars are combatants.")
        elif where in ("this_quest", "combat_quest") and not set(types) <= {"unit", "quest"}:
            self.problem(f"{path}.where", "only units (and the quest itself) are at a quest.")
        if where == "this_quest" and self.card_type not in ("unit", "quest"):
            self.problem(
                f"{path}.where",
                f"{_article(self.card_type)} is not at a quest; use combat_quest or anywhere.",
            )
        if "state" in selector and not _known(selector["state"], STATES):
            self.problem(
                f"{path}.state", f"{selector['state']!r} is not one of {', '.join(STATES)}."
            )
        if "trait" in selector and not _is_text(selector["trait"]):
            self.problem(f"{path}.trait", "must be a trait name.")
        if "other" in selector and selector["other"] is not True:
            self.problem(f"{path}.other", "is true when present.")
        if "max_cost" in selector and not _is_number(selector["max_cost"]):
            self.problem(f"{path}.max_cost", "must be a whole number of 0 or more.")
        if "count" in selector:
            if not choosing:
                self.problem(
                    f"{path}.count",
                    "this selector matches every card it describes; "
                    "count only belongs where cards are chosen.",
                )
            elif selector["count"] != "all" and not _is_count(selector["count"]):
                self.problem(f"{path}.count", 'must be a positive integer or "all".')

    def expect_object(self, entry, name_key: str, path: str) -> bool:
        if isinstance(entry, dict) and name_key in entry:
            return True
        self.problem(path, f'must be an object {{"{name_key}": <name>, ...}}, not {entry!r}.')
        return False

    def expect_keys(self, entry, required: set[str], optional: set[str], path: str) -> bool:
        if not isinstance(entry, dict):
            self.problem(path, "must be an object.")
            return False
        missing = required - set(entry)
        unknown = set(entry) - required - optional
        if missing:
            self.problem(path, f"missing {', '.join(sorted(missing))}.")
        if unknown:
            self.problem(path, f"unknown key(s) {', '.join(sorted(unknown))}.")
        return not missing

    # Printed text against the rules --------------------------------------------------------

    def check_text(self, text: str, rules: dict) -> None:
        """The card-face renderer relies on these conventions of the printed text."""
        body = text
        if self.card_type == "tactic":
            icons = "".join(
                f"{{{timing}}}" for timing in TIMINGS if timing in rules["play"]["timing"]
            )
            if not text.startswith(icons):
                self.problem("text", f"a tactic's text begins with its icons {icons}.")
            body = text.removeprefix(icons).lstrip()
        keywords = rules.get("keywords", [])
        if keywords:
            opening = " ".join(f"{printed_keyword(entry)}." for entry in keywords)
            if not body.startswith(opening):
                self.problem("text", f"the text begins with the keywords {opening!r}.")
        actions = rules.get("actions", [])
        if text.count(ARROW) != len(actions):
            self.problem(
                "text",
                f"{len(actions)} activated action(s) but {text.count(ARROW)} {ARROW} in the text.",
            )
        for action in actions:
            if f"{{{action['timing']}}}" not in text:
                self.problem("text", f"the {{{action['timing']}}} icon of an action is missing.")
