"""The card-rules vocabulary, spelled once: what a card's ``rules`` may say, and the values of
its printed attributes (docs/card-rules.md).

The engine implements every keyword, cost, effect, modifier, trigger event and condition named
here (tests/game/engine/test_vocabulary.py holds it to that), and the set-file validator
(``collection.cards.cardrules``) checks card data against the same tables. Pure data: no Django, and
nothing here changes at run time (tuples, frozensets and ``MappingProxyType``).

Card attributes come as a tuple of the stored values, in display order, and a map of each
value to its label, so Django choices are built as
``[(value, RARITY_LABELS[value]) for value in RARITIES]``:

- ``CARD_TYPES`` / ``CARD_TYPE_LABELS``, ``ARCHETYPES`` / ``ARCHETYPE_LABELS`` (generic is
  ``""``), ``RARITIES`` / ``RARITY_LABELS``, ``RESTRICTIONS`` / ``RESTRICTION_LABELS`` (none is
  ``""``);
- ``NUMERIC_ATTRIBUTES``: the printed numbers a card may have.

The rules vocabulary maps each name to its meaning: ``KEYWORDS`` (glossary definitions, with
``KEYWORD_PARAMETERS`` and ``KEYWORD_CARD_TYPES``), ``TIMINGS``, ``DURATIONS``, ``SIDES``,
``PLAYERS``, ``EVENT_PLAYERS``, ``WHERE``, ``STATES``, ``STATS``, ``PROHIBITIONS``, ``ROLES``,
``SELECTOR_FIELDS`` and ``CARD_FILTER_FIELDS`` to a description (``PLAYMAT_TYPES`` and
``DECK_TYPES`` are the card types a selector and a card filter may name); ``COSTS``,
``EFFECTS``, ``MODIFIERS``, ``EVENTS`` and ``CONDITIONS`` to a ``Primitive`` (its parameters by
``PARAMETER_TYPES``).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

CARD_TYPES = ("avatar", "quest", "unit", "ability", "item", "tactic")
CARD_TYPE_LABELS = MappingProxyType(
    {
        "avatar": "Avatar",
        "quest": "Quest",
        "unit": "Unit",
        "ability": "Ability",
        "item": "Item",
        "tactic": "Tactic",
    }
)
ARCHETYPES = ("jedi", "rebel", "imperial", "sith", "")
ARCHETYPE_LABELS = MappingProxyType(
    {
        "jedi": "Jedi",
        "rebel": "Rebel",
        "imperial": "Imperial",
        "sith": "Sith",
        "": "Generic",
    }
)
RARITIES = ("R", "U", "C", "F", "P")
RARITY_LABELS = MappingProxyType(
    {
        "R": "Rare",
        "U": "Uncommon",
        "C": "Common",
        "F": "Starter or reward",
        "P": "Promo",
    }
)
# One card of each restriction on the playmat; a new one destroys the old and draws a card.
RESTRICTIONS = ("", "weapon", "armor", "starship", "vehicle", "droid")
RESTRICTION_LABELS = MappingProxyType(
    {
        "": "None",
        "weapon": "Weapon",
        "armor": "Armor",
        "starship": "Starship",
        "vehicle": "Vehicle",
        "droid": "Droid",
    }
)
NUMERIC_ATTRIBUTES = ("cost", "attack", "defense", "damage_bonus", "health", "level")

# Keywords a card can carry (a card's ``rules["keywords"]`` names), with their glossary
# definitions, as shown on card faces and in tooltips.
KEYWORDS = MappingProxyType(
    {
        "agility": (
            "Whenever an opposing unit is played to the quest of this unit, this unit is readied."
        ),
        "ambush": "You can play this unit as a combat action. It joins the combat.",
        "durable": "This unit can't leave play unless it has 0 health.",
        "elusive": "This unit can't be affected by other cards.",
        "entanglement": "This ability is played exerted, under an opponent's control.",
        "evasion": (
            "Whenever combat begins involving one or more of your combatants that have evasion, "
            "you get +1 total defense."
        ),
        "expertise": (
            "At the end of your turn, this unit permanently gets +1 attack and +1 defense."
        ),
        "intel": (
            "Whenever you play another card that costs 4 or more, this card loses Intel and you "
            "gain 1 power. Some game text lets you remove Intel to pay costs."
        ),
        "invulnerable": "This unit or avatar can't take damage of any kind.",
        "operative": (
            "When your avatar begins combat against another avatar, if this unit is ready, "
            "it joins the combat."
        ),
        "pin": (
            "When this card becomes exerted, deal 1 damage to it, then remove pin from it. "
            "Whenever a player completes a quest, he removes pin from all his cards."
        ),
        "precise": (
            "Whenever your opponent is about to assign damage from combat involving this card, "
            "you assign that damage instead."
        ),
        "reinforcement": "This card costs -1 power to play on turn 8 or later.",
        "secondary": "When this card leaves play, remove it from the game.",
        "sentry": "Whenever your avatar is attacked, if this unit is ready, it joins the combat.",
        "shield": (
            "When this unit or avatar would be dealt a point of damage, it loses a point from "
            "its shield instead."
        ),
        "smuggle": (
            "When you apply this ability at a quest, a copy of the named card is created in your "
            "hand."
        ),
        "striketrough": (
            "Whenever combat begins involving one or more of your combatants that have "
            "striketrough, you get +1 total attack."
        ),
        "unique": (
            "You can't play another card that has the same title as this card while this one "
            "is on your playmat."
        ),
        "versatile": (
            "Whenever you place level tokens at this unit's quest, place an equal number of "
            "tokens on this unit."
        ),
    }
)


TIMINGS = MappingProxyType(
    {
        "main": "Your Main Phase; never during combat.",
        "attack": "A combat action while you are attacking.",
        "defend": "A combat action while you are defending.",
    }
)

DURATIONS = MappingProxyType(
    {
        "combat": "Until the end of the current combat.",
        "turn": "Until the end of the current turn.",
        "permanent": (
            "Kept even if the source leaves play; lost when the changed card itself leaves play."
        ),
        "while_in_play": "As long as the card that caused it stays in play.",
    }
)

SIDES = MappingProxyType(
    {
        "friendly": "Cards of yours or of your teammates.",
        "yours": (
            'Your own cards, not your teammates\' ("your abilities"); a unit you command in '
            'a combat is yours (MULTIPLAYER GAMES, "Commanders").'
        ),
        "opposing": "Cards of your opponents.",
        "any": "Cards of any player.",
    }
)

PLAYERS = MappingProxyType(
    {"you": "The controller of the card.", "opponent": "Your (combat) opponent."}
)
EVENT_PLAYERS = MappingProxyType({**PLAYERS, "any": "Either player."})

PLAYMAT_TYPES = ("avatar", "quest", "unit", "ability", "item")
DECK_TYPES = ("unit", "ability", "item", "tactic")

WHERE = MappingProxyType(
    {
        "anywhere": "Anywhere on the playmat (the default).",
        "this_quest": "At the quest of this unit, or at this quest on a quest card.",
        "combat": "A combatant of the current combat (units and avatars only).",
        "combat_quest": "At the quest where the current combat takes place.",
    }
)

STATES = MappingProxyType(
    {
        "ready": "The card is ready.",
        "exerted": "The card is exerted.",
        "damaged": "The unit or avatar has taken at least 1 damage.",
    }
)

STATS = MappingProxyType(
    {
        "attack": "The attack attribute.",
        "defense": "The defense attribute.",
        "damage_bonus": "The damage bonus attribute.",
        "health": "The health attribute (lowering it to the damage taken destroys the card).",
    }
)

PROHIBITIONS = MappingProxyType(
    {
        "exert": "The card can't be exerted (so it can't add its attributes in combat).",
        "ready": "The card can't be readied, not even in its Ready Phase.",
        "raid": "The unit can't take part in a raid.",
    }
)

ROLES = MappingProxyType(
    {"attacking": "On the attacking side.", "defending": "On the defending side."}
)

# Selector fields. A selector either refers to known cards ("self", "event_card", "chosen")
# or filters the cards on the playmat.
SELECTOR_FIELDS = MappingProxyType(
    {
        "self": "true: the card that has this text.",
        "event_card": 'true: the card the triggering event is about ("that unit").',
        "chosen": 'true: the card(s) the nearest earlier effect of the same list chose ("it").',
        "side": "friendly, opposing or any (required in a filter).",
        "types": "Non-empty list of playmat card types (required in a filter).",
        "where": "anywhere (default), this_quest, combat or combat_quest.",
        "trait": "The card must have this trait.",
        "state": "ready, exerted or damaged.",
        "other": 'true: excludes the card that has this text ("your other units").',
        "max_cost": "The card costs this much or less.",
        "count": 'How many the controller chooses (default 1), or "all"; only where cards are '
        "chosen, never in filters that just match.",
    }
)

CARD_FILTER_FIELDS = MappingProxyType(
    {
        "types": "Non-empty list of deck card types (required).",
        "trait": "The card must have this trait.",
        "max_cost": "The card costs this much or less.",
    }
)

# Parameter types of the primitives below (documentation; _CardChecker.check_value checks each).
PARAMETER_TYPES = MappingProxyType(
    {
        "amount": "A positive integer.",
        "change": "A non-zero integer; negative lowers.",
        "choice": "A selector of cards the controller chooses among (may have count).",
        "filter": "A selector matching every card it describes (no count).",
        "quest": 'A selector whose types are exactly ["quest"] (or self, on a quest card).',
        "card_filter": "A filter of cards in a deck or discard pile (see CARD_FILTER_FIELDS).",
        "title": "The exact title of a card of the set.",
        "keyword": "A keyword name of the glossary.",
        "plain_keyword": "A keyword name that takes no parameter.",
        "stat": "One of STATS.",
        "duration": "One of DURATIONS.",
        "player": "you or opponent.",
        "event_player": "you, opponent or any.",
        "role": "attacking or defending.",
        "prohibition": "One of PROHIBITIONS.",
        "effects": "A non-empty list of effects.",
        "modifiers": "A non-empty list of modifiers.",
    }
)


@dataclass(frozen=True)
class Primitive:
    """One entry of the vocabulary: its parameters (name → parameter type) and its reason."""

    doc: str
    params: Mapping[str, str] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        # Read-only, like every table of the vocabulary.
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


# Keywords that take a parameter, beside the keyword name itself.
KEYWORD_PARAMETERS = MappingProxyType(
    {
        "shield": MappingProxyType({"value": "amount"}),
        "smuggle": MappingProxyType({"card": "title"}),
    }
)

# The card types each keyword means something on, read from its glossary definition.
KEYWORD_CARD_TYPES = MappingProxyType(
    {
        "agility": ("unit",),
        "ambush": ("unit",),
        "durable": ("unit",),
        "elusive": ("unit",),
        "entanglement": ("ability",),
        "evasion": ("unit", "avatar"),
        "expertise": ("unit",),
        "intel": ("unit", "ability", "item"),
        "invulnerable": ("unit", "avatar"),
        "operative": ("unit",),
        "pin": ("unit", "avatar"),
        "precise": ("unit", "avatar"),
        "reinforcement": ("unit", "ability", "item", "tactic"),
        "secondary": ("unit", "ability", "item"),
        "sentry": ("unit",),
        "shield": ("unit", "avatar"),
        "smuggle": ("ability",),
        "striketrough": ("unit", "avatar"),
        "unique": ("unit", "ability", "item"),
        "versatile": ("unit",),
    }
)

COSTS = MappingProxyType(
    {
        "power": Primitive("Pay power (most paid actions).", {"amount": "amount"}),
        "exert_self": Primitive("Exert this card (the usual cost of a unit's or item's action)."),
        "exert": Primitive(
            "Exert a ready friendly card (an officer exerting a trooper, a Jedi an ability).",
            {"target": "choice"},
        ),
        "destroy_self": Primitive("Destroy this card (one-shot gear and abilities without level)."),
        "destroy": Primitive("Destroy a friendly card (Sith sacrifices).", {"target": "choice"}),
        "discard": Primitive("Discard cards from your hand.", {"amount": "amount"}),
        "damage_self": Primitive(
            "This unit, avatar or starship takes damage (reckless troops, overloaded ships).",
            {"amount": "amount"},
        ),
        "damage_avatar": Primitive(
            "Your avatar takes damage (the dark side's blood price).", {"amount": "amount"}
        ),
        "remove_keyword_self": Primitive(
            "Remove a keyword from this card (Intel spent for an effect).", {"keyword": "keyword"}
        ),
        "remove_level_tokens": Primitive(
            "Remove level tokens from this unit (placed there by versatile).", {"amount": "amount"}
        ),
    }
)

EFFECTS = MappingProxyType(
    {
        "gain_power": Primitive(
            "You gain power (quest rewards, Intel-like payoffs).", {"amount": "amount"}
        ),
        "draw": Primitive("The player draws cards.", {"player": "player", "amount": "amount"}),
        "discard": Primitive(
            "The player discards cards of his choice from hand.",
            {"player": "player", "amount": "amount"},
        ),
        "deal_damage": Primitive(
            "Deal damage to each target; shields and invulnerable may stop it being taken.",
            {"target": "choice", "amount": "amount"},
        ),
        "heal": Primitive(
            "Remove up to that much damage from each target (medics, bacta).",
            {"target": "choice", "amount": "amount"},
        ),
        "shield": Primitive(
            "Each target gains shield points (its Shield value grows; points last until used).",
            {"target": "choice", "amount": "amount"},
        ),
        "modify": Primitive(
            'Change an attribute of each target for a duration ("+2 attack until end of combat").',
            {"target": "choice", "stat": "stat", "amount": "change", "duration": "duration"},
        ),
        "add_total": Primitive(
            "Add to the player's total attack or total defense, whichever he has, in this combat.",
            {"player": "player", "amount": "change"},
        ),
        "add_damage": Primitive(
            "Add to the total damage the player deals in this combat if he deals any.",
            {"player": "player", "amount": "change"},
        ),
        "exert": Primitive("Exert each target that is ready.", {"target": "choice"}),
        "ready": Primitive("Ready each target that is exerted.", {"target": "choice"}),
        "destroy": Primitive(
            "Destroy each target (to its owner's discard pile).", {"target": "choice"}
        ),
        "return_to_hand": Primitive(
            "Return each target to its owner's hand.", {"target": "choice"}
        ),
        "move_unit": Primitive("Move each target unit to the other quest.", {"target": "choice"}),
        "withdraw": Primitive(
            "Each target combatant withdraws; if a whole side withdraws the combat ends with no "
            "winner and no damage.",
            {"target": "choice"},
        ),
        "join_combat": Primitive(
            'Each target joins the current combat on its controller\'s side (no "begins" '
            "triggers).",
            {"target": "choice"},
        ),
        "grant_keyword": Primitive(
            "Each target gains a keyword for a duration.",
            {"target": "choice", "keyword": "plain_keyword", "duration": "duration"},
        ),
        "remove_keyword": Primitive(
            "Each target loses a keyword for a duration (pin removed, evasion stripped).",
            {"target": "choice", "keyword": "keyword", "duration": "duration"},
        ),
        "prohibit": Primitive(
            'Each target can\'t do something for a duration; "can\'t" beats "can".',
            {"target": "choice", "action": "prohibition", "duration": "duration"},
        ),
        "search": Primitive(
            "Search your deck for a matching card, reveal it, put it in your hand, then shuffle.",
            {"card": "card_filter"},
        ),
        "recover": Primitive(
            "Return a matching card from your discard pile to your hand (medics, necromancy).",
            {"card": "card_filter"},
        ),
        "create_card": Primitive(
            "Create a copy of the named card in your hand (smuggle-like text).", {"card": "title"}
        ),
        "add_level_tokens": Primitive(
            "Create your level tokens at the quest.", {"target": "quest", "amount": "amount"}
        ),
        "move_level_tokens": Primitive(
            "Move the player's level tokens from one quest to the other; a quest so filled is "
            "completed only when next attempted.",
            {"player": "player", "amount": "amount"},
        ),
        "raid_again": Primitive(
            "You may raid a second time this turn from the quest (never more than twice).",
            {"target": "quest"},
        ),
        "begin_avatar_combat": Primitive(
            "Your avatar begins combat against the opposing avatar at the quest: you attack, your "
            "opponent's avatar defends, ready operative units join; not while a combat is in "
            "progress. The rest of the text goes on once the combat is over.",
            {"target": "quest"},
        ),
        "target": Primitive(
            "Mark a card; until either card leaves play the mark's modifiers apply to it, and "
            "when_destroyed happens if it is destroyed (event_card is the marked card).",
            {"target": "choice", "while_targeted": "modifiers", "when_destroyed": "effects"},
            frozenset({"while_targeted", "when_destroyed"}),
        ),
        "link": Primitive(
            "Link this card to another; the modifiers apply to it until either card leaves play.",
            {"target": "choice", "while_linked": "modifiers"},
        ),
        "for_each": Primitive(
            "Multiply the amount of each inner effect by the number of matching cards on the "
            "playmat, counted once as it resolves.",
            {"counted": "filter", "effect": "effects"},
        ),
        "win_game": Primitive(
            "The player and his teammates win the game (a heroic encounter's own victory "
            'conditions: "they will provide other ways to win").',
            {"player": "player"},
        ),
    }
)

# Continuous effects: a static ability's effect, and what a link or a target mark applies.
# Their target is given by the enclosing entry and they last as long as it does.
MODIFIERS = MappingProxyType(
    {
        "modify": Primitive(
            "The card gets +N or -N to an attribute.", {"stat": "stat", "amount": "change"}
        ),
        "grant_keyword": Primitive("The card has a keyword.", {"keyword": "plain_keyword"}),
        "prohibit": Primitive(
            'The card can\'t do something; "can\'t" beats "can".', {"action": "prohibition"}
        ),
        "for_each": Primitive(
            "Multiply each inner modifier's amount by the number of matching cards on the "
            "playmat, counted continuously.",
            {"counted": "filter", "effect": "modifiers"},
        ),
    }
)

# Events whose subject is a card; the subject is also the event_card unless noted.
EVENTS = MappingProxyType(
    {
        "played": Primitive(
            'The subject is played ("when this unit is played").', {"subject": "filter"}
        ),
        "leaves_play": Primitive("The subject leaves play for any reason.", {"subject": "filter"}),
        "destroyed": Primitive("The subject is destroyed.", {"subject": "filter"}),
        "start_of_turn": Primitive(
            "The player's turn begins (before his Draw Phase).", {"player": "event_player"}
        ),
        "end_of_turn": Primitive(
            "The player's turn ends (after the hand limit).", {"player": "event_player"}
        ),
        "combat_begins": Primitive(
            "A combat begins involving the subject; a card that joins later doesn't trigger it.",
            {"subject": "filter"},
        ),
        "begins_attacking": Primitive(
            "The subject begins a combat as an attacker.", {"subject": "filter"}
        ),
        "begins_defending": Primitive(
            "The subject begins a combat as a defender.", {"subject": "filter"}
        ),
        "wins_combat": Primitive(
            "A combat ends and the subject's side won it (ties don't count).", {"subject": "filter"}
        ),
        "loses_combat": Primitive(
            "A combat ends and the subject's side lost it.", {"subject": "filter"}
        ),
        "deals_damage": Primitive(
            "Damage is dealt to a recipient by the subject's effect, or by combat damage of the "
            "side the subject fights on; counts even if a shield stops it. event_card: the "
            "recipient.",
            {"subject": "filter", "recipient": "filter"},
        ),
        "takes_damage": Primitive(
            "The subject actually takes damage (its health goes down); damage a shield or "
            "invulnerable stops is dealt but not taken.",
            {"subject": "filter"},
        ),
        "quest_completed": Primitive(
            "The player completes a matching quest. event_card: the quest.",
            {"quest": "filter", "player": "event_player"},
        ),
        "ability_applied": Primitive(
            "A matching ability is applied at a matching quest. event_card: the quest.",
            {"subject": "filter", "quest": "filter"},
        ),
    }
)

CONDITIONS = MappingProxyType(
    {
        "count": Primitive(
            "At least so many cards on the playmat match the selector.",
            {"selector": "filter", "at_least": "amount"},
        ),
        "combat_role": Primitive(
            "A card matching the subject is a combatant on that side of the current combat.",
            {"subject": "filter", "role": "role"},
        ),
        "turn": Primitive("It is the player's turn.", {"player": "player"}),
        "quests_completed": Primitive(
            "The player has completed at least so many quests.",
            {"player": "player", "at_least": "amount"},
        ),
        "played_this_turn": Primitive(
            "A card matching the subject was played this turn.", {"subject": "filter"}
        ),
        "turn_number": Primitive(
            "At least so many turns have begun, every player's counted (a heroic encounter's "
            "time limit).",
            {"at_least": "amount"},
        ),
        "team_quests_completed": Primitive(
            "The player and his teammates, those who left included, have completed at least "
            "so many quests in total (a heroic encounter's victory condition).",
            {"player": "player", "at_least": "amount"},
        ),
    }
)
