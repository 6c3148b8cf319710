"""READY PHASE and MAIN PHASE: playing cards, power, the ability limit, restrictions, raids,
and the hand limit when the phase ends."""

from game.engine import actions, api
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    decklist,
    end_turn,
    item,
    keep_hands,
    kinds,
    put_in_hand,
    put_into_play,
    quest_at,
    start,
    tactic,
    unit,
)

JASON = decklist(
    avatar("Jason", defense=2),
    unit("Trooper", cost=1),
    unit("Scout", cost=1),
    unit("Walker", cost=4),
    unit("Rookie", cost=2),
    ability("Lore", cost=0),
    ability("Insight", cost=0),
    ability("Wisdom", cost=0),
    ability("Patience", cost=0),
    item("Old Blaster", cost=1, attack=1, restriction="weapon"),
    item("New Blaster", cost=1, attack=2, restriction="weapon"),
    item("Toolkit", cost=1),
    tactic("Sudden Volley", cost=2),
)
TYLER = decklist(
    avatar("Tyler", defense=1),
    unit("Guard", defense=1, health=3),
    unit("Raider", attack=2),
    tactic("Brace", cost=2),
)


def test_ready_phase_readies_every_exerted_card():
    state = start(JASON, TYLER)
    lore = put_into_play(state, FIRST, "Lore", exerted=True)
    blaster = put_into_play(state, FIRST, "Old Blaster", exerted=True)
    trooper = put_into_play(state, FIRST, "Trooper", at=1, exerted=True)

    events = keep_hands(state)

    assert {"type": "readied", "seat": FIRST, "cards": [blaster, lore, trooper]} in events
    assert not any(state.cards[card].exerted for card in (lore, blaster, trooper))


def test_main_phase_a_unit_is_played_to_the_quest_of_the_players_choice():
    state = start(JASON, TYLER)
    trooper = put_in_hand(state, FIRST, "Trooper")
    keep_hands(state)
    decision = api.legal_actions(state)
    assert actions.play(trooper, quest_at(state, 0)) in decision.actions
    assert actions.play(trooper, quest_at(state, 1)) in decision.actions

    act(state, actions.play(trooper, quest_at(state, 1)))

    assert state.quests[1].units[FIRST] == [trooper]
    assert state.seats[FIRST].power == 2


def test_main_phase_a_card_that_costs_more_than_the_power_left_cant_be_played():
    state = start(JASON, TYLER)
    walker = put_in_hand(state, FIRST, "Walker")
    rookie = put_in_hand(state, FIRST, "Rookie")
    scout = put_in_hand(state, FIRST, "Scout")
    keep_hands(state)
    cards_playable = {action.get("card") for action in api.legal_actions(state).actions}
    assert walker not in cards_playable

    act(state, actions.play(scout, quest_at(state, 0)))
    act(state, actions.play(put_in_hand(state, FIRST, "Trooper"), quest_at(state, 0)))

    cards_playable = {action.get("card") for action in api.legal_actions(state).actions}
    assert state.seats[FIRST].power == 1
    assert rookie not in cards_playable


def test_main_phase_power_left_over_can_be_spent_in_the_opponents_turn():
    """Power kept at the end of Jason's turn pays for a tactic when Tyler raids him."""
    state = start(JASON, TYLER)
    volley = put_in_hand(state, FIRST, "Sudden Volley")
    raider = put_into_play(state, SECOND, "Raider", at=0)
    keep_hands(state)
    end_turn(state)
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(raider, "attack"))

    decision = api.legal_actions(state)
    act(state, actions.play_tactic(volley))

    assert (decision.seat, decision.kind) == (FIRST, "combat_action")
    assert actions.play_tactic(volley) in decision.actions
    assert state.seats[FIRST].power == 1
    assert volley in state.seats[FIRST].discard


def test_main_phase_the_ability_limit_is_three():
    state = start(JASON, TYLER)
    for title in ("Lore", "Insight", "Wisdom"):
        put_into_play(state, FIRST, title)
    patience = put_in_hand(state, FIRST, "Patience")
    toolkit = put_in_hand(state, FIRST, "Toolkit")
    keep_hands(state)

    decision = api.legal_actions(state)

    assert actions.play(patience) not in decision.actions
    assert actions.play(toolkit) in decision.actions


def test_main_phase_a_card_with_the_same_restriction_destroys_the_old_one_and_draws():
    state = start(JASON, TYLER)
    old = put_into_play(state, FIRST, "Old Blaster")
    new = put_in_hand(state, FIRST, "New Blaster")
    keep_hands(state)
    top_card = state.seats[FIRST].deck[0]

    events = act(state, actions.play(new))

    assert state.seats[FIRST].items == [new]
    assert old in state.seats[FIRST].discard
    assert top_card in state.seats[FIRST].hand
    assert [event["type"] for event in events[:3]] == ["card_played", "destroyed", "draw"]


def test_main_phase_a_card_without_restriction_replaces_nothing():
    state = start(JASON, TYLER)
    blaster = put_into_play(state, FIRST, "Old Blaster")
    toolkit = put_in_hand(state, FIRST, "Toolkit")
    keep_hands(state)

    act(state, actions.play(toolkit))

    assert state.seats[FIRST].items == [blaster, toolkit]


def test_main_phase_a_raid_uses_all_ready_units_at_one_quest_against_the_units_there():
    state = start(JASON, TYLER)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    scout = put_into_play(state, FIRST, "Scout", at=0)
    put_into_play(state, FIRST, "Rookie", at=1)
    guard = put_into_play(state, SECOND, "Guard", at=0, exerted=True)
    keep_hands(state)
    state.cards[scout].exerted = True  # say a card effect exerted it this turn

    events = act(state, actions.raid(quest_at(state, 0)))

    began = events[-1]
    assert (began["type"], began["kind"]) == ("combat_began", "raid")
    assert (began["attackers"], began["defenders"]) == ([trooper], [guard])


def test_main_phase_a_raid_where_the_opponent_has_no_units_attacks_his_avatar():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Trooper", at=1)
    put_into_play(state, SECOND, "Guard", at=0)
    keep_hands(state)

    events = act(state, actions.raid(quest_at(state, 1)))

    assert events[-1]["defenders"] == [state.seats[SECOND].avatar]


def test_main_phase_a_raid_from_each_quest_once_a_turn():
    state = start(JASON, TYLER)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    put_into_play(state, FIRST, "Scout", at=1)
    keep_hands(state)
    act(state, actions.raid(quest_at(state, 0)))
    act(state, actions.exert(trooper, "attack"))
    act(state, actions.pass_())  # Tyler
    act(state, actions.pass_())  # Jason wins, 1 to 0

    decision = api.legal_actions(state)

    assert decision.kind == "main"
    assert actions.raid(quest_at(state, 0)) not in decision.actions
    assert actions.raid(quest_at(state, 1)) in decision.actions


def test_main_phase_no_raid_without_a_ready_unit_and_no_tactic_outside_combat():
    state = start(JASON, TYLER)
    trooper = put_into_play(state, FIRST, "Trooper", at=0)
    put_in_hand(state, FIRST, "Sudden Volley")
    keep_hands(state)
    state.cards[trooper].exerted = True  # say a card effect exerted it this turn

    decision = api.legal_actions(state)

    assert "raid" not in kinds(decision)
    assert "play_tactic" not in kinds(decision)


def test_main_phase_done_with_more_than_seven_cards_discards_one_at_a_time():
    state = start(JASON, TYLER)
    keep_hands(state)
    end_turn(state)  # Tyler draws to eight cards
    hand = list(state.seats[SECOND].hand)

    act(state, actions.done())
    decision = api.legal_actions(state)
    events = act(state, actions.discard(hand[3]))

    assert (decision.seat, decision.kind) == (SECOND, "discard")
    assert decision.actions == [actions.discard(card) for card in hand]
    assert events[0] == {"type": "discarded", "seat": SECOND, "card": hand[3]}
    assert len(state.seats[SECOND].hand) == 7
    assert state.active == FIRST
