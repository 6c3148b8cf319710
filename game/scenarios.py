"""The Scenarios (rulebook, "Tutorials/Scenarios", "Scenarios"): "single-player games you can
play with any deck you like against a computer AI". Chapter 1 (Scenarios 1-5) is for Rebel and
Jedi decks, Chapter 2 (Scenarios 6-10) for Sith and Imperial ones; each chapter opens with its
first scenario, and winning one opens the next. "When you win a single-player scenario game,
you earn a reward card! Watch out... they get tougher as you progress": each scenario's
computer opponent plays at a higher level, from a stronger set-up, than the one before it.

Like a tutorial (game/tutorials.py), a scenario's game begins from a position
(``game.engine.positions``): the opponent's seat as the scenario's story has it (its avatar,
quests, deck, cards already on the playmat, damage, completed quests), the player's seat from
the deck they bring, shuffled from the game's seed, with the scenario's twist (allies already
at a quest, extra power). Its victory conditions are the rules' (rulebook, "Winning the
Game"), and in some scenarios a goal besides, checked on the player's own view as a tutorial's
goal is; its dialogs are told in order, each when its moment comes.

Plain data and pure functions of the engine's contract: no database, no mutable state.
"""

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from game.engine import api as engine
from game.engine.positions import Placed, Position, SeatSetup, build
from game.engine.setup import OPENING_HAND
from game.engine.state import State
from game.tutorials import (
    AVATAR,
    COMBAT_TOTALS,
    FIRST_QUEST,
    HAND,
    INFO_PANELS,
    OPPONENT,
    OPPONENT_AVATAR,
    PLAYER,
    PROMPT,
    QUEST_METER,
    QUESTS,
    Dialog,
    View,
)

Cards = Mapping[str, dict]
# The first set's starter decklists, by archetype: what the opponents' decks are built from.
Starters = Mapping[str, dict]

LIGHT, DARK = ("rebel", "jedi"), ("imperial", "sith")
CHAPTERS = {1: "Chapter 1: Embers of Rebellion", 2: "Chapter 2: The Iron Grip"}
# The archetypes of the decks each chapter is played with (rulebook, "Scenarios").
CHAPTER_ARCHETYPES = {1: LIGHT, 2: DARK}


@dataclass(frozen=True)
class OnPlaymat:
    """A card of a seat's set-up already on the playmat: a unit at quest 0 (the player's)
    or 1 (the opponent's), an item or an ability beside its avatar."""

    title: str
    quest: int | None = None
    damage: int = 0
    exerted: bool = False


@dataclass(frozen=True)
class Opponent:
    """The computer's seat as the scenario sets it up: the starter deck of ``archetype``
    (less the cards it has on the playmat) behind ``avatar``, with its hand of ``hand``
    cards, its damage and its quests completed."""

    archetype: str
    avatar: str
    playmat: tuple[OnPlaymat, ...] = ()
    hand: int = OPENING_HAND
    avatar_damage: int = 0
    completed: int = 0


@dataclass(frozen=True)
class Twist:
    """What the scenario changes on the player's side: allies from the set already on the
    playmat (beside the player's own deck), the power of the first turn, and cards in hand."""

    allies: tuple[OnPlaymat, ...] = ()
    power: int | None = None
    hand: int = OPENING_HAND
    avatar_damage: int = 0


@dataclass(frozen=True)
class Scenario:
    number: int
    title: str
    story: str
    # The computer's level (game.ai.search.LEVELS): they get tougher as you progress.
    level: str
    opponent: Opponent
    # The victory conditions, as the opponent avatar's Info button shows them.
    victory: str
    dialogs: tuple[Dialog, ...]
    # The reward card's title (rarity F, in the first set).
    reward: str
    # Where it sits on its chapter's map, in the units of the map's 160 × 74 view box.
    at: tuple[int, int]
    twist: Twist = Twist()
    # A victory condition besides the rules', read on the player's view; None: the rules'.
    goal: Callable[[View], bool] | None = None

    @property
    def opponent_name(self) -> str:
        """The computer's name in this game: the story's, its avatar's."""
        return self.opponent.avatar

    @property
    def chapter(self) -> int:
        return 1 if self.number <= 5 else 2

    @property
    def archetypes(self) -> tuple[str, ...]:
        """The archetypes of the decks the player may bring."""
        return CHAPTER_ARCHETYPES[self.chapter]

    @property
    def slug(self) -> str:
        """How the scenario is named where a game records the position it began from."""
        return f"scenario-{self.number}"

    def beginning(self, cards: Cards, starters: Starters, seed: int, player: dict) -> State:
        """The scenario's game as it begins for the player's ``player`` decklist, both decks
        shuffled from ``seed``, the game's later shuffles from it too."""
        # The deal must replay from the game's seed (itself drawn with ``secrets``).
        shuffler = random.Random(seed)  # noqa: S311
        mine = self._player_seat(cards, player, shuffler)
        theirs = self._opponent_seat(cards, starters, shuffler)
        return build(Position(seats=(mine, theirs), first=PLAYER, turn=1, seed=seed))

    def opponent_decklist(self, cards: Cards, starters: Starters) -> dict:
        """The opponent's cards as a decklist: what its seat holds, for their faces."""
        seat = self._opponent_seat(cards, starters, None)
        return {
            "avatar": seat.avatar,
            "quests": list(seat.quests),
            "deck": [*seat.hand, *(placed.card for placed in seat.playmat), *seat.deck],
            "created": list(seat.created),
        }

    def ally_titles(self) -> list[str]:
        """The titles of the cards the twist puts on the player's side."""
        return [ally.title for ally in self.twist.allies]

    def goal_reached(self, state: State) -> bool:
        return (
            self.goal is not None and state.winner is None and self.goal(engine.view(state, PLAYER))
        )

    def dialog_due(self, state: State, read: int) -> int | None:
        """The index of the dialog to show now, when ``read`` dialogs have been read: the next
        one, once its moment has come; None when there is none to show."""
        if read >= len(self.dialogs) or state.winner is not None:
            return None
        return read if self.dialogs[read].due(engine.view(state, PLAYER)) else None

    def _player_seat(self, cards: Cards, player: dict, shuffler: random.Random) -> SeatSetup:
        deck = list(player["deck"])
        shuffler.shuffle(deck)
        hand = min(self.twist.hand, len(deck))
        return SeatSetup(
            avatar=player["avatar"],
            quests=player["quests"],
            hand=deck[:hand],
            deck=deck[hand:],
            playmat=tuple(_placed(cards, ally) for ally in self.twist.allies),
            power=self.twist.power,
            avatar_damage=self.twist.avatar_damage,
            created=player.get("created", ()),
        )

    def _opponent_seat(
        self, cards: Cards, starters: Starters, shuffler: random.Random | None
    ) -> SeatSetup:
        opponent = self.opponent
        starter = starters[opponent.archetype]
        deck = list(starter["deck"])
        for placed in opponent.playmat:
            # A card it already played comes out of its deck, when the deck holds one.
            index = next(
                (at for at, card in enumerate(deck) if card["title"] == placed.title), None
            )
            if index is not None:
                deck.pop(index)
        if shuffler is not None:
            shuffler.shuffle(deck)
        return SeatSetup(
            avatar=cards[opponent.avatar],
            quests=starter["quests"],
            hand=deck[: opponent.hand],
            deck=deck[opponent.hand :],
            playmat=tuple(_placed(cards, placed) for placed in opponent.playmat),
            avatar_damage=opponent.avatar_damage,
            completed=opponent.completed,
            created=starter.get("created", ()),
        )


def _placed(cards: Cards, on: OnPlaymat) -> Placed:
    return Placed(cards[on.title], quest=on.quest, damage=on.damage, exerted=on.exerted)


def _units(view: View, seat: int, quest: int | None = None) -> list[dict]:
    quests = view["quests"] if quest is None else view["quests"][quest : quest + 1]
    return [card for each in quests for card in each["units"][seat]]


def _deciding(*kinds: str) -> Callable[[View], bool]:
    """The moment the player has a decision of one of ``kinds`` to make."""

    def holds(view: View) -> bool:
        decision = view["decision"]
        return decision["seat"] == PLAYER and decision["kind"] in kinds

    return holds


def _quest_cleared(quest: int) -> Callable[[View], bool]:
    """No opposing unit stands at the quest of index ``quest``."""
    return lambda view: not _units(view, OPPONENT, quest)


def _quests_completed(count: int) -> Callable[[View], bool]:
    return lambda view: len(view["players"][PLAYER]["completed"]) >= count


def _opponent_health_at_most(health: int) -> Callable[[View], bool]:
    def holds(view: View) -> bool:
        avatar = view["players"][OPPONENT]["avatar"]
        return avatar["health"] - avatar["damage"] <= health

    return holds


def _units_destroyed(titles: Sequence[str]) -> Callable[[View], bool]:
    """None of the opposing units ``titles`` is on the playmat any more."""
    return lambda view: not any(unit["title"] in titles for unit in _units(view, OPPONENT))


def _my_units(count: int) -> Callable[[View], bool]:
    return lambda view: len(_units(view, PLAYER)) >= count


RULES = "or win by the rules: complete your last quest, or destroy the enemy avatar."

SCENARIOS = (
    Scenario(
        number=1,
        title="Smoke over Dunewater",
        story=(
            "An Imperial patrol has found the Dunewater cell's hideout. Agent Seline Korvath "
            "came ahead of her troops, wounded and in a hurry; only a Stormtrooper Cadet "
            "guards the dunes. Two of the cell's fighters stand ready beside you."
        ),
        level="easy",
        opponent=Opponent(
            archetype="imperial",
            avatar="Agent Seline Korvath",
            playmat=(OnPlaymat("Stormtrooper Cadet", quest=0),),
            hand=0,
            avatar_damage=8,
        ),
        twist=Twist(
            allies=(
                OnPlaymat("Ryloth Resistance Fighter", quest=0),
                OnPlaymat("Repeater Gunner", quest=0),
            )
        ),
        victory=(
            "Drive the patrol out of Dunewater: destroy every Imperial unit at the quest on "
            f"the left, {RULES}"
        ),
        goal=_quest_cleared(0),
        reward="Dunewater Cell Veteran",
        at=(24, 24),
        dialogs=(
            Dialog(
                "The patrol",
                "Seline Korvath's cadet stands at your quest, on the left. Your Ryloth fighter "
                "and your Repeater Gunner are ready there: raid from that quest, and the cadet "
                "must fight them.",
                FIRST_QUEST,
                asks_for="Raid",
            ),
            Dialog(
                "Hit hard",
                "Exert your Ryloth fighter to add its attack, then Pass: the cadet defends "
                "with just 1. When you win, exert the Repeater Gunner to add its damage bonus: the "
                "cadet has 2 health.",
                PROMPT,
                when=_deciding("combat_action"),
                speaks_of=(COMBAT_TOTALS,),
                asks_for="Exert Ryloth Resistance Fighter",
            ),
        ),
    ),
    Scenario(
        number=2,
        title="The Garrison Generator",
        story=(
            "Major Ilsen Drask's garrison guards the generator that powers the Talus "
            "blockade. Her Stormtroopers hold their own quest; yours lies open. Complete a "
            "quest before the garrison is relieved and the lights go out over Talus."
        ),
        level="easy",
        opponent=Opponent(
            archetype="imperial",
            avatar="Major Ilsen Drask",
            playmat=(
                OnPlaymat("Garrison Stormtrooper", quest=1),
                OnPlaymat("Stormtrooper Cadet", quest=1),
            ),
            hand=4,
        ),
        twist=Twist(power=5),
        victory=f"Complete a quest, {RULES}",
        goal=_quests_completed(1),
        reward="Talus Saboteur's Charge",
        at=(52, 50),
        dialogs=(
            Dialog(
                "Sabotage",
                "Completing one quest wins this scenario. Your informants bought you time: "
                "5 power this first turn. Play abilities with levels, then apply them at your "
                "quest in your Quest Phase.",
                QUEST_METER,
            ),
            Dialog(
                "The garrison stirs",
                "Drask's troopers get +1 defense for her. Keep your units where they guard "
                "your quest, so the garrison cannot stop you.",
                QUESTS,
                when=_deciding("choose_quest", "apply_ability"),
            ),
        ),
    ),
    Scenario(
        number=3,
        title="Ashes of the Broken Enclave",
        story=(
            "Cultists of the Tomb of Ashes dig in the ruins of a Jedi enclave for what the "
            "Order buried there. Vorsa Kel leads them herself, and grows stronger with every "
            "wound. Stop her before the digging is done."
        ),
        level="normal",
        opponent=Opponent(
            archetype="sith",
            avatar="Vorsa Kel",
            playmat=(
                OnPlaymat("Shadow Cultist", quest=1),
                OnPlaymat("Tomb Initiate", quest=0),
            ),
            hand=5,
        ),
        victory="Win the game by the rules: complete your last quest, or destroy Vorsa Kel.",
        reward="Enclave Ember Keeper",
        at=(80, 24),
        dialogs=(
            Dialog(
                "Vorsa Kel",
                "Every time Vorsa Kel takes damage she gets +1 attack. Strike when you can "
                "finish her, or race her to your last quest.",
                OPPONENT_AVATAR,
            ),
            Dialog(
                "Half way",
                "Vorsa Kel is badly hurt, and angrier for it. Guard your avatar: keep a "
                "unit ready to defend.",
                OPPONENT_AVATAR,
                when=_opponent_health_at_most(9),
            ),
        ),
    ),
    Scenario(
        number=4,
        title="Evacuate Talus",
        story=(
            "The safehouse on Talus is burning. Captain Oren Thale has already taken one "
            "quest from the cell, and his troopers close in. Get the refugees out: you hold "
            "two more cards than usual, gathered in the flight."
        ),
        level="normal",
        opponent=Opponent(
            archetype="imperial",
            avatar="Captain Oren Thale",
            playmat=(
                OnPlaymat("Imperial Riot Trooper", quest=1),
                OnPlaymat("Stormtrooper Fireteam", quest=0),
                OnPlaymat("Field Surveillance"),
            ),
            completed=1,
        ),
        twist=Twist(hand=OPENING_HAND + 2),
        victory=(
            "Win the game by the rules: complete your last quest, or destroy Captain Oren Thale."
        ),
        reward="Safehouse Escape Route",
        at=(108, 50),
        dialogs=(
            Dialog(
                "Behind already",
                "Thale has completed a quest: his power is 4 a turn, yours 3. Your two extra "
                "cards must make up for it.",
                INFO_PANELS,
            ),
            Dialog(
                "A foothold",
                "Your units hold a quest now. Raid the Fireteam at yours before it grows.",
                FIRST_QUEST,
                when=_my_units(2),
            ),
        ),
    ),
    Scenario(
        number=5,
        title="The Ember Throne",
        story=(
            "At the end of the trail sits the Lord of the Ember Throne, and Kaarn the Hollow "
            "beside him, feeding on every fallen foe. This is the chapter's last battle: "
            "the Sith have prepared it for a long time."
        ),
        level="hard",
        opponent=Opponent(
            archetype="sith",
            avatar="Kaarn the Hollow",
            playmat=(
                OnPlaymat("Lord of the Ember Throne", quest=1),
                OnPlaymat("Sith Loyalist Guard", quest=0),
                OnPlaymat("Forbidden Lore"),
            ),
        ),
        victory=(
            "Win the game by the rules: complete your last quest, or destroy Kaarn the Hollow."
        ),
        reward="Flame of the Last Enclave",
        at=(136, 24),
        dialogs=(
            Dialog(
                "The Ember Throne",
                "The Lord gives Kaarn's other units +1 attack, but burns his own master's "
                "avatar at the end of each of his turns. Time is on your side if you hold.",
                OPPONENT_AVATAR,
            ),
            Dialog(
                "The Lord falls",
                "The Lord of the Ember Throne is gone. Press on.",
                OPPONENT_AVATAR,
                when=_units_destroyed(("Lord of the Ember Throne",)),
            ),
        ),
    ),
    Scenario(
        number=6,
        title="Checkpoint on the Cinder Road",
        story=(
            "A Rebel courier slipped past the Cinder Road checkpoint, and Cassick Dray's "
            "scout holds the road behind her. Your marksmen are in position."
        ),
        level="easy",
        opponent=Opponent(
            archetype="rebel",
            avatar="Cassick Dray",
            playmat=(OnPlaymat("Dunewater Scout", quest=0),),
            hand=0,
            avatar_damage=8,
        ),
        twist=Twist(
            allies=(
                OnPlaymat("Imperial Marksman", quest=0),
                OnPlaymat("Stormtrooper Fireteam", quest=0),
            )
        ),
        victory=("Clear the road: destroy every Rebel unit at the quest on the left, " + RULES),
        goal=_quest_cleared(0),
        reward="Cinder Road Enforcer",
        at=(24, 50),
        dialogs=(
            Dialog(
                "The checkpoint",
                "A Dunewater Scout holds the road at your quest, on the left. Raid from there "
                "with your Marksman and your Fireteam.",
                FIRST_QUEST,
                asks_for="Raid",
            ),
            Dialog(
                "Precise fire",
                "Exert your Marksman to add its attack, then Pass: the scout defends with 1. "
                "When you win, exert the Fireteam to add its damage bonus.",
                PROMPT,
                when=_deciding("combat_action"),
                speaks_of=(COMBAT_TOTALS,),
                asks_for="Exert Imperial Marksman",
            ),
        ),
    ),
    Scenario(
        number=7,
        title="Hunt on Dantooine",
        story=(
            "Ilvara Senn shelters refugees in the Dantooine grass. Her Watchers stand "
            "sentry at her quest. Take one quest from her and the refugees scatter."
        ),
        level="easy",
        opponent=Opponent(
            archetype="jedi",
            avatar="Ilvara Senn",
            playmat=(
                OnPlaymat("Enclave Watcher", quest=1),
                OnPlaymat("Enclave Initiate", quest=1),
            ),
            hand=4,
        ),
        twist=Twist(power=5),
        victory=f"Complete a quest, {RULES}",
        goal=_quests_completed(1),
        reward="Dantooine Hunting Writ",
        at=(52, 24),
        dialogs=(
            Dialog(
                "The hunt",
                "Completing one quest wins this scenario. You begin with 5 power: play "
                "abilities with levels and apply them at your quest.",
                QUEST_METER,
            ),
            Dialog(
                "Sentries",
                "Her Watchers are Sentries: they may guard her quest as well as yours. "
                "Keep units of your own at your quest.",
                QUESTS,
                when=_deciding("choose_quest", "apply_ability"),
            ),
        ),
    ),
    Scenario(
        number=8,
        title="The Courier's Trail",
        story=(
            "The courier's trail leads to Teyra Vaskin's commandos in the Rori swamps. "
            "They strike from ambush, and they strike first."
        ),
        level="normal",
        opponent=Opponent(
            archetype="rebel",
            avatar="Teyra Vaskin",
            playmat=(
                OnPlaymat("Alliance Commando Team", quest=1),
                OnPlaymat("Cell Lookout", quest=0),
            ),
            hand=5,
        ),
        victory="Win the game by the rules: complete your last quest, or destroy Teyra Vaskin.",
        reward="Swamp Trail Tracker",
        at=(80, 50),
        dialogs=(
            Dialog(
                "Commandos",
                "Teyra Vaskin's commandos deal damage as soon as they attack. Meet them with "
                "units that can take a hit.",
                OPPONENT_AVATAR,
            ),
            Dialog(
                "Her last stand",
                "Vaskin is badly hurt. One more good raid.",
                OPPONENT_AVATAR,
                when=_opponent_health_at_most(9),
            ),
        ),
    ),
    Scenario(
        number=9,
        title="Silence the Enclave",
        story=(
            "Maesi Orun and her Guardian Droid hold the last enclave on Dantooine, and she "
            "has already taken a quest from you. Break their calm."
        ),
        level="normal",
        opponent=Opponent(
            archetype="jedi",
            avatar="Maesi Orun",
            playmat=(
                OnPlaymat("Enclave Guardian Droid", quest=1),
                OnPlaymat("Knight of the Quiet Vow", quest=0),
                OnPlaymat("Kinetic Ward"),
            ),
            completed=1,
        ),
        twist=Twist(hand=OPENING_HAND + 2),
        victory="Win the game by the rules: complete your last quest, or destroy Maesi Orun.",
        reward="Enclave Silencer Protocol",
        at=(108, 24),
        dialogs=(
            Dialog(
                "Calm",
                "Maesi Orun has completed a quest already. You hold two extra cards: use "
                "them to catch up.",
                HAND,
            ),
            Dialog(
                "A foothold",
                "Your units hold a quest now. The Knight defends best in your turn: strike "
                "where it is not.",
                QUESTS,
                when=_my_units(2),
            ),
        ),
    ),
    Scenario(
        number=10,
        title="The Last Vow",
        story=(
            "Dorn Kaleth, the last Jedi master of the Outer Rim, waits with the Exiled Knight "
            "and the Wandering Blade Master. Defeat them and the Outer Rim is yours."
        ),
        level="hard",
        opponent=Opponent(
            archetype="jedi",
            avatar="Dorn Kaleth",
            playmat=(
                OnPlaymat("Exiled Jedi Knight", quest=1),
                OnPlaymat("Enclave Guardian Droid", quest=0),
                OnPlaymat("Valor of the Order"),
            ),
        ),
        victory="Win the game by the rules: complete your last quest, or destroy Dorn Kaleth.",
        reward="Vowbreaker Inquisitor",
        at=(136, 50),
        dialogs=(
            Dialog(
                "The last master",
                "Dorn Kaleth strikes through defenders, and his abilities wound your units. "
                "Win the race to the last quest, or wear him down.",
                OPPONENT_AVATAR,
            ),
            Dialog(
                "Your avatar",
                "You are wounded. Keep units back to defend your avatar.",
                AVATAR,
                when=lambda view: view["players"][PLAYER]["avatar"]["damage"] >= 10,
            ),
        ),
    ),
)

_BY_NUMBER = {scenario.number: scenario for scenario in SCENARIOS}
_BY_SLUG = {scenario.slug: scenario for scenario in SCENARIOS}


def scenario_numbered(number: int) -> Scenario | None:
    return _BY_NUMBER.get(number)


def scenario_of_position(slug: str) -> Scenario | None:
    """The scenario a game's recorded position names (``Scenario.slug``)."""
    return _BY_SLUG.get(slug)


def chapter_scenarios(chapter: int) -> tuple[Scenario, ...]:
    return tuple(scenario for scenario in SCENARIOS if scenario.chapter == chapter)


def next_in_chapter(scenario: Scenario) -> Scenario | None:
    """The scenario that winning ``scenario`` opens: the next of its chapter."""
    following = scenario_numbered(scenario.number + 1)
    return following if following is not None and following.chapter == scenario.chapter else None
