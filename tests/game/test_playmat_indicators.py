"""The playmat's indicators (rulebook, THE GAME SCREEN; EXERT AND READY; glossary, "link",
"sentry", "target"), for the players, an observer and the replay: why an exerted card was
exerted, the Sentry count on the avatar, target and link icons, the keywords a card gained or
lost, and the Phase Meter's four phases. Each is built on a position and read on the page."""

import json
import re
from functools import cache

import pytest
from django.urls import reverse

from game.engine import api as engine
from game.engine.decklists import card_definition
from game.engine.positions import Placed, Position, SeatSetup, build, card_ids
from game.engine.state import EXERT_REASONS
from game.models import Game
from game.selectors import card_faces, game_beginning
from game.services import matches
from game.services.matches import game_act, match_concede
from tests.factories import UserFactory
from tests.game.conftest import SeededSecrets, play_at_random, start_match

pytestmark = pytest.mark.django_db

SET_FILE = "collection/cards/sets/01_embers-of-the-outer-rim.json"


@cache
def _printed() -> dict[str, dict]:
    with open(SET_FILE, encoding="utf-8") as file:
        return {card["title"]: card for card in json.load(file)["cards"]}


def card(title: str) -> dict:
    return card_definition(_printed()[title])


def set_up(match, *, carol=(), bob=(), carol_hand=(), phase="main"):
    """The match's game as the position with Carol (seat 0) taking turn 3 in ``phase`` with
    ``carol`` and ``bob`` on the playmat; the state. (The game's log is emptied.)"""
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]

    def seat(decklist, placed, hand):
        return SeatSetup(
            avatar=decklist["avatar"],
            quests=decklist["quests"],
            hand=hand,
            playmat=placed,
            deck=decklist["deck"][:10],
            power=9 if hand else None,
        )

    state = build(
        Position(
            seats=(seat(decklists[0], carol, carol_hand), seat(decklists[1], bob, ())),
            turn=3,
            phase=phase,
        )
    )
    store(match, state)
    return state


def every_indicator(match, carol):
    """The match's game with every indicator on the playmat at once, as the browser tests
    look at it: Carol (seat 0) with eight units at her quest, three of them Sentries and four
    exerted each for another reason; her Cantina Informant has lost Intel, Dark Bond links
    itself to her Padawan Pathfinder, which gains Striketrough; then her Target Designator
    asks which of Bob's four units to target. Bob has one unit exerted to defend. The faces
    of the cards outside the seats' decks are added to the match's. The state."""
    ours = [
        Placed(card("Enclave Watcher"), quest=0, exerted=True, exerted_for="attack"),
        Placed(card("Enclave Guardian Droid"), quest=0),
        Placed(card("Knight of the Quiet Vow"), quest=0, exerted=True, exerted_for="defense"),
        Placed(card("Padawan Pathfinder"), quest=0),
        Placed(card("Exiled Jedi Knight"), quest=0, exerted=True, exerted_for="damage_bonus"),
        Placed(card("Cantina Informant"), quest=0),
        Placed(card("Force-Touched Healer"), quest=0, exerted=True, exerted_for="effect"),
        Placed(card("Togruta Sword Dancer"), quest=0),
        Placed(card("Target Designator")),
    ]
    theirs = [
        Placed(card("Tomb Initiate"), quest=0),
        Placed(card("Shadow Cultist"), quest=0, exerted=True, exerted_for="defense"),
        Placed(card("Sith Loyalist Guard"), quest=0),
        Placed(card("Duskfang Hound"), quest=1),
    ]
    state = set_up(match, carol=ours, bob=theirs, carol_hand=(card("Dark Bond"),))
    for seat in match.seats.all():
        seat.faces = {**seat.faces, **card_faces(titles={each.card["title"] for each in ours})}
        seat.faces.update(card_faces(titles={"Dark Bond", "Target Designator"}))
        seat.save(update_fields=["faces"])
    (informant, pathfinder, designator, bond) = ids(
        state, 0, "Cantina Informant", "Padawan Pathfinder", "Target Designator", "Dark Bond"
    )
    act(match, state, carol, _only(state, "activate", card=informant))
    act(match, state, carol, _only(state, "play", card=bond))
    act(match, state, carol, _only(state, "choose", card=pathfinder))
    act(match, state, carol, _only(state, "activate", card=designator))
    return state


def store(match, state) -> None:
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])


def act(match, state, carol, action) -> None:
    """Carol takes ``action`` through the match's service, and ``state`` follows it."""
    game = Game.objects.filter(match=match).latest("number")
    game_act(match_id=match.pk, player=carol, ply=game.applied, action=action)
    engine.apply(state, action)


def pages(client, match, *viewers) -> dict[str, str]:
    """The match page as each viewer sees it: the two players and an observer."""
    seen = {}
    for viewer in (*viewers, UserFactory(username="Watcher")):
        client.force_login(viewer)
        seen[viewer.username] = client.get(reverse("game:match_page", args=[match.pk])).content
    return {name: page.decode() for name, page in seen.items()}


def figure(page: str, card_id: int) -> str:
    """The card's whole drawing on the page."""
    return re.search(rf'<figure [^>]*data-card="{card_id}".*?</figure>', page, re.DOTALL).group(0)


@pytest.mark.parametrize("reason", [each for each in EXERT_REASONS if each != "entangled"])
def test_an_exerted_card_says_why_it_was_exerted_to_every_viewer(client, carol, bob, reason):
    match = start_match(carol, bob)
    state = set_up(
        match,
        carol=(
            Placed(card("Enclave Watcher"), quest=0, exerted=True, exerted_for=reason),
            Placed(card("Exiled Jedi Knight"), quest=0, exerted=True),
            Placed(card("Padawan Pathfinder"), quest=0),
        ),
    )
    reasoned, unreasoned, ready = ids(
        state, 0, "Enclave Watcher", "Exiled Jedi Knight", "Padawan Pathfinder"
    )

    words = {
        "attack": "Exerted to attack",
        "defense": "Exerted to defend",
        "damage_bonus": "Exerted for its damage bonus",
        "cost": "Exerted to pay a cost",
        "effect": "Exerted by an effect",
    }[reason]
    for page in pages(client, match, carol, bob).values():
        drawn = figure(page, reasoned)
        mark = f'class="mat-mark mat-mark--exert mat-mark--exert--{reason}" title="{words}"'
        assert mark in drawn
        assert f'<span class="visually-hidden">{words}</span>' in drawn
        assert "mat-mark--exert" not in figure(page, unreasoned)
        assert "mat-indicators" not in figure(page, ready)


def test_the_engine_records_why_each_card_was_exerted_and_forgets_it_when_readied():
    """A raid's exert is for attack, its answer's for defense; an activated action's is a
    cost, an effect's exert is the effect's; a Ready Phase forgets them all."""
    state = build(
        Position(
            seats=(
                SeatSetup(
                    avatar=card("Major Ilsen Drask"),
                    quests=_quests("imperial"),
                    playmat=(
                        Placed(card("Garrison Stormtrooper"), quest=1),
                        Placed(card("Target Designator")),
                    ),
                ),
                SeatSetup(
                    avatar=card("Vorsa Kel"),
                    quests=_quests("sith"),
                    playmat=(Placed(card("Sith Loyalist Guard"), quest=1),),
                ),
            ),
            turn=3,
        )
    )
    trooper, designator = ids(state, 0, "Garrison Stormtrooper", "Target Designator")
    (guard,) = ids(state, 1, "Sith Loyalist Guard")

    engine.apply(state, _only(state, "activate", card=designator))
    assert state.cards[designator].exerted_for == "cost"
    raid = _only(state, "raid")
    engine.apply(state, raid)
    while state.cards[trooper].exerted_for != "attack" or state.cards[guard].exerted_for == "":
        decision = engine.legal_actions(state)
        exerts = [action for action in decision.actions if action["kind"] == "exert"]
        engine.apply(state, exerts[0] if exerts else decision.actions[0])
    assert state.cards[guard].exerted_for == "defense"


def test_the_sentry_count_shows_on_the_avatar_to_every_viewer(client, carol, bob):
    """Two printed Sentries, and no count for Bob, who has none."""
    match = start_match(carol, bob)
    set_up(
        match,
        carol=(
            Placed(card("Enclave Watcher"), quest=0),
            Placed(card("Enclave Guardian Droid"), quest=1),
            Placed(card("Padawan Pathfinder"), quest=0),
        ),
        bob=(Placed(card("Tomb Initiate"), quest=1),),
    )

    for page in pages(client, match, carol, bob).values():
        counts = re.findall(r'<span class="mat-sentries" role="img" aria-label="([^"]*)"', page)
        assert counts == ["Carol has 2 Sentry units"]


def test_a_keyword_gained_from_an_effect_is_badged_and_counts_as_a_sentry(client, carol, bob):
    """Iron Discipline gives the Stormtroopers Sentry: the one without it wears a gained
    badge, the one that has it printed none, and both count on the avatar."""
    match = start_match(carol, bob)
    state = set_up(
        match,
        carol=(
            Placed(card("Stormtrooper Fireteam"), quest=0),
            Placed(card("Garrison Stormtrooper"), quest=0),
            Placed(card("Iron Discipline")),
        ),
    )
    fireteam, garrison = ids(state, 0, "Stormtrooper Fireteam", "Garrison Stormtrooper")

    for page in pages(client, match, carol, bob).values():
        badge = re.findall(r'class="mat-keyword mat-keyword--(\w+)" title="([^"]*)"', page)
        assert badge == [("gained", "Gained sentry")]
        assert "Gained sentry" in figure(page, fireteam)
        assert "mat-keyword" not in figure(page, garrison)
        assert 'aria-label="Carol has 2 Sentry units"' in page


def test_a_keyword_lost_is_badged_struck_through(client, carol, bob):
    """The Cantina Informant removes its own Intel to draw a card: lost, until it leaves play."""
    match = start_match(carol, bob)
    state = set_up(match, carol=(Placed(card("Cantina Informant"), quest=0),))
    (informant,) = ids(state, 0, "Cantina Informant")

    act(match, state, carol, _only(state, "activate", card=informant))

    for page in pages(client, match, carol, bob).values():
        drawn = figure(page, informant)
        assert 'class="mat-keyword mat-keyword--lost" title="Lost intel"' in drawn
        assert '<span class="visually-hidden">Lost intel</span>' in drawn


def test_target_icons_show_the_choice_then_the_target_and_the_card_targeting_it(client, carol, bob):
    """Target Designator asks which opposing unit to target: both are marked choosable for
    every viewer; once chosen, the target wears the target icon and the designator a link icon,
    each naming the other."""
    match = start_match(carol, bob)
    state = set_up(
        match,
        carol=(Placed(card("Target Designator")),),
        bob=(Placed(card("Tomb Initiate"), quest=0), Placed(card("Shadow Cultist"), quest=1)),
    )
    (designator,) = ids(state, 0, "Target Designator")
    initiate, cultist = ids(state, 1, "Tomb Initiate", "Shadow Cultist")

    act(match, state, carol, _only(state, "activate", card=designator))

    for page in pages(client, match, carol, bob).values():
        for unit in (initiate, cultist):
            assert 'class="mat-mark mat-mark--choosable" title="Can be chosen now"' in figure(
                page, unit
            )
        assert "mat-mark--exert--cost" in figure(page, designator)

    act(match, state, carol, _only(state, "choose", card=cultist))

    for page in pages(client, match, carol, bob).values():
        assert "choosable" not in page
        target = figure(page, cultist)
        assert 'title="Targeted by Target Designator"' in target
        assert f'data-marked-with="{designator}"' in target
        source = figure(page, designator)
        assert 'class="mat-mark mat-mark--targeting" title="Targets Shadow Cultist"' in source
        assert f'data-marked-with="{cultist}"' in source
        assert "mat-indicators" not in figure(page, initiate)


def test_linked_cards_both_wear_the_link_icon(client, carol, bob):
    """Dark Bond links itself to Carol's one unit, which gains Striketrough while linked."""
    match = start_match(carol, bob)
    state = set_up(
        match, carol=(Placed(card("Tomb Initiate"), quest=0),), carol_hand=(card("Dark Bond"),)
    )
    (initiate,) = ids(state, 0, "Tomb Initiate")
    (bond,) = ids(state, 0, "Dark Bond")

    act(match, state, carol, _only(state, "play", card=bond))

    for page in pages(client, match, carol, bob).values():
        unit = figure(page, initiate)
        assert 'class="mat-mark mat-mark--linked" title="Linked to Dark Bond"' in unit
        assert "Gained striketrough" in unit
        assert 'title="Linked to Tomb Initiate"' in figure(page, bond)


def test_combat_damage_being_assigned_marks_the_combatants_it_may_go_to(
    client, carol, bob, monkeypatch
):
    """Carol's avatar attempts her quest against two of Bob's units and wins: whoever assigns
    her damage chooses between them, and every viewer sees both marked. The combat's dice
    come from the game's seed: a seed with which she wins."""
    monkeypatch.setattr(matches, "secrets", SeededSecrets(1))
    match = start_match(carol, bob)
    state = set_up(
        match,
        carol=(Placed(card("Trance of Mending")),),
        bob=(Placed(card("Tomb Initiate"), quest=0), Placed(card("Shadow Cultist"), quest=0)),
        phase="quest",
    )
    units = ids(state, 1, "Tomb Initiate", "Shadow Cultist")
    for _ in range(40):
        decision = engine.legal_actions(state)
        if decision.kind == "assign_damage":
            break
        act(match, state, [carol, bob][decision.seat], decision.actions[0])
    else:
        raise AssertionError("no damage was assigned")

    for page in pages(client, match, carol, bob).values():
        for unit in units:
            assert "mat-mark--choosable" in figure(page, unit)


def test_every_indicator_at_once_is_drawn(client, carol, bob):
    """The position of the browser tests: each indicator on the page of every viewer."""
    match = start_match(carol, bob)
    every_indicator(match, carol)

    for page in pages(client, match, carol, bob).values():
        for reason in ("attack", "defense", "damage_bonus", "effect", "cost"):
            assert f"mat-mark--exert--{reason}" in page
        assert page.count("mat-mark--choosable") == 4  # each of Bob's units
        assert page.count("mat-mark--linked") == 2
        assert "Gained striketrough" in page and "Lost intel" in page
        assert 'aria-label="Carol has 3 Sentry units"' in page
        assert 'aria-label="Bob has 1 Sentry unit"' in page


def test_the_phase_meter_lights_the_current_phase_among_the_four(client, carol, bob):
    match = start_match(carol, bob)
    set_up(match)

    for page in pages(client, match, carol, bob).values():
        meter = re.search(r'<ol class="phase-meter__phases".*?</ol>', page, re.DOTALL).group(0)
        phases = re.findall(r'class="phase-meter__phase( is-current)?" title="(\w+) Phase: ', meter)
        assert phases == [("", "Draw"), ("", "Quest"), ("", "Ready"), (" is-current", "Main")]
        assert meter.count("<svg ") == 4 and meter.count('aria-current="step"') == 1
        assert "Main Phase (now): " in meter


def test_the_replay_shows_the_indicators(client, carol, bob):
    """A step of a game's replay where a card stands exerted for a reason shows it, and the
    Phase Meter lights the step's phase."""
    match = start_match(carol, bob)
    play_at_random(match, 60)
    match_concede(match_id=match.pk, player=bob)
    game = Game.objects.get(match=match)
    actions = list(game.actions.order_by("number").values_list("action", flat=True))
    for step in range(len(actions), 0, -1):
        state = game_beginning(game)
        for action in actions[:step]:
            engine.apply(state, action)
        reasons = {
            index: each.exerted_for
            for index, each in enumerate(state.cards)
            if each.exerted_for and _in_play(state, index)
        }
        if reasons:
            break
    else:
        raise AssertionError("no card was exerted for a reason")
    client.force_login(UserFactory(username="Dave"))

    page = client.get(reverse("game:match_replay", args=[match.pk]), {"step": step}).content
    page = page.decode()

    for card_id, reason in reasons.items():
        assert f"mat-mark--exert--{reason}" in figure(page, card_id)
    assert f'class="phase-meter__phase is-current" title="{state.phase.capitalize()} Phase' in page


def _in_play(state, card_id: int) -> bool:
    return any(card_id in quest.units[seat] for quest in state.quests for seat in (0, 1)) or any(
        card_id in seat.items + seat.abilities + [seat.avatar] for seat in state.seats
    )


def ids(state, seat: int, *titles: str) -> list[int]:
    """The id of the seat's first card of each title."""
    return [card_ids(state, seat, title)[0] for title in titles]


def _quests(archetype: str) -> list[dict]:
    from game.engine.decklists import starter_decklists

    return starter_decklists(SET_FILE)[archetype]["quests"]


def _only(state, kind: str, **fields) -> dict:
    """The one legal action of ``kind`` (naming ``fields``)."""
    found = [
        action
        for action in engine.legal_actions(state).actions
        if action["kind"] == kind and all(action.get(key) == value for key, value in fields.items())
    ]
    assert found, f"no {kind} {fields} among {engine.legal_actions(state).actions}"
    return found[0]
