"""SETTING UP A GAME, and Redraw Your Hand."""

from types import SimpleNamespace

from game.engine import actions, api, rng
from game.engine.shuffle import shuffled
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    avatar,
    decklist,
    kinds,
    start,
    unit,
)

ANA = decklist(avatar("Ana", health=20), unit("Trooper"))
BO = decklist(avatar("Bo", health=20), unit("Trooper"))


def test_setting_up_a_game_the_first_player_is_determined_randomly():
    firsts = {api.new_game([ANA, BO], seed).first for seed in range(20)}

    assert firsts == {0, 1}
    assert api.new_game([ANA, BO], 7).first == api.new_game([ANA, BO], 7).first


def test_setting_up_a_game_each_avatar_and_level_2_quest_is_played():
    state = api.new_game([ANA, BO], seed=3)

    for seat, player in enumerate(state.seats):
        assert state.cards[player.avatar].owner == seat
        assert [
            state.definitions[state.cards[q].definition]["level"] for q in player.quest_pile
        ] == [
            4,
            5,
            6,
        ]
    played = [state.definitions[state.cards[quest.card].definition] for quest in state.quests]
    assert [(quest["title"], quest["level"]) for quest in played] == [
        ("Ana's Quest 2", 2),
        ("Bo's Quest 2", 2),
    ]


def test_setting_up_a_game_decks_are_shuffled_from_the_states_own_random_numbers():
    seed = 11
    fresh = api.new_game([ANA, BO], seed)
    generator = SimpleNamespace(rng=rng.seed_state(seed))
    rng.next_u64(generator)  # the first player is decided first
    unshuffled = [list(range(5, 5 + 21)), list(range(31, 31 + 21))]

    expected = [shuffled(cards, rng.next_u64(generator)) for cards in unshuffled]

    dealt = [player.hand + player.deck for player in fresh.seats]
    assert dealt == expected


def test_setting_up_a_game_each_player_draws_a_hand_of_six_cards():
    state = api.new_game([ANA, BO], seed=5)

    assert [len(player.hand) for player in state.seats] == [6, 6]
    assert [len(player.deck) for player in state.seats] == [15, 15]


def test_redraw_your_hand_starts_with_the_first_player():
    state = start(ANA, BO, first=SECOND)

    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (SECOND, "redraw")
    assert decision.actions == [actions.keep(), actions.redraw()]


def test_redraw_your_hand_deals_one_damage_to_the_avatar_and_draws_six_new_cards():
    state = start(ANA, BO)
    avatar_card = state.seats[FIRST].avatar

    events = api.apply(state, actions.redraw())

    assert state.cards[avatar_card].damage == 1
    assert len(state.seats[FIRST].hand) == 6
    assert len(state.seats[FIRST].deck) == 15
    assert [event["type"] for event in events].count("draw") == 6


def test_redraw_your_hand_only_once_per_player_then_the_first_players_turn_begins():
    state = start(ANA, BO)

    api.apply(state, actions.redraw())
    second = api.legal_actions(state)
    api.apply(state, actions.redraw())
    after = api.legal_actions(state)

    assert (second.seat, second.kind) == (SECOND, "redraw")
    assert (state.turn, state.active) == (1, FIRST)
    assert after.kind == "main"
    assert "redraw" not in kinds(after)
