"""The playmat's look and feel that the server decides (rulebook, THE GAME SCREEN; Preferences,
Card Size): the hint on the cards of the hand that can be played now, the cards that take a
double-click, Enter or a drag, and the size the playmat draws its cards at."""

import re

import pytest
from django.db import connection
from django.urls import reverse

from game import fragments
from game.ai.agents import GreedyAgent
from game.engine import api as engine
from game.engine.positions import Placed, Position, SeatSetup, build
from game.models import Game, MatchStatus
from game.selectors import RECENT_ACTIONS, game_state, match_moment, match_screen
from game.services.matches import (
    MatchSettings,
    game_act,
    match_concede,
    match_create,
    match_join,
    match_ready,
)
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

PLAYS = {"play", "play_tactic"}


def at_quest(action: dict) -> bool:
    """A unit's play, which names the quest it goes to."""
    return action.get("quest") is not None


def play_until_main_phase(match, players, *, seat=0, turn=3, play=lambda action: True):
    """Play the match's first game with the greedy computer player for both seats until
    ``seat`` decides in a Main Phase of ``turn`` or later with a card to play (one for which
    ``play`` is true); the legal actions then."""
    agent = GreedyAgent()
    for _ in range(1000):
        game = Game.objects.filter(match=match).latest("number")
        state = game_state(game)
        decision = engine.legal_actions(state)
        plays = [action for action in decision.actions if action["kind"] == "play"]
        if decision.seat == seat and state.turn >= turn and any(map(play, plays)):
            return decision.actions
        action = agent.choose(state, decision)
        game_act(match_id=match.pk, player=players[decision.seat], ply=game.applied, action=action)
    raise AssertionError("the game never reached such a Main Phase")


def crowded_quest(match, *, units=8):
    """The match's first game set up, through the position builder, as it stands in a long
    game: Carol (seat 0) in her Main Phase of turn 9 with ``units`` units at her own quest
    (index 0) and one at Bob's, Bob's four units facing hers, and seven cards in her hand (a
    unit first) with the power to play them; her legal actions. Units are each seat's first
    of each title in its decklist, every third one exerted and the second damaged; the cards
    are the seats' own, so each has its face. (The game's log is emptied: not replayable.)"""
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]

    def seat(decklist, *, mine, theirs, hand):
        deck, placed, titles = list(decklist["deck"]), [], set()
        for quest, count in ((0, mine), (1, theirs)):
            for card in [card for card in deck if card["type"] == "unit"]:
                if sum(each.quest == quest for each in placed) == count:
                    break
                if card["title"] in titles:
                    continue
                titles.add(card["title"])
                deck.remove(card)
                n = len(placed)
                damage = 1 if n == 1 and (card.get("health") or 0) > 1 else 0
                placed.append(Placed(card, quest=quest, exerted=n % 3 == 2, damage=damage))
            assert sum(each.quest == quest for each in placed) == count, "too few units"
        if hand:  # a unit first, which she may play at either quest
            unit = next(card for card in deck if card["type"] == "unit")
            deck.remove(unit)
            deck.insert(0, unit)
        return SeatSetup(
            avatar=decklist["avatar"],
            quests=decklist["quests"],
            hand=deck[:hand],
            playmat=tuple(placed),
            deck=deck[hand:],
            tokens=(2, 1),
            power=12 if hand else None,
        )

    state = build(
        Position(
            seats=(
                seat(decklists[0], mine=units, theirs=1, hand=7),
                seat(decklists[1], mine=4, theirs=0, hand=0),
            ),
            first=0,
            turn=9,
        )
    )
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])
    return engine.legal_actions(state).actions


def hand_cards(page: str) -> dict[int, str]:
    """The cards of the page's hand: their classes and attributes, by card id."""
    hand = re.search(r'<ul class="mat-hand".*?</ul>', page, re.DOTALL).group(0)
    return {
        int(card): tag for tag, card in re.findall(r'(<figure [^>]*data-card="(\d+)"[^>]*>)', hand)
    }


def test_the_cards_of_the_hand_that_can_be_played_now_are_hinted(client, carol, bob):
    match = start_match(carol, bob)
    actions = play_until_main_phase(match, [carol, bob])
    playable = {action["card"] for action in actions if action["kind"] in PLAYS}
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    cards = hand_cards(page)
    assert playable and playable <= set(cards)
    for card, tag in cards.items():
        hinted = card in playable
        assert ("mat-card--playable" in tag) == hinted, tag
        assert ('draggable="true"' in tag) == hinted, tag
        # A card with an action now takes Tab, Enter and a double-click.
        assert ('tabindex="0"' in tag) == ("mat-card--actionable" in tag), tag
        if hinted:
            assert "mat-card--actionable" in tag and "You can play it now" in tag


def test_a_unit_s_play_names_the_quest_to_drop_it_on(client, carol, bob):
    match = start_match(carol, bob)
    actions = play_until_main_phase(match, [carol, bob], play=at_quest)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    at_quests = [action for action in actions if action["kind"] == "play" and "quest" in action]
    for action in at_quests:
        assert f'data-action-card="{action["card"]}" data-action-quest="{action["quest"]}"' in page
        assert f'data-quest="{action["quest"]}"' in page


def test_only_the_deciding_player_sees_hints(client, carol, bob):
    match = start_match(carol, bob)
    play_until_main_phase(match, [carol, bob])
    observer = UserFactory(username="Dave")

    for viewer in (bob, observer):
        client.force_login(viewer)
        page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
        assert 'class="playmat' in page
        assert "mat-card--playable" not in page and 'draggable="true"' not in page
        assert "mat-card--actionable" not in page and 'tabindex="0"' not in page


def test_a_match_that_ended_hints_nothing(client, carol, bob):
    match = start_match(carol, bob)
    play_until_main_phase(match, [carol, bob])
    match_concede(match_id=match.pk, player=bob)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert "Carol wins the match" in page
    assert "mat-card--playable" not in page and 'tabindex="0"' not in page


@pytest.mark.parametrize("size", ["small", "medium", "large"])
def test_the_playmat_draws_its_cards_at_the_players_card_size(client, carol, bob, size):
    carol.preferences.card_size_playmat = size
    carol.preferences.save()
    match = start_match(carol, bob)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    # The match socket renders the playmat again after every decision, with no request.
    screen = match_screen(match_id=match.pk, viewer=carol)
    swapped, _ = fragments.match_screen_update(screen, replace_log=False, clear_error=True)

    for html in (page, swapped):
        assert f'<section class="playmat" aria-label="Playmat" data-card-size="{size}">' in html
    # Bob keeps his own (the default, medium).
    client.force_login(bob)
    bobs = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert 'data-card-size="medium"' in bobs
    # An observer draws them at their own.
    watcher = UserFactory(username="Watcher")
    watcher.preferences.card_size_playmat = "large"
    watcher.preferences.save()
    client.force_login(watcher)
    watching = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert 'data-card-size="large"' in watching


def test_exerted_and_damaged_cards_say_so(client, carol, bob):
    match = start_match(carol, bob)
    play_until_main_phase(match, [carol, bob], turn=4)
    state = game_state(Game.objects.get(match=match))
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    seen = engine.view(state, 0)
    units = [unit for quest in seen["quests"] for side in quest["units"] for unit in side]
    for card in [seen["players"][0]["avatar"], seen["players"][1]["avatar"], *units]:
        tag = re.search(rf'<figure [^>]*data-card="{card["id"]}"[^>]*>', page).group(0)
        assert ("mat-card--exerted" in tag) == card["exerted"]
        assert f'data-damage="{card["damage"]}"' in tag


def test_a_moment_read_for_every_socket_gives_each_the_chat_log_it_would_read_itself(
    carol, bob, django_assert_max_num_queries
):
    """A socket shown the match a few actions ago takes the game messages since from the
    moment read for all the match's sockets, the same lines it would read on its own; one
    left further behind reads them itself."""
    match = start_match(carol, bob)
    agent = GreedyAgent()
    seen = {}
    for _ in range(RECENT_ACTIONS + 3):
        for player in (carol, bob):
            seen.setdefault(player, []).append(match_screen(match_id=match.pk, viewer=player))
        game = Game.objects.filter(match=match).latest("number")
        state = game_state(game)
        decision = engine.legal_actions(state)
        action = agent.choose(state, decision)
        game_act(
            match_id=match.pk, player=[carol, bob][decision.seat], ply=game.applied, action=action
        )

    moment = match_moment(match_id=match.pk, with_recent_actions=True)
    for player, screens in seen.items():
        for earlier in screens:
            on_its_own = match_screen(match_id=match.pk, viewer=player, logged=earlier.logged)
            shared = match_screen(
                match_id=match.pk,
                viewer=player,
                logged=earlier.logged,
                moment=moment,
                card_size="medium",
            )
            assert shared.log == on_its_own.log
            assert shared.logged == on_its_own.logged
    recent = seen[carol][-2].logged
    with django_assert_max_num_queries(0):
        match_screen(
            match_id=match.pk, viewer=carol, logged=recent, moment=moment, card_size="medium"
        )


def test_a_sockets_update_swaps_in_the_screen_and_adds_the_log_lines_escaping_plain_text(
    carol, bob
):
    """The update a match's socket sends: the playmat in place of the screen shown, then the
    Chat Log's new lines, which are HTML made by the site (kept) or, were one plain text,
    escaped; then the refusal shown cleared."""
    match = start_match(carol, bob)
    screen = match_screen(match_id=match.pk, viewer=carol)
    screen.log = [fragments.game_line([("* Carol draws a card.", False)], {}), "<b>plain</b>"]

    update, _ = fragments.match_screen_update(screen, replace_log=False, clear_error=True)

    assert re.match(
        r'<div id="match-screen" hx-swap-oob="true">\s*<section class="playmat"', update
    )
    log = re.search(r'<ol id="match-log" hx-swap-oob="beforeend">(.*?)</ol>', update).group(1)
    assert log == (
        '<li class="log-line log-line--game">* Carol draws a card.</li>&lt;b&gt;plain&lt;/b&gt;'
    )
    assert update.endswith(
        '<p id="match-error" class="match-error" role="alert" hidden hx-swap-oob="true"></p>'
    )
    replaced, _ = fragments.match_screen_update(screen, replace_log=True, clear_error=False)
    assert '<ol id="match-log" class="match-log" aria-live="polite" hx-swap-oob="true">' in replaced
    assert 'id="match-error"' not in replaced


def test_a_moment_read_as_its_match_begins_has_the_first_game(carol, bob):
    """The moment reads the match's latest game, then (with none) the match: a match that
    began between the two reads is playing with a game the first read missed, and its
    screen, the playmat, needs that game's board (a socket's screen failed to render so)."""
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    match_ready(match_id=match.pk, player=carol)
    games_read = []

    def begin_after_the_first_read_of_games(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if 'FROM "game_game"' in sql and not games_read:
            games_read.append(sql)
            match_ready(match_id=match.pk, player=bob)
        return result

    with connection.execute_wrapper(begin_after_the_first_read_of_games):
        moment = match_moment(match_id=match.pk)

    assert games_read
    assert moment.match.status == MatchStatus.PLAYING
    assert moment.game is not None and moment.state is not None
    screen = match_screen(match_id=match.pk, viewer=carol, moment=moment)
    assert screen.board is not None
    assert (
        "match-screen"
        in fragments.match_screen_update(screen, replace_log=True, clear_error=False)[0]
    )


def test_a_crowded_quest_shows_every_unit(client, carol, bob):
    """Eight units at one quest (the position of the playmat's browser tests) are all drawn."""
    match = start_match(carol, bob)
    crowded_quest(match, units=8)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    units = re.search(r'<ul class="mat-units mat-units--near"[^>]*>(.*?)</ul>', page, re.DOTALL)
    assert units.group(1).count("<figure ") == 8


def test_a_change_sends_only_the_regions_of_the_screen_it_changed(client, carol, bob):
    """A decision changes a few parts of the playmat (the Prompt, the cards and counts the
    action touched): the socket sends those regions alone, each swapped in by its id, and the
    page they make is the one a whole screen would have made."""
    match = start_match(carol, bob)
    # A Main Phase with a unit to play: the match's seed is random, and some hands hold none.
    actions = play_until_main_phase(match, [carol, bob], play=at_quest)
    screen = match_screen(match_id=match.pk, viewer=carol)
    whole, shown = fragments.match_screen_update(screen, replace_log=True, clear_error=False)
    assert 'id="match-screen"' in whole
    assert {"mat-prompt", "mat-hand", "mat-quests", "mat-info-near", "mat-row-far"} <= set(shown)

    game = Game.objects.filter(match=match).latest("number")
    unit = next(action for action in actions if action["kind"] == "play" and at_quest(action))
    game_act(match_id=match.pk, player=carol, ply=game.applied, action=unit)
    after = match_screen(match_id=match.pk, viewer=carol, logged=screen.logged)
    update, regions = fragments.match_screen_update(
        after, replace_log=False, clear_error=True, shown=shown
    )

    assert 'id="match-screen"' not in update
    changed = set(
        re.findall(r'<!--region--><[\w-]+ hx-swap-oob="true"[^>]*?\sid="([\w-]+)"', update)
    )
    assert {"mat-prompt", "mat-hand", "mat-quests"} <= changed
    assert "mat-row-far" not in changed and "mat-phase" not in changed
    assert changed == {name for name in regions if regions[name] != shown[name]}
    assert len(update) < len(whole)
    rebuilt = fragments.match_screen_update(after, replace_log=False, clear_error=True)[0]
    assert rebuilt.count("<!--region-->") == len(regions)
