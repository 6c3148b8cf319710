"""Possible worlds: full game states a seat cannot tell from the real one (determinisation).

A seat sees its own hand and quest pile, the playmat, the discard piles and the counts of
everything else (``view(state, seat)``). The search agent plays its look-ahead on full states,
so it fills in what it cannot see with a sample that agrees with what it sees:

- every other seat's hand and deck, opponents' and teammates' alike (a player sees only his
  own hand, MULTIPLAYER GAMES): drawn, without replacement, from that seat's *prior* deck
  (the decklist known for its avatar, such as a heroic encounter's boss, or else the starter
  deck of the archetype the avatar shows) less the copies of each card the seat already has
  face up (discard pile, playmat, removed); a deck that strays from the prior is covered by
  drawing with replacement once the prior runs out;
- every other seat's quest pile: the prior's quests not face up yet, the highest levels
  first (the lowest-level quests are played first, so those still in the pile are the
  highest);
- its own deck: its own decklist less its own cards it can see (its own deck's contents are
  known to a player; only their order is not), in a random order;
- the engine's random-number generator: a fresh seed, so future shuffles are not known.

The sample depends only on the view, the seat's own decklist, the priors and the random
generator passed in: never on the real state's hidden cards. Two real states that differ
only in what the seat cannot see give the same possible world. To keep that true even for
the table of card definitions (which lists every card of both decklists), the world has its
own table, built from the cards the agent knows and the cards face up, with every card's
definition number translated to it.

Hidden card ids are anonymous: the ids the seat cannot see (every id not in its view; the
count of cards is public) are dealt to the hidden zones in a random order.
"""

import json
import random
from collections import Counter
from collections.abc import Mapping

from game.engine import printed
from game.engine.state import Card, Combat, CombatSide, Quest, Seat, State, Teams

# The zones a view shows face up for every seat (a seat's own hand and quest pile besides).
_FACE_UP_ZONES = ("discard", "items", "abilities", "completed", "removed")


def clone(state: State) -> State:
    """A copy of ``state`` that shares only what never changes (the card definitions and
    what is worked out from them alone): much faster than ``copy.deepcopy``."""
    copied = _copy(state, state.definitions, [_card(card, card.definition) for card in state.cards])
    copied.caches.index = state.caches.index
    return copied


def _copy(
    state: State,
    definitions: list[dict],
    cards: list[Card],
    seats: list[Seat] | None = None,
    rng: int | None = None,
) -> State:
    """A copy of ``state`` with these definitions and cards and, if given, seats and random
    number generator."""
    if seats is None:
        seats = [
            _seat(seat, list(seat.hand), list(seat.deck), list(seat.quest_pile))
            for seat in state.seats
        ]
    return State(
        definitions=definitions,
        cards=cards,
        seats=seats,
        quests=[_quest(quest) for quest in state.quests],
        rng=state.rng if rng is None else rng,
        first=state.first,
        active=state.active,
        turn=state.turn,
        phase=state.phase,
        step=state.step,
        deciding=state.deciding,
        attempting=state.attempting,
        combat=None if state.combat is None else _combat(state.combat),
        winner=state.winner,
        win_reason=state.win_reason,
        clock=state.clock,
        applied=state.applied,
        lasting=_plain(state.lasting),
        marks=_plain(state.marks),
        statics=list(state.statics),
        listeners=list(state.listeners),
        pending=_plain(state.pending),
        resume=_plain(state.resume),
        teams=None if state.teams is None else _teams(state.teams),
    )


def _teams(teams: Teams) -> Teams:
    """A team game's sides, reach, completions, leavers and boss (MULTIPLAYER GAMES), copied."""
    return Teams(
        sides=[list(side) for side in teams.sides],
        reach=[list(reach) for reach in teams.reach],
        completions=list(teams.completions),
        left=list(teams.left),
        boss=teams.boss,
    )


class CardPool:
    """The printed cards an agent knows before the game: its own decklist and the prior
    decklist of each archetype (``{archetype: decklist}``, e.g. the starter decks), with a
    table of definitions in a fixed order that every possible world starts from."""

    def __init__(self, priors: Mapping[str, dict], own: dict | None = None):
        self.priors = dict(priors)
        self.own = own
        self.definitions: list[dict] = []
        self.number: dict[str, int] = {}
        for decklist in [*([own] if own else []), *(priors[name] for name in sorted(priors))]:
            for card in [
                decklist["avatar"],
                *decklist["quests"],
                *decklist["deck"],
                *decklist.get("created", ()),
            ]:
                self._add(card)

    def _add(self, card: dict) -> int:
        key = _key(card)
        number = self.number.get(key)
        if number is None:
            number = self.number[key] = len(self.definitions)
            self.definitions.append(card)
        return number

    def prior_of(self, avatar: dict) -> dict | None:
        """The decklist expected behind ``avatar``: the one known for that avatar itself (a
        heroic encounter's boss), else the one of its archetype."""
        return self.priors.get(avatar["title"]) or self.priors.get(avatar["archetype"])


class _Table:
    """One world's table of definitions: the pool's, then those of face-up cards the pool
    does not know, in the order of their card ids."""

    def __init__(self, pool: CardPool):
        self.definitions = list(pool.definitions)
        self.number = dict(pool.number)
        # By the identity of a printed card: the decklists' cards are looked up again and
        # again while worlds are dealt, and they live as long as the pool.
        self.seen: dict[int, int] = {}

    def of(self, card: dict) -> int:
        number = self.seen.get(id(card))
        if number is not None:
            return number
        key = _key(card)
        number = self.number.get(key)
        if number is None:
            number = self.number[key] = len(self.definitions)
            self.definitions.append(card)
        self.seen[id(card)] = number
        return number


def _key(card: dict) -> str:
    return json.dumps(card, sort_keys=True, separators=(",", ":"))


def face_up(seen: dict) -> dict[int, dict]:
    """Every card a view shows, by id, with what the view shows of it."""
    cards: dict[int, dict] = {}
    for player in seen["players"]:
        cards[player["avatar"]["id"]] = player["avatar"]
        for zone in ("hand", "quest_pile", *_FACE_UP_ZONES):
            cards.update((card["id"], card) for card in player[zone] or ())
    for quest in seen["quests"]:
        cards[quest["card"]["id"]] = quest["card"]
        for units in quest["units"]:
            cards.update((card["id"], card) for card in units)
    cards.update((card["id"], card) for card in seen["decision"].get("choices", ()))
    return cards


def card_count(seen: dict) -> int:
    """How many cards the game has: each zone is shown or counted, and every card is in
    exactly one zone."""
    total = 0
    for player in seen["players"]:
        total += 1 + player["hand_count"] + player["deck_count"] + player["quest_pile_count"]
        total += sum(len(player[zone]) for zone in _FACE_UP_ZONES)
    for quest in seen["quests"]:
        total += 1 + sum(len(units) for units in quest["units"])
    return total


class Sight:
    """What one seat knows at one decision, worked out once for all the worlds it samples:
    the face-up cards (copied, with their definitions in the world's own table), the hidden
    ids, and what the hidden zones must hold."""

    def __init__(
        self,
        state: State,
        seen: dict,
        pool: CardPool,
        indexes: dict[tuple[str, ...], tuple[list[dict], printed.DefinitionsIndex]] | None = None,
    ):
        self.state = state
        self.seat = seat = seen["viewer"]
        visible = face_up(seen)
        self.total = total = card_count(seen)
        table = _Table(pool)
        # Face-up cards keep their ids and their state on the playmat; their printed text is
        # public. Hidden ids are anonymous: dealt to the hidden zones at random.
        self.cards: list[Card | None] = [None] * total
        for card_id in sorted(visible):
            real = state.cards[card_id]
            self.cards[card_id] = _card(real, table.of(state.definitions[real.definition]))
        self.hidden = [card_id for card_id in range(total) if card_id not in visible]
        mine = seen["players"][seat]

        # The seat's own deck: its decklist less its cards it sees here and there (a search
        # shows some of its deck: those stay in the deck).
        own = pool.own or pool.prior_of(mine["avatar"]) or {"deck": []}
        own_visible = [card for card in visible.values() if card["owner"] == seat]
        self.shown_in_deck = [
            card["id"]
            for card in seen["decision"].get("choices", ())
            if not _in_public_zone(seen, card["id"])
        ]
        self.own_unseen = _less(own["deck"], [card["title"] for card in own_visible])
        self.own_deck_count = mine["deck_count"] - len(self.shown_in_deck)
        # Should the decklist not explain the deck's count (cards created into it, or no
        # decklist known), any card it could hold fills the rest.
        self.own_fallback = (
            own["deck"] or _face_up_deck_cards(state, own_visible) or _deck_cards(table)
        )

        # Every other seat's hand, deck and quest pile, teammates' as well as opponents'
        # (MULTIPLAYER GAMES: a player sees only his own hand), from its avatar's prior.
        self.others = [
            _Unseen.of(state, seen, other, visible, pool, own, table)
            for other in range(len(seen["players"]))
            if other != seat
        ]

        # Every printed card a world may hold is in the table now: freeze it, and work out
        # its index once (``indexes`` remembers it from one decision to the next).
        for card in self.own_fallback:
            table.of(card)
        for other in self.others:
            for card in [*other.unseen, *other.fallback, *other.quests]:
                table.of(card)
        self.table = table
        key = tuple(table.number)
        found: tuple[list[dict], printed.DefinitionsIndex] | None = (
            None if indexes is None else indexes.get(key)
        )
        if found is None:
            holder = State(
                definitions=table.definitions,
                cards=[],
                seats=[],
                quests=[],
                rng=0,
                first=0,
                active=0,
            )
            found = (table.definitions, printed.index(holder))
            if indexes is not None:
                indexes[key] = found
        self.definitions, self.index = found
        self.table.definitions = self.definitions

    def world(self, generator: random.Random) -> State:
        """A possible world: the hidden zones filled at random from what they may hold."""
        state, seat, table = self.state, self.seat, self.table
        cards = [None if card is None else _card(card, card.definition) for card in self.cards]
        hidden = list(self.hidden)
        generator.shuffle(hidden)

        own_unseen = list(self.own_unseen)
        generator.shuffle(own_unseen)
        count = self.own_deck_count
        own_deck = [_deal(hidden, cards, table, seat, card) for card in own_unseen[:count]]
        while len(own_deck) < count:  # more than the decklist explains: created cards
            card = generator.choice(self.own_fallback)
            own_deck.append(_deal(hidden, cards, table, seat, card))
        own_deck += self.shown_in_deck
        generator.shuffle(own_deck)
        hidden_zones = {
            seat: (list(state.seats[seat].hand), own_deck, list(state.seats[seat].quest_pile))
        }
        for other in self.others:
            hidden_zones[other.seat] = other.deal(generator, hidden, cards, table)

        if hidden or any(card is None for card in cards):
            raise RuntimeError("the possible world does not account for every card")
        world = _copy(
            state,
            self.definitions,
            [card for card in cards if card is not None],
            seats=[_seat(real, *hidden_zones[index]) for index, real in enumerate(state.seats)],
            rng=generator.getrandbits(64),
        )
        world.caches.index = self.index
        return world


class _Unseen:
    """What another seat's hidden zones may hold: its hand and deck drawn from ``unseen``
    (its prior less its cards face up), then from ``fallback`` once that runs out, and its
    quest pile."""

    def __init__(
        self,
        seat: int,
        unseen: list[dict],
        fallback: list[dict],
        hand_count: int,
        deck_count: int,
        quests: list[dict],
    ):
        self.seat = seat
        self.unseen = unseen
        self.fallback = fallback
        self.hand_count = hand_count
        self.deck_count = deck_count
        self.quests = quests

    @classmethod
    def of(
        cls,
        state: State,
        seen: dict,
        seat: int,
        visible: dict[int, dict],
        pool: CardPool,
        own: dict,
        table: _Table,
    ) -> "_Unseen":
        player = seen["players"][seat]
        prior = pool.prior_of(player["avatar"])
        their_visible = [card for card in visible.values() if card["owner"] == seat]
        titles = [card["title"] for card in their_visible]
        prior_deck = prior["deck"] if prior else []
        fallback = (
            prior_deck
            or _face_up_deck_cards(state, their_visible)
            or own["deck"]
            or _deck_cards(table)
        )
        prior_quests = (
            prior["quests"] if prior else [card for card in table.definitions if _is_quest(card)]
        )
        quests_left = _less(prior_quests, titles)
        quests_left.sort(key=lambda quest: quest["level"] or 0)
        count = player["quest_pile_count"]
        while quests_left and len(quests_left) < count:
            quests_left.append(quests_left[-1])
        return cls(
            seat,
            _less(prior_deck, titles),
            fallback,
            player["hand_count"],
            player["deck_count"],
            quests_left[len(quests_left) - count :] if count else [],
        )

    def deal(
        self, generator: random.Random, hidden: list[int], cards: list, table: _Table
    ) -> tuple[list[int], list[int], list[int]]:
        """The seat's hand, deck and quest pile in one world."""
        unseen = list(self.unseen)
        generator.shuffle(unseen)
        wanted = self.hand_count + self.deck_count
        while len(unseen) < wanted:
            unseen.append(generator.choice(self.fallback))
        dealt = [_deal(hidden, cards, table, self.seat, card) for card in unseen[:wanted]]
        quests = [_deal(hidden, cards, table, self.seat, quest) for quest in self.quests]
        return dealt[: self.hand_count], dealt[self.hand_count :], quests


def determinise(state: State, seen: dict, pool: CardPool, generator: random.Random) -> State:
    """A possible world for the seat whose view is ``seen`` (``view(state, seat)``).

    Reads from ``state`` only what ``seen`` shows: the zones of face-up cards, the ids and
    printed text of those cards, and the public parts of the game (turn, phase, combat,
    effects resolving). Everything hidden comes from ``pool`` and ``generator``.
    """
    return Sight(state, seen, pool).world(generator)


def _in_public_zone(seen: dict, card_id: int) -> bool:
    """Whether a card offered as a choice lies in a zone the view shows (not the deck)."""
    for player in seen["players"]:
        if player["avatar"]["id"] == card_id:
            return True
        for zone in ("hand", "quest_pile", *_FACE_UP_ZONES):
            if any(card["id"] == card_id for card in player[zone] or ()):
                return True
    return any(
        quest["card"]["id"] == card_id or any(card["id"] == card_id for card in units)
        for quest in seen["quests"]
        for units in quest["units"]
    )


def _less(cards: list[dict], titles: list[str]) -> list[dict]:
    """``cards`` without one copy per title in ``titles`` (what is accounted for)."""
    spent = Counter(titles)
    left = []
    for card in cards:
        if spent[card["title"]] > 0:
            spent[card["title"]] -= 1
        else:
            left.append(card)
    return left


def _deal(hidden: list[int], cards: list, table: _Table, owner: int, printed_card: dict) -> int:
    card_id = hidden.pop()
    cards[card_id] = Card(definition=table.of(printed_card), owner=owner, controller=owner)
    return card_id


def _face_up_deck_cards(state: State, visible: list[dict]) -> list[dict]:
    return [
        state.definitions[state.cards[card["id"]].definition]
        for card in visible
        if card["type"] not in ("avatar", "quest")
    ]


def _is_quest(card: dict) -> bool:
    return card["type"] == "quest"


def _deck_cards(table: _Table) -> list[dict]:
    return [card for card in table.definitions if card["type"] not in ("avatar", "quest")]


def _card(card: Card, definition: int) -> Card:
    # Positional: twice as fast as by keyword, and a clone is mostly its cards
    # (``tests/game/ai`` checks that a clone equals its original field by field).
    return Card(
        definition,
        card.owner,
        card.controller,
        card.exerted,
        card.exerted_for,
        card.damage,
        card.shield,
        card.tokens,
        list(card.removed),
        card.since,
        card.played_turn,
    )


def _seat(seat: Seat, hand: list[int], deck: list[int], quest_pile: list[int]) -> Seat:
    """A copy of the seat's public zones, with these hidden ones."""
    return Seat(
        avatar=seat.avatar,
        quest_pile=quest_pile,
        deck=deck,
        hand=hand,
        discard=list(seat.discard),
        items=list(seat.items),
        abilities=list(seat.abilities),
        completed=list(seat.completed),
        removed=list(seat.removed),
        power=seat.power,
    )


def _quest(quest: Quest) -> Quest:
    return Quest(
        card=quest.card,
        units=[list(units) for units in quest.units],
        tokens=list(quest.tokens),
        raids=quest.raids,
        raids_allowed=quest.raids_allowed,
    )


def _combat(combat: Combat) -> Combat:
    return Combat(
        kind=combat.kind,
        quest=combat.quest,
        sides=[
            CombatSide(
                seat=side.seat,
                combatants=list(side.combatants),
                total=side.total,
                damage=side.damage,
                bonus_exerted=side.bonus_exerted,
                extra_damage=side.extra_damage,
                assigned=list(side.assigned),
            )
            for side in combat.sides
        ],
        resume=combat.resume,
        to_act=combat.to_act,
        passes=combat.passes,
        dealing=list(combat.dealing),
        winner=combat.winner,
        suspended=_plain(combat.suspended),
    )


def _plain(value):
    """A deep copy of JSON-like data (dicts, lists, numbers, strings)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
