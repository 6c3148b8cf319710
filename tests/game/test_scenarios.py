"""The Scenarios (rulebook, "Tutorials/Scenarios", "Scenarios"): single-player games of the
player's own deck against the computer, Chapter 1 (Scenarios 1-5) for Rebel and Jedi decks and
Chapter 2 (Scenarios 6-10) for Sith and Imperial ones; winning one opens the next and earns a
reward card (the card numbering paragraph: "F is a card found in starter decks or a reward
card for completing a scenario"), once. Each shows its victory conditions behind the opponent
avatar's Info button (rulebook, "Info Button") and its dialogs in Review Dialogs."""

import json
from collections import Counter
from html import escape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.cards.cardrules import validate_set
from collection.cards.models import Card
from collection.cards.services import set_files
from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, DeckCard, PlayFormat
from collection.models import CardOwnership, LedgerOperation
from collection.services.opening import booster_pool
from collection.services.wants import tradeable_cards, want_set, wants_follow_deck
from game.ai.agents import GreedyAgent
from game.engine import api as engine
from game.engine.invariants import invariant_violations
from game.models import Match, MatchStatus, ScenarioProgress
from game.scenarios import CHAPTER_ARCHETYPES, SCENARIOS, next_in_chapter, scenario_numbered
from game.selectors import (
    deck_decklist,
    game_state,
    match_replay,
    match_screen,
    scenarios_map,
    skirmish_record,
    starter_decklists_all,
    tutorial_cards,
    tutorial_dialogs_read,
)
from game.services.matches import MatchError, game_act, match_concede
from game.services.scenarios import (
    LOCKED,
    NO_DECK,
    UNKNOWN_SCENARIO,
    scenario_reference,
    scenario_reward_grant,
    scenario_start,
)
from game.services.skirmish import computer_move
from game.services.tutorials import tutorial_dialog_read
from game.tutorials import OPPONENT, PLAYER
from tcgsite.celery import task_named
from tests.factories import UserFactory
from tests.game.conftest import computer_takes_a_turn, starter_deck

LEVEL_ORDER = {"easy": 0, "normal": 1, "hard": 2}


def _first(actions, predicate):
    return next((action for action in actions if predicate(action)), None)


# The ally that attacks in Scenario 1's and 6's raid; the other one adds its damage bonus.
ATTACKERS = ("Ryloth Resistance Fighter", "Imperial Marksman")


def storming_move(state, decision) -> dict:
    """What a player who follows Scenario 1's and 6's dialogs does: raid from the quest on
    the left, exert the attacker, pass, then exert the other ally for its damage bonus."""
    view = engine.view(state, PLAYER)
    left = view["quests"][0]["card"]["id"]
    titles = {
        unit["id"]: unit["title"]
        for quest in view["quests"]
        for side in quest["units"]
        for unit in side
    }
    for predicate in (
        lambda a: a["kind"] == "raid" and a["quest"] == left,
        lambda a: (
            decision.kind == "combat_action"
            and a["kind"] == "exert"
            and titles.get(a["card"]) in ATTACKERS
        ),
        lambda a: decision.kind == "damage_bonus" and a["kind"] == "exert",
        lambda a: a["kind"] in ("pass", "done"),
    ):
        action = _first(decision.actions, predicate)
        if action is not None:
            return action
    return decision.actions[0]


def play_out(scenario, state, player_agent, *, limit=4000):
    """Both seats decide until the game is won (by the rules or the scenario's goal), every
    state checked against the engine's invariants."""
    opponent = GreedyAgent()
    for _ in range(limit):
        if state.winner is not None or scenario.goal_reached(state):
            return state
        decision = engine.legal_actions(state)
        agent = player_agent if decision.seat == PLAYER else opponent.choose
        events = engine.apply(state, agent(state, decision))
        assert invariant_violations(state, events) == []
    raise AssertionError(f"Scenario {scenario.number} never ended")


# The scenarios as data: chapters, levels, set-ups, rewards.


def test_ten_scenarios_in_two_chapters_getting_tougher():
    assert [scenario.number for scenario in SCENARIOS] == list(range(1, 11))
    for chapter, archetypes in CHAPTER_ARCHETYPES.items():
        chapter_scenarios = [each for each in SCENARIOS if each.chapter == chapter]
        assert len(chapter_scenarios) == 5
        assert all(each.archetypes == archetypes for each in chapter_scenarios)
        levels = [LEVEL_ORDER[each.level] for each in chapter_scenarios]
        assert levels == sorted(levels) and levels[0] < levels[-1]
        # A Rebel or Jedi deck meets the dark side, and the other way round.
        assert all(each.opponent.archetype not in archetypes for each in chapter_scenarios)
    assert next_in_chapter(scenario_numbered(4)).number == 5
    assert next_in_chapter(scenario_numbered(5)) is None
    assert next_in_chapter(scenario_numbered(10)) is None
    for scenario in SCENARIOS:
        assert scenario.title and scenario.story and scenario.victory and scenario.dialogs
        assert all(dialog.title and dialog.text and dialog.points_at for dialog in scenario.dialogs)


def test_each_reward_card_is_a_new_card_of_rarity_f_never_in_a_starter_deck():
    (path,) = set_files()[:1]
    data = json.loads(path.read_text(encoding="utf-8"))
    cards = {card["title"]: card for card in data["cards"]}
    in_starters = {
        title
        for starter in data["starter_decks"].values()
        for title in [starter["avatar"], *starter["quests"], *starter["deck"]]
    }
    rewards = [scenario.reward for scenario in SCENARIOS]

    assert validate_set(data) == []
    assert len(set(rewards)) == len(SCENARIOS)
    for title in rewards:
        card = cards[title]
        assert card["rarity"] == "F" and card["text"] and card["rules"]
        assert card["lore"] and card["artist"]
        assert title not in in_starters


@pytest.mark.parametrize(
    ("scenario", "archetype"),
    [(scenario, archetype) for scenario in SCENARIOS for archetype in scenario.archetypes],
    ids=lambda value: str(value.number) if hasattr(value, "number") else value,
)
def test_each_scenario_sets_up_and_plays_to_its_end_under_the_invariants(scenario, archetype):
    player = starter_decklists_all()[archetype]
    state = scenario.beginning(tutorial_cards(), starter_decklists_all(), 5, player)

    assert engine.legal_actions(state).seat == PLAYER
    assert not scenario.goal_reached(state)
    seen = engine.view(state, PLAYER)
    theirs = seen["players"][OPPONENT]
    assert theirs["avatar"]["title"] == scenario.opponent.avatar
    assert theirs["avatar"]["damage"] == scenario.opponent.avatar_damage
    assert len(theirs["completed"]) == scenario.opponent.completed
    on_playmat = [unit["title"] for quest in seen["quests"] for unit in quest["units"][OPPONENT]]
    on_playmat += [card["title"] for card in theirs["items"] + theirs["abilities"]]
    assert Counter(on_playmat) == Counter(placed.title for placed in scenario.opponent.playmat)
    mine = [unit["title"] for quest in seen["quests"] for unit in quest["units"][PLAYER]]
    assert mine == scenario.ally_titles()
    assert len(seen["players"][PLAYER]["hand"]) == scenario.twist.hand
    assert scenario.dialog_due(state, 0) == 0

    greedy = GreedyAgent()
    state = play_out(scenario, state, greedy.choose)
    assert state.winner is not None or scenario.goal_reached(state)


def test_the_players_deck_is_shuffled_from_the_games_seed():
    scenario = scenario_numbered(3)
    player = starter_decklists_all()["jedi"]
    cards, starters = tutorial_cards(), starter_decklists_all()

    first = scenario.beginning(cards, starters, 21, player)
    again = scenario.beginning(cards, starters, 21, player)
    other = scenario.beginning(cards, starters, 22, player)

    assert engine.to_json(first) == engine.to_json(again)
    hands = [
        [card["title"] for card in engine.view(state, PLAYER)["players"][PLAYER]["hand"]]
        for state in (first, other)
    ]
    decks = [
        engine.view(state, PLAYER)["players"][PLAYER]["deck_count"] for state in (first, other)
    ]
    assert hands[0] != hands[1]
    assert decks[0] == decks[1] == len(player["deck"]) - scenario.twist.hand


@pytest.mark.parametrize("number", [1, 6])
def test_each_chapters_first_scenario_is_won_in_one_raid_by_following_its_dialogs(number):
    """Design: a newcomer with a starter deck wins the first scenario in a few turns."""
    scenario = scenario_numbered(number)
    for archetype in scenario.archetypes:
        state = scenario.beginning(
            tutorial_cards(), starter_decklists_all(), 9, starter_decklists_all()[archetype]
        )
        state = play_out(scenario, state, storming_move, limit=60)
        assert scenario.goal_reached(state) and state.turn == 1


# The site: a scenario's match, its end, its progress and its reward.


@pytest.fixture
def rebel(catalog):
    player = UserFactory(username="Rhen")
    player.deck = starter_deck(player, "rebel")
    return player


def play_scenario(match, player, move, *, limit=4000):
    """The player decides with ``move``; the computer's turns run as its task runs them."""
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return match
        game = match.games.get()
        state = game_state(game)
        decision = engine.legal_actions(state)
        if decision.seat == PLAYER:
            action = move(state, decision)
            game_act(match_id=match.pk, player=player, ply=game.applied, action=action)
        else:
            assert computer_move(match_id=match.pk, game_number=1, ply=game.applied)
    raise AssertionError("the scenario never ended")


def finishing_task(match):
    """The match's finishing task, as the worker runs it."""
    return task_named("game.match_finished").apply(kwargs={"match_id": match.pk}, throw=True).result


def reward_copies(player, number):
    card = Card.objects.get(title=scenario_numbered(number).reward, creator=None)
    ownership = CardOwnership.objects.filter(owner=player, card=card).first()
    return ownership.quantity if ownership else 0


def win_scenario_one(player):
    match = scenario_start(player=player, number=1, deck_id=player.deck.pk)
    return play_scenario(match, player, storming_move)


@pytest.mark.django_db
def test_a_scenario_begins_from_its_position_with_the_players_deck(rebel):
    match = scenario_start(player=rebel, number=1, deck_id=rebel.deck.pk)

    assert (match.status, match.scenario, match.computer_level) == ("playing", 1, "easy")
    human, computer = match.seats.order_by("seat")
    assert (human.player, human.deck, human.archetype) == (rebel, rebel.deck, "rebel")
    assert computer.player.computer_opponent.archetype == "imperial"
    assert {"Ryloth Resistance Fighter", "Repeater Gunner"} <= set(human.faces)
    assert "Agent Seline Korvath" in computer.faces
    game = match.games.get()
    assert game.position == "scenario-1"
    expected = scenario_numbered(1).beginning(
        tutorial_cards(), starter_decklists_all(), game.seed, deck_decklist(deck=rebel.deck)
    )
    assert engine.to_json(game_state(game)) == engine.to_json(expected)


@pytest.mark.django_db
def test_winning_opens_the_next_scenario_and_the_finishing_task_grants_the_reward_once(
    rebel, django_capture_on_commit_callbacks, settings
):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the finishing task runs here, as a worker would
    with django_capture_on_commit_callbacks(execute=True):
        match = win_scenario_one(rebel)

    game = match.games.get()
    assert (match.winner, game.winner_seat) == (rebel, PLAYER)
    assert game.win_reason == "the scenario's victory condition is met"
    assert reward_copies(rebel, 1) == 1  # granted as the match ended
    assert not finishing_task(match)["scenario_reward"]  # the task run again grants nothing
    assert not finishing_task(match)["scenario_reward"]
    assert reward_copies(rebel, 1) == 1
    assert (
        LedgerOperation.objects.filter(
            reference=scenario_reference(player_id=rebel.pk, number=1)
        ).count()
        == 1
    )
    states = {
        place.scenario.number: place.state
        for chapter in scenarios_map(player=rebel)
        for place in chapter.places
    }
    assert states == {
        1: "won",
        2: "open",
        3: "locked",
        4: "locked",
        5: "locked",
        6: "open",
        7: "locked",
        8: "locked",
        9: "locked",
        10: "locked",
    }
    assert skirmish_record(player=rebel) == {"won": 0, "lost": 0}


@pytest.mark.django_db
def test_a_second_win_grants_nothing_more(rebel):
    first = win_scenario_one(rebel)
    assert scenario_reward_grant(match_id=first.pk)

    second = win_scenario_one(rebel)

    assert second.winner == rebel
    assert not scenario_reward_grant(match_id=second.pk)
    assert reward_copies(rebel, 1) == 1
    assert list(ScenarioProgress.objects.values_list("scenario", "match")) == [(1, first.pk)]
    screen = match_screen(match_id=second.pk, viewer=rebel)
    assert screen.scenario_next.number == 2 and not screen.scenario_first_win


@pytest.mark.django_db
def test_the_reward_card_is_kept_out_of_trade_until_the_player_says_otherwise(rebel):
    """A reward card is one of a kind: offered for trade at once (Want 0), one click in a
    trade would give it away. Its Want is the copy owned, the player's own to lower."""
    match = win_scenario_one(rebel)
    assert scenario_reward_grant(match_id=match.pk)
    card = Card.objects.get(title=scenario_numbered(1).reward, creator=None)

    ownership = CardOwnership.objects.get(owner=rebel, card=card)
    assert (ownership.quantity, ownership.want, ownership.trade) == (1, 1, 0)
    assert card.pk not in tradeable_cards(owner=rebel).values_list("card", flat=True)
    wants_follow_deck(owner=rebel, counts={card.pk: 0})
    assert CardOwnership.objects.get(owner=rebel, card=card).want == 1

    want_set(owner=rebel, card=card, want=0)

    assert card.pk in tradeable_cards(owner=rebel).values_list("card", flat=True)


@pytest.mark.django_db
def test_a_lost_scenario_grants_nothing_and_opens_nothing(rebel):
    match = scenario_start(player=rebel, number=1, deck_id=rebel.deck.pk)

    match_concede(match_id=match.pk, player=rebel)

    assert not scenario_reward_grant(match_id=match.pk)
    assert reward_copies(rebel, 1) == 0
    assert not ScenarioProgress.objects.exists()
    with pytest.raises(MatchError, match="Scenario 2 is locked"):
        scenario_start(player=rebel, number=2, deck_id=rebel.deck.pk)


@pytest.mark.django_db
def test_the_reward_card_is_in_the_binder_and_a_deck_may_hold_it(rebel):
    win_scenario_one(rebel)
    scenario_reward_grant(match_id=Match.objects.get().pk)
    reward = Card.objects.get(title=scenario_numbered(1).reward, creator=None)
    # Swap one card of the starter deck for the reward card, which is a Rebel unit.
    swapped = DeckCard.objects.filter(deck=rebel.deck, card__card_type="unit").first()
    if swapped.quantity == 1:
        swapped.delete()
    else:
        swapped.quantity -= 1
        swapped.save()
    DeckCard.objects.create(deck=rebel.deck, card=reward, quantity=1)

    standard = PlayFormat.objects.get(slug="standard")
    validation = deck_selectors.deck_validate(deck=rebel.deck, play_format=standard)

    assert validation.valid, validation
    assert reward.rarity == "F"
    assert reward.pk not in {
        card for cards in booster_pool(reward.card_set_id).values() for card in cards
    }


@pytest.mark.django_db
def test_each_refusal_says_what_is_wrong(rebel):
    stranger = UserFactory(username="Stranger")
    their_deck = starter_deck(stranger, "jedi")
    sith_deck = starter_deck(rebel, "sith")
    broken = Deck.objects.create(owner=rebel, name="Half a deck")
    DeckCard.objects.bulk_create(
        [
            DeckCard(deck=broken, card=entry.card, quantity=entry.quantity)
            for entry in rebel.deck.entries.all()[:3]
        ]
    )

    refusals = {
        UNKNOWN_SCENARIO: {"number": 11, "deck_id": rebel.deck.pk},
        LOCKED.format(number=2, previous=1): {"number": 2, "deck_id": rebel.deck.pk},
        LOCKED.format(number=7, previous=6): {"number": 7, "deck_id": sith_deck.pk},
        NO_DECK: {"number": 1, "deck_id": None},
        "Choose one of your own decks.": {"number": 1, "deck_id": their_deck.pk},
        "Half a deck is not a valid Standard deck.": {"number": 1, "deck_id": broken.pk},
        (
            f"{sith_deck.name} is a Sith deck: Chapter 1's scenarios are played with Rebel or "
            "Jedi decks."
        ): {"number": 1, "deck_id": sith_deck.pk},
        (
            f"{rebel.deck.name} is a Rebel deck: Chapter 2's scenarios are played with "
            "Imperial or Sith decks."
        ): {"number": 6, "deck_id": rebel.deck.pk},
    }
    for message, arguments in refusals.items():
        with pytest.raises(MatchError) as refused:
            scenario_start(player=rebel, **arguments)
        assert refused.value.message == message
    assert not Match.objects.exists()
    # Chapter 2 opens with a dark deck.
    assert scenario_start(player=rebel, number=6, deck_id=sith_deck.pk).scenario == 6


@pytest.mark.django_db
def test_starting_a_scenario_concedes_an_unfinished_one(rebel):
    left = scenario_start(player=rebel, number=1, deck_id=rebel.deck.pk)

    again = scenario_start(player=rebel, number=1, deck_id=rebel.deck.pk)

    left.refresh_from_db()
    assert left.status == MatchStatus.FINISHED and left.winner != rebel
    assert again.status == MatchStatus.PLAYING


@pytest.mark.django_db
def test_a_scenarios_dialogs_are_read_in_order_and_reviewed(rebel):
    match = scenario_start(player=rebel, number=1, deck_id=rebel.deck.pk)
    screen = match_screen(match_id=match.pk, viewer=rebel)
    assert screen.guide == scenario_numbered(1)
    assert screen.tutorial_dialog["index"] == 0

    tutorial_dialog_read(match_id=match.pk, player=rebel, dialog=0)

    screen = match_screen(match_id=match.pk, viewer=rebel)
    assert screen.tutorial_dialog is None  # the next one waits for the combat
    assert [dialog.title for dialog in tutorial_dialogs_read(match_id=match.pk, viewer=rebel)] == [
        "The patrol"
    ]


# Pages.


@pytest.mark.django_db
def test_the_scenarios_page_shows_both_chapters_and_is_reached_from_play(client, rebel):
    client.force_login(rebel)

    page = client.get(reverse("game:scenarios"))

    assert page.status_code == 200
    text = page.content.decode()
    for scenario in SCENARIOS:
        assert escape(scenario.title) in text and escape(scenario.reward) in text
    assert "Chapter 1" in text and "Chapter 2" in text
    assert text.count('data-state="open"') == 2 and text.count('data-state="locked"') == 8
    assert rebel.deck.name in text
    assert reverse("game:scenarios") in client.get(reverse("game:tutorials")).content.decode()
    assert reverse("game:scenarios") in client.get(reverse("lobby")).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"scenario": "1", "deck": "abc"}, NO_DECK),
        ({"scenario": "one", "deck": "1"}, UNKNOWN_SCENARIO),
        ({"scenario": "99999999999999999999", "deck": "1"}, UNKNOWN_SCENARIO),
        ({}, UNKNOWN_SCENARIO),
        ({"scenario": "3"}, "Scenario 3 is locked: win Scenario 2 first."),
    ],
)
def test_the_scenarios_page_refuses_bad_input_with_a_message(client, rebel, data, message):
    client.force_login(rebel)

    refused = client.post(reverse("game:scenarios"), data)

    assert refused.status_code == 400
    assert message in refused.content.decode()
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_the_scenarios_page_begins_an_open_scenario(client, rebel):
    client.force_login(rebel)

    started = client.post(reverse("game:scenarios"), {"scenario": "1", "deck": rebel.deck.pk})

    match = Match.objects.get(scenario=1)
    assert started.status_code == 302
    assert started["Location"] == reverse("game:match_page", args=[match.pk])
    refused = client.post(
        reverse("game:scenarios"), {"scenario": "2", "deck": rebel.deck.pk}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 409 and "locked" in refused.content.decode()


@pytest.mark.django_db
def test_the_playmat_of_a_scenario_shows_its_info_dialog_and_review(client, rebel):
    match = scenario_start(player=rebel, number=1, deck_id=rebel.deck.pk)
    client.force_login(rebel)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert 'data-tutorial-dialog="0"' in page and "The patrol" in page
    assert "Scenario 1 · 1 of 2" in page
    assert "mat-avatar__info" in page
    assert "Drive the patrol out of Dunewater" in page  # the Info button's window
    assert "Review Dialogs" in page
    client.post(
        reverse("game:tutorial_dialog_read", args=[match.pk]),
        {"dialog": "0"},
        HTTP_HX_REQUEST="true",
    )
    review = client.get(reverse("game:tutorial_dialogs", args=[match.pk])).content.decode()
    assert "The patrol" in review and "Hit hard" not in review


@pytest.mark.django_db
def test_the_end_of_a_won_scenario_shows_the_reward_and_the_next_one(client, rebel):
    match = win_scenario_one(rebel)
    scenario_reward_grant(match_id=match.pk)
    client.force_login(rebel)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert "Scenario won" in page
    assert "Reward card earned" in page and scenario_numbered(1).reward in page
    assert "Next: Scenario 2, The Garrison Generator" in page


@pytest.mark.django_db
def test_a_finished_scenario_replays_from_its_position(rebel):
    match = win_scenario_one(rebel)

    screen = match_replay(match_id=match.pk, viewer=rebel, game_number=1, step=None, own_view=True)

    assert screen.replay["log_replays"] and screen.replay["hash_matches"]


@pytest.mark.django_db
def test_the_map_reads_in_a_fixed_number_of_queries_however_far_the_player_got(
    rebel, django_assert_num_queries
):
    with CaptureQueriesContext(connection) as fresh:
        scenarios_map(player=rebel)
    for number in range(1, 6):
        ScenarioProgress.objects.create(player=rebel, scenario=number)

    with django_assert_num_queries(len(fresh)):
        chapters = scenarios_map(player=rebel)
    assert chapters[0].won == 5 and chapters[0].next_place is None
    assert chapters[1].next_place.scenario.number == 6


@pytest.mark.django_db
def test_staff_see_the_scenario_progress_in_the_admin(client, rebel):
    win_scenario_one(rebel)
    client.force_login(UserFactory(username="Overseer", is_staff=True, is_superuser=True))

    listing = client.get(reverse("admin:game_scenarioprogress_changelist"))

    assert listing.status_code == 200
    assert "Rhen" in listing.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda scenario: f"scenario-{scenario.number}")
def test_the_playmat_and_its_log_name_the_computer_as_the_story_does(client, catalog, scenario):
    """Issue 45, point 10: the computer plays the opponent the scenario's card and story name
    (rulebook, "Scenarios"), its avatar, on the playmat, in its log, in its Match Info window
    and at its end, never under its Skirmish name."""
    player = UserFactory(username="Vash")
    player.deck = starter_deck(player, scenario.archetypes[0])
    for number in range(SCENARIOS[0].number, scenario.number):
        ScenarioProgress.objects.create(player=player, scenario=number)
    match = scenario_start(player=player, number=scenario.number, deck_id=player.deck.pk)
    skirmish_name = match.seats.get(seat=OPPONENT).player.username
    assert computer_takes_a_turn(match, player)
    match_concede(match_id=match.pk, player=player)
    client.force_login(player)

    screen = match_screen(match_id=match.pk, viewer=player)
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    info = client.get(reverse("game:match_info", args=[match.pk])).content.decode()

    assert screen.board["opponent"]["name"] == scenario.opponent_name
    assert any(escape(scenario.opponent_name) in line for line in screen.log)
    assert f"{escape(scenario.opponent_name)} wins the match" in page
    assert escape(scenario.opponent_name) in info
    assert skirmish_name not in page + info


@pytest.mark.django_db
@pytest.mark.parametrize("number", [1, 6])
def test_the_prompt_puts_first_the_buttons_each_dialog_asks_for(catalog, number):
    """Issue 45, point 14 (rulebook, "Prompt"): Scenario 1's Raid button started out of
    sight at the end of the Prompt's list. Played as the dialogs say, each dialog that asks
    for a button finds it first in the Prompt, marked to glow."""
    scenario = scenario_numbered(number)
    player = UserFactory(username="Vash")
    player.deck = starter_deck(player, scenario.archetypes[0])
    match = scenario_start(player=player, number=number, deck_id=player.deck.pk)
    asked = []
    for _ in range(60):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        game = match.games.get()
        state = game_state(game)
        decision = engine.legal_actions(state)
        screen = match_screen(match_id=match.pk, viewer=player)
        shown = screen.tutorial_dialog
        if decision.seat != PLAYER:
            assert computer_move(match_id=match.pk, game_number=1, ply=game.applied)
        elif shown is None:
            action = storming_move(state, decision)
            game_act(match_id=match.pk, player=player, ply=game.applied, action=action)
        else:
            buttons = [action for action in screen.board["actions"] if not action["repeat"]]
            wanted = [b for b in buttons if b["label"].startswith(shown["dialog"].asks_for)]
            assert wanted and buttons[: len(wanted)] == wanted, [b["label"] for b in buttons]
            assert all(button["asked"] for button in wanted)
            asked.append(shown["dialog"].title)
            tutorial_dialog_read(match_id=match.pk, player=player, dialog=shown["index"])

    assert asked == [dialog.title for dialog in scenario.dialogs]
