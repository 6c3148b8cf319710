"""The Tutorials (rulebook, "Tutorials/Scenarios", "Tutorials"): guided single-player games,
each begun from its position against the computer, won by its goal (the victory condition its
opponent's Info button shows, rulebook "Info Button"), with dialogs told in order (rulebook,
"Review Dialogs"), and the player's progress kept."""

import pytest
from django.urls import reverse

from game.ai.agents import GreedyAgent
from game.engine import api as engine
from game.models import Match, MatchStatus, TutorialProgress
from game.selectors import (
    game_state,
    match_replay,
    match_screen,
    skirmish_record,
    tutorial_cards,
    tutorials_map,
)
from game.services.matches import MatchError, finish_game, game_act, match_concede
from game.services.skirmish import computer_move
from game.services.tutorials import tutorial_dialog_read, tutorial_start
from game.tutorials import PLAYER, TUTORIALS, tutorial_named
from tests.factories import UserFactory
from tests.game.conftest import computer_takes_a_turn


def _first(actions, predicate):
    return next((action for action in actions if predicate(action)), None)


def lesson_move(tutorial, state, decision) -> dict:
    """What a player who follows the tutorial's dialogs does at ``decision``."""
    view = engine.view(state, PLAYER)
    titles = {card: title for card, title in _titles(view).items()}
    actions = decision.actions
    quests = [quest["card"]["id"] for quest in view["quests"]]
    wanted = {
        "power-and-cards": [lambda a: a["kind"] == "play"],
        "activated-actions": [
            lambda a: a["kind"] == "activate",
            lambda a: titles.get(a.get("card")) == "Snowfield Trooper",
        ],
        "quests-and-levels": [
            lambda a: a["kind"] == "attempt_quest" and a["quest"] == quests[0],
            lambda a: titles.get(a.get("card")) == "Survival Instincts",
        ],
        "raids-and-combat": [lambda a: a["kind"] == "raid" and a["quest"] == quests[0]],
        "tactics": [
            lambda a: a["kind"] == "raid" and a["quest"] == quests[0],
            lambda a: a["kind"] == "play_tactic",
        ],
        "winning": [lambda a: a["kind"] == "raid" and a["quest"] == quests[1]],
    }[tutorial.slug] + [lambda a: a["kind"] == "exert", lambda a: a["kind"] in ("pass", "done")]
    for predicate in wanted:
        action = _first(actions, predicate)
        if action is not None:
            return action
    return actions[0]


def _titles(view) -> dict[int, str]:
    cards = {}
    for player in view["players"]:
        for zone in ("hand", "items", "abilities"):
            for card in player.get(zone) or ():
                cards[card["id"]] = card["title"]
    for quest in view["quests"]:
        for side in quest["units"]:
            for card in side:
                cards[card["id"]] = card["title"]
    return cards


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda tutorial: tutorial.slug)
def test_each_tutorial_begins_short_of_its_goal_and_its_lesson_reaches_it(tutorial):
    state = tutorial.beginning(tutorial_cards(), seed=11)
    assert engine.legal_actions(state).seat == PLAYER
    assert not tutorial.goal_reached(state)
    assert tutorial.dialogs and tutorial.victory and tutorial.lesson

    opponent = GreedyAgent()
    for _ in range(60):
        decision = engine.legal_actions(state)
        if decision.seat == PLAYER:
            engine.apply(state, lesson_move(tutorial, state, decision))
        else:
            engine.apply(state, opponent.choose(state, decision))
        if tutorial.goal_reached(state) or state.winner is not None:
            break
    assert tutorial.goal_reached(state) or state.winner == PLAYER, tutorial.slug


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda tutorial: tutorial.slug)
def test_each_tutorial_greets_its_player_with_its_first_dialog_and_stops_after_its_last(
    tutorial,
):
    state = tutorial.beginning(tutorial_cards(), seed=3)

    assert tutorial.dialog_due(state, 0) == 0
    assert tutorial.dialog_due(state, len(tutorial.dialogs)) is None
    assert all(dialog.points_at and dialog.title and dialog.text for dialog in tutorial.dialogs)


def test_a_dialog_waits_for_its_moment():
    tutorial = tutorial_named("quests-and-levels")
    state = tutorial.beginning(tutorial_cards(), seed=3)
    apply_ability = 1

    assert tutorial.dialog_due(state, apply_ability) is None  # still choosing the quest
    quest = engine.view(state, PLAYER)["quests"][0]["card"]["id"]
    engine.apply(state, {"kind": "attempt_quest", "quest": quest})
    assert tutorial.dialog_due(state, apply_ability) == apply_ability


# The site: a tutorial's match, its end, its progress.


@pytest.fixture
def newcomer(catalog):
    return UserFactory(username="Nell")


def play_lesson(match, player, *, limit=80):
    """The player follows the lesson; the computer's turns run as its task would run them."""
    tutorial = tutorial_named(match.tutorial)
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return
        game = match.games.get()
        state = game_state(game)
        decision = engine.legal_actions(state)
        if decision.seat == PLAYER:
            action = lesson_move(tutorial, state, decision)
            game_act(match_id=match.pk, player=player, ply=game.applied, action=action)
        else:
            assert computer_move(match_id=match.pk, game_number=1, ply=game.applied)
    raise AssertionError("the tutorial never ended")


@pytest.mark.django_db
def test_a_tutorial_begins_from_its_position_against_the_computer(newcomer):
    match = tutorial_start(player=newcomer, slug="raids-and-combat")

    assert (match.status, match.tutorial, match.computer_level) == (
        "playing",
        "raids-and-combat",
        "easy",
    )
    human, computer = match.seats.order_by("seat")
    assert (human.player, human.deck, human.archetype) == (newcomer, None, "rebel")
    assert computer.player.computer_opponent.archetype == "imperial"
    assert {"Ryloth Resistance Fighter", "Jawa Scrap Haulers"} <= set(human.faces) | set(
        computer.faces
    )
    game = match.games.get()
    assert game.position == "raids-and-combat"
    expected = tutorial_named("raids-and-combat").beginning(tutorial_cards(), game.seed)
    assert engine.to_json(game_state(game)) == engine.to_json(expected)


@pytest.mark.django_db
def test_reaching_the_goal_wins_the_tutorial_and_keeps_the_progress_once(newcomer):
    match = tutorial_start(player=newcomer, slug="quests-and-levels")

    play_lesson(match, newcomer)

    match.refresh_from_db()
    game = match.games.get()
    assert (match.status, match.winner) == (MatchStatus.FINISHED, newcomer)
    assert (game.winner_seat, game.win_reason) == (PLAYER, "the tutorial's goal is reached")
    assert game.computer_due is None
    assert list(TutorialProgress.objects.values_list("player", "tutorial")) == [
        (newcomer.pk, "quests-and-levels")
    ]
    finish_game(match, game)  # the end handled twice records it once
    assert TutorialProgress.objects.count() == 1
    assert skirmish_record(player=newcomer) == {"won": 0, "lost": 0}


@pytest.mark.django_db
def test_a_finished_tutorial_replays_from_its_position(newcomer):
    match = tutorial_start(player=newcomer, slug="power-and-cards")
    play_lesson(match, newcomer)

    screen = match_replay(
        match_id=match.pk, viewer=newcomer, game_number=1, step=None, own_view=True
    )

    assert screen.replay["log_replays"] and screen.replay["hash_matches"]
    assert screen.replay["actions"] == 4  # three cards played, then the goal


@pytest.mark.django_db
def test_a_lost_tutorial_keeps_no_progress_and_can_be_played_again(newcomer):
    from game.services.matches import match_concede

    match = tutorial_start(player=newcomer, slug="tactics")
    match_concede(match_id=match.pk, player=newcomer)

    assert not TutorialProgress.objects.exists()
    again = tutorial_start(player=newcomer, slug="tactics")
    assert again.pk != match.pk and again.status == MatchStatus.PLAYING


@pytest.mark.django_db
def test_starting_another_tutorial_concedes_the_unfinished_one(newcomer):
    left = tutorial_start(player=newcomer, slug="tactics")

    tutorial_start(player=newcomer, slug="winning")

    left.refresh_from_db()
    assert left.status == MatchStatus.FINISHED
    assert Match.objects.filter(status=MatchStatus.PLAYING).count() == 1


@pytest.mark.django_db
def test_a_tutorial_is_refused_while_a_real_match_goes_on(newcomer):
    from game.services.skirmish import skirmish_start
    from tests.game.conftest import starter_deck

    skirmish_start(
        player=newcomer, deck=starter_deck(newcomer, "jedi"), archetype="sith", level="easy"
    )

    with pytest.raises(MatchError, match="already in match"):
        tutorial_start(player=newcomer, slug="tactics")


@pytest.mark.django_db
def test_an_unknown_tutorial_is_refused(newcomer):
    with pytest.raises(MatchError, match="Choose one of the tutorials"):
        tutorial_start(player=newcomer, slug="flying")
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_dialogs_are_read_in_order_and_once(newcomer):
    match = tutorial_start(player=newcomer, slug="power-and-cards")

    tutorial_dialog_read(match_id=match.pk, player=newcomer, dialog=0)
    tutorial_dialog_read(match_id=match.pk, player=newcomer, dialog=0)  # a second click
    tutorial_dialog_read(match_id=match.pk, player=newcomer, dialog=5)  # not the one shown

    match.refresh_from_db()
    assert match.dialogs_read == 1
    screen = match_screen(match_id=match.pk, viewer=newcomer)
    assert screen.tutorial_dialog["index"] == 1
    assert [dialog.title for dialog in screen.tutorial_dialogs_read] == [
        "Your avatar and your power"
    ]


@pytest.mark.django_db
def test_only_the_tutorials_player_reads_its_dialogs(newcomer):
    match = tutorial_start(player=newcomer, slug="power-and-cards")
    stranger = UserFactory(username="Stranger")
    computer = match.seats.get(seat=1).player

    with pytest.raises(MatchError):
        tutorial_dialog_read(match_id=match.pk, player=stranger, dialog=0)
    with pytest.raises(MatchError, match="its player's"):
        tutorial_dialog_read(match_id=match.pk, player=computer, dialog=0)


@pytest.mark.django_db
def test_the_map_shows_each_tutorial_and_what_the_player_completed(newcomer):
    TutorialProgress.objects.create(player=newcomer, tutorial="tactics")

    places = tutorials_map(player=newcomer)

    assert [place.tutorial.slug for place in places] == [each.slug for each in TUTORIALS]
    assert [place.tutorial.slug for place in places if place.completed] == ["tactics"]


@pytest.mark.django_db
def test_the_tutorials_page_starts_a_tutorial_and_refuses_a_bad_one(client, newcomer):
    client.force_login(newcomer)

    page = client.get(reverse("game:tutorials"))
    assert page.status_code == 200
    for tutorial in TUTORIALS:
        assert tutorial.title in page.content.decode()

    refused = client.post(reverse("game:tutorial_start"), {"tutorial": "flying"}, follow=True)
    assert refused.status_code == 200
    assert "Choose one of the tutorials" in refused.content.decode()

    started = client.post(reverse("game:tutorial_start"), {"tutorial": "winning"})
    match = Match.objects.get(tutorial="winning")
    assert started.status_code == 302 and started["Location"] == reverse(
        "game:match_page", args=[match.pk]
    )


@pytest.mark.django_db
def test_the_playmat_of_a_tutorial_shows_its_dialog_info_and_review(client, newcomer):
    match = tutorial_start(player=newcomer, slug="power-and-cards")
    client.force_login(newcomer)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert 'data-tutorial-dialog="0"' in page and "Your avatar and your power" in page
    assert 'data-points-at="[data-zone=&#34;avatar-0&#34;]"' in page
    assert "Have a unit at a quest, an item and an ability" in page  # the Info button's window
    assert "Review Dialogs" in page

    read = client.post(
        reverse("game:tutorial_dialog_read", args=[match.pk]),
        {"dialog": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert read.status_code == 204
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert 'data-tutorial-dialog="1"' in page
    review = client.get(reverse("game:tutorial_dialogs", args=[match.pk])).content.decode()
    assert "Your avatar and your power" in review and "Your hand" not in review


@pytest.mark.django_db
def test_the_main_lobby_leads_a_newcomer_to_the_tutorials(client, newcomer):
    client.force_login(newcomer)

    page = client.get(reverse("lobby")).content.decode()

    assert reverse("game:tutorials") in page
    assert "0 of 6" in page
    for tutorial in TUTORIALS:
        TutorialProgress.objects.create(player=newcomer, tutorial=tutorial.slug)
    page = client.get(reverse("lobby")).content.decode()
    assert "6 of 6" in page


@pytest.mark.django_db
def test_review_dialogs_is_empty_in_a_game_without_dialogs_and_refused_to_strangers(
    client, newcomer
):
    tutorial = tutorial_start(player=newcomer, slug="tactics")
    stranger = UserFactory(username="Stranger")
    client.force_login(stranger)

    refused = client.get(reverse("game:tutorial_dialogs", args=[tutorial.pk]))
    assert refused.status_code == 404

    client.force_login(newcomer)
    assert (
        "No dialog has been read"
        in client.get(reverse("game:tutorial_dialogs", args=[tutorial.pk])).content.decode()
    )


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda tutorial: tutorial.slug)
def test_the_computer_is_named_as_the_lesson_names_it(tutorial):
    """Issue 45, point 10: the lesson's opponent is its avatar, the name its goal and dialogs
    use, not a Skirmish opponent's."""
    opponent = tutorial.setup(tutorial_cards()).seats[1]

    assert tutorial.opponent_name == opponent.avatar["title"]


@pytest.mark.django_db
@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda tutorial: tutorial.slug)
def test_the_playmat_and_its_log_name_the_computer_as_the_lesson_does(client, newcomer, tutorial):
    """The playmat, its log, its Match Info window, its end and the match history name the
    computer as the lesson does (rulebook, "Tutorials"), never by its Skirmish name."""
    match = tutorial_start(player=newcomer, slug=tutorial.slug)
    computer = match.seats.get(seat=1)
    skirmish_name = computer.player.username
    client.force_login(newcomer)
    computer_moved = computer_takes_a_turn(match, newcomer)
    if match.status == MatchStatus.PLAYING:
        match_concede(match_id=match.pk, player=newcomer)

    screen = match_screen(match_id=match.pk, viewer=newcomer)
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    info = client.get(reverse("game:match_info", args=[match.pk])).content.decode()
    history = client.get(reverse("game:match_history")).content.decode()

    assert screen.board["opponent"]["name"] == tutorial.opponent_name
    # The quest's lesson may be won before the computer's first turn.
    if computer_moved:
        assert any(tutorial.opponent_name in line for line in screen.log)
    assert tutorial.opponent_name in info
    match.refresh_from_db()
    winner = tutorial.opponent_name if match.winner == computer.player else newcomer.username
    assert f"{winner} wins the match" in page
    assert skirmish_name not in page + info
    assert f">{tutorial.opponent_name}</a>" in history


@pytest.mark.django_db
def test_a_tutorial_ends_on_its_lesson_and_its_replay_keeps_the_seed_check(client, newcomer):
    """Issue 45, point 16: a won tutorial's last word is the lesson's, not the seed's check
    against its committed hash; the replay, where a player checks a game, still shows it."""
    match = tutorial_start(player=newcomer, slug="power-and-cards")
    play_lesson(match, newcomer)
    client.force_login(newcomer)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    replay = client.get(reverse("game:match_replay", args=[match.pk])).content.decode()

    result = page.partition('<section class="match-result')[2].partition("</section>")[0]
    assert "Tutorial complete" in result
    assert "seed" not in result.lower()
    assert "is the hash published when the game began" in replay


@pytest.mark.django_db
@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda tutorial: tutorial.slug)
def test_the_prompt_puts_first_the_buttons_each_dialog_asks_for(newcomer, tutorial):
    """Issue 45, point 14 (rulebook, "Prompt"): the button a dialog names started out of
    sight at the end of a long list. Played as the lesson goes, each dialog that asks for a
    button finds it in the Prompt, first, and marked to glow."""
    match = tutorial_start(player=newcomer, slug=tutorial.slug)
    asked = set()
    for _ in range(80):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        game = match.games.get()
        state = game_state(game)
        decision = engine.legal_actions(state)
        if decision.seat != PLAYER:
            assert computer_move(match_id=match.pk, game_number=1, ply=game.applied)
            continue
        screen = match_screen(match_id=match.pk, viewer=newcomer)
        shown = screen.tutorial_dialog
        if shown is None:
            action = lesson_move(tutorial, state, decision)
            game_act(match_id=match.pk, player=newcomer, ply=game.applied, action=action)
            continue
        if shown["dialog"].asks_for:
            buttons = [action for action in screen.board["actions"] if not action["repeat"]]
            wanted = [b for b in buttons if b["label"].startswith(shown["dialog"].asks_for)]
            assert wanted, (shown["dialog"].title, [b["label"] for b in buttons])
            assert buttons[: len(wanted)] == wanted
            assert all(button["asked"] for button in wanted)
            asked.add(shown["dialog"].title)
        tutorial_dialog_read(match_id=match.pk, player=newcomer, dialog=shown["index"])

    # A dialog may not come: the lesson can be won before its moment (the damage bonus).
    assert bool(asked) == any(dialog.asks_for for dialog in tutorial.dialogs)
