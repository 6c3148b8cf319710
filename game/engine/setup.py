"""SETTING UP A GAME: the card table, the opening of the game, and redrawing a hand."""

from collections.abc import Mapping
from copy import copy
from types import MappingProxyType
from typing import Any, cast

from game.engine import actions, rng, rules
from game.engine.errors import InvalidDecklist
from game.engine.rules import DecisionRules, Events
from game.engine.state import Card, Seat, State, Teams, is_boss
from game.engine.vocabulary import DECK_TYPES

OPENING_HAND = 6
REDRAW_DAMAGE = 1

# The printed parts of a card the engine reads; anything else in a definition is left out.
DEFINITION_FIELDS: Mapping[str, Any] = MappingProxyType(
    {
        "title": None,
        "type": None,
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
    }
)


# The team games of the rulebook: two sides of this many seats each (Creating a Match, "Number
# of Players": "the normal game for 2 players, or a multiplayer 2-versus-2 team game").
SIDE_SIZES = (1, 2)
# A Four-man Heroic Encounter: four heroes against one boss (MULTIPLAYER GAMES).
HEROES = 4
# The quest locations each hero has in reach, left to right on the playmat: "In a 4-versus-1
# game, the players to the far left and right begin the game with only one quest in reach"
# (MULTIPLAYER GAMES, "Quests").
HEROES_REACH = ((0,), (0, 1), (1, 2), (2,))
QUEST_LOCATIONS = 3


def seated(decklists: list) -> tuple[list[dict], Teams | None]:
    """The decklists by seat, and the teams of a team game, from ``new_game``'s decklists:
    one per seat for a two-player game, or the two sides' lists of decklists.

    A team game's seats alternate sides in turn order: the first decklist of each side, then
    the second of each (MULTIPLAYER GAMES; TURN SEQUENCE: "Players alternate back and
    forth"). Each seat has two of the three quest locations in reach: the first seat of a
    side the two on its left, the second the two on its right (MULTIPLAYER GAMES, "Quests").

    A heroic encounter, four heroes' decklists then the boss's (``[[a, b, c, d], [boss]]``),
    seats the heroes 0 to 3 left to right and the boss 4, in that turn order; the boss has
    every quest in reach ("Single-Player Team (the 'boss')").
    """
    if not decklists or not all(isinstance(each, list) for each in decklists):
        if len(decklists) != 2 or not all(isinstance(each, dict) for each in decklists):
            raise InvalidDecklist(
                "a game needs two decklists, or two sides each a list of decklists"
            )
        return decklists, None
    if len(decklists) != 2:
        raise InvalidDecklist(f"a game is a contest of two sides, not {len(decklists)}")
    if not all(isinstance(each, dict) for side in decklists for each in side):
        raise InvalidDecklist("each side is a list of decklists")
    size = len(decklists[0])
    if (size, len(decklists[1])) == (HEROES, 1):
        return [*decklists[0], decklists[1][0]], _encounter_teams()
    if size != len(decklists[1]) or size not in SIDE_SIZES:
        raise InvalidDecklist(
            f"the sides are of {len(decklists[0])} and {len(decklists[1])} players: a game is "
            "one player against one, two against two, or four heroes against a boss"
        )
    if size == 1:
        return [decklists[0][0], decklists[1][0]], None
    by_seat = [side[place] for place in range(size) for side in decklists]
    teams = Teams(
        sides=[list(range(index, len(by_seat), 2)) for index in range(2)],
        reach=[[place, place + 1] for place in range(size) for _ in range(2)],
        completions=[0] * QUEST_LOCATIONS,
    )
    return by_seat, teams


def _encounter_teams() -> Teams:
    heroes = list(range(HEROES))
    return Teams(
        sides=[heroes, [HEROES]],
        reach=[*[list(within) for within in HEROES_REACH], list(range(QUEST_LOCATIONS))],
        completions=[0] * QUEST_LOCATIONS,
        boss=HEROES,
    )


def create_state(decklists: list, seed: int, check_created: bool = True) -> State:
    """The state before the game opens: every card with an id, in its owner's zones.

    ``decklists`` as ``new_game`` takes them (``seated``). Card ids follow the seats'
    decklists (avatar, quests, then deck), before any shuffle, so an id tells nothing about
    where a card lies in a deck. ``check_created=False`` leaves out the check that every
    card a card can create comes with the decklists, which walks every card's text: for
    decklists already checked.
    """
    decklists, teams = seated(decklists)
    definitions: list[dict] = []
    index_of: dict[str, list[int]] = {}
    # A decklist usually repeats one dict per copy of a card; look each dict up only once.
    index_of_dict: dict[int, int] = {}
    cards: list[Card] = []

    def add(seat: int, card_definition: dict, expected_types: tuple[str, ...]) -> int:
        index = index_of_dict.get(id(card_definition))
        if index is None:
            index = _definition_index(card_definition, expected_types, definitions, index_of)
            index_of_dict[id(card_definition)] = index
        elif definitions[index]["type"] not in expected_types:
            _refuse(definitions[index], expected_types)
        cards.append(Card(definition=index, owner=seat, controller=seat))
        return len(cards) - 1

    seats = []
    for seat, decklist in enumerate(decklists):
        if not decklist.get("quests"):
            raise InvalidDecklist(f"seat {seat} has no quest pile")
        seats.append(
            Seat(
                avatar=add(seat, decklist["avatar"], ("avatar",)),
                quest_pile=[add(seat, quest, ("quest",)) for quest in decklist["quests"]],
                deck=[add(seat, card, DECK_TYPES) for card in decklist["deck"]],
            )
        )
    for decklist in decklists:
        for card_definition in decklist.get("created", ()):
            _definition_index(card_definition, DECK_TYPES, definitions, index_of)
    if check_created:
        _check_created_cards(definitions)
    return State(
        definitions=definitions,
        cards=cards,
        seats=seats,
        quests=[],
        rng=rng.seed_state(seed),
        first=0,
        active=0,
        teams=teams,
    )


def _definition_index(
    card_definition: dict,
    expected_types: tuple[str, ...],
    definitions: list[dict],
    index_of: dict[str, list[int]],
) -> int:
    """The index of the card's printed fields in ``definitions``, added if new: the same
    title with other printed fields is another definition."""
    # A copy of an empty default: the table's own lists and dicts are shared by every game.
    printed = {
        key: card_definition[key] if key in card_definition else copy(empty)
        for key, empty in DEFINITION_FIELDS.items()
    }
    if printed["type"] not in expected_types:
        _refuse(printed, expected_types)
    same_title = index_of.setdefault(printed["title"], [])
    for index in same_title:
        if definitions[index] == printed:
            return index
    same_title.append(len(definitions))
    definitions.append(printed)
    return len(definitions) - 1


def created_titles(printed: dict) -> set[str]:
    """The titles of the cards a card's text creates (smuggle, create_card)."""
    found = set()
    for keyword in printed["rules"].get("keywords", ()):
        if keyword["keyword"] == "smuggle":
            found.add(keyword["card"])
    pending = [printed["rules"]]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            if value.get("primitive") == "create_card":
                found.add(value["card"])
            pending += [item for item in value.values() if isinstance(item, dict | list)]
        elif isinstance(value, list):
            pending += [item for item in value if isinstance(item, dict | list)]
    return found


def _check_created_cards(definitions: list[dict]) -> None:
    """Every card a card can create must come with the decklist (its ``created`` cards)."""
    titles = {printed["title"] for printed in definitions}
    for printed in definitions:
        missing = created_titles(printed) - titles
        if missing:
            raise InvalidDecklist(
                f"{printed['title']!r} creates {', '.join(sorted(missing))}: add it to the "
                "decklist's created cards"
            )


def _refuse(printed: dict, expected_types: tuple[str, ...]) -> None:
    expected = " or ".join(expected_types)
    raise InvalidDecklist(f"{printed['title']!r} is a {printed['type']}, not {expected}")


def open_game(state: State, events: Events, first: int | None = None) -> None:
    """The five things that happen as soon as the players enter the game, then the offer to
    redraw, starting with the first player (SETTING UP A GAME): chosen at random, or
    ``first`` when the match chose (a later game of a match). The random draw is made either
    way, so the choice leaves the shuffles alone."""
    drawn = rng.below(state, len(state.seats))
    state.first = state.active = drawn if first is None else first
    events.append({"type": "first_player", "seat": state.first})
    for seat, player in enumerate(state.seats):
        rules.enter_play(state, player.avatar, seat)
        events.append({"type": "avatar_played", "seat": seat, "card": player.avatar})
    fourth = fourth_player(state)
    for seat in range(len(state.seats)):
        if seat == fourth:
            remove_level_2_quest(state, seat, events)
        elif not is_boss(state, seat):
            # The boss's quests wait in his pile: the heroes' three are in play.
            rules.play_next_quest(state, seat, events)
    for seat, player in enumerate(state.seats):
        player.deck = rng.shuffle(state, player.deck)
        events.append({"type": "deck_shuffled", "seat": seat})
    for seat in _turn_order(state):
        rules.draw(state, seat, events, opening_hand(state, seat))
    rules.ask(state, "redraw", state.first)


def _turn_order(state: State) -> list[int]:
    count = len(state.seats)
    return [(state.first + offset) % count for offset in range(count)]


def fourth_player(state: State) -> int | None:
    """The fourth player in turn order of a four-player game: "There are always three quests
    in play in a multiplayer game. In any four-player game, the fourth player's level 2
    quest is removed from the game, and that player draws an extra card for his hand"
    (MULTIPLAYER GAMES, "Quests"). ``fourth_seat`` says who that is."""
    teams = state.teams
    return fourth_seat(len(state.seats), state.first, None if teams is None else teams.boss)


def fourth_seat(seats: int, first: int, boss: int | None = None) -> int | None:
    """The seat of the fourth player in turn order from ``first`` in a game of ``seats``
    seats; None in a two-player game. A Four-man Heroic Encounter's four players are its
    heroes (the boss is "a computer AI opponent", glossary, "heroic encounter"), and the
    fourth hero to take a turn loses his level 2 quest, whichever seat that is: the extra
    card makes up for coming last, as in a team game (docs/rule-choices.md)."""
    players = [(first + offset) % seats for offset in range(seats)]
    players = [seat for seat in players if seat != boss]
    return players[3] if len(players) == 4 else None


def opening_hand(state: State, seat: int) -> int:
    """Six cards, and the fourth player of a four-player game one more (``fourth_player``)."""
    return OPENING_HAND + 1 if seat == fourth_player(state) else OPENING_HAND


def remove_level_2_quest(state: State, seat: int, events: Events) -> None:
    """The fourth player's level 2 quest is removed from the game (``fourth_player``)."""
    player = state.seats[seat]
    quest = min(player.quest_pile, key=lambda card: rules.value(state, card, "level"))
    player.quest_pile.remove(quest)
    player.removed.append(quest)
    events.append({"type": "quest_removed", "seat": seat, "card": quest})


# Redraw Your Hand: each player once, in turn order from the first player.


def _keep(state: State, action: actions.Action, events: Events) -> None:
    events.append({"type": "hand_kept", "seat": state.deciding})
    _offer_next_redraw(state)


def _redraw(state: State, action: actions.Action, events: Events) -> None:
    seat = cast(int, state.deciding)
    player = state.seats[seat]
    player.deck = rng.shuffle(state, player.deck + player.hand)
    player.hand = []
    events.append({"type": "hand_redrawn", "seat": seat})
    rules.draw(state, seat, events, opening_hand(state, seat))
    rules.deal_damage(state, player.avatar, REDRAW_DAMAGE, events)
    rules.destroy_defeated(state, [], events)
    _offer_next_redraw(state)


def _offer_next_redraw(state: State) -> None:
    following = rules.next_seat(state, cast(int, state.deciding))
    if following == state.first:
        state.step = "start_turn"
        state.deciding = None
    else:
        rules.ask(state, "redraw", following)


DECISIONS: Mapping[str, DecisionRules] = MappingProxyType(
    {
        "redraw": DecisionRules(
            prompt=lambda state: (
                "Keep your opening hand, or redraw it: your avatar is dealt 1 damage."
            ),
            legal=lambda state: [actions.keep(), actions.redraw()],
            handlers={"keep": _keep, "redraw": _redraw},
        )
    }
)
