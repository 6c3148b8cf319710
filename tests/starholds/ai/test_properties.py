"""Properties of whole Starholds games played by the random agent, for 2 to 6 seats: a seed
replays a game exactly, a state survives its JSON round trip, and a seat's view does not
change when the cards it cannot see are dealt differently (rulebook, "Set-Up": each deck is
shuffled and the hands are secret; docs/starholds/rules.md)."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from starholds.ai.agents import RandomAgent
from starholds.ai.arena import starter_decklists
from starholds.engine import api

DECKS, _PRINTED = starter_decklists()
EXAMPLES = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
players = st.integers(min_value=2, max_value=6)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
steps = st.integers(min_value=0, max_value=600)


def dealt(seats: int, seed: int) -> list[dict]:
    return [DECKS[(seed + seat) % len(DECKS)] for seat in range(seats)]


def played(seats: int, seed: int, steps: int) -> tuple[api.State, list[dict]]:
    """A game after up to ``steps`` random actions (fewer if it ends), and those actions."""
    state = api.new_game(dealt(seats, seed), seed)
    agents = [RandomAgent(seed * 16 + seat) for seat in range(seats)]
    actions = []
    for _ in range(steps):
        decision = api.legal_actions(state)
        if decision.seat is None:
            break
        action = agents[decision.seat].choose(state, decision)
        api.apply(state, action)
        actions.append(action)
    return state, actions


@EXAMPLES
@given(players, seeds, steps)
def test_a_seed_and_the_actions_replay_a_game_exactly(seats, seed, count):
    state, actions = played(seats, seed, count)
    again, actions_again = played(seats, seed, count)

    assert actions_again == actions
    assert api.to_json(again) == api.to_json(state)
    assert api.to_json(api.replay(dealt(seats, seed), seed, actions)) == api.to_json(state)


@EXAMPLES
@given(players, seeds, steps)
def test_a_state_survives_its_json_round_trip_and_plays_on_the_same(seats, seed, count):
    state, _ = played(seats, seed, count)
    copy = api.from_json(api.to_json(state))

    assert api.to_json(copy) == api.to_json(state)
    assert api.legal_actions(copy) == api.legal_actions(state)
    for seat in [None, *range(seats)]:
        assert api.view(copy, seat) == api.view(state, seat)
    agent, agent_copy = RandomAgent(seed), RandomAgent(seed)
    for _ in range(50):
        decision = api.legal_actions(state)
        if decision.seat is None:
            break
        api.apply(state, agent.choose(state, decision))
        api.apply(copy, agent_copy.choose(copy, api.legal_actions(copy)))
    assert api.to_json(copy) == api.to_json(state)


def hidden_from(state: api.State, seat: int | None) -> list[int]:
    """The cards ``seat`` may not see: every deck, and every hand but its own."""
    return sorted(
        card
        for other, player in enumerate(state.seats)
        for card in (*player.deck, *([] if other == seat else player.hand))
    )


def redealt(state: api.State, cards: list[int], shift: int) -> api.State:
    """The state with the printed cards behind ``cards`` dealt round by ``shift`` places:
    the same game to anyone who cannot see those cards."""
    data = json.loads(api.to_json(state))
    faces = [data["cards"][card]["definition"] for card in cards]
    for card, face in zip(cards, faces[shift:] + faces[:shift], strict=True):
        data["cards"][card]["definition"] = face
    return api.from_json(json.dumps(data))


@EXAMPLES
@given(players, seeds, steps, st.integers(min_value=1, max_value=50))
def test_a_view_does_not_change_when_the_cards_it_cannot_see_are_dealt_differently(
    seats, seed, count, shift
):
    state, _ = played(seats, seed, count)
    for seat in [None, *range(seats)]:
        hidden = hidden_from(state, seat)
        if len(hidden) < 2:
            continue
        other = redealt(state, hidden, shift % len(hidden))
        assert api.view(other, seat) == api.view(state, seat), f"seat {seat}"


def window_opener(state: api.State, agent: RandomAgent) -> tuple[int, dict] | None:
    """Plays on until the next action would ask the other seats for reactions: that action
    and its seat (None if the game ends first)."""
    for _ in range(500):
        decision = api.legal_actions(state)
        if decision.seat is None:
            return None
        action = agent.choose(state, decision)
        trial = api.from_json(api.to_json(state))
        api.apply(trial, action)
        if state.window is None and trial.window is not None:
            return decision.seat, action
        api.apply(state, action)
    return None


@EXAMPLES
@given(players, seeds, steps)
def test_no_view_tells_who_holds_a_reaction_card(seats, seed, count):
    """Reaction Cards: every living seat is asked in turn whether it reacts, holding an R/ card
    or not, and answers "pass" when it does not react. The same game with the other players'
    hands dealt differently asks the same seats in the same order, and the acting player sees
    the same thing at every step."""
    state, _ = played(seats, seed, count)
    agent = RandomAgent(seed)
    opening = window_opener(state, agent)
    if opening is None:
        return
    actor, action = opening
    others = [
        card for seat, player in enumerate(state.seats) if seat != actor for card in player.hand
    ]
    if len(others) < 2:
        return
    other = redealt(state, others, 1)
    api.apply(state, action)
    api.apply(other, action)
    for _ in range(3 * seats):
        asked, asked_other = api.legal_actions(state), api.legal_actions(other)
        assert asked_other.seat == asked.seat
        assert api.view(other, actor) == api.view(state, actor)
        if asked.seat is None or asked.seat == actor or {"kind": "pass"} not in asked.actions:
            break
        api.apply(state, {"kind": "pass"})
        api.apply(other, {"kind": "pass"})
