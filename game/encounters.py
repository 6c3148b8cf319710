"""The heroic encounters (rulebook, MULTIPLAYER GAMES: "Four-man Heroic Encounter (4 versus
1)"; glossary, "heroic encounter": "a kind of multiplayer game in which one side has a
single-player team. That single player is a computer AI opponent").

Each encounter is a boss: an avatar card of this project's own making, never in the catalog, so
it never reaches a player's binder, with a deck built around it. The boss avatar's rules text
states the encounter's victory conditions in the card vocabulary (docs/card-rules.md), so the
engine enforces them the same way in a live game and in ``manage.py simulate --encounter``
("Some special scenarios and heroic encounters will not allow these victory or loss
conditions, and they will provide other ways to win"). Its Info button shows ``victory``
(rulebook, "Info Button").

Plain data and pure functions of the engine's contract, like ``game.tutorials``: a dialog's
moment reads the public view (``engine.view(state, None)``), so every hero sees the same
dialogs at the same moment.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from game.engine.decklists import card_definition, created_cards
from game.tutorials import Dialog

View = dict
Cards = Mapping[str, dict]

# The boss's seat in ``new_game([[hero, hero, hero, hero], [boss]], seed)``.
BOSS_SEAT = 4


@dataclass(frozen=True)
class Difficulty:
    """How hard an encounter's boss plays: ``boss_level`` is the search agent's level
    (``game.ai.search.LEVELS``) that plays it; the Create window and the match's medallion
    show ``name``."""

    slug: str
    name: str
    boss_level: str
    summary: str


DIFFICULTIES = (
    Difficulty(
        "normal",
        "Normal",
        "normal",
        "The boss looks a little ahead: a fair fight for four careful heroes.",
    ),
    Difficulty(
        "heroic",
        "Heroic",
        "hard",
        "The boss searches deep and punishes every slip: bring your best.",
    ),
)
DEFAULT_DIFFICULTY = "normal"


def difficulty_named(slug: str) -> Difficulty:
    """The difficulty of ``slug``; a ``KeyError`` naming the known ones otherwise."""
    for difficulty in DIFFICULTIES:
        if difficulty.slug == slug:
            return difficulty
    known = ", ".join(difficulty.slug for difficulty in DIFFICULTIES)
    raise KeyError(f"there is no difficulty {slug!r}: the difficulties are {known}")


# Where a dialog points: the boss's avatar on the playmat (templates' data-zone naming).
BOSS_AVATAR = f'[data-zone="avatar-{BOSS_SEAT}"]'
QUESTS = ".mat-quests"


# A face address in a seat's faces that is no catalog card's (set number, number): a card of a
# boss's own, ("encounter", the encounter's slug, its index in Encounter.boss_only_cards).
ENCOUNTER_FACE = "encounter"


def _boss_card(title: str, kind: str, **printed) -> dict:
    """A card of a boss's own, with every printed field a catalog card has."""
    return {
        "number": 1,
        "rarity": "P",
        "title": title,
        "type": kind,
        "archetype": "",
        "traits": [],
        "restriction": "",
        "cost": None,
        "attack": None,
        "defense": None,
        "damage_bonus": None,
        "health": None,
        "level": None,
        "text": "",
        "lore": "",
        "artist": "Encounter design",
        "rules": {},
        **printed,
    }


def _scourge(damage: int) -> dict:
    """ "At the start of your turn, deal N damage to each opposing avatar": the pressure that
    makes a boss a race for four heroes."""
    return {
        "event": "start_of_turn",
        "player": "you",
        "condition": None,
        "effect": [
            {
                "primitive": "deal_damage",
                "target": {"side": "opposing", "types": ["avatar"], "count": "all"},
                "amount": damage,
            }
        ],
    }


def _time_limit(turn: int) -> dict:
    """ "At the end of your turn, if turn N has begun, you win the game." """
    return {
        "event": "end_of_turn",
        "player": "you",
        "condition": {"condition": "turn_number", "at_least": turn},
        "effect": [{"primitive": "win_game", "player": "you"}],
    }


def _sabotage(quests: int) -> dict:
    """ "Opponents win once they have completed N quests in all": checked whenever one of
    them completes a quest."""
    return {
        "event": "quest_completed",
        "quest": {"side": "any", "types": ["quest"]},
        "player": "opponent",
        "condition": {
            "condition": "team_quests_completed",
            "player": "opponent",
            "at_least": quests,
        },
        "effect": [{"primitive": "win_game", "player": "opponent"}],
    }


def _ordinal(number: int) -> str:
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number, 'th') }"


def _self() -> dict:
    return {"self": True}


def _tribute(power: int) -> dict:
    """ "At the start of your turn, you gain N power": a boss's war chest."""
    return {
        "event": "start_of_turn",
        "player": "you",
        "condition": None,
        "effect": [{"primitive": "gain_power", "amount": power}],
    }


def _boss_health(view: View) -> int:
    return view["players"][BOSS_SEAT]["health"]


def _boss_max_health(view: View) -> int:
    return view["players"][BOSS_SEAT]["avatar"]["health"]


def _heroes_left(view: View) -> int:
    return sum(seat != BOSS_SEAT for seat in view.get("left", ()))


def _heroes_completed(view: View) -> int:
    return sum(len(player["completed"]) for player in view["players"][:BOSS_SEAT])


@dataclass(frozen=True)
class Encounter:
    """One heroic encounter: what the Create Match window lists (``name``, ``summary``), what
    the boss avatar's Info button shows (``victory``), the boss's decklist and the dialogs told
    in order as their moments come. The boss is the search agent at the level of the
    difficulty chosen (``DIFFICULTIES``), its encounter's victory conditions in its
    judgement of a position (they are its avatar's rules)."""

    slug: str
    name: str
    summary: str
    victory: str
    avatar: dict
    quests: tuple[str, ...]
    # The boss's deck: catalog titles and copies, and boss-only cards with their copies.
    deck: tuple[tuple[str, int], ...]
    own_cards: tuple[tuple[dict, int], ...] = ()
    dialogs: tuple[Dialog, ...] = ()

    def boss_decklist(self, cards: Cards) -> dict:
        """The boss's decklist as ``new_game`` takes it: avatar, quests, deck and the cards its
        cards can create; ``cards`` maps a catalog title to its card."""
        missing = sorted(
            {title for title in (*self.quests, *(title for title, _ in self.deck))} - set(cards)
        )
        if missing:
            raise KeyError(f"the encounter {self.slug!r} needs cards not in the catalog: {missing}")
        deck = []
        for title, copies in self.deck:
            deck += [card_definition(cards[title])] * copies
        for card, copies in self.own_cards:
            deck += [card_definition(card)] * copies
        avatar = card_definition(self.avatar)
        quests = [card_definition(cards[title]) for title in self.quests]
        return {
            "avatar": avatar,
            "quests": quests,
            "deck": deck,
            "created": created_cards([avatar, *quests, *deck], dict(cards)),
        }

    @property
    def boss_only_cards(self) -> tuple[dict, ...]:
        """The cards of the boss's own, in the catalog nowhere: its avatar, then its deck's."""
        return (self.avatar, *(card for card, _ in self.own_cards))

    def due_dialogs(self, view: View, told: int) -> list[Dialog]:
        """The dialogs to tell now, in order, when ``told`` were told before: each once its
        moment comes and every dialog before it was told."""
        due = []
        for dialog in self.dialogs[told:]:
            if not dialog.due(view):
                break
            due.append(dialog)
        return due


# The Singing Mountain Rite: a Nightsister elder completes a ritual unless the heroes stop her.

RITE_TURNS = 40
ZHEVRA_HEALTH = 62
ZHEVRA_TRIBUTE = 3
# The quests the heroes complete in all to topple the rite's standing stones.
STANDING_STONES = 8
MOTHER_ZHEVRA = _boss_card(
    "Mother Zhevra, Singing Mountain Elder",
    "avatar",
    archetype="sith",
    traits=["Dathomirian", "Nightsister"],
    attack=3,
    defense=3,
    damage_bonus=2,
    health=ZHEVRA_HEALTH,
    text=(
        f"At the start of your turn, gain {ZHEVRA_TRIBUTE} power. Opponents win once they have "
        f"completed {STANDING_STONES} quests in all. At the end of your turn, if turn "
        f"{RITE_TURNS} has begun, you win the game."
    ),
    lore="The mountain sings for her alone. When the song ends, the valley belongs to the dead.",
    rules={
        "triggers": [
            _tribute(ZHEVRA_TRIBUTE),
            _sabotage(STANDING_STONES),
            _time_limit(RITE_TURNS),
        ]
    },
)

SINGING_MOUNTAIN = Encounter(
    slug="singing-mountain-rite",
    name="The Singing Mountain Rite",
    summary=(
        "On Dathomir, Mother Zhevra chants a rite that will wake every grave in the valley: "
        "break her before the song ends."
    ),
    victory=(
        f"The heroes win by destroying Mother Zhevra, when they have completed "
        f"{STANDING_STONES} quests in all, or when one of them completes his last quest. She "
        f"wins at the end of her turn once turn {RITE_TURNS} has begun, or when every hero has "
        "left the game."
    ),
    avatar=MOTHER_ZHEVRA,
    quests=(
        "Whispers in the Tomb of Ashes",
        "Desecrate the Enclave Ruins",
        "Corrupt the Dathomir Coven",
        "Claim the Holocron of Shadows",
    ),
    deck=(
        ("Tomb Initiate", 4),
        ("Shadow Cultist", 4),
        ("Hollow-Eyed Zealot", 4),
        ("Duskfang Hound", 4),
        ("Sith Loyalist Guard", 4),
        ("Corrupted Enforcer Droid", 3),
        ("Soul-Bound Thrall", 3),
        ("Rage of the Fallen", 3),
        ("Dark Channeling", 3),
        ("Hatred Unbound", 3),
        ("Unleashed Fury", 3),
        ("Fear Incarnate", 3),
        ("Strangling Will", 3),
    ),
    dialogs=(
        Dialog(
            "The Singing Mountain",
            "Mother Zhevra's chant rolls down the valley. If the rite is still going when "
            f"turn {RITE_TURNS} has begun, she wins: strike at her avatar, or complete "
            f"{STANDING_STONES} quests between you, before then.",
            BOSS_AVATAR,
        ),
        Dialog(
            "The song falters",
            "Mother Zhevra bleeds, and the song wavers. Keep striking, or topple the standing "
            f"stones: {STANDING_STONES} quests completed between you break the rite.",
            BOSS_AVATAR,
            when=lambda view: _boss_health(view) <= _boss_max_health(view) // 2,
        ),
        Dialog(
            "The last verse",
            "The rite is nearly complete: ten turns remain before the valley wakes.",
            BOSS_AVATAR,
            when=lambda view: view["turn"] >= RITE_TURNS - 10,
        ),
    ),
)


# The Kessel Hollow Station: an Imperial research station the heroes must sabotage.

SABOTAGE_QUESTS = 9
THRALE_HEALTH = 100
THRALE_TRIBUTE = 4
THRALE_SCOURGE = 2
# The turn the station's reactor comes online, and the heroes have failed.
REACTOR_ONLINE = 80
DIRECTOR_THRALE = _boss_card(
    "Director Vessan Thrale",
    "avatar",
    archetype="imperial",
    traits=["Human", "Imperial Officer"],
    attack=2,
    defense=3,
    damage_bonus=2,
    health=THRALE_HEALTH,
    text=(
        f"Shield 3. At the start of your turn, gain {THRALE_TRIBUTE} power and deal "
        f"{THRALE_SCOURGE} damage to each opposing avatar. Opponents win once they have "
        f"completed {SABOTAGE_QUESTS} quests in all. At the end of your turn, if turn "
        f"{REACTOR_ONLINE} has begun, you win the game."
    ),
    lore="Kessel Hollow's reactor runs on schedule. So do its executions.",
    rules={
        "keywords": [{"keyword": "shield", "value": 3}],
        "triggers": [
            _tribute(THRALE_TRIBUTE),
            _scourge(THRALE_SCOURGE),
            _sabotage(SABOTAGE_QUESTS),
            _time_limit(REACTOR_ONLINE),
        ],
    },
)
STATION_SECURITY_DROID = _boss_card(
    "Kessel Hollow Security Droid",
    "unit",
    archetype="imperial",
    traits=["Droid"],
    cost=2,
    attack=2,
    defense=3,
    damage_bonus=0,
    health=3,
    text="Sentry.",
    lore="It was built to guard the reactor. It has never been told to stop.",
    rules={"keywords": [{"keyword": "sentry"}]},
)

KESSEL_HOLLOW = Encounter(
    slug="kessel-hollow-station",
    name="Sabotage at Kessel Hollow",
    summary=(
        "Director Thrale's station on Kessel hides a weapons reactor: complete the sabotage "
        "quests or bring the Director down."
    ),
    victory=(
        f"The heroes win when they have completed {SABOTAGE_QUESTS} quests in all, when one "
        "of them completes his last quest, or by destroying Director Thrale. He wins when "
        f"every hero has left the game (each of his turns deals every hero {THRALE_SCOURGE} "
        f"damage), or at the end of his turn once turn {REACTOR_ONLINE} has begun."
    ),
    avatar=DIRECTOR_THRALE,
    quests=(
        "Checkpoint on the Cinder Road",
        "Intercept the Rebel Courier",
        "Impose Martial Law on Rori",
        "Crush the Dantooine Uprising",
    ),
    deck=(
        ("Stormtrooper Cadet", 4),
        ("Garrison Stormtrooper", 4),
        ("Stormtrooper Fireteam", 4),
        ("Imperial Marksman", 4),
        ("Stun Baton Enforcer", 3),
        ("Cinder Road Patrol", 3),
        ("Conscript Squad", 3),
        ("Standard Operating Procedure", 3),
        ("Iron Stare", 3),
        ("Tactical Analysis", 3),
        ("Overwhelming Firepower", 3),
        ("Crossfire", 3),
    ),
    own_cards=((STATION_SECURITY_DROID, 4),),
    dialogs=(
        Dialog(
            "Kessel Hollow",
            f"Complete {SABOTAGE_QUESTS} quests between you and the reactor goes up with the "
            "station. Director Thrale's shield soaks the first blows of any raid on him.",
            QUESTS,
        ),
        Dialog(
            "Halfway there",
            "The reactor's coolant lines are cut. A few more quests and the station is lost.",
            QUESTS,
            when=lambda view: _heroes_completed(view) >= SABOTAGE_QUESTS // 2,
        ),
        Dialog(
            "Man down",
            "A hero has fallen. The others take over the quests within reach.",
            QUESTS,
            when=lambda view: _heroes_left(view) >= 1,
        ),
    ),
)


# The Shadow Enclave: a fallen Jedi master whose acolytes shield her with their lives.

WARDING_ACOLYTES = 2
KALDRA_HEALTH = 40
KALDRA_TRIBUTE = 3
KALDRA_SCOURGE = 2
# Quests she completes to finish the enclave's corruption.
DESECRATIONS = 3
MASTER_KALDRA = _boss_card(
    "Kaldra Vey, the Fallen Master",
    "avatar",
    archetype="jedi",
    traits=["Human", "Fallen Jedi"],
    attack=3,
    defense=3,
    damage_bonus=2,
    health=KALDRA_HEALTH,
    text=(
        f"At the start of your turn, gain {KALDRA_TRIBUTE} power and deal {KALDRA_SCOURGE} "
        "damage to each opposing avatar. When you complete your "
        f"{_ordinal(DESECRATIONS)} quest, you win the game. While you have {WARDING_ACOLYTES} "
        "or more Acolytes on the playmat, this avatar is invulnerable."
    ),
    lore="She kept the enclave's vigil for forty years. Now the enclave keeps hers.",
    rules={
        "triggers": [
            _tribute(KALDRA_TRIBUTE),
            _scourge(KALDRA_SCOURGE),
            {
                "event": "quest_completed",
                "quest": {"side": "any", "types": ["quest"]},
                "player": "you",
                "condition": {
                    "condition": "quests_completed",
                    "player": "you",
                    "at_least": DESECRATIONS,
                },
                "effect": [{"primitive": "win_game", "player": "you"}],
            },
        ],
        "statics": [
            {
                "effect": {"primitive": "grant_keyword", "keyword": "invulnerable"},
                "applies_to": _self(),
                "condition": {
                    "condition": "count",
                    "selector": {"side": "friendly", "types": ["unit"], "trait": "Acolyte"},
                    "at_least": WARDING_ACOLYTES,
                },
            }
        ],
    },
)
SHADOW_ACOLYTE = _boss_card(
    "Shadow Acolyte",
    "unit",
    archetype="jedi",
    traits=["Human", "Acolyte"],
    cost=1,
    attack=2,
    defense=2,
    damage_bonus=0,
    health=2,
    text="",
    lore="They came to the enclave to learn. They stayed to kneel.",
)

SHADOW_ENCLAVE = Encounter(
    slug="shadow-enclave",
    name="The Shadow Enclave",
    summary=(
        "In the ruins of the Broken Enclave, the fallen master Kaldra Vey hides behind her "
        "acolytes: cut them down, then face her."
    ),
    victory=(
        f"The heroes win by destroying Kaldra Vey, who can't be damaged while she has "
        f"{WARDING_ACOLYTES} or more Acolyte units on the playmat, or when one of them "
        f"completes his last quest. She wins when she completes her "
        f"{_ordinal(DESECRATIONS)} quest, or when every hero has left the game."
    ),
    avatar=MASTER_KALDRA,
    quests=(
        "Vigil at the Broken Enclave",
        "Recover the Veiled Holocron",
        "Shelter the Dantooine Refugees",
        "Face the Fallen Master",
    ),
    deck=(
        ("Enclave Guardian Droid", 4),
        ("Bonded Thornback", 4),
        ("Padawan Twins of Rori", 3),
        ("Force-Touched Healer", 3),
        ("Breath of the Enclave", 3),
        ("Stillness Before the Storm", 3),
        ("Kinetic Ward", 3),
        ("Foreseen Strike", 3),
        ("Trance of Mending", 3),
        ("Deflect the Bolt", 3),
        ("Think Fast", 3),
    ),
    own_cards=((SHADOW_ACOLYTE, 8),),
    dialogs=(
        Dialog(
            "The Broken Enclave",
            f"Kaldra Vey can't be damaged while {WARDING_ACOLYTES} or more of her Acolytes "
            "stand on the playmat. Raid her acolytes first.",
            BOSS_AVATAR,
        ),
        Dialog(
            "Her guard is down",
            "Kaldra Vey bleeds: keep her acolytes few and strike while you can.",
            BOSS_AVATAR,
            when=lambda view: _boss_health(view) < _boss_max_health(view),
        ),
    ),
)


ENCOUNTERS = (SINGING_MOUNTAIN, KESSEL_HOLLOW, SHADOW_ENCLAVE)


def encounter_named(slug: str) -> Encounter:
    """The encounter of ``slug``; a ``KeyError`` naming the known ones otherwise."""
    for encounter in ENCOUNTERS:
        if encounter.slug == slug:
            return encounter
    known = ", ".join(encounter.slug for encounter in ENCOUNTERS)
    raise KeyError(f"there is no encounter {slug!r}: the encounters are {known}")
