"""The Tutorials (rulebook, "Tutorials/Scenarios", "Tutorials"): "a series of single-player
mini-games designed to teach you the basic rules of the game", shown as a map and played in any
order.

Each tutorial is a game set up as it stands at one moment (``game.engine.positions``), the
player in the first seat with the Rebel starter deck's cards against the computer's Imperial
ones, and a goal that teaches one part of the rules. The goal is the tutorial's victory
condition (rulebook, "Info Button": "display the victory conditions for the game you're
playing"): the game is won as soon as it holds, or by the rules if they come first. Its
dialogs are told in order, each when its moment comes, and each points at the part of the
playmat it speaks of.

Plain data and pure functions of the engine's contract: the goal and each dialog's moment read
the player's own view (``engine.view(state, PLAYER)``), never the opponent's hand.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from game.engine import api as engine
from game.engine.positions import Placed, Position, SeatSetup, build
from game.engine.state import State

# The player's seat, and the computer's.
PLAYER, OPPONENT = 0, 1
# The computer's level in every tutorial: it plays its turns without setting traps.
OPPONENT_LEVEL = "easy"
PLAYER_ARCHETYPE, OPPONENT_ARCHETYPE = "rebel", "imperial"
# Who the computer plays in every tutorial: its avatar, the name the lessons call it by.
OPPONENT_NAME = "Agent Seline Korvath"

View = dict
Cards = Mapping[str, dict]

# Where a dialog points: the part of the playmat, as the page's selector for it
# (templates/jinja2/game/_playmat.html).
HAND = '[data-zone="hand"]'
AVATAR = f'[data-zone="avatar-{PLAYER}"]'
OPPONENT_AVATAR = f'[data-zone="avatar-{OPPONENT}"]'
ITEMS = f'[data-zone="items-{PLAYER}"]'
ABILITIES = f'[data-zone="abilities-{PLAYER}"]'
QUESTS = ".mat-quests"
FIRST_QUEST = ".mat-quest--1"
SECOND_QUEST = ".mat-quest--2"
QUEST_METER = ".mat-quest--1 .quest-meter"
MY_UNITS_AT_FIRST = ".mat-quest--1 .mat-units--near"
PROMPT = ".prompt"
INFO_PANELS = ".playmat__side"
PHASE_METER = "#mat-phase"
COMBAT_TOTALS = ".combat-total"


@dataclass(frozen=True)
class Dialog:
    """A dialog told once ``when(view)`` holds for the player's view (None: at once), after
    every dialog before it was read; it points at ``points_at`` on the playmat. It covers
    neither that part nor the others it speaks of, ``speaks_of`` (static/js/match.js). The
    Prompt's buttons it asks the player to click, those whose label begins with ``asks_for``,
    come first and glow."""

    title: str
    text: str
    points_at: str
    when: Callable[[View], bool] | None = None
    speaks_of: tuple[str, ...] = ()
    asks_for: str = ""

    def due(self, view: View) -> bool:
        return self.when is None or self.when(view)


@dataclass(frozen=True)
class Tutorial:
    slug: str
    title: str
    # What it teaches, on the map.
    lesson: str
    # Its victory condition, as the opponent's Info button shows it.
    victory: str
    goal: Callable[[View], bool]
    dialogs: tuple[Dialog, ...]
    setup: Callable[[Cards], Position]
    # Where it sits on the map, in percent of the map's width and height.
    at: tuple[int, int] = (0, 0)
    # The computer's name in this game: its avatar's.
    opponent_name: str = OPPONENT_NAME

    def beginning(self, cards: Cards, seed: int) -> State:
        """The tutorial's game as it begins, its later shuffles from ``seed``."""
        position = self.setup(cards)
        return build(
            Position(
                seats=position.seats,
                first=position.first,
                turn=position.turn,
                phase=position.phase,
                seed=seed,
            )
        )

    def decklists(self, cards: Cards) -> list[dict]:
        """Each seat's cards as a decklist: what the match's seats hold, for their faces."""
        return [_decklist(seat) for seat in self.setup(cards).seats]

    def goal_reached(self, state: State) -> bool:
        return state.winner is None and self.goal(engine.view(state, PLAYER))

    def dialog_due(self, state: State, read: int) -> int | None:
        """The index of the dialog to show now, when ``read`` dialogs have been read: the next
        one, once its moment has come; None when there is none to show."""
        if read >= len(self.dialogs) or state.winner is not None:
            return None
        return read if self.dialogs[read].due(engine.view(state, PLAYER)) else None


def _decklist(seat: SeatSetup) -> dict:
    return {
        "avatar": seat.avatar,
        "quests": list(seat.quests),
        "deck": [
            *seat.hand,
            *(placed.card for placed in seat.playmat),
            *seat.discard,
            *seat.deck,
        ],
        "created": list(seat.created),
    }


def _units(view: View, seat: int) -> list[dict]:
    return [card for quest in view["quests"] for card in quest["units"][seat]]


def _deciding(*kinds: str) -> Callable[[View], bool]:
    """The moment the player has a decision of one of ``kinds`` to make."""

    def holds(view: View) -> bool:
        decision = view["decision"]
        return decision["seat"] == PLAYER and decision["kind"] in kinds

    return holds


REBEL_QUESTS = (
    "Rally the Dunewater Cell",
    "Sabotage the Garrison Generator",
    "Evacuate the Talus Safehouse",
    "Plunder the Sunken Vault of Rori",
)
IMPERIAL_QUESTS = (
    "Checkpoint on the Cinder Road",
    "Intercept the Rebel Courier",
    "Impose Martial Law on Rori",
    "Crush the Dantooine Uprising",
)
# What each side draws from: enough for the turns a tutorial lasts, and nothing that surprises.
REBEL_DECK = (
    "Alliance Recruit",
    "Snowfield Trooper",
    "Ryloth Resistance Fighter",
    "Alliance Carbine",
    "Survival Instincts",
    "Repeater Gunner",
    "Dunewater Scout",
    "Cell Lookout",
    "Padded Flight Suit",
    "Battlefield Triage",
    "Alliance Recruit",
    "Snowfield Trooper",
)
IMPERIAL_DECK = (
    "Stormtrooper Cadet",
    "Conscript Squad",
    "Regulation Blaster Rifle",
    "Garrison Stormtrooper",
    "Field Surveillance",
    "Stormtrooper Cadet",
    "Seeker Surveillance Droid",
    "Composite Trooper Plating",
    "Conscript Squad",
    "Stormtrooper Cadet",
    "Garrison Stormtrooper",
    "Seeker Surveillance Droid",
)


def _rebel(cards: Cards, **fields) -> SeatSetup:
    defaults = {
        "avatar": cards["Cassick Dray"],
        "quests": [cards[title] for title in REBEL_QUESTS],
        "deck": [cards[title] for title in REBEL_DECK],
    }
    return SeatSetup(**(defaults | fields))


def _imperial(cards: Cards, **fields) -> SeatSetup:
    defaults = {
        "avatar": cards[OPPONENT_NAME],
        "quests": [cards[title] for title in IMPERIAL_QUESTS],
        "deck": [cards[title] for title in IMPERIAL_DECK],
    }
    return SeatSetup(**(defaults | fields))


def _cards_setup(cards: Cards) -> Position:
    return Position(
        seats=(
            _rebel(
                cards,
                hand=[
                    cards["Alliance Recruit"],
                    cards["Snowfield Trooper"],
                    cards["Scavenged Blaster Pistol"],
                    cards["Survival Instincts"],
                ],
                power=6,
            ),
            _imperial(cards, playmat=(Placed(cards["Garrison Stormtrooper"], quest=1),)),
        ),
        turn=3,
    )


def _cards_goal(view: View) -> bool:
    me = view["players"][PLAYER]
    return bool(_units(view, PLAYER) and me["items"] and me["abilities"])


def _actions_setup(cards: Cards) -> Position:
    return Position(
        seats=(
            _rebel(
                cards,
                playmat=(
                    Placed(cards["Alliance Field Medic"], quest=0),
                    Placed(cards["Snowfield Trooper"], quest=0, damage=2),
                ),
                hand=[cards["Alliance Recruit"]],
                power=3,
            ),
            _imperial(cards, playmat=(Placed(cards["Stormtrooper Cadet"], quest=1),)),
        ),
        turn=5,
    )


def _actions_goal(view: View) -> bool:
    troopers = [unit for unit in _units(view, PLAYER) if unit["title"] == "Snowfield Trooper"]
    return bool(troopers) and all(unit["damage"] == 0 for unit in troopers)


def _quest_setup(cards: Cards) -> Position:
    return Position(
        seats=(
            _rebel(
                cards,
                playmat=(
                    Placed(cards["Survival Instincts"]),
                    Placed(cards["Battlefield Triage"]),
                    Placed(cards["Alliance Recruit"], quest=1),
                ),
                hand=[cards["Dunewater Scout"]],
            ),
            _imperial(cards, playmat=(Placed(cards["Stormtrooper Cadet"], quest=1),)),
        ),
        turn=3,
        phase="quest",
    )


def _quest_goal(view: View) -> bool:
    return bool(view["players"][PLAYER]["completed"])


def _raid_setup(cards: Cards) -> Position:
    return Position(
        seats=(
            _rebel(
                cards,
                playmat=(
                    Placed(cards["Ryloth Resistance Fighter"], quest=0),
                    Placed(cards["Repeater Gunner"], quest=0),
                ),
                hand=[cards["Alliance Recruit"]],
                power=3,
            ),
            _imperial(
                cards,
                playmat=(
                    Placed(cards["Jawa Scrap Haulers"], quest=0),
                    Placed(cards["Stormtrooper Cadet"], quest=1),
                ),
            ),
        ),
        turn=5,
    )


def _first_quest_cleared(view: View) -> bool:
    return not view["quests"][0]["units"][OPPONENT]


def _tactics_setup(cards: Cards) -> Position:
    return Position(
        seats=(
            _rebel(
                cards,
                playmat=(Placed(cards["Alliance Recruit"], quest=0),),
                hand=[cards["Adrenaline Surge"], cards["Padded Flight Suit"]],
                power=3,
            ),
            _imperial(cards, playmat=(Placed(cards["Garrison Stormtrooper"], quest=0, damage=1),)),
        ),
        turn=5,
    )


def _winning_setup(cards: Cards) -> Position:
    return Position(
        seats=(
            _rebel(
                cards,
                playmat=(
                    Placed(cards["Wookiee Freedom Fighter"], quest=1),
                    Placed(cards["Repeater Gunner"], quest=1),
                    Placed(cards["Alliance Recruit"], quest=0),
                ),
                hand=[cards["Snowfield Trooper"]],
                completed=3,
                tokens=(4, 0),
            ),
            _imperial(
                cards,
                playmat=(Placed(cards["Garrison Stormtrooper"], quest=0, exerted=True),),
                avatar_damage=16,
                completed=1,
            ),
        ),
        turn=11,
    )


def _won(view: View) -> bool:
    return view["winner"] == PLAYER


TUTORIALS = (
    Tutorial(
        slug="power-and-cards",
        title="Power and playing cards",
        lesson="Spend your power to play a unit at a quest, an item and an ability.",
        victory="Have a unit at a quest, an item and an ability of yours on the playmat.",
        goal=_cards_goal,
        setup=_cards_setup,
        at=(12, 60),
        dialogs=(
            Dialog(
                "Your avatar and your power",
                "This is you: Cassick Dray, your avatar. The blue bar beside it is your power, "
                "6 this turn. Every card costs power to play; each turn your power is restored "
                "to 3 plus one for every quest completed.",
                AVATAR,
            ),
            Dialog(
                "Your hand",
                "A card with a glowing border is one you can pay for now. Double-click a unit, "
                "then choose the quest it goes to, or drag it onto a quest.",
                HAND,
            ),
            Dialog(
                "Items and abilities",
                "Items go to the left of your avatar, abilities to its right. Play the Blaster "
                "Pistol and Survival Instincts too: one of each wins this tutorial.",
                ITEMS,
                when=lambda view: bool(_units(view, PLAYER)),
            ),
        ),
    ),
    Tutorial(
        slug="activated-actions",
        title="Activated actions",
        lesson="Use a card's action: exert your Field Medic to heal a wounded unit.",
        victory="Heal your Snowfield Trooper.",
        goal=_actions_goal,
        setup=_actions_setup,
        at=(30, 38),
        dialogs=(
            Dialog(
                "Damage",
                "Your Snowfield Trooper took 2 damage in an earlier fight: the red bar on the "
                "card shows the health it has left. A unit is destroyed when its damage reaches "
                "its health.",
                MY_UNITS_AT_FIRST,
            ),
            Dialog(
                "Actions",
                "Some cards have an action: a cost, an arrow, then its effect. The Field "
                "Medic's cost is to exert it (turn it sideways) and its effect heals 2 damage. "
                "Right-click the Medic, or use its button in the Prompt, then pick the Trooper.",
                PROMPT,
                asks_for="Use Alliance Field Medic",
            ),
        ),
    ),
    Tutorial(
        slug="quests-and-levels",
        title="Quests and levels",
        lesson="In your Quest Phase, apply an ability at a quest: its level becomes tokens.",
        victory="Complete a quest.",
        goal=_quest_goal,
        setup=_quest_setup,
        at=(48, 60),
        dialogs=(
            Dialog(
                "The Quest Phase",
                "With a ready ability that has a level, you must attempt a quest each turn. "
                "The number in the middle of the quest meter is the quest's level: that many "
                "of your tokens complete it. Choose the quest on the left: no enemy guards it.",
                QUEST_METER,
                when=_deciding("choose_quest"),
                asks_for="Attempt Rally the Dunewater Cell",
            ),
            Dialog(
                "Apply an ability",
                "Now apply one of your abilities: it is destroyed, and leaves tokens equal to "
                "its level at the quest. Survival Instincts has level 2, just what a level 2 "
                "quest needs.",
                ABILITIES,
                when=_deciding("apply_ability"),
                asks_for="Apply Survival Instincts",
            ),
            Dialog(
                "Combat first",
                "An enemy unit stands at this quest, so your avatar fights it first. Exert to "
                "add to your total, or Pass; then you still apply an ability.",
                PROMPT,
                when=_deciding("combat_action"),
                speaks_of=(PHASE_METER, COMBAT_TOTALS),
            ),
        ),
    ),
    Tutorial(
        slug="raids-and-combat",
        title="Raids and combat",
        lesson="Raid with your units, win the combat and destroy the enemy unit.",
        victory="Destroy the enemy unit at the quest on the left.",
        goal=_first_quest_cleared,
        setup=_raid_setup,
        at=(68, 32),
        dialogs=(
            Dialog(
                "Raid",
                "In your Main Phase all your ready units at one quest can raid together. A Jawa "
                "crew waits at the quest on the left: raid from it with the Raid button.",
                FIRST_QUEST,
                when=_deciding("main"),
                asks_for="Raid Rally the Dunewater Cell",
            ),
            Dialog(
                "Combat actions",
                "You attack, they defend. Take turns: exert a combatant to add its attack to "
                "your total attack, then Pass. When both players pass, the higher total wins.",
                PROMPT,
                when=_deciding("combat_action"),
                speaks_of=(PHASE_METER, COMBAT_TOTALS),
                asks_for="Exert",
            ),
            Dialog(
                "Damage bonus",
                "You won, so you deal 1 damage. Exert one combatant to add its damage bonus.",
                PROMPT,
                when=_deciding("damage_bonus"),
                asks_for="Exert",
            ),
        ),
    ),
    Tutorial(
        slug="tactics",
        title="Tactics",
        lesson="Turn a losing combat around with a tactic from your hand.",
        victory="Destroy the Garrison Stormtrooper at the quest on the left.",
        goal=_first_quest_cleared,
        setup=_tactics_setup,
        at=(82, 58),
        dialogs=(
            Dialog(
                "A tough guard",
                "The wounded Garrison Stormtrooper defends with 3 in your turn; your Recruit "
                "attacks with 2 here. Raid anyway: you hold a surprise.",
                FIRST_QUEST,
                when=_deciding("main"),
                asks_for="Raid Rally the Dunewater Cell",
            ),
            Dialog(
                "Play a tactic",
                "Tactics are played only in combat, as a combat action. Adrenaline Surge gives "
                "your Recruit +2 attack and +1 damage bonus: double-click it in your hand.",
                HAND,
                when=_deciding("combat_action"),
                asks_for="Play Adrenaline Surge",
            ),
        ),
    ),
    Tutorial(
        slug="winning",
        title="Winning the game",
        lesson="Finish it: complete your last quest or destroy the enemy avatar.",
        victory=(
            f"Win the game: complete your last quest, or destroy {OPPONENT_NAME}, who has "
            "2 health left."
        ),
        goal=_won,
        setup=_winning_setup,
        at=(90, 18),
        dialogs=(
            Dialog(
                "Three ways to end",
                "You win by completing a quest when your quest pile is empty, or when the "
                "enemy avatar is destroyed. You lose when your avatar is destroyed, or when you "
                "must draw and your deck is empty.",
                INFO_PANELS,
            ),
            Dialog(
                "The enemy avatar",
                "No enemy stands at the quest on the right: a raid from there fights the enemy "
                "avatar itself, and it has 2 health left. Exert the Wookiee to attack, and keep "
                "the Gunner ready: a win deals 1 damage, and exerting the Gunner adds its "
                "damage bonus.",
                OPPONENT_AVATAR,
                when=_deciding("main"),
            ),
        ),
    ),
)

_BY_SLUG = {tutorial.slug: tutorial for tutorial in TUTORIALS}


def tutorial_named(slug: str) -> Tutorial | None:
    return _BY_SLUG.get(slug)
