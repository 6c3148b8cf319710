"""Every card of the first set does what its text says: a generated test over the whole set
plays each card at least once.

The set's cards are grouped by archetype (generic cards spread over the four groups); each
group makes decklists of all its cards, one for each of its avatars and quest piles. Seeded
games between decklists of two groups are played by a coverage agent that prefers whatever
uses text not used yet, and plays at random otherwise. Meanwhile the engine's effect machinery
is wrapped to record which card's text runs and what each effect primitive does. Hand-built
scenarios first cover what random play can't reach or reaches too rarely. The tests then read
the record.
"""

import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import pytest

from game.engine import actions, api, continuous, effects, rules, select
from game.engine.decklists import card_definition, created_cards, load_set
from game.engine.invariants import invariant_violations
from game.engine.simulation import TURN_CAP
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    complete_quests,
    decklist,
    keep_hands,
    put_in_hand,
    put_into_play,
    quest_at,
    start,
    unit,
)

SET_FILE = (
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
SET = load_set(SET_FILE)
CARDS = SET["cards"]
BY_TITLE = {card["title"]: card for card in CARDS}
ARCHETYPES = ("jedi", "rebel", "imperial", "sith")
DECK_TYPES = ("unit", "ability", "item", "tactic")
QUEST_LEVELS = (2, 4, 5, 6)
DECK_MINIMUM = 50

# Random play covers everything it can reach in far fewer games; the cap bounds the runtime
# when some text can never be covered.
GAME_CAP = 300
SEED = 2026

# The event each effect primitive appends when it acts on something (game.engine.effects);
# for_each appends none itself: its inner effects are checked on their own.
CHARACTERISTIC_EVENTS = {
    "gain_power": {"power_gained"},
    "draw": {"draw"},
    "discard": {"discarded"},
    "deal_damage": {"damage_dealt"},
    "heal": {"healed"},
    "shield": {"shielded"},
    "modify": {"changed"},
    "add_total": {"total_added"},
    "add_damage": {"damage_added"},
    "exert": {"exerted_by_effect"},
    "ready": {"readied"},
    "destroy": {"destroyed"},
    "return_to_hand": {"returned"},
    "move_unit": {"moved"},
    "withdraw": {"withdrew"},
    "join_combat": {"joined_combat"},
    "grant_keyword": {"changed"},
    "remove_keyword": {"changed"},
    "prohibit": {"changed"},
    "search": {"searched", "search_failed"},
    "recover": {"recovered"},
    "create_card": {"card_created"},
    "add_level_tokens": {"tokens_placed"},
    "move_level_tokens": {"tokens_moved"},
    "raid_again": {"raid_again"},
    "begin_avatar_combat": {"combat_began"},
    "target": {"targeted"},
    "link": {"linked"},
    "for_each": None,
    "win_game": {"game_won"},
}


# The set's texts: each part of a card's rules that runs as a pending effect.


@dataclass(frozen=True)
class Text:
    """An activated action, a trigger, a tactic's play, or what happens when a card a text
    targets is destroyed."""

    title: str
    part: str  # "action 0", "trigger 1", "play", "action 0, when destroyed"
    is_used: bool  # an action or a tactic, which a player may use only if it can do something


@dataclass(frozen=True)
class EffectAt:
    """One effect of a text, by its position ("1", or "0.1" inside a for_each)."""

    text: Text
    position: str
    primitive: str

    def __str__(self) -> str:
        return f"{self.text.title} ({self.text.part}, effect {self.position} {self.primitive})"


def texts_of(card: dict) -> list[tuple[Text, list[dict]]]:
    card_rules = card["rules"]
    title = card["title"]
    texts = [
        (Text(title, f"action {index}", True), action["effect"])
        for index, action in enumerate(card_rules.get("actions", ()))
    ]
    texts += [
        (Text(title, f"trigger {index}", False), trigger["effect"])
        for index, trigger in enumerate(card_rules.get("triggers", ()))
    ]
    if "play" in card_rules:
        texts.append((Text(title, "play", True), card_rules["play"]["effect"]))
    texts += [
        (Text(title, f"{text.part}, when destroyed", False), effect["when_destroyed"])
        for text, effect_list in list(texts)
        for effect in effect_list
        if effect.get("when_destroyed")
    ]
    return texts


def effects_of(
    text: Text, effect_list: list[dict], prefix: str = ""
) -> list[tuple[EffectAt, dict]]:
    found = []
    for index, effect in enumerate(effect_list):
        position = f"{prefix}{index}"
        found.append((EffectAt(text, position, effect["primitive"]), effect))
        if effect["primitive"] == "for_each":
            found += effects_of(text, effect["effect"], f"{position}.")
    return found


def names_them(effect_list: list[dict], index: int) -> bool:
    """Whether the effect names each card of a filter and the next one acts on "them"."""
    target = effect_list[index].get("target", {})
    following = effect_list[index + 1 : index + 2]
    return (
        target.get("count") == "all"
        and bool(following)
        and "chosen" in following[0].get("target", {})
    )


# A decklist carries the set's own rules objects, so the engine's frames and effect handlers
# hold these very dicts: their identity tells which card's text runs.
TEXTS = {card["title"]: texts_of(card) for card in CARDS}
# A text is known by its first effect (a frame holds the effects, not the list).
TEXT_OF_FIRST_EFFECT = {
    id(effect_list[0]): text for texts in TEXTS.values() for text, effect_list in texts
}
EFFECTS_OF_TEXT = {
    text: effects_of(text, effect_list) for texts in TEXTS.values() for text, effect_list in texts
}
EFFECT_AT = {id(effect): where for found in EFFECTS_OF_TEXT.values() for where, effect in found}
NAMING_THEM = {
    id(effect_list[index])
    for texts in TEXTS.values()
    for _, effect_list in texts
    for index in range(len(effect_list))
    if names_them(effect_list, index)
}


# Decklists: each archetype's cards and a quarter of the generic ones.


def group_of(card: dict) -> str:
    return card["archetype"] or ARCHETYPES[card["number"] % len(ARCHETYPES)]


def quest_piles(group: str) -> list[list[dict]]:
    """Quest piles of one quest each of levels 2, 4, 5 and 6 that hold every quest of the
    group; the starter deck's quests fill the gaps."""
    to_place = [card for card in CARDS if card["type"] == "quest" and group_of(card) == group]
    starter = {
        BY_TITLE[title]["level"]: BY_TITLE[title] for title in SET["starter_decks"][group]["quests"]
    }
    piles = []
    while to_place:
        pile = []
        for level in QUEST_LEVELS:
            placed = next((card for card in to_place if card["level"] == level), starter[level])
            if placed in to_place:
                to_place.remove(placed)
            pile.append(placed)
        piles.append(pile)
    return piles


@dataclass
class Deck:
    group: str
    decklist: dict
    titles: set[str]  # the set's cards it brings


def group_decks(group: str) -> list[Deck]:
    avatars = [card for card in CARDS if card["type"] == "avatar" and group_of(card) == group]
    cards = [card for card in CARDS if card["type"] in DECK_TYPES and group_of(card) == group]
    piles = quest_piles(group)
    deck = [card_definition(card) for card in cards]
    padding = [BY_TITLE[title] for title in SET["starter_decks"][group]["deck"]]
    deck += [card_definition(card) for card in padding[: max(0, DECK_MINIMUM - len(deck))]]
    decks = []
    for index in range(max(len(avatars), len(piles))):
        hero = avatars[index % len(avatars)]
        pile = piles[index % len(piles)]
        listed = {
            "avatar": card_definition(hero),
            "quests": [card_definition(card) for card in pile],
            "deck": deck,
        }
        listed["created"] = created_cards([listed["avatar"], *listed["quests"], *deck], BY_TITLE)
        decks.append(Deck(group, listed, {card["title"] for card in [hero, *pile, *cards]}))
    return decks


DECKS = [deck for group in ARCHETYPES for deck in group_decks(group)]


# The record


@dataclass
class Coverage:
    """What the scenarios and games did with the set's cards."""

    on_playmat: set[str] = field(default_factory=set)  # played, or put into play
    started: set[Text] = field(default_factory=set)  # a pending effect was made for it
    resolved: set[EffectAt] = field(default_factory=set)  # carried out, whatever it found
    # Each run of an effect that had something to act on: the event types it appended.
    acted: dict[EffectAt, list[set[str]]] = field(default_factory=lambda: defaultdict(list))
    idle: dict[Text, int] = field(default_factory=lambda: defaultdict(int))  # used, did nothing
    misread_them: dict[Text, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    games: int = 0

    def carried_out(self, text: Text) -> bool:
        return all(where in self.resolved for where in top_level_effects(text))

    def missing(self, title: str) -> list[str]:
        """What the card has not done yet, in words; empty once it is covered."""
        missing = [] if title in self.on_playmat else ["never on the playmat"]
        for text, _ in TEXTS[title]:
            if text not in self.started:
                missing.append(f"{text.part} never started")
            elif not self.carried_out(text):
                missing.append(f"{text.part} never carried out")
            missing += [
                f"{where.text.part} effect {where.position} {where.primitive} never had "
                "anything to act on"
                for where, _ in EFFECTS_OF_TEXT[text]
                if where in self.resolved and where not in self.acted
            ]
        return missing


def top_level_effects(text: Text) -> list[EffectAt]:
    return [where for where, _ in EFFECTS_OF_TEXT[text] if "." not in where.position]


def title_of(state: api.State, card: int) -> str:
    return state.definitions[state.cards[card].definition]["title"]


def has_something_to_act_on(state: api.State, pending: dict, effect: dict) -> bool:
    """Whether any part of the effect can happen now: a card on the playmat it can affect, or
    whatever else effects.possible asks of the primitive."""
    where = effects.context(pending)
    target = effect.get("target")
    if target is not None and not any(
        select.is_in_play(state, card) for card in select.matching(state, target, where)
    ):
        return False
    if target is not None and "chosen" in target:
        # "It"/"they": the cards the earlier effect named, as they stand when this one runs.
        useful = effects.ACTS_ON.get(effect["primitive"])
        return any(useful is None or useful(state, card) for card in pending["chosen"])
    return effects.possible(state, effect, where)


class Recorder:
    """Wraps the engine's entry points and effect machinery with ``monkeypatch`` to record
    into ``coverage`` which card's text runs and what each of its effects does.

    Only what the engine looks up in its tables at run time is wrapped (the automatic steps,
    the effect handlers), so the recording works as well on the compiled engine, whose
    modules call each other's functions directly."""

    def __init__(self, coverage: Coverage):
        self.coverage = coverage
        self.playing = ""  # the game or scenario being played, to name it in problems
        self.tactic: str | None = None  # the tactic being played: its frame has no source
        self.used: list[tuple[Text, dict]] = []  # the frames of actions and tactics used
        self.acting: set[int] = set()  # ids of those frames in which some effect acted
        self.seen: dict[int, dict] = {}  # the frames already resolving, by id

    def install(self, patch: pytest.MonkeyPatch) -> None:
        new_game, apply = api.new_game, api.apply
        resolve = api._STEPS["resolve"]

        def starting(decklists, seed, events=None):
            events = [] if events is None else events
            state = new_game(decklists, seed, events)
            self.applied(state, events)
            return state

        def applying(state, action):
            if action.get("kind") == "play_tactic":
                self.tactic = title_of(state, action["card"])
            try:
                events = apply(state, action)
            finally:
                self.tactic = None
            self.applied(state, events)
            return events

        def resolving(state, events):
            # A frame is seen whole the first time it is the one resolving.
            if state.pending and id(state.pending[0]) not in self.seen:
                self.seen[id(state.pending[0])] = state.pending[0]
                self.started(state, state.pending[0])
            resolve(state, events)

        patch.setattr(api, "new_game", starting)
        patch.setattr(api, "apply", applying)
        # The tables are read-only: each is replaced whole by a copy holding the wrappers.
        patch.setattr(api, "_STEPS", MappingProxyType({**api._STEPS, "resolve": resolving}))
        recording = {name: self.recording(handler) for name, handler in effects.EFFECTS.items()}
        patch.setattr(effects, "EFFECTS", MappingProxyType(recording))

    def applied(self, state: api.State, events: list[dict]) -> None:
        for event in events:
            if event["type"] in ("card_played", "tactic_played", "avatar_played", "quest_played"):
                self.coverage.on_playmat.add(title_of(state, event["card"]))
        self.coverage.problems += [
            f"{self.playing}, turn {state.turn}: {problem}"
            for problem in invariant_violations(state, events)
        ]

    def started(self, state, pending: dict) -> None:
        effect_list = [step["primitive"] for step in pending["steps"] if step["kind"] == "effect"]
        text = TEXT_OF_FIRST_EFFECT.get(id(effect_list[0])) if effect_list else None
        if text is None:
            self.coverage.problems.append(f"{self.playing}: text of no card runs: {effect_list}")
            return
        source = pending["source"]
        runs_for = self.tactic if source is None else title_of(state, source)
        if runs_for != text.title:
            self.coverage.problems.append(
                f"{self.playing}: {text.title} ({text.part}) runs for {runs_for}"
            )
        self.coverage.started.add(text)
        if text.is_used:
            self.used.append((text, pending))

    def recording(self, handler):
        def carry_out(state, pending, effect, times, events):
            where = EFFECT_AT.get(id(effect))
            something = has_something_to_act_on(state, pending, effect)
            named = None
            if id(effect) in NAMING_THEM:
                context = effects.context(pending)
                named = select.matching(state, effect["target"], context, affecting=True)
            first_new = len(events)
            result = handler(state, pending, effect, times, events)
            if result is False or where is None:
                return result
            self.coverage.resolved.add(where)
            if something:
                self.acting.add(id(pending))
                self.coverage.acted[where].append({event["type"] for event in events[first_new:]})
            if named is not None and sorted(pending["chosen"]) != sorted(named):
                self.coverage.misread_them[where.text] = (
                    f"effect {where.position} names {titles_of(state, named)}, the next "
                    f"acts on {titles_of(state, pending['chosen'])}"
                )
            return result

        return carry_out

    def game_over(self) -> None:
        """Count the actions and tactics that were used and then did nothing at all."""
        for text, pending in self.used:
            if not pending["steps"] and id(pending) not in self.acting:
                self.coverage.idle[text] += 1
        self.used.clear()
        self.acting.clear()
        self.seen.clear()


def titles_of(state: api.State, cards: list[int]) -> list[str]:
    return [title_of(state, card) for card in cards]


# Random games


class CoverageAgent:
    """Prefers a legal action that uses text not used yet; otherwise any legal action."""

    def __init__(self, seed: int, coverage: Coverage):
        self.random = random.Random(seed)
        self.coverage = coverage

    def choose(self, state: api.State, decision: api.Decision) -> dict:
        fresh = [action for action in decision.actions if self.uses_new_text(state, action)]
        return self.random.choice(fresh or decision.actions)

    def uses_new_text(self, state: api.State, action: dict) -> bool:
        """Accepting a "you may", playing a card not played yet, or using text never carried
        out. Text that ran with nothing to act on is left to chance, which tries it at other
        moments."""
        if action["kind"] == "accept":
            return True
        if action["kind"] not in ("play", "play_tactic", "activate", "apply_ability"):
            return False
        title = title_of(state, action["card"])
        if title not in self.coverage.on_playmat:
            return True
        return any(
            not self.coverage.carried_out(text)
            for text, _ in TEXTS[title]
            if action["kind"] != "activate" or text.part == f"action {action['action']}"
        )


def play_game(coverage: Coverage, decks: tuple[Deck, Deck], seed: int) -> str | None:
    """Play one game to its end; returns what went wrong, if anything."""
    state = api.new_game([deck.decklist for deck in decks], seed)
    agent = CoverageAgent(seed, coverage)
    while state.winner is None and state.turn <= TURN_CAP:
        action = agent.choose(state, api.legal_actions(state))
        try:
            api.apply(state, action)
        except Exception as error:  # noqa: BLE001 (reported with the game and the action)
            return f"turn {state.turn}, {action}: {error!r}"
    return None if state.winner is not None else f"no winner after {TURN_CAP} turns"


def play_games(coverage: Coverage, recorder: Recorder) -> None:
    matchups = [(one, other) for one in DECKS for other in DECKS if one.group != other.group]
    random.Random(SEED).shuffle(matchups)
    for index in range(GAME_CAP):
        uncovered = {title for title in BY_TITLE if coverage.missing(title)}
        # The next matchup that brings an uncovered card, so that no game is wasted.
        decks = next(
            (
                pair
                for pair in matchups[index:] + matchups[:index]
                if uncovered & (pair[0].titles | pair[1].titles)
            ),
            None,
        )
        if decks is None:
            return
        avatars = " v ".join(deck.decklist["avatar"]["title"] for deck in decks)
        recorder.playing = f"game of seed {SEED + index} ({avatars})"
        problem = play_game(coverage, decks, SEED + index)
        if problem is not None:
            coverage.problems.append(f"{recorder.playing}: {problem}")
        recorder.game_over()
        coverage.games += 1


# Scenarios: what random play can't reach, or reaches too rarely


def set_card(title: str) -> dict:
    return card_definition(BY_TITLE[title])


def deck_of(hero: dict, *cards: dict, quests: list[dict] | None = None) -> dict:
    """A scenario decklist of set cards and scenario cards, with the cards they create."""
    return decklist(
        hero, *cards, quests=quests, created=created_cards([*cards, *(quests or [])], BY_TITLE)
    )


def settle(state: api.State, until: str = "main") -> None:
    """Take the plainest legal action (pass, accept, else the first) until a decision of the
    kind ``until``."""
    for _ in range(100):
        decision = api.legal_actions(state)
        if decision.kind == until or state.winner is not None:
            return
        plain = [action for action in decision.actions if action["kind"] in ("pass", "accept")]
        act(state, (plain or decision.actions)[0])
    raise AssertionError(f"the scenario never reached a {until!r} decision")


QUESTER = avatar("Quester", health=30)
GUARD = avatar("Guard", health=30)
SIX_TOKEN_INSIGHT = ability("Six-Token Insight", level=6)
SPENT_MEDITATION = ability("Spent Meditation")
WEARY_TROOPER = unit("Weary Trooper")
TARGET_DUMMY = unit("Target Dummy", health=5)
RAIDER = unit("Raider", attack=2)
SENTINEL = unit("Sentinel", defense=2, health=3)
LATECOMER = unit("Latecomer", defense=2, health=3)


def bring_quest_into_play(state: api.State, seat: int, title: str) -> int:
    """Swap the seat's quest on the playmat for the quest ``title`` of its quest pile; returns
    the quest's index on the playmat."""
    player = state.seats[seat]
    quest_card = next(
        card
        for card in [*player.quest_pile, *(quest.card for quest in state.quests)]
        if title_of(state, card) == title and state.cards[card].owner == seat
    )
    slot = next(
        index
        for index, quest in enumerate(state.quests)
        if state.cards[quest.card].controller == seat
    )
    replaced = state.quests[slot].card
    if replaced == quest_card:
        return slot
    continuous.left_play(state, replaced)
    player.quest_pile[player.quest_pile.index(quest_card)] = replaced
    state.quests[slot].card = quest_card
    rules.enter_play(state, quest_card, seat)
    api.forget_decision(state)
    return slot


def complete_own_quest(title: str) -> None:
    """The first player completes his quest ``title`` with quests left in his pile: the last
    quest of a pile wins the game at once, so in random play a level 6 quest's "when you
    complete" text happens only when the opponent completes it. His avatar and a unit of his
    are exerted (something to ready), and two opposing units stand at the quest (something to
    damage)."""
    quest = BY_TITLE[title]
    starter = [set_card(each) for each in SET["starter_decks"][group_of(quest)]["quests"]]
    pile = [set_card(title), *[each for each in starter if each["level"] != quest["level"]]]
    state = start(
        deck_of(QUESTER, SIX_TOKEN_INSIGHT, WEARY_TROOPER, quests=pile),
        decklist(GUARD, TARGET_DUMMY, TARGET_DUMMY),
    )
    slot = bring_quest_into_play(state, FIRST, title)
    insight = put_into_play(state, FIRST, SIX_TOKEN_INSIGHT["title"])
    put_into_play(state, FIRST, WEARY_TROOPER["title"], at=1 - slot, exerted=True)
    for _ in range(2):
        put_into_play(state, SECOND, TARGET_DUMMY["title"], at=slot)
    keep_hands(state)
    state.cards[state.seats[FIRST].avatar].exerted = True
    api.forget_decision(state)
    act(state, actions.attempt_quest(quest_at(state, slot)))
    settle(state, until="apply_ability")
    act(state, actions.apply_ability(insight))
    settle(state)
    assert title in [title_of(state, card) for card in state.seats[FIRST].completed]


def with_an_ability_exerted(title: str, at: int = 0) -> tuple[api.State, int]:
    """The first player's Main Phase with the card ``title`` on the playmat (a unit at the
    quest of index ``at``) and an ability exerted: the Ready Phase readies every exerted
    ability before the Main Phase, so random play rarely has one there."""
    state = start(deck_of(QUESTER, set_card(title), SPENT_MEDITATION), decklist(GUARD))
    card = put_into_play(state, FIRST, title, at=at)
    spent = put_into_play(state, FIRST, SPENT_MEDITATION["title"])
    keep_hands(state)
    state.cards[spent].exerted = True
    api.forget_decision(state)
    return state, card


def ready_an_exerted_ability(title: str) -> None:
    state, item = with_an_ability_exerted(title)
    act(state, actions.activate(item, 0))
    settle(state)


def ready_an_ability_as_combat_begins(title: str) -> None:
    state, _ = with_an_ability_exerted(title, at=0)
    act(state, actions.raid(quest_at(state, 0)))
    settle(state)


def defend_against_a_ready_raider(title: str) -> None:
    """A defender's ability that exerts an attacking unit, used before the raider exerts for
    its attack."""
    state = start(decklist(QUESTER, RAIDER), deck_of(GUARD, set_card(title)))
    put_into_play(state, FIRST, RAIDER["title"], at=0)
    card = put_into_play(state, SECOND, title)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.pass_())
    act(state, actions.activate(card, 0))
    settle(state)


def defend_with_a_latecomer(title: str) -> None:
    """A defender's tactic that makes a ready unit at the combat's quest join: every unit of
    the defending player at a raided quest defends from the start, so the unit arrives there
    during the combat."""
    state = start(
        decklist(QUESTER, RAIDER),
        deck_of(GUARD, set_card(title), SENTINEL, LATECOMER),
    )
    put_into_play(state, FIRST, RAIDER["title"], at=0)
    put_into_play(state, SECOND, SENTINEL["title"], at=0)
    tactic = put_in_hand(state, SECOND, title)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    put_into_play(state, SECOND, LATECOMER["title"], at=0)
    state.seats[SECOND].power = BY_TITLE[title]["cost"]
    act(state, actions.pass_())
    act(state, actions.play_tactic(tactic))
    settle(state)


def attack_after_exerting(title: str) -> None:
    """An attacker's tactic that readies exerted unit combatants, played once the raiding
    unit has exerted for its attack."""
    state = start(deck_of(QUESTER, set_card(title), RAIDER), decklist(GUARD, SENTINEL))
    raider = put_into_play(state, FIRST, RAIDER["title"], at=0)
    put_into_play(state, SECOND, SENTINEL["title"], at=0)
    tactic = put_in_hand(state, FIRST, title)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(raider, "attack"))
    act(state, actions.pass_())
    act(state, actions.play_tactic(tactic))
    settle(state)


def play_with_friendly_cards_exerted(title: str) -> None:
    """A card whose "when played" text readies friendly cards, played once they have exerted
    in the Main Phase (the Ready Phase readies them before), by a player who has completed two
    quests."""
    state = start(deck_of(QUESTER, set_card(title), WEARY_TROOPER), decklist(GUARD))
    card = put_in_hand(state, FIRST, title)
    trooper = put_into_play(state, FIRST, WEARY_TROOPER["title"])
    complete_quests(state, FIRST, 2)
    keep_hands(state)
    for exerted in (state.seats[FIRST].avatar, trooper):
        state.cards[exerted].exerted = True
    state.seats[FIRST].power = BY_TITLE[title]["cost"]
    api.forget_decision(state)
    act(state, actions.play(card))
    settle(state)


def completion_quests() -> list[str]:
    return [
        card["title"]
        for card in CARDS
        if any(
            trigger["event"] == "quest_completed" for trigger in card["rules"].get("triggers", ())
        )
    ]


SCENARIOS = [
    *[(complete_own_quest, title) for title in completion_quests()],
    (ready_an_exerted_ability, "Holocron of the Ashen Reach"),
    (ready_an_ability_as_combat_begins, "Togruta Sword Dancer"),
    (defend_against_a_ready_raider, "Repulsing Wave"),
    (defend_with_a_latecomer, "Reinforcements Inbound"),
    (defend_with_a_latecomer, "Ambush at the Ridge"),
    (attack_after_exerting, "Rally the Cell"),
    (play_with_friendly_cards_exerted, "Legendary Exploits"),
    (play_with_friendly_cards_exerted, "Inspiring Speech"),
]


def run_scenarios(coverage: Coverage, recorder: Recorder) -> None:
    for scenario, title in SCENARIOS:
        recorder.playing = f"scenario {scenario.__name__}({title!r})"
        try:
            scenario(title)
        except Exception as error:  # noqa: BLE001 (reported with the scenario)
            coverage.problems.append(f"{recorder.playing}: {error!r}")
        recorder.game_over()


@pytest.fixture(scope="module")
def coverage() -> Coverage:
    record = Coverage()
    with pytest.MonkeyPatch.context() as patch:
        recorder = Recorder(record)
        recorder.install(patch)
        run_scenarios(record, recorder)
        play_games(record, recorder)
    return record


# The tests


def test_every_card_of_the_set_is_played_and_all_its_text_acts(coverage):
    uncovered = {title: coverage.missing(title) for title in BY_TITLE if coverage.missing(title)}
    report = "\n".join(f"  {title}: {'; '.join(missing)}" for title, missing in uncovered.items())
    assert not uncovered, (
        f"{len(uncovered)} of {len(BY_TITLE)} cards not covered by {len(SCENARIOS)} "
        f"scenarios and {coverage.games} games:\n{report}"
    )


def test_every_effect_that_has_something_to_act_on_leaves_its_event(coverage):
    failed = []
    for where, runs in coverage.acted.items():
        wanted = CHARACTERISTIC_EVENTS[where.primitive]
        if wanted is None:
            continue
        silent = [run for run in runs if not wanted & run]
        if silent:
            seen = sorted(set().union(*silent))
            failed.append(f"  {where}: {len(silent)} of {len(runs)} runs, events {seen}")
    assert not failed, "effects that acted without their event:\n" + "\n".join(sorted(failed))


def test_an_action_or_tactic_is_usable_only_if_some_part_of_it_can_happen(coverage):
    idle = sorted(
        f"  {text.title} ({text.part}): {times} times" for text, times in coverage.idle.items()
    )
    assert not idle, "used though nothing it does could happen:\n" + "\n".join(idle)


def test_they_and_it_mean_every_card_the_earlier_effect_names(coverage):
    misread = sorted(
        f"  {text.title} ({text.part}): {what}" for text, what in coverage.misread_them.items()
    )
    assert not misread, "'they' is not every card the earlier effect named:\n" + "\n".join(misread)


def test_no_game_breaks_an_invariant_and_text_runs_for_its_own_card(coverage):
    assert not coverage.problems, "\n".join(coverage.problems[:30])


def test_every_effect_primitive_of_the_engine_has_a_characteristic_event():
    assert set(CHARACTERISTIC_EVENTS) == set(effects.EFFECTS)
