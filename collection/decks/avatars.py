"""Create Avatar: the questions a player answers and the avatar card the answers make.

Rulebook, DECK BUILDER, Create Avatar: "Select your species. Select your gender. Select your
career. Answer a few more questions and then name your avatar."

How the answers become a card (every avatar spends the same budget as the set's common
avatars, attack + defense + damage bonus + health / 2 = 15, so none is strictly better):

=============  ==========================================================================
Question       What the answer sets
=============  ==========================================================================
Species        the species trait; its build sets damage bonus and health:
               hardy 0 / 22, adaptable 1 / 20, fierce 2 / 18
Gender         the pronoun of the lore line
Career         the career trait (e.g. "Rebel Scout"), the archetype it serves, and one
               keyword: strikers get Striketrough, scouts and assassins Evasion,
               officers Precise, consulars and sorcerers Shield 1
Fighting style attack / defense: steady 2 / 2, relentless 3 / 1, watchful 1 / 3
Homeworld      where the lore line says the avatar was raised
Name           the card title
=============  ==========================================================================

Pure Python: the page's live preview and the service that saves the card share it.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass

from collection.cards.cardrules import printed_keyword

# Player-made avatars are never drawn from boosters; "F" (starter or reward) is the rarity of
# fixed cards, which is what a card made for one player is. "P" stays for promotional prints.
AVATAR_RARITY = "F"
PLACEHOLDER_TITLE = "New Avatar"
NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 40
_NAME_PATTERN = re.compile(r"[^\W\d_]+(?:[ '\-][^\W\d_]+)*")


@dataclass(frozen=True)
class Species:
    label: str
    build: str

    @property
    def hint(self) -> str:
        damage_bonus, health = BUILDS[self.build]
        return f"{self.build.capitalize()}: damage bonus {damage_bonus}, health {health}"


@dataclass(frozen=True)
class Gender:
    label: str
    subject: str  # "she" in "she swore to see the Empire fall"

    @property
    def hint(self) -> str:
        return f"Your lore says \u201c{self.subject}\u201d"


@dataclass(frozen=True)
class Career:
    label: str
    archetype: str
    keyword: dict
    blurb: str

    @property
    def trait(self) -> str:
        return f"{self.archetype.capitalize()} {self.label}"

    @property
    def hint(self) -> str:
        return f"{printed_keyword(self.keyword)}. {self.blurb}"


@dataclass(frozen=True)
class Style:
    label: str
    attack: int
    defense: int
    blurb: str

    @property
    def hint(self) -> str:
        return f"Attack {self.attack}, defense {self.defense}. {self.blurb}"


@dataclass(frozen=True)
class Homeworld:
    label: str
    raised: str  # opens the lore line

    @property
    def hint(self) -> str:
        return f"{self.raised}\u2026"


# Build → (damage bonus, health).
BUILDS = {"hardy": (0, 22), "adaptable": (1, 20), "fierce": (2, 18)}

SPECIES = {
    "human": Species("Human", "adaptable"),
    "twilek": Species("Twi'lek", "adaptable"),
    "bothan": Species("Bothan", "adaptable"),
    "sullustan": Species("Sullustan", "adaptable"),
    "mon_calamari": Species("Mon Calamari", "hardy"),
    "wookiee": Species("Wookiee", "hardy"),
    "ithorian": Species("Ithorian", "hardy"),
    "zabrak": Species("Zabrak", "fierce"),
    "trandoshan": Species("Trandoshan", "fierce"),
    "rodian": Species("Rodian", "fierce"),
}

GENDERS = {
    "female": Gender("Female", "she"),
    "male": Gender("Male", "he"),
    "nonbinary": Gender("Nonbinary", "they"),
}

_STRIKETROUGH = {"keyword": "striketrough"}
_EVASION = {"keyword": "evasion"}
_PRECISE = {"keyword": "precise"}
_SHIELD = {"keyword": "shield", "value": 1}

# Each career serves one archetype, so choosing a career chooses the avatar's side.
CAREERS = {
    "jedi_guardian": Career("Guardian", "jedi", _STRIKETROUGH, "A lightsaber in the front line."),
    "jedi_sentinel": Career("Sentinel", "jedi", _EVASION, "Unseen until the Force calls."),
    "jedi_consular": Career("Consular", "jedi", _SHIELD, "Patience, and a ward against harm."),
    "rebel_commando": Career("Commando", "rebel", _STRIKETROUGH, "First through the breach."),
    "rebel_scout": Career("Scout", "rebel", _EVASION, "Never where the Empire looks."),
    "rebel_officer": Career("Officer", "rebel", _PRECISE, "Decides where every shot lands."),
    "imperial_commando": Career(
        "Commando", "imperial", _STRIKETROUGH, "The Emperor's hammer on the ground."
    ),
    "imperial_spy": Career("Spy", "imperial", _EVASION, "A false name in every port."),
    "imperial_officer": Career("Officer", "imperial", _PRECISE, "Orders, and the discipline."),
    "sith_marauder": Career("Marauder", "sith", _STRIKETROUGH, "Rage given a blade."),
    "sith_assassin": Career("Assassin", "sith", _EVASION, "Strikes from the shadows."),
    "sith_sorcerer": Career("Sorcerer", "sith", _SHIELD, "Dark wards woven of hatred."),
}

STYLES = {
    "steady": Style("Steady", 2, 2, "Strike and guard in equal measure."),
    "relentless": Style("Relentless", 3, 1, "Win the fight before it starts."),
    "watchful": Style("Watchful", 1, 3, "Let them come, and outlast them."),
}

HOMEWORLDS = {
    "tatooine": Homeworld("Tatooine", "Raised under Tatooine's twin suns"),
    "naboo": Homeworld("Naboo", "Raised among the lakes of Naboo"),
    "corellia": Homeworld("Corellia", "Raised in the shipyards of Corellia"),
    "dantooine": Homeworld("Dantooine", "Raised on the grass plains of Dantooine"),
    "rori": Homeworld("Rori", "Raised in the swamps of Rori"),
    "talus": Homeworld("Talus", "Raised in the ruins of Talus"),
    "endor": Homeworld("Endor", "Raised beneath the forests of Endor"),
    "dathomir": Homeworld("Dathomir", "Raised on blood-red Dathomir"),
    "lok": Homeworld("Lok", "Raised in the badlands of Lok"),
    "yavin4": Homeworld("Yavin 4", "Raised in the jungles of Yavin 4"),
}

# The second half of the lore line, by the career's archetype.
CALLINGS = {
    "jedi": "followed the Force wherever it led",
    "rebel": "swore to see the Empire fall",
    "imperial": "pledged a life to the Emperor's order",
    "sith": "took the dark side's power and never looked back",
    "": "set out to make a name among the stars",
}


@dataclass(frozen=True)
class Question:
    key: str
    title: str
    prompt: str
    options: Mapping


# The questions in the rulebook's order; the name comes last, once they are answered.
QUESTIONS = (
    Question("species", "Species", "Select your species.", SPECIES),
    Question("gender", "Gender", "Select your gender.", GENDERS),
    Question("career", "Career", "Select your career; it decides whom you fight for.", CAREERS),
    Question("style", "Fighting style", "How do you fight?", STYLES),
    Question("homeworld", "Homeworld", "Where were you raised?", HOMEWORLDS),
)


@dataclass(frozen=True)
class ChoiceReading:
    """The answers read from a form: the valid ones in question order, up to the first
    missing or unknown one, and what was wrong with that one (None when it was missing)."""

    choices: dict[str, str]
    error_key: str | None = None
    error: str | None = None

    @property
    def complete(self) -> bool:
        return len(self.choices) == len(QUESTIONS)


def read_choices(data: Mapping) -> ChoiceReading:
    """Read the answers to QUESTIONS from ``data`` (a form's values); never trusts them."""
    choices: dict[str, str] = {}
    for question in QUESTIONS:
        value = data.get(question.key)
        if not value:
            return ChoiceReading(choices)
        if value not in question.options:
            return ChoiceReading(
                choices,
                question.key,
                f"That is not one of the choices for {question.title.lower()}; choose again.",
            )
        choices[question.key] = value
    return ChoiceReading(choices)


def avatar_card_fields(choices: Mapping[str, str], *, name: str = "") -> dict:
    """The Card fields the answers make, as keyword arguments of ``Card``.

    Unanswered questions fall back to neutral values, so a half-made avatar can be
    previewed; only complete answers make a card that validates (an avatar needs an
    archetype, which only a career gives).
    """
    species = SPECIES.get(choices.get("species", ""))
    gender = GENDERS.get(choices.get("gender", ""))
    career = CAREERS.get(choices.get("career", ""))
    style = STYLES.get(choices.get("style", ""), STYLES["steady"])
    homeworld = HOMEWORLDS.get(choices.get("homeworld", ""))
    damage_bonus, health = BUILDS[species.build if species else "adaptable"]
    archetype = career.archetype if career else ""
    traits = [species.label if species else "Unknown species"]
    if career:
        traits.append(career.trait)
    keywords = [career.keyword] if career else []
    raised = homeworld.raised if homeworld else "Raised far from the core worlds"
    subject = gender.subject if gender else "they"
    return {
        "rarity": AVATAR_RARITY,
        "title": name or PLACEHOLDER_TITLE,
        "card_type": "avatar",
        "archetype": archetype,
        "traits": traits,
        "restriction": "",
        "attack": style.attack,
        "defense": style.defense,
        "damage_bonus": damage_bonus,
        "health": health,
        "game_text": " ".join(f"{printed_keyword(entry)}." for entry in keywords),
        "lore": f"{raised}, {subject} {CALLINGS[archetype]}.",
        "rules": {"keywords": [dict(entry) for entry in keywords]} if keywords else {},
    }


def avatar_name_clean(raw: str) -> tuple[str, str | None]:
    """The name as it will be printed, and what is wrong with it (None when it is fine):
    3 to 40 characters, letters with single spaces, apostrophes or hyphens between them."""
    name = " ".join(raw.replace("\u2019", "'").split())
    if not name:
        return name, "Give your avatar a name."
    if not NAME_MIN_LENGTH <= len(name) <= NAME_MAX_LENGTH:
        return name, (
            f"A name has {NAME_MIN_LENGTH} to {NAME_MAX_LENGTH} characters; "
            f"{name!r} has {len(name)}."
        )
    if not _NAME_PATTERN.fullmatch(name):
        return name, (
            "A name is made of letters, with single spaces, apostrophes (') or hyphens (-) "
            "between them; no digits or other signs."
        )
    return name, None
