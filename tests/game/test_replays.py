"""Replays and match history (docs/design.md, "Live play": a match is its seed, decklists and
action log; the seed's hash is published at the start and the seed itself at the end)."""

import re
from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from game import fragments
from game.engine import api as engine
from game.engine.events import WIN_REASONS
from game.models import Game, Match
from game.selectors import game_result, game_state, match_replay
from game.services.matches import match_clocks_sweep, match_concede
from game.services.offers import match_offer, match_offer_answer
from guilds.models import Guild, GuildMembership
from tests.factories import UserFactory
from tests.game.conftest import play_at_random, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(carol, bob):
    match = start_match(carol, bob)
    play_at_random(match, 30)
    match_concede(match_id=match.pk, player=bob)
    match.refresh_from_db()
    return match


def test_the_replay_steps_through_the_game_and_checks_the_seed(client, finished, carol):
    client.force_login(UserFactory(username="Dave"))
    url = reverse("game:match_replay", args=[finished.pk])
    game = finished.games.get()

    end = client.get(url).content.decode()
    start = client.get(url, {"step": 0}).content.decode()
    middle = client.get(url, {"step": 10}).content.decode()

    # Its last step is Bob's concession, after the log's actions.
    assert f"Step {game.applied + 1} of {game.applied + 1}" in end
    assert f"Step 0 of {game.applied + 1}" in start and "Step 10 of" in middle
    assert "✓ sha256" in end and "✓ Replaying the" in end
    assert str(game.seed) in end and game.seed_salt in end
    assert 'rel="prev"' not in start and 'rel="next"' in start


def test_a_replay_shows_hidden_cards_only_to_their_own_player(client, finished, carol):
    url = reverse("game:match_replay", args=[finished.pk])
    state = engine.replay(
        finished.games.get().decklists,
        finished.games.get().seed,
        list(finished.games.get().actions.order_by("number").values_list("action", flat=True))[:10],
    )
    carols_hand = set(state.seats[0].hand)
    hidden = {card for seat in state.seats for card in seat.hand + seat.deck + seat.quest_pile}

    client.force_login(UserFactory(username="Dave"))
    public = client.get(url, {"step": 10, "view": "mine"}).content.decode()
    client.force_login(carol)
    own = client.get(url, {"step": 10, "view": "mine"}).content.decode()

    shown_publicly = {int(card) for card in re.findall(r'data-card="(\d+)"', public)}
    shown_to_carol = {int(card) for card in re.findall(r'data-card="(\d+)"', own)}
    assert not shown_publicly & hidden
    assert carols_hand <= shown_to_carol
    assert "Your view" in own and "The public view" in public


def test_a_match_in_progress_has_no_replay_yet(client, carol, bob):
    match = start_match(carol, bob)
    client.force_login(carol)

    response = client.get(reverse("game:match_replay", args=[match.pk]))

    assert response.status_code == 200
    assert "when the match has ended" in response.content.decode()
    assert client.get(reverse("game:match_replay", args=[9999])).status_code == 404


def test_match_history_lists_opponent_decks_result_and_replay(
    client, finished, carol, bob, django_assert_max_num_queries
):
    client.force_login(carol)

    with django_assert_max_num_queries(15):
        page = client.get(reverse("game:match_history")).content.decode()

    assert "Bob" in page and "Jedi against Sith" in page and "Won" in page and "1–0" in page
    assert reverse("game:match_replay", args=[finished.pk]) in page
    theirs = client.get(reverse("game:player_match_history", args=["Bob"])).content.decode()
    assert "Lost" in theirs and "Carol" in theirs


def finished_match(carol, bob, **settings):
    match = start_match(carol, bob, **settings)
    match_concede(match_id=match.pk, player=bob)
    return match


def test_the_replay_of_a_match_without_observers_is_for_its_players_and_staff(client, carol, bob):
    match = finished_match(carol, bob, allow_observers=False)
    url = reverse("game:match_replay", args=[match.pk])

    client.force_login(UserFactory(username="Dave"))
    refused = client.get(url)
    client.force_login(UserFactory(username="Mods", is_staff=True))
    by_staff = client.get(url)
    client.force_login(bob)
    by_a_player = client.get(url)

    assert refused.status_code == 403
    assert "does not allow observers" in refused.content.decode()
    assert str(match.games.get().seed) not in refused.content.decode()
    assert by_staff.status_code == by_a_player.status_code == 200


def test_the_replay_of_a_guild_only_match_is_for_its_guild(client, carol, bob):
    guild = Guild.objects.create(name="Mos Eisley Traders", leader=carol)
    member = UserFactory(username="Mira")
    for each in (carol, bob, member):
        GuildMembership.objects.create(guild=guild, user=each)
    match = finished_match(carol, bob, guild_only=True)
    url = reverse("game:match_replay", args=[match.pk])

    client.force_login(UserFactory(username="Dave"))
    refused = client.get(url)
    client.force_login(member)
    by_a_member = client.get(url)

    assert refused.status_code == 403 and "Guild-Only match" in refused.content.decode()
    assert by_a_member.status_code == 200


def test_a_match_history_lists_a_private_match_only_to_whom_may_see_its_replay(client, carol, bob):
    public = finished_match(carol, bob)
    private = finished_match(carol, bob, allow_observers=False)
    private_url = reverse("game:match_replay", args=[private.pk])
    public_url = reverse("game:match_replay", args=[public.pk])
    bobs_history = reverse("game:player_match_history", args=["Bob"])

    client.force_login(UserFactory(username="Dave"))
    seen_by_another = client.get(bobs_history).content.decode()
    client.force_login(bob)
    seen_by_bob = client.get(reverse("game:match_history")).content.decode()
    seen_by_carol = client.get(reverse("game:player_match_history", args=["Carol"])).content

    assert public_url in seen_by_another and private_url not in seen_by_another
    assert public_url in seen_by_bob and private_url in seen_by_bob
    assert private_url in seen_by_carol.decode()


def deciding_player(match):
    game = Game.objects.filter(match=match).latest("number")
    return match.seats.get(seat=engine.legal_actions(game_state(game)).seat).player


def conceded_by_the_decider(carol, bob):
    match = start_match(carol, bob)
    loser = deciding_player(match)
    match_concede(match_id=match.pk, player=loser)
    winner = bob if loser == carol else carol
    return match, f"{winner.username} wins the game: {loser.username} conceded"


def drawn_by_agreement(carol, bob):
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=bob, offer="draw")
    match_offer_answer(match_id=match.pk, player=carol, accept=True)
    return match, "The game has no winner: drawn by agreement"


def lost_on_time(carol, bob):
    match = start_match(carol, bob, time_limit=20 * 60)
    loser = deciding_player(match)
    Match.objects.filter(pk=match.pk).update(clock_since=F("clock_since") - timedelta(minutes=11))
    assert match_clocks_sweep() == 1
    winner = bob if loser == carol else carol
    return match, f"{winner.username} wins the game: {loser.username} ran out of time"


@pytest.mark.parametrize("ending", [conceded_by_the_decider, drawn_by_agreement, lost_on_time])
def test_a_game_ended_outside_its_log_ends_its_replay_with_the_stored_result(carol, bob, ending):
    match, result = ending(carol, bob)
    game = match.games.get()

    last = match_replay(match_id=match.pk, viewer=carol, game_number=1, step=None, own_view=False)
    before = match_replay(
        match_id=match.pk, viewer=carol, game_number=1, step=game.applied, own_view=False
    )

    assert (last.replay["step"], last.replay["steps"]) == (game.applied + 1, game.applied + 1)
    assert last.board["result"] == result and last.replay["result"] == result
    assert last.log[-1] == fragments.game_line([(f"* {result}.", False)], {})
    assert last.replay["log_replays"]
    assert before.board["result"] is None and before.board["deciding"]


def test_the_replay_page_shows_the_concession_as_its_last_step_and_names_the_result(
    client, carol, bob
):
    match = start_match(carol, bob)
    play_at_random(match, 12)
    loser = deciding_player(match)
    winner = bob if loser == carol else carol
    match_concede(match_id=match.pk, player=loser)
    client.force_login(UserFactory(username="Dave"))

    page = client.get(reverse("game:match_replay", args=[match.pk])).content.decode()

    result = f"{winner.username} wins the game: {loser.username} conceded"
    prompt = re.search(r'<p class="prompt__text">(.*?)</p>', page, re.S).group(1)
    assert prompt == f"<strong>{result}.</strong>"
    assert f"gives the stored game, whose stored result is: {result}." in page


def test_a_game_won_by_the_rules_is_named_with_how_it_was_won():
    game = Game(ended=timezone.now(), winner_seat=1, win_reason=WIN_REASONS["avatar_destroyed"])

    result = game_result(game, ["Carol", "Bob"])

    assert result == "Bob wins the game by destroying the opposing avatar"


def test_a_replay_shows_the_board_at_every_step_with_no_end_of_match_panel_over_it(
    client, finished, carol
):
    """The end panel (Victory, Defeat, its ways back) belongs to the match's own page; a
    replay names each step's result in its Prompt, and its own ◀ Back is its only Back."""
    client.force_login(carol)
    url = reverse("game:match_replay", args=[finished.pk])

    for step in (1, None):
        page = client.get(url, {} if step is None else {"step": step}).content.decode()
        assert "match-result" not in page
        assert "Back to the Casual Lobby" not in page
    assert "Carol wins the match" in page or "Carol wins the game" in page
    assert (
        "match-result--victory"
        in client.get(reverse("game:match_page", args=[finished.pk])).content.decode()
    )
