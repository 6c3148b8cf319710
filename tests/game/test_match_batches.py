"""Batch choices: one button for a run of single decisions the rules let one player make in a
row (rulebook, COMBAT: "Combat Actions", "Exerting to Add to Total Attack or Total Defense",
"Take Damage"), applied by the match service one engine action at a time."""

import pytest

from game.engine import api as engine
from game.engine.actions import assign_damage, exert, pass_, raid
from game.engine.positions import Placed, Position, SeatSetup, build, card_ids
from game.engine.state import ATTACKING
from game.models import Game
from game.selectors import game_state, match_screen
from game.services.matches import (
    BATCH_MAX_ACTIONS,
    MatchError,
    StalePly,
    game_act,
    game_act_batch,
)
from game.services.skirmish import skirmish_start
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

# Units of each starter deck with no text that acts in a combat (no pin, no combat action).
UNITS = {
    "sith": ("Corrupted Enforcer Droid", "Shadow Cultist", "Sith Loyalist Guard"),
    "jedi": ("Force-Touched Healer", "Enclave Guardian Droid", "Crystal Cave Pilgrim"),
}
RAIDERS = UNITS["sith"]
DEFENDERS = UNITS["jedi"][:2]


def raid_position(match, *, raider: int = 1) -> dict:
    """The match's first game set up, through the position builder: the ``raider`` seat
    (Bob's, by default) in its Main Phase of turn 3 with three ready units at its opponent's
    quest, where two of the opponent's units stand exerted; neither player holds a card, so
    once the raid begins, the defender can only pass. Returns the position's state as JSON,
    the start of its log's replay. (The game's own log is emptied.)"""
    seats = list(match.seats.order_by("seat"))
    defender = 1 - raider

    def seat(match_seat, count, *, exerted):
        decklist = match_seat.decklist
        deck = list(decklist["deck"])
        placed = []
        for title in UNITS[match_seat.archetype][:count]:
            card = next(card for card in deck if card["title"] == title)
            deck.remove(card)
            placed.append(Placed(card, quest=defender, exerted=exerted))
        return SeatSetup(
            avatar=decklist["avatar"], quests=decklist["quests"], playmat=placed, deck=deck
        )

    setups = [None, None]
    setups[raider] = seat(seats[raider], 3, exerted=False)
    setups[defender] = seat(seats[defender], 2, exerted=True)
    state = build(Position(seats=tuple(setups), first=raider, turn=3))
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])
    return engine.to_json(state)


@pytest.fixture
def raided(carol, bob):
    """Carol (who passes when out of actions) and Bob in the raid position, Bob's raid at
    Carol's quest begun: his combat action. The match and the position's state as JSON."""
    carol.preferences.pass_when_out_of_actions = True
    carol.preferences.save()
    match = start_match(carol, bob)
    start = raid_position(match)
    quest = engine.from_json(start).quests[0].card
    game_act(match_id=match.pk, player=bob, ply=0, action=raid(quest))
    return match, start


def current(match):
    game = Game.objects.filter(match=match).latest("number")
    return game, game_state(game)


def logged(game) -> list[tuple[int, dict]]:
    return list(game.actions.order_by("number").values_list("seat", "action"))


def assert_the_log_replays_to_the_state(game, start: str) -> None:
    replayed = engine.from_json(start)
    for _, action in logged(game):
        engine.apply(replayed, action)
    assert engine.to_json(replayed) == engine.to_json(game_state(game))


def test_exert_all_applies_each_exert_while_the_opponent_passes_when_out_of_actions(raided, bob):
    """COMBAT, "Combat Actions": the players alternate, one action each; Carol asked to pass
    whenever passing is all she can do, so each of Bob's exerts comes back to him and the
    whole batch is played in one request, each exert logged as its own action."""
    match, start = raided
    game, state = current(match)
    decision = engine.legal_actions(state)
    exerts = [action for action in decision.actions if action["kind"] == "exert"]
    assert len(exerts) == len(RAIDERS)

    played = game_act_batch(match_id=match.pk, player=bob, ply=game.applied, actions=exerts)

    game, state = current(match)
    raid_logged = logged(game)[1:]
    assert raid_logged == [entry for action in exerts for entry in ((1, action), (0, pass_()))]
    assert [event["card"] for event in played.events if event["type"] == "exerted"] == [
        action["card"] for action in exerts
    ]
    decision = engine.legal_actions(state)
    assert (decision.seat, decision.actions) == (1, [pass_()])
    assert state.combat.sides[0].total == sum(
        event["amount"] for event in played.events if event["type"] == "exerted"
    )
    assert_the_log_replays_to_the_state(game, start)


def test_a_batch_stops_when_the_opponent_has_a_decision_to_make(carol, bob):
    """COMBAT, "Combat Actions": when Carol has not asked to pass automatically, her answer
    to Bob's first exert is hers to make: the batch stops there, its other exerts unplayed."""
    match = start_match(carol, bob)
    start = raid_position(match)
    game_act(
        match_id=match.pk, player=bob, ply=0, action=raid(engine.from_json(start).quests[0].card)
    )
    game, state = current(match)
    exerts = [a for a in engine.legal_actions(state).actions if a["kind"] == "exert"]

    game_act_batch(match_id=match.pk, player=bob, ply=game.applied, actions=exerts)

    game, state = current(match)
    assert logged(game)[1:] == [(1, exerts[0])]
    decision = engine.legal_actions(state)
    assert (decision.seat, decision.actions) == (0, [pass_()])
    assert_the_log_replays_to_the_state(game, start)


def test_a_batch_stops_at_the_first_action_no_longer_legal(raided, bob):
    """An exerted card can't be exerted again (EXERT AND READY, "You can only exert a card
    that is ready"): a batch naming one twice stops before it, keeping what it played."""
    match, start = raided
    game, state = current(match)
    first, second, _ = [a for a in engine.legal_actions(state).actions if a["kind"] == "exert"]

    game_act_batch(match_id=match.pk, player=bob, ply=game.applied, actions=[first, first, second])

    game, state = current(match)
    assert logged(game)[1:] == [(1, first), (0, pass_())]
    assert_the_log_replays_to_the_state(game, start)


def test_a_batch_is_refused_whole_when_its_first_action_is_not_legal_or_not_yours(
    raided, carol, bob
):
    match, _ = raided
    game, state = current(match)
    exerts = [a for a in engine.legal_actions(state).actions if a["kind"] == "exert"]
    defender = card_ids(state, 0, DEFENDERS[0])[0]

    with pytest.raises(MatchError, match="not your decision"):
        game_act_batch(match_id=match.pk, player=carol, ply=game.applied, actions=exerts)
    with pytest.raises(MatchError, match="not a legal action"):
        game_act_batch(
            match_id=match.pk,
            player=bob,
            ply=game.applied,
            actions=[exert(defender, "attack"), *exerts],
        )
    with pytest.raises(MatchError, match="could not be read"):
        game_act_batch(match_id=match.pk, player=bob, ply=game.applied, actions=[])
    with pytest.raises(MatchError, match="could not be read"):
        game_act_batch(
            match_id=match.pk,
            player=bob,
            ply=game.applied,
            actions=exerts[:1] * (BATCH_MAX_ACTIONS + 1),
        )
    assert current(match)[0].applied == game.applied


def test_a_resent_batch_is_applied_once(raided, bob):
    match, _ = raided
    game, state = current(match)
    ply = game.applied
    exerts = [a for a in engine.legal_actions(state).actions if a["kind"] == "exert"]
    game_act_batch(match_id=match.pk, player=bob, ply=ply, actions=exerts)
    after = current(match)[0].applied

    again = game_act_batch(match_id=match.pk, player=bob, ply=ply, actions=exerts)

    assert again.resent and current(match)[0].applied == after
    with pytest.raises(StalePly):
        game_act_batch(match_id=match.pk, player=bob, ply=ply, actions=exerts[1:])


def damage_to_assign(match, bob):
    """From the raid: Bob exerts two units, passes, wins and exerts his Corrupted Enforcer
    Droid for its damage bonus: Carol has 2 damage to assign among her two units."""
    game, state = current(match)
    cultist, guard = (card_ids(state, 1, title)[0] for title in RAIDERS[1:])
    droid = card_ids(state, 1, RAIDERS[0])[0]
    for action in (exert(cultist, "attack"), exert(guard, "attack"), pass_()):
        game_act(match_id=match.pk, player=bob, ply=current(match)[0].applied, action=action)
    game_act(
        match_id=match.pk,
        player=bob,
        ply=current(match)[0].applied,
        action=exert(droid, "damage_bonus"),
    )
    game, state = current(match)
    decision = engine.legal_actions(state)
    assert (decision.seat, decision.kind) == (0, "assign_damage")
    return game, state


def test_assigning_all_the_damage_to_one_combatant_is_one_batch(raided, carol, bob):
    """COMBAT, "Take Damage": "The player suffering the damage distributes the damage as he
    chooses among one or more of his combatants": all of it is hers to place, so one batch
    puts every point on her Force-Touched Healer, then all the damage is dealt at once."""
    match, start = raided
    game, state = damage_to_assign(match, bob)
    healer = card_ids(state, 0, DEFENDERS[0])[0]
    damage = state.combat.sides[ATTACKING].damage
    assert damage == 2

    game_act_batch(
        match_id=match.pk,
        player=carol,
        ply=game.applied,
        actions=[assign_damage(healer)] * damage,
    )

    game, state = current(match)
    assert logged(game)[-damage:] == [(0, assign_damage(healer))] * damage
    assert state.combat is None and state.cards[healer].damage == damage
    assert_the_log_replays_to_the_state(game, start)


def test_the_prompt_offers_exert_all_and_damage_batches_with_their_counts(raided, carol, bob):
    match, _ = raided
    screen = match_screen(match_id=match.pk, viewer=bob)
    (batch,) = screen.board["batches"]
    assert batch["label"] == f"Exert all for attack ({len(RAIDERS)})"
    assert [action["kind"] for action in batch["actions"]] == ["exert"] * len(RAIDERS)
    assert match_screen(match_id=match.pk, viewer=carol).board["batches"] == []

    game, state = damage_to_assign(match, bob)
    batches = match_screen(match_id=match.pk, viewer=carol).board["batches"]
    assert [batch["label"] for batch in batches] == [
        f"Damage {title} with up to 2" for title in DEFENDERS
    ]
    healer = card_ids(state, 0, DEFENDERS[0])[0]
    assert batches[0]["actions"] == [assign_damage(healer)] * 2


def test_exert_all_goes_on_through_a_computer_opponents_only_legal_pass(carol):
    """Skirmish: the computer opponent, with nothing it may do but pass, could choose nothing
    else; the batch makes that pass for it (logged as its own, in its seat) rather than wait
    for its turn, and goes on. Its every other decision stays its own."""
    match = skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="easy")
    start = raid_position(match, raider=0)
    quest = engine.from_json(start).quests[1].card
    game_act(match_id=match.pk, player=carol, ply=0, action=raid(quest))
    game, state = current(match)
    exerts = [a for a in engine.legal_actions(state).actions if a["kind"] == "exert"]
    assert len(exerts) == 3

    game_act_batch(match_id=match.pk, player=carol, ply=game.applied, actions=exerts)

    game, state = current(match)
    assert (
        logged(game)[1:]
        == [entry for action in exerts for entry in ((0, action), (1, pass_()))][:-1]
    )
    decision = engine.legal_actions(state)
    assert (decision.seat, decision.actions) == (1, [pass_()])
    assert game.computer_due is not None
    assert_the_log_replays_to_the_state(game, start)
