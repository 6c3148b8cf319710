"""Decks and set-up (rulebook: "Deck Construction", "Using Major Empire Cards", "Using Minor
Empire Cards", "Reserve Fleet Restrictions", "Set-Up", "The Ante"; docs/starholds/choices.md,
"Decks")."""

import pytest

from starholds.engine import api, decks
from tests.starholds.engine.builders import card, decklist, ship, simple_deck, terrain


def test_a_simple_deck_is_legal():
    assert decks.deck_problems(simple_deck(), 4) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda deck: deck["deck"].__setitem__(slice(0, 1), []), "at least 40 cards"),
        (lambda deck: deck["deck"].append(terrain("World 0", 3)), "at most 3 of 'World 0'"),
        (
            lambda deck: deck["deck"].append(ship("Oru Spear", 3, empire="oru")),
            "another major empire",
        ),
        (
            lambda deck: deck["deck"].extend([ship("Keth Raider", 3, empire="keth")] * 2),
            "2 minor empire ship cards need 8",
        ),
        (lambda deck: deck["reserve"].extend([terrain("Moon", 2)] * 3), "at most 2 cards"),
        (
            lambda deck: deck["reserve"].append(terrain("Reserve Depot", 2)),
            "'Reserve Depot' may not start",
        ),
        (
            lambda deck: deck["deck"].extend([card("Titan", "ship", 10, cost={})] * 2),
            "at most 1 of 'Titan'",
        ),
    ],
)
def test_the_deck_rules(change, message):
    """Deck Construction: copies, major empire cards, one minor empire card per four of its
    type (generic ships do not count), the reserve fleet's size and restrictions."""
    deck = simple_deck()
    change(deck)
    problems = decks.deck_problems(deck, 2)
    assert any(message in problem for problem in problems), problems


def test_generic_ships_do_not_support_minor_empire_ships():
    """Using Minor Empire Cards: generic ships do not count."""
    deck = decklist([terrain(f"World {index}", 4) for index in range(14) for _ in range(3)])
    deck["deck"] += [ship(f"Hauler {index}", 2) for index in range(4)]
    deck["deck"].append(ship("Keth Raider", 3, empire="keth"))
    assert any("minor empire ship" in problem for problem in decks.deck_problems(deck, 2))
    deck["deck"] += [
        ship(
            f"Varn Picket {index}", 2, empire="varn", shields=0, system={"kind": "armor", "max": 1}
        )
        for index in range(4)
    ]
    assert decks.deck_problems(deck, 2) == []


def test_new_game_refuses_an_illegal_deck():
    with pytest.raises(api.InvalidDecklist, match="seat 1: a deck holds at least 40"):
        api.new_game([simple_deck(), decklist([terrain()])], 1)


def test_the_highest_ante_goes_first_and_each_ante_starts_its_discard_pile():
    """The Ante: highest strength first, ties by a die roll; the ante becomes the first card of
    the Discard Pile; then everyone draws 9 (Set-Up)."""
    events: list[dict] = []
    state = api.new_game([simple_deck() for _ in range(4)], 12, events=events)
    antes = {event["seat"]: event["card"] for event in events if event["type"] == "ante"}
    strengths = [
        state.definitions[state.cards[antes[seat]].definition]["strength"] for seat in state.order
    ]
    assert strengths == sorted(strengths, reverse=True)
    assert all(state.seats[seat].discard == [antes[seat]] for seat in range(4))
    assert all(len(player.hand) == 9 for player in state.seats)
    assert state.active == state.order[0]


def test_tied_antes_are_decided_by_a_seeded_die():
    """The Ante: ties resolved by die roll, the same for the same seed."""
    orders = {
        tuple(api.new_game([simple_deck() for _ in range(6)], seed).order) for seed in range(12)
    }
    assert len(orders) > 1
    again = [api.new_game([simple_deck() for _ in range(6)], 5).order for _ in range(2)]
    assert again[0] == again[1]


def test_reserve_fleets_are_turned_up_for_everyone():
    """Set-Up: after the ante, all players expose their reserve fleets."""
    deck = simple_deck()
    deck["reserve"] = [terrain("Moon", 2)]
    state = api.new_game([deck, simple_deck()], 3)
    seen = api.view(state, 1)["seats"][0]["reserve"]
    assert [shown["title"] for shown in seen] == ["Moon"]


def test_twelve_players_may_sit_down():
    """Players: 2 to 12."""
    state = api.new_game([simple_deck() for _ in range(12)], 1)
    assert len(state.order) == 12
    with pytest.raises(api.InvalidDecklist):
        api.new_game([simple_deck() for _ in range(13)], 1)
