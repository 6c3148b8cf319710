"""Computer opponents on the engine's contract only (``game.engine.actions.Agent``).

An agent is asked ``choose(state, decision)`` for the seat that must decide, and answers with
one of ``decision.actions``. It looks at the game only through ``view(state, decision.seat)``,
so it knows no more than a person in that seat would.
"""

import random

from game.engine import actions
from game.engine.actions import Action, Decision
from game.engine.api import view
from game.engine.state import State


class RandomAgent:
    """Any legal action, uniformly at random: the engine's stress test."""

    def __init__(self, seed: int):
        # Not for secrets: a simulated game must replay from its seed.
        self.random = random.Random(seed)  # noqa: S311

    def choose(self, state: State, decision: Decision) -> Action:
        return self.random.choice(decision.actions)


class GreedyAgent:
    """Takes the best-looking action now, without looking ahead.

    It plays the cards that add the most attack and defense, attempts the quest it can
    complete, raids only where its ready units outnumber every defense the opponent could
    muster, adds to a combat total only until it leads, and keeps abilities with a level
    for questing.
    """

    def choose(self, state: State, decision: Decision) -> Action:
        seen = _Sight(view(state, decision.seat))
        choose = getattr(self, f"_{decision.kind}")
        return choose(seen, decision.actions)

    def _redraw(self, seen: "_Sight", legal: list[Action]) -> Action:
        can_quest = any(card["level"] for card in seen.me["hand"] if card["type"] == "ability")
        return actions.keep() if can_quest else actions.redraw()

    def _choose_quest(self, seen: "_Sight", legal: list[Action]) -> Action:
        best_level = max(
            (card["level"] for card in seen.me["abilities"] if seen.can_apply(card)), default=0
        )

        def promise(action: Action) -> tuple:
            quest = seen.quest(action["quest"])
            tokens = quest["tokens"][seen.seat]
            completes = tokens + best_level >= quest["card"]["level"]
            return (completes, -seen.ready_defense(seen.enemy_units(quest)), tokens)

        return max(legal, key=promise)

    def _apply_ability(self, seen: "_Sight", legal: list[Action]) -> Action:
        quest = seen.quest(seen.view["attempting"])
        needed = quest["card"]["level"] - quest["tokens"][seen.seat]

        def fit(action: Action) -> tuple:
            level = seen.card(action["card"])["level"]
            # The smallest ability that completes the quest, or else the largest.
            return (level >= needed, -level if level >= needed else level)

        return max(legal, key=fit)

    def _main(self, seen: "_Sight", legal: list[Action]) -> Action:
        plays = [action for action in legal if action["kind"] == "play"]
        if plays:
            best = max(plays, key=lambda action: seen.play_value(action))
            if seen.play_value(best) > 0:
                return best
        for action in legal:
            if action["kind"] == "raid" and seen.raid_wins(action):
                return action
        return actions.done()

    def _combat_action(self, seen: "_Sight", legal: list[Action]) -> Action:
        mine, theirs = seen.combat_totals()
        exerts = [action for action in legal if action["kind"] == "exert"]
        if mine > theirs or not exerts:
            return actions.pass_()

        def worth(action: Action) -> tuple:
            card = seen.card(action["card"])
            keeps_quest_power = card["type"] == "ability" and card["level"] is not None
            return (not keeps_quest_power, card[action["attribute"]] or 0)

        return max(exerts, key=worth)

    def _damage_bonus(self, seen: "_Sight", legal: list[Action]) -> Action:
        exerts = [action for action in legal if action["kind"] == "exert"]
        best = max(exerts, key=lambda action: seen.card(action["card"])["damage_bonus"])
        return best if seen.card(best["card"])["damage_bonus"] else actions.pass_()

    def _assign_damage(self, seen: "_Sight", legal: list[Action]) -> Action:
        # Spread the damage: the combatant with the most health left takes the next point.
        return max(legal, key=lambda action: seen.health_left(action["card"]))

    def _discard(self, seen: "_Sight", legal: list[Action]) -> Action:
        return min(legal, key=lambda action: seen.card_value(seen.card(action["card"])))

    def _choose(self, seen: "_Sight", legal: list[Action]) -> Action:
        """The best card for the effect: an opposing one it harms most, or one of its own it
        helps most (and, for what it must give up, the least valuable)."""
        harmful = seen.view["decision"]["effect"] in HARMFUL_EFFECTS

        def fitness(action: Action) -> tuple:
            card = seen.card(action["card"])
            value = seen.card_value(card)
            mine = card["controller"] in seen.team
            wanted = mine != harmful
            return (wanted, value if wanted else -value)

        return max(legal, key=fitness)

    def _optional(self, seen: "_Sight", legal: list[Action]) -> Action:
        return actions.accept()

    def _choose_commander(self, seen: "_Sight", legal: list[Action]) -> Action:
        # The defender with the least health left risks the least by commanding.
        return min(legal, key=lambda action: seen.players[action["seat"]]["health"])


# Effects whose chosen card is worse off: the agent picks opposing cards for them, or its
# least valuable own ones.
HARMFUL_EFFECTS = frozenset(
    {
        "deal_damage",
        "destroy",
        "discard",
        "exert",
        "return_to_hand",
        "prohibit",
        "remove_keyword",
        "target",
        "withdraw",
    }
)


class _Sight:
    """What the greedy agent reads off its view."""

    def __init__(self, seen: dict):
        self.view = seen
        self.seat = seen["viewer"]
        self.players = seen["players"]
        # A two-player view has no sides: two sides of one seat (MULTIPLAYER GAMES).
        sides = seen.get("sides", [[0], [1]])
        left = seen.get("left", [])
        self.team = next(side for side in sides if self.seat in side)
        self.opponents = [
            seat for side in sides if side is not self.team for seat in side if seat not in left
        ]
        self.reach = seen.get("reach")
        self.me = seen["players"][self.seat]
        self.cards: dict[int, dict] = {}
        for player in seen["players"]:
            for zone in ("hand", "items", "abilities", "discard"):
                self.cards.update((card["id"], card) for card in player[zone] or ())
            self.cards[player["avatar"]["id"]] = player["avatar"]
        self.cards.update((card["id"], card) for card in seen["decision"].get("choices", ()))
        for quest in seen["quests"]:
            for units in quest["units"]:
                self.cards.update((card["id"], card) for card in units)

    def card(self, card_id: int) -> dict:
        return self.cards[card_id]

    def quest(self, quest_card: int) -> dict:
        return next(quest for quest in self.view["quests"] if quest["card"]["id"] == quest_card)

    def health_left(self, card_id: int) -> int:
        card = self.card(card_id)
        return card["health"] - card["damage"]

    @staticmethod
    def can_apply(card: dict) -> bool:
        return not card["exerted"] and card["level"] is not None

    @staticmethod
    def card_value(card: dict) -> int:
        return sum(card[key] or 0 for key in ("attack", "defense", "damage_bonus", "level"))

    def ready_defense(self, units: list[dict]) -> int:
        return sum(card["defense"] for card in units if not card["exerted"])

    def play_value(self, action: Action) -> int:
        card = self.card(action["card"])
        value = self.card_value(card)
        if card["type"] == "item" and card["restriction"]:
            replaced = [
                self.card_value(item)
                for item in self.me["items"]
                if item["restriction"] == card["restriction"]
            ]
            value -= max(replaced, default=0)
        if card["type"] == "unit":
            # Rather where the opponents have no units, so that raids reach an avatar.
            value += 0 if self.enemy_units(self.quest(action["quest"])) else 1
        return value

    def enemy_units(self, quest: dict) -> list[dict]:
        return [card for seat in self.opponents for card in quest["units"][seat]]

    def raid_wins(self, raid: Action) -> bool:
        quest = self.quest(raid["quest"])
        raiders = [card for seat in self.team for card in quest["units"][seat]]
        attack = sum(card["attack"] for card in raiders if not card["exerted"])
        defenders = self.enemy_units(quest)
        if defenders:
            return attack > self.ready_defense(defenders)
        target = raid.get("avatar")
        them = next(
            self.players[seat]
            for seat in self.opponents
            if target in (None, self.players[seat]["avatar"]["id"])
            and (self.reach is None or self.view["quests"].index(quest) in self.reach[seat])
        )
        avatar_side = [them["avatar"], *them["items"], *them["abilities"]]
        defense = sum(card["defense"] or 0 for card in avatar_side if not card["exerted"])
        return attack > defense

    def combat_totals(self) -> tuple[int, int]:
        sides = self.view["combat"]["sides"]
        mine = next(side["total"] for side in sides if side["seat"] == self.seat)
        theirs = next(side["total"] for side in sides if side["seat"] != self.seat)
        return mine, theirs
