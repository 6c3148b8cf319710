"""Builders for scenario tests that read like the rulebook.

Cards are defined inline with only the numbers a test cares about. ``position`` sets up a game
at a moment of play through the engine's position builder (``game.engine.positions``): each
``seat`` says what its player has in hand and on the playmat, and the game waits for the active
player's Quest or Main Phase decision; ``the`` finds a card's id by its title.

Older tests use ``start``, which sets up a new game in which the chosen seat goes first and
stops at the first player's redraw decision: the test moves the cards it needs out of the deck,
then ``keep_hands`` begins the first turn.
"""

from game.engine import api, rules
from game.engine.positions import Placed, Position, SeatSetup, build, card_ids
from game.engine.state import State

FIRST, SECOND = 0, 1
QUEST_LEVELS = (2, 4, 5, 6)


def _card(title: str, kind: str, **printed) -> dict:
    return {
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
        "rules": {},
        **printed,
    }


# Every builder takes the other printed fields too: rules={...} (docs/card-rules.md),
# traits=[...], archetype="...", health=... on a starship item.


def avatar(title: str, *, attack=1, defense=1, damage_bonus=1, health=20, **printed) -> dict:
    return _card(
        title,
        "avatar",
        attack=attack,
        defense=defense,
        damage_bonus=damage_bonus,
        health=health,
        **printed,
    )


def quest(title: str, level: int, **printed) -> dict:
    return _card(title, "quest", level=level, **printed)


def unit(title: str, *, cost=1, attack=1, defense=1, damage_bonus=0, health=2, **printed) -> dict:
    return _card(
        title,
        "unit",
        cost=cost,
        attack=attack,
        defense=defense,
        damage_bonus=damage_bonus,
        health=health,
        **printed,
    )


def ability(title: str, *, cost=1, defense=None, level=None, **printed) -> dict:
    return _card(title, "ability", cost=cost, defense=defense, level=level, **printed)


def item(
    title: str,
    *,
    cost=1,
    attack=None,
    defense=None,
    damage_bonus=None,
    restriction="",
    **printed,
) -> dict:
    return _card(
        title,
        "item",
        cost=cost,
        attack=attack,
        defense=defense,
        damage_bonus=damage_bonus,
        restriction=restriction,
        **printed,
    )


def tactic(title: str, *, cost=0, play=None) -> dict:
    """A tactic; by default "{attack}{defend} +1 to your total"."""
    if play is None:
        play = {
            "timing": ["attack", "defend"],
            "condition": None,
            "effect": [{"primitive": "add_total", "player": "you", "amount": 1}],
        }
    return _card(title, "tactic", cost=cost, rules={"play": play})


# Fills a deck; it costs too much to ever be played, so it never adds a legal action.
BYSTANDER = unit("Distant Bystander", cost=99)


def decklist(
    hero: dict,
    *cards: dict,
    bystanders: int = 20,
    quests: list[dict] | None = None,
    created: list[dict] = (),
) -> dict:
    """A decklist for ``hero`` with quests of levels 2, 4, 5 and 6 (or ``quests``), the given
    cards and some unplayable bystanders; ``created``: the cards its cards can create."""
    if quests is None:
        quests = quests_of(hero)
    return {
        "avatar": hero,
        "quests": quests,
        "deck": [*cards, *[BYSTANDER] * bystanders],
        "created": list(created),
    }


def quests_of(hero: dict) -> list[dict]:
    """A quest pile of levels 2, 4, 5 and 6 named after the hero, as ``decklist`` makes it."""
    return [quest(f"{hero['title']}'s Quest {level}", level) for level in QUEST_LEVELS]


def seat(
    hero: dict,
    *,
    hand: tuple[dict, ...] = (),
    playmat: tuple[Placed | dict, ...] = (),
    bystanders: int = 20,
    **setup,
) -> SeatSetup:
    """The hero's seat in a ``position``: a card on the ``playmat`` is a ``Placed`` or, for an
    item or an ability as it is, its card; the deck holds some unplayable bystanders."""
    return SeatSetup(
        avatar=hero,
        quests=setup.pop("quests", None) or quests_of(hero),
        hand=hand,
        playmat=tuple(card if isinstance(card, Placed) else Placed(card) for card in playmat),
        deck=(BYSTANDER,) * bystanders,
        **setup,
    )


def at(card: dict, quest: int, **placed) -> Placed:
    """A unit at the quest of index ``quest`` (exerted=..., damage=..., ...)."""
    return Placed(card, quest=quest, **placed)


def position(first_seat: SeatSetup, second_seat: SeatSetup, **game) -> State:
    """The game in that position (``first``, ``turn``, ``phase``: see ``positions.Position``),
    waiting for the active player's decision."""
    return build(Position(seats=(first_seat, second_seat), **game))


def team_position(*seats: SeatSetup, **game) -> State:
    """A 2-versus-2 team game in that position: four seats in turn order, seats 0 and 2
    against 1 and 3 (``positions.Position``)."""
    return build(Position(seats=seats, **game))


def the(state: State, seat: int, title: str) -> int:
    """The id of the seat's one card titled ``title``."""
    (card,) = card_ids(state, seat, title)
    return card


def start(first_deck: dict, second_deck: dict, *, first: int = FIRST) -> State:
    """A new game (``first_deck`` in seat 0) whose first player is ``first``, waiting for the
    redraw decisions."""
    for seed in range(100):
        state = api.new_game([first_deck, second_deck], seed)
        if state.first == first:
            return state
    raise AssertionError("no seed makes that seat go first")


def keep_hands(state: State) -> list[dict]:
    """Both players keep their opening hands; the first turn begins."""
    events = []
    while state.step == "redraw":
        events += api.apply(state, {"kind": "keep"})
    return events


def act(state: State, action: dict) -> list[dict]:
    return api.apply(state, action)


def end_turn(state: State) -> list[dict]:
    """Done with the Main Phase, discarding down to the hand limit if needed."""
    events = api.apply(state, {"kind": "done"})
    while state.step == "discard":
        events += api.apply(state, api.legal_actions(state).actions[0])
    return events


def card_named(state: State, seat: int, title: str, zone: str = "deck") -> int:
    """A card of ``seat`` titled ``title`` in one of its zones (a Seat attribute)."""
    for card in getattr(state.seats[seat], zone):
        if titled(state, card) == title:
            return card
    raise AssertionError(f"no {title!r} in seat {seat}'s {zone}")


def titled(state: State, card: int) -> str:
    return state.definitions[state.cards[card].definition]["title"]


def titles(state: State, cards: list[int]) -> list[str]:
    return [titled(state, card) for card in cards]


def _take(state: State, seat: int, title: str) -> int:
    """Take a card out of the seat's deck or, if it was dealt in the opening hand, out of the
    hand (the top card of the deck takes its place, so the hand keeps its size)."""
    player = state.seats[seat]
    for card in player.deck:
        if titled(state, card) == title:
            player.deck.remove(card)
            return card
    card = card_named(state, seat, title, "hand")
    player.hand[player.hand.index(card)] = player.deck.pop(0)
    return card


def put_in_hand(state: State, seat: int, title: str) -> int:
    """Move a card of the seat's deck into its hand."""
    card = _take(state, seat, title)
    state.seats[seat].hand.append(card)
    api.forget_decision(state)
    return card


def put_into_play(
    state: State, seat: int, title: str, *, at: int = 0, exerted: bool = False, damage: int = 0
) -> int:
    """Move a card of the seat's deck onto the playmat; a unit goes to the quest of index
    ``at``."""
    card = _take(state, seat, title)
    player = state.seats[seat]
    kind = state.definitions[state.cards[card].definition]["type"]
    zone = {"item": player.items, "ability": player.abilities}.get(kind)
    if zone is None:
        zone = state.quests[at].units[seat]
    zone.append(card)
    rules.enter_play(state, card, seat)
    api.forget_decision(state)
    state.cards[card].exerted = exerted
    state.cards[card].damage = damage
    return card


def complete_quests(state: State, seat: int, count: int) -> None:
    """Record that ``seat`` has completed ``count`` quests (taken from its quest pile)."""
    player = state.seats[seat]
    for _ in range(count):
        player.completed.append(player.quest_pile.pop(0))


def quest_at(state: State, index: int) -> int:
    """The card id of the quest at index ``index`` of the playmat."""
    return state.quests[index].card


def kinds(decision) -> set[str]:
    return {action["kind"] for action in decision.actions}
