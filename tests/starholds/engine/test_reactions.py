"""Reaction cards (rulebook: "Reaction Cards", "Last Reaction Card Played Has Precedence",
"Splash Damage", "Voided Damage", "Voided Card Plays"): only R/ cards react, on an opponent's
turn, or on one's own against a reaction at the cost of a Card Play; every seat is asked, so
nobody learns who holds one."""

from starholds.engine import api, views
from tests.starholds.engine.builders import act, card, kinds, position, ship, terrain

WORLD = terrain("World", 4)


def reaction(title: str, event: str, *effects: dict, card_type: str = "occurrence", **fields):
    return card(
        title,
        card_type,
        fields.pop("strength", 3),
        reaction=True,
        rules={"effects": [{"when": "reaction", "reacts_to": event, "effect": list(effects)}]},
        **fields,
    )


CANCEL = reaction("Countermand", "card_play", {"primitive": "void"})
EVADE = reaction("Hard About", "weapons_fire", {"primitive": "reduce_volley", "amount": 2})


def three_seats(hands: list[list[dict]], phase: str = "play_a", **first) -> api.State:
    fleet = [{"card": WORLD}, {"card": ship("Lancer", 4, phasers=4)}]
    return position(
        [
            {"hand": hands[0], "fleet": fleet, **first},
            {"hand": hands[1], "fleet": [{"card": WORLD}, {"card": ship("Hulk", 8, shields=0)}]},
            {"hand": hands[2], "fleet": [{"card": WORLD}]},
        ],
        phase=phase,
    )


def test_a_card_play_asks_every_other_seat_in_turn_order():
    """Reaction Cards: a card being played can be reacted to; each seat answers react or pass."""
    state = three_seats([[WORLD], [], []])
    api.apply(state, {"kind": "play", "card": state.seats[0].hand[0]})
    asked = []
    while state.window is not None:
        asked.append(api.legal_actions(state).seat)
        api.apply(state, {"kind": "pass"})
    assert asked == [1, 2]
    assert state.cards[state.seats[0].fleet[-1]].zone == "play"


def test_a_voided_card_play_is_discarded_and_its_card_play_spent():
    """Voided Card Plays: a card voided by a reaction is discarded; Card Plays during another
    player's turn do not count for the reacting player."""
    state = three_seats([[WORLD], [CANCEL], []])
    played = state.seats[0].hand[0]
    api.apply(state, {"kind": "play", "card": played})
    events = act(state, {"kind": "react", "card": state.seats[1].hand[0]})
    assert "voided" in kinds(events)
    assert state.cards[played].zone == "discard" and state.seats[0].plays == 1
    assert state.seats[1].plays == 0


def test_the_last_reaction_played_resolves_first():
    """Last Reaction Card Played Has Precedence: a void played last cancels the void before it,
    so the card play stands."""
    state = three_seats([[WORLD], [CANCEL], [CANCEL]])
    played = state.seats[0].hand[0]
    api.apply(state, {"kind": "play", "card": played})
    api.apply(state, {"kind": "react", "card": state.seats[1].hand[0]})
    act(state, {"kind": "react", "card": state.seats[2].hand[0]})
    assert state.cards[played].zone == "play"


def test_on_his_own_turn_a_player_reacts_only_against_a_reaction_and_pays_a_card_play():
    """Reaction Cards: not on your own turn unless reacting to an opponent's reaction; then it
    counts as a Card Play."""
    state = three_seats([[WORLD, CANCEL], [CANCEL], []])
    played, own_cancel = state.seats[0].hand
    api.apply(state, {"kind": "play", "card": played})
    assert api.legal_actions(state).seat == 1
    api.apply(state, {"kind": "react", "card": state.seats[1].hand[0]})
    api.apply(state, {"kind": "pass"})
    decision = api.legal_actions(state)
    assert decision.seat == 0 and {"kind": "react", "card": own_cancel} in decision.actions
    act(state, {"kind": "react", "card": own_cancel})
    assert state.cards[played].zone == "play" and state.seats[0].plays == 2


def test_without_a_reaction_the_active_player_is_not_asked():
    state = three_seats([[WORLD, CANCEL], [], []])
    api.apply(state, {"kind": "play", "card": state.seats[0].hand[0]})
    seats = []
    while state.window is not None:
        seats.append(api.legal_actions(state).seat)
        api.apply(state, {"kind": "pass"})
    assert 0 not in seats


def test_a_reduced_volley_loses_its_damage():
    """Reaction Cards: weapons fire can be reacted to; the volley loses what the card says."""
    state = three_seats([[], [EVADE], []], phase="fire")
    lancer, hulk = state.seats[0].fleet[1], state.seats[1].fleet[1]
    api.apply(state, {"kind": "volley", "card": hulk})
    api.apply(state, {"kind": "add", "card": lancer, "weapon": "phaser"})
    api.apply(state, {"kind": "fire"})
    act(state, {"kind": "react", "card": state.seats[1].hand[0]})
    assert state.cards[hulk].damage == 2


def test_only_the_targeted_player_evades_or_intercepts():
    state = three_seats([[], [], [EVADE]], phase="fire")
    lancer, hulk = state.seats[0].fleet[1], state.seats[1].fleet[1]
    for action in (
        {"kind": "volley", "card": hulk},
        {"kind": "add", "card": lancer, "weapon": "phaser"},
        {"kind": "fire"},
    ):
        api.apply(state, action)
    api.apply(state, {"kind": "pass"})
    assert api.legal_actions(state).actions == [{"kind": "pass"}]


def test_an_interceptor_takes_the_volley_and_the_rest_splashes_onto_the_target():
    """Splash Damage: the reaction card is destroyed first, the remaining damage goes on to the
    original target."""
    guard = reaction(
        "Screen Cutter",
        "weapons_fire",
        {"primitive": "intercept"},
        card_type="ship",
        strength=2,
        cost={},
        shields=1,
    )
    state = three_seats([[], [guard], []], phase="fire")
    lancer, hulk = state.seats[0].fleet[1], state.seats[1].fleet[1]
    for action in (
        {"kind": "volley", "card": hulk},
        {"kind": "add", "card": lancer, "weapon": "phaser"},
        {"kind": "fire"},
    ):
        api.apply(state, action)
    screen = state.seats[1].hand[0]
    act(state, {"kind": "react", "card": screen})
    assert state.cards[screen].zone == "discard"
    assert state.cards[hulk].damage == 1


def test_a_voided_volley_is_lost():
    """Voided Damage: weapons fire made illegal by a reaction is lost."""
    jam = reaction("Jammer", "weapons_fire", {"primitive": "void"})
    state = three_seats([[], [jam], []], phase="fire")
    lancer, hulk = state.seats[0].fleet[1], state.seats[1].fleet[1]
    for action in (
        {"kind": "volley", "card": hulk},
        {"kind": "add", "card": lancer, "weapon": "phaser"},
        {"kind": "fire"},
    ):
        api.apply(state, action)
    act(state, {"kind": "react", "card": state.seats[1].hand[0]})
    assert state.cards[hulk].damage == 0
    assert {"kind": "volley", "card": hulk} not in api.legal_actions(state).actions


def test_point_allocation_can_be_drained():
    """Reaction Cards: point allocation can be reacted to."""
    sap = reaction(
        "Sapper Cloud", "allocation", {"primitive": "drain", "point": "supply", "amount": 2}
    )
    state = position(
        [
            {"fleet": [{"card": WORLD}], "deck": [WORLD] * 4},
            {"hand": [sap], "fleet": [{"card": WORLD}], "deck": [WORLD] * 4},
        ],
        phase="discard",
        active=1,
    )
    api.apply(state, {"kind": "next"})
    assert state.active == 0 and api.legal_actions(state).seat == 1
    act(state, {"kind": "react", "card": state.seats[1].hand[0]})
    assert api.view(state, 0)["points"]["supply"] == 0
    assert api.view(state, 0)["points"]["energy"] == 2


def test_no_view_tells_a_seat_holding_a_reaction_from_one_holding_none():
    """Reaction Cards, hidden holdings: the asking is the same whether a seat holds an R/ card
    or an ordinary card, so every other seat's view and the sequence of deciders match."""

    def course(second_hand: list[dict]) -> list:
        state = three_seats([[WORLD], second_hand, []])
        api.apply(state, {"kind": "play", "card": state.seats[0].hand[0]})
        seen = []
        while state.window is not None:
            seen.append(
                (
                    api.legal_actions(state).seat,
                    api.view(state, 0),
                    api.view(state, 2),
                    views.redact([], 0),
                )
            )
            api.apply(state, {"kind": "pass"})
        return seen

    assert course([CANCEL]) == course([terrain("Waste", 3)])
