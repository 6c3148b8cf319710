"""QUEST PHASE: a mandatory attempt, combat against opposing units, one ability applied."""

from game.engine import actions, api, rules
from tests.game.engine.scenario import (
    FIRST,
    SECOND,
    ability,
    act,
    avatar,
    complete_quests,
    decklist,
    keep_hands,
    put_into_play,
    quest_at,
    start,
    titles,
    unit,
)

JASON = decklist(
    avatar("Jason", attack=3),
    ability("Meditation", level=2),
    ability("Deep Meditation", level=4),
    ability("Glimpse", level=1),
    ability("Focus", defense=2),
    unit("Padawan"),
)
TYLER = decklist(
    avatar("Tyler"),
    unit("Trooper", defense=1, health=2),
    unit("Sentry", defense=1, health=2),
    ability("Tyler's Lore", level=2),
)


def test_quest_phase_without_a_ready_ability_with_a_level_is_skipped():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Focus")  # no level
    put_into_play(state, FIRST, "Meditation", exerted=True)

    events = keep_hands(state)

    assert api.legal_actions(state).kind == "main"
    assert "quest_attempted" not in [event["type"] for event in events]


def test_quest_phase_attempting_a_quest_is_not_optional():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Meditation")

    keep_hands(state)
    decision = api.legal_actions(state)

    assert (decision.seat, decision.kind) == (FIRST, "choose_quest")
    assert decision.actions == [
        actions.attempt_quest(quest_at(state, 0)),
        actions.attempt_quest(quest_at(state, 1)),
    ]


def test_quest_phase_the_avatar_alone_fights_every_opposing_unit_at_the_quest():
    state = start(JASON, TYLER)
    put_into_play(state, FIRST, "Meditation")
    put_into_play(state, FIRST, "Padawan", at=1)
    trooper = put_into_play(state, SECOND, "Trooper", at=1)
    sentry = put_into_play(state, SECOND, "Sentry", at=1, exerted=True)
    keep_hands(state)

    events = act(state, actions.attempt_quest(quest_at(state, 1)))

    began = events[-1]
    assert began["type"] == "combat_began"
    assert began["attackers"] == [state.seats[FIRST].avatar]
    assert began["defenders"] == [trooper, sentry]
    assert api.legal_actions(state).kind == "combat_action"


def test_quest_phase_no_opposing_units_means_no_combat_and_an_ability_is_applied():
    state = start(JASON, TYLER)
    meditation = put_into_play(state, FIRST, "Meditation")
    keep_hands(state)

    act(state, actions.attempt_quest(quest_at(state, 1)))
    decision = api.legal_actions(state)

    assert state.combat is None
    assert (decision.kind, decision.actions) == (
        "apply_ability",
        [actions.apply_ability(meditation)],
    )


def test_quest_phase_applying_creates_level_tokens_and_destroys_the_ability():
    state = start(JASON, TYLER)
    deep = put_into_play(state, FIRST, "Deep Meditation")
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 1)))  # Tyler's level 2 quest

    act(state, actions.apply_ability(deep))

    assert deep in state.seats[FIRST].discard
    assert deep not in state.seats[FIRST].abilities
    assert state.quests[1].tokens == [0, 0]  # completed, so a new quest took its place


def test_quest_phase_tokens_short_of_the_level_stay_at_the_quest():
    state = start(JASON, TYLER)
    glimpse = put_into_play(state, FIRST, "Glimpse")
    tylers_quest = quest_at(state, 1)
    keep_hands(state)

    act(state, actions.attempt_quest(tylers_quest))
    act(state, actions.apply_ability(glimpse))

    assert quest_at(state, 1) == tylers_quest
    assert state.quests[1].tokens == [1, 0]
    assert state.seats[FIRST].completed == []


def test_quest_phase_completing_gains_one_power_and_the_completer_replaces_the_quest():
    """Even the opponent's quest is replaced from the completing player's quest pile."""
    state = start(JASON, TYLER)
    meditation = put_into_play(state, FIRST, "Meditation")
    tylers_quest = quest_at(state, 1)
    keep_hands(state)
    act(state, actions.attempt_quest(tylers_quest))

    events = act(state, actions.apply_ability(meditation))

    assert state.seats[FIRST].completed == [tylers_quest]
    assert state.seats[FIRST].power == 3 + 1
    assert titles(state, [quest_at(state, 1)]) == ["Jason's Quest 4"]
    completed = next(event for event in events if event["type"] == "quest_completed")
    assert completed == {
        "type": "quest_completed",
        "seat": FIRST,
        "quest": tylers_quest,
        "at": 1,
        "power": 1,
    }
    assert api.legal_actions(state).kind == "main"


def test_quest_phase_an_ability_is_applied_even_after_losing_the_combat():
    state = start(JASON, TYLER)
    meditation = put_into_play(state, FIRST, "Meditation")
    trooper = put_into_play(state, SECOND, "Trooper", at=0)
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 0)))

    act(state, actions.pass_())  # Jason
    act(state, actions.exert(trooper, "defense"))
    act(state, actions.pass_())  # Jason
    events = act(state, actions.pass_())  # Tyler: he wins, 1 to 0

    assert {"type": "combat_decided", "winner": SECOND, "attack": 0, "defense": 1} in events
    assert state.cards[state.seats[FIRST].avatar].damage == 1
    decision = api.legal_actions(state)
    assert (decision.kind, decision.actions) == (
        "apply_ability",
        [actions.apply_ability(meditation)],
    )


def test_quest_phase_ends_after_combat_if_every_ability_became_exerted():
    """More on the Quest Phase: a card effect (here, exerting it by hand) may exert the last
    ability during the combat; then no ability is applied."""
    state = start(JASON, TYLER)
    meditation = put_into_play(state, FIRST, "Meditation")
    put_into_play(state, SECOND, "Trooper", at=0)
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 0)))

    rules.exert(state, meditation, [], "effect")
    act(state, actions.pass_())
    act(state, actions.pass_())  # a tie, 0 to 0: one damage each way
    act(state, actions.pass_())  # Jason adds no damage bonus

    assert api.legal_actions(state).kind == "main"
    assert state.quests[0].tokens == [0, 0]
    assert meditation in state.seats[FIRST].abilities


def test_quest_phase_completing_a_quest_with_an_empty_quest_pile_wins():
    state = start(JASON, TYLER)
    meditation = put_into_play(state, FIRST, "Meditation")
    complete_quests(state, FIRST, 3)
    keep_hands(state)
    act(state, actions.attempt_quest(quest_at(state, 1)))

    events = act(state, actions.apply_ability(meditation))

    assert (state.winner, state.win_reason) == (FIRST, "quests_completed")
    assert events[-1]["type"] == "game_won"
