"""Computer players on the engine's contract only, for any number of seats.

An agent is asked ``choose(state, decision)`` for the seat that must decide and answers with one
of ``decision.actions``. It looks at the game only through ``view(state, decision.seat)``, so it
knows no more than a person in that seat would, plus the printed cards of the set (public: any
player may read a card).
"""

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from starholds.engine import api
from starholds.engine.state import State
from starholds.engine.turn import Decision

Action = dict
UNIT_TYPES = frozenset({"ship", "dragon", "base"})
EFFECT_TYPES = frozenset({"occurrence", "hazard", "luck", "monster"})
# Terrain pays for everything else: a fleet with fewer than this plays terrain first.
TERRAIN_WANTED = 7
# With more cards in hand the draw shrinks (Draw Cards Phase), so unused Card Plays discard.
FULL_HAND = 9


class Agent(Protocol):
    def choose(self, state: State, decision: Decision) -> Action: ...


class RandomAgent:
    """Any legal action, uniformly at random: the engine's stress test."""

    def __init__(self, seed: int):
        # Not for secrets: a simulated game must replay from its seed.
        self.random = random.Random(seed)  # noqa: S311

    def choose(self, state: State, decision: Decision) -> Action:
        return self.random.choice(decision.actions)


class GreedyAgent:
    """Takes the best-looking action now, without looking ahead.

    It engages its biggest units first and arms every heavy weapon it can; plays terrain until
    its fleet has enough, then its strongest units, then the rest; takes every card action;
    fires at the exposed Sector HQ of the opponent closest to elimination, or else at the
    biggest card it can destroy (or the weakest protector of that Sector HQ), adding weapons
    only until the volley is enough; aims harm at opponents and help at itself; reacts only
    against an opponent (and to weapons fire only when it is the target); never scraps its
    own cards.
    """

    def __init__(self, cards: Iterable[Mapping] = ()):
        # The set's printed cards by identity (type, strength, title): how many weapons a
        # unit in play carries is printed on it.
        self.printed = {(card["type"], card["strength"], card["title"]): card for card in cards}

    def choose(self, state: State, decision: Decision) -> Action:
        seen = _Sight(api.view(state, decision.seat), self.printed)
        kinds = {action["kind"] for action in decision.actions}
        for kind, choose in (
            ("react", self._react),
            ("place", self._place),
            ("target", self._target),
            ("take", self._take),
            ("done", self._allocate),
            ("volley", self._volley),
            ("add", self._add),
            ("play", self._play),
            ("act", self._play),
            ("discard", self._discard),
        ):
            if kind in kinds:
                return choose(seen, decision.actions)
        return _first(decision.actions, "next", "fire", "pass", "done")

    # ------------------------------------------------------------ Point Allocation Phase
    def _allocate(self, seen: "_Sight", legal: list[Action]) -> Action:
        order = {"engage": 0, "arm": 1, "power": 2, "research": 3, "repair": 4}
        useful = [action for action in legal if action["kind"] in order]
        if not useful:
            return _first(legal, "done")

        def priority(action: Action) -> tuple:
            card = seen.card(action["card"])
            unit = card["type"] in UNIT_TYPES
            return (-order[action["kind"]], unit, card["strength"])

        return max(useful, key=priority)

    # ------------------------------------------------------------ Play Cards Phases
    def _play(self, seen: "_Sight", legal: list[Action]) -> Action:
        acts = [action for action in legal if action["kind"] == "act"]
        if acts:
            return acts[0]
        plays = [action for action in legal if action["kind"] == "play"]
        if plays:
            best = max(plays, key=lambda action: seen.play_value(action["card"]))
            if seen.play_value(best["card"]) > 0:
                return best
        return _first(legal, "next")

    def _place(self, seen: "_Sight", legal: list[Action]) -> Action:
        card = seen.chain_card()
        if card is not None and card["type"] in EFFECT_TYPES:
            return max(legal, key=lambda action: seen.harm_value(action.get("at")))
        if card is not None and card["type"] in ("crew", "equipment", "ability"):
            return max(legal, key=lambda action: seen.own_strength(action.get("at")))
        independent = [action for action in legal if action.get("at") is None]
        return independent[0] if independent else legal[0]

    def _target(self, seen: "_Sight", legal: list[Action]) -> Action:
        players = [action for action in legal if "seat" in action]
        if players:
            return max(players, key=lambda action: seen.threat(action["seat"]))
        targets = [action for action in legal if "card" in action]
        if not targets:
            return legal[0]
        harmful = [action for action in targets if seen.is_opponents(action["card"])]
        if harmful:
            return max(harmful, key=lambda action: seen.harm_value(action["card"]))
        return max(targets, key=lambda action: seen.card(action["card"]).get("damage", 0))

    def _take(self, seen: "_Sight", legal: list[Action]) -> Action:
        return max(legal, key=lambda action: seen.card(action["card"])["strength"])

    # ------------------------------------------------------------ Weapons Fire Phase
    def _volley(self, seen: "_Sight", legal: list[Action]) -> Action:
        headquarters = [action for action in legal if "seat" in action]
        if headquarters:
            return max(headquarters, key=lambda action: seen.threat(action["seat"]))
        cards = [action for action in legal if "card" in action]
        firepower = seen.firepower()
        if not cards or firepower == 0:
            return _first(legal, "next")

        def promise(action: Action) -> tuple:
            card = seen.card(action["card"])
            toughness = seen.toughness(card)
            destroys = toughness <= firepower
            protector = card["type"] in ("ship", "dragon")
            focus = seen.threat(card["controller"])
            return (destroys, protector, focus, card["strength"] if destroys else -toughness)

        return max(cards, key=promise)

    def _add(self, seen: "_Sight", legal: list[Action]) -> Action:
        volley = seen.view["volley"]
        adds = [action for action in legal if action["kind"] == "add"]
        if volley["target"] is not None and "fire" in {action["kind"] for action in legal}:
            dealt = sum(damage for _card, _weapon, damage in volley["weapons"])
            if dealt >= seen.toughness(seen.card(volley["target"])):
                return _first(legal, "fire")
        return adds[0] if adds else _first(legal, "fire")

    # ------------------------------------------------------------ reactions
    def _react(self, seen: "_Sight", legal: list[Action]) -> Action:
        chain = seen.view["chain"]
        acting = chain[0]["seat"] if chain else seen.view["active"]
        if acting == seen.seat:
            return _first(legal, "pass")
        volley = seen.view["volley"]
        if seen.view["window"] == "weapons_fire" and volley is not None:
            target = volley["target"]
            mine = volley["hq"] == seen.seat or (
                target is not None and seen.card(target).get("controller") == seen.seat
            )
            if not mine:
                return _first(legal, "pass")
        return next(action for action in legal if action["kind"] == "react")

    # ------------------------------------------------------------ Discard Cards Phase
    def _discard(self, seen: "_Sight", legal: list[Action]) -> Action:
        discards = [action for action in legal if action["kind"] == "discard"]
        if len(seen.view["hand"]) > FULL_HAND and discards:
            return min(discards, key=lambda action: seen.play_value(action["card"]))
        return _first(legal, "next")


def _first(legal: list[Action], *kinds: str) -> Action:
    for kind in kinds:
        for action in legal:
            if action["kind"] == kind:
                return action
    return legal[0]


class _Sight:
    """A seat's view, indexed for the greedy agent's questions."""

    def __init__(self, view: dict, printed: Mapping[tuple, Mapping]):
        self.view = view
        self.seat = view["seat"]
        self.printed = printed
        self.cards: dict[int, dict] = {}
        for card in view["hand"]:
            self.cards[card["id"]] = card
        for player in view["seats"]:
            for zone in ("fleet", "reserve", "discard", "hq"):
                for card in _walk(player[zone]):
                    self.cards[card["id"]] = card
        for item in view["chain"]:
            if item["card"] is not None:
                self.cards[item["card"]["id"]] = item["card"]

    def card(self, number: int) -> dict:
        return self.cards[number]

    def chain_card(self) -> dict | None:
        chain = self.view["chain"]
        return chain[-1]["card"] if chain else None

    def me(self) -> dict:
        return self.view["seats"][self.seat]

    def is_opponents(self, number: int) -> bool:
        card = self.cards.get(number)
        return card is not None and card.get("controller", card["owner"]) != self.seat

    def threat(self, seat: int) -> int:
        """How close an opponent is to elimination: the one to finish off first."""
        return self.view["seats"][seat]["hq_damage"]

    def harm_value(self, number: int | None) -> tuple:
        if number is None or not self.is_opponents(number):
            return (False, 0, 0)
        card = self.cards[number]
        return (True, self.threat(card["controller"]), card["strength"])

    def own_strength(self, number: int | None) -> int:
        if number is None:
            return 0
        card = self.cards[number]
        return card["strength"] if card["type"] in UNIT_TYPES else card["strength"] - 10

    def _printed(self, card: dict) -> Mapping | None:
        return self.printed.get((card["type"], card["strength"], card["title"]))

    def toughness(self, card: dict) -> int:
        """The damage that destroys a card in play: what is left of its Shields or field, then
        of its strength."""
        left = card.get("current_strength", card["strength"]) - card.get("damage", 0)
        return left + card.get("shields", 0) + card.get("field", 0)

    def firepower(self) -> int:
        """The damage the seat's engaged units could still deal this phase (an estimate: each
        Phaser 1, each armed heavy weapon 1)."""
        total = 0
        for card in _walk(self.me()["fleet"]):
            if card["type"] not in UNIT_TYPES or not card.get("engaged"):
                continue
            printed = self._printed(card)
            total += card.get("armed", 0) + (printed["phasers"] if printed else 1)
        return total

    def play_value(self, number: int) -> int:
        """How much playing a hand card is worth now; 0 or less: keep it."""
        card = self.cards[number]
        kind = card["type"]
        if card["reaction"] and kind not in UNIT_TYPES:
            return 0
        if kind == "terrain":
            terrain = sum(1 for each in self.me()["fleet"] if each["type"] == "terrain")
            return (100 if terrain < TERRAIN_WANTED else 40) + card["strength"]
        if kind in UNIT_TYPES:
            return 50 + 3 * card["strength"]
        if kind == "agenda":
            return 10
        return 30 + card["strength"]


def _walk(cards: list[dict]) -> Iterator[dict]:
    for card in cards:
        yield card
        yield from _walk(card.get("attached", ()))
        yield from _walk(card.get("parts", ()))
