"""Four-player casual matches: the 2-versus-2 team game (Creating a Match, "Number of
Players": "the normal game for 2 players, or a multiplayer 2-versus-2 team game for 4
players"; MULTIPLAYER GAMES). Seats 0 and 2 play on the first team, 1 and 3 on the second;
a player who concedes leaves the game and his teammate plays on ("Leaving the Game")."""

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db.models import F
from django.urls import reverse

from game import fragments, tasks
from game.ai.agents import GreedyAgent
from game.engine import api as engine
from game.engine.state import in_game
from game.live_states import live_states
from game.models import (
    DRAWN_BY_AGREEMENT,
    ComputerOpponent,
    Match,
    MatchSeat,
    MatchStatus,
    MatchStructure,
)
from game.selectors import game_state, match_history, match_screen
from game.services import matches, offers, skirmish
from game.services.matches import (
    GAME_START_FIELDS,
    MatchError,
    MatchGone,
    MatchSettings,
    game_act,
    match_concede,
    match_create,
    match_join,
    match_leave,
    match_ready,
    match_time_check,
    quick_join,
)
from game.services.offers import match_claim, match_offer, match_offer_answer, match_resume
from game.services.skirmish import computer_answer_offer
from game.services.team_matches import match_fill_with_computers
from tests.factories import UserFactory
from tests.game.conftest import SeededSecrets, player_with_deck
from tests.game.test_hidden_information import card_ids

pytestmark = pytest.mark.django_db

TEAM_GAME = MatchSettings(players=4)
WHOLE_GAME_SEED = 3


def seats_of(match) -> dict[int, str]:
    return {seat.seat: seat.player.username for seat in match.seats.select_related("player")}


def four_ready(carol, bob, dave, erin, **settings) -> Match:
    """A team game of Carol and Dave (seats 0 and 2) against Bob and Erin (1 and 3), begun."""
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(players=4, **settings))
    for player in (bob, dave, erin):
        match_join(match_id=match.pk, player=player, deck=player.deck)
    for player in (carol, bob, dave, erin):
        match_ready(match_id=match.pk, player=player)
    match.refresh_from_db()
    return match


def current(match):
    game = match.games.defer(*GAME_START_FIELDS).get()
    return game, game_state(game)


# Creating a Match, "Number of Players"


def test_a_team_game_fills_its_four_seats_in_turn_then_launches(carol, bob, dave, erin):
    match = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)
    assert (match.players, match.status) == (4, MatchStatus.OPEN)

    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    match_join(match_id=match.pk, player=dave, deck=dave.deck)
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN
    with pytest.raises(MatchError, match="Wait for every seat to be taken."):
        match_ready(match_id=match.pk, player=carol)
    match_join(match_id=match.pk, player=erin, deck=erin.deck)

    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING
    assert seats_of(match) == {0: "Carol", 1: "Bob", 2: "Dave", 3: "Erin"}


def test_a_joining_player_chooses_his_team_until_it_is_full(carol, bob, dave, erin):
    match = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)

    match_join(match_id=match.pk, player=bob, deck=bob.deck, team=0)
    with pytest.raises(MatchError, match="Team 1 is full: join the other team."):
        match_join(match_id=match.pk, player=dave, deck=dave.deck, team=0)
    with pytest.raises(MatchError, match="Choose team 1 or team 2."):
        match_join(match_id=match.pk, player=dave, deck=dave.deck, team=2)
    match_join(match_id=match.pk, player=dave, deck=dave.deck, team=1)

    assert seats_of(match) == {0: "Carol", 2: "Bob", 1: "Dave"}


def test_a_full_team_game_refuses_a_fifth_player(carol, bob, dave, erin, catalog):
    match = four_ready(carol, bob, dave, erin)
    fifth = player_with_deck("Fran", "jedi")

    with pytest.raises(MatchGone, match="is full"):
        match_join(match_id=match.pk, player=fifth, deck=fifth.deck)


def test_light_versus_dark_puts_each_team_on_its_side(carol, bob, dave, erin):
    """The first team plays the light side, the second the dark: the host's dark deck seats
    him on the second team, and a player chooses only his deck's side's team."""
    match = match_create(
        host=bob, deck=bob.deck, settings=MatchSettings(players=4, light_vs_dark=True)
    )
    assert seats_of(match) == {1: "Bob"}

    with pytest.raises(MatchError, match="the light side plays Jedi or Rebel decks"):
        match_join(match_id=match.pk, player=erin, deck=erin.deck, team=0)
    match_join(match_id=match.pk, player=erin, deck=erin.deck)
    match_join(match_id=match.pk, player=carol, deck=carol.deck)

    assert seats_of(match) == {0: "Carol", 1: "Bob", 3: "Erin"}
    fifth = player_with_deck("Fran", "sith")
    with pytest.raises(MatchError, match="The dark side is full"):
        match_join(match_id=match.pk, player=fifth, deck=fifth.deck)


def test_quick_join_never_picks_a_team_game(carol, bob):
    team_game = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)

    joined = quick_join(player=bob)

    assert joined.pk != team_game.pk and joined.host == bob and joined.players == 2


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            MatchSettings(players=4, structure=MatchStructure.BEST_OF_THREE),
            "A 2-versus-2 team game is a Single Game",
        ),
        (MatchSettings(players=4, practice=True), "A Practice Game is for 2 players"),
        (MatchSettings(players=3), "Choose the game for 2 players, or the 2-versus-2"),
    ],
)
def test_a_team_game_is_a_single_game_of_four_with_decks_brought(carol, settings, message):
    with pytest.raises(MatchError, match=message):
        match_create(host=carol, deck=carol.deck, settings=settings)
    assert not Match.objects.exists()


def test_leaving_before_the_start_frees_the_seat(carol, bob, dave, erin):
    match = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    match_fill_with_computers(match_id=match.pk, player=carol)

    match_leave(match_id=match.pk, player=bob)

    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN
    assert 1 not in seats_of(match)
    # The computer players stay ready: nobody else would get them ready again.
    assert all(match.seats.exclude(player=carol).values_list("ready", flat=True))
    match_join(match_id=match.pk, player=dave, deck=dave.deck, team=1)
    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING
    assert seats_of(match)[1] == "Dave"


# Computer players


def test_the_host_fills_the_free_seats_with_distinct_computer_players(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    with pytest.raises(MatchError, match="Only the match's host"):
        match_fill_with_computers(match_id=match.pk, player=bob)

    match_fill_with_computers(match_id=match.pk, player=carol)

    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING
    computers = list(match.seats.filter(seat__in=[2, 3]).select_related("player"))
    archetypes = {seat.archetype for seat in computers}
    assert len({seat.player_id for seat in computers}) == 2 and all(s.ready for s in computers)
    # The archetypes nobody brought come first: Carol is Jedi, Bob Sith.
    assert archetypes == {"rebel", "imperial"}
    for seat in computers:
        opponent = ComputerOpponent.objects.get(player=seat.player)
        assert (seat.archetype, seat.deck_name) == (
            opponent.archetype,
            f"{opponent.archetype.capitalize()} starter deck",
        )
        assert seat.decklist["avatar"]["archetype"] == seat.archetype and seat.faces
    with pytest.raises(MatchError, match="Every seat is taken already."):
        match_fill_with_computers(match_id=match.pk, player=carol)


def test_light_versus_dark_computer_players_play_their_teams_side(bob):
    match = match_create(
        host=bob, deck=bob.deck, settings=MatchSettings(players=4, light_vs_dark=True)
    )

    match_fill_with_computers(match_id=match.pk, player=bob)

    sides = dict(match.seats.values_list("seat", "side"))
    assert sides == {0: "light", 1: "dark", 2: "light", 3: "dark"}


def test_computer_players_are_for_team_games(carol):
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings())

    with pytest.raises(MatchError, match="start a Skirmish"):
        match_fill_with_computers(match_id=match.pk, player=carol)


# The game


def test_the_game_begins_when_the_four_are_ready_with_its_decklists_grouped_in_sides(
    carol, bob, dave, erin
):
    match = four_ready(carol, bob, dave, erin, time_limit=20 * 60)

    assert match.status == MatchStatus.PLAYING
    game, state = current(match)
    decklists = {seat.seat: seat.decklist for seat in match.seats.all()}
    assert game.decklists == [[decklists[0], decklists[2]], [decklists[1], decklists[3]]]
    assert len(state.seats) == 4 and state.teams is not None
    assert [state.seats[seat].avatar for seat in range(4)]
    # The time limit split four ways, and only the deciding seat's clock runs.
    assert set(match.seats.values_list("clock_left_ms", flat=True)) == {300_000}
    assert match.clock_seat == engine.legal_actions(state).seat


def test_a_seat_acts_only_on_its_own_decision_and_never_for_another_seat(carol, bob, dave, erin):
    match = four_ready(carol, bob, dave, erin)
    game, state = current(match)
    decision = engine.legal_actions(state)
    players = {seat.seat: seat.player for seat in match.seats.select_related("player")}
    waiting = next(seat for seat in range(4) if seat != decision.seat)

    with pytest.raises(MatchError, match="It is not your decision"):
        game_act(
            match_id=match.pk, player=players[waiting], ply=game.applied, action=decision.actions[0]
        )
    # Leaving is any seat's action at any moment in the engine: a player leaves only by
    # conceding, never another seat.
    with pytest.raises(MatchError, match="To leave the game, concede it."):
        game_act(
            match_id=match.pk,
            player=players[decision.seat],
            ply=game.applied,
            action=engine.leave(waiting),
        )
    game_act(
        match_id=match.pk,
        player=players[decision.seat],
        ply=game.applied,
        action=decision.actions[0],
    )
    game.refresh_from_db()
    assert game.applied == 1


def test_conceding_leaves_the_game_and_the_team_wins_when_the_other_side_has_left(
    carol, bob, dave, erin
):
    """MULTIPLAYER GAMES, "Leaving the Game": Carol concedes and Dave plays on; when Dave
    concedes too, Bob and Erin's side wins."""
    match = four_ready(carol, bob, dave, erin)
    # The game as this process keeps it live, as when a page showed it: a state taken from
    # there is a copy, which must keep the game's sides.
    game, state = current(match)
    live_states.keep(game, state)

    match_concede(match_id=match.pk, player=carol)

    match.refresh_from_db()
    game, state = current(match)
    assert match.status == MatchStatus.PLAYING and game.ended is None
    assert not in_game(state, 0) and in_game(state, 2)
    assert engine.legal_actions(state).seat != 0
    with pytest.raises(MatchError, match="You have left this game already."):
        match_concede(match_id=match.pk, player=carol)

    match_concede(match_id=match.pk, player=dave)

    match.refresh_from_db()
    game, state = current(match)
    assert match.status == MatchStatus.FINISHED and game.ended is not None
    assert game.winner_seat in (1, 3) and game.winner_seat == state.winner
    assert match.winner is None
    assert match.end_reason == "Bob and Erin won by the last opposing player leaving the game"
    assert list(game.actions.values_list("seat", "action")) == [
        (0, engine.leave(0)),
        (2, engine.leave(2)),
    ]
    # What the screens and the history make of a win by a side.
    assert match_screen(match_id=match.pk, viewer=dave).outcome == "defeat"
    assert match_screen(match_id=match.pk, viewer=erin).outcome == "victory"
    assert match_screen(match_id=match.pk, viewer=bob).outcome == "victory"
    assert [past.result for past in match_history(player=bob, viewer=bob)] == ["Won"]
    assert [past.result for past in match_history(player=carol, viewer=carol)] == ["Lost"]


def test_a_player_who_left_is_not_given_the_victory_his_side_won_after(
    client, carol, bob, dave, erin
):
    """MULTIPLAYER GAMES, "Leaving the Game": Carol concedes at once and Dave plays on to
    the win. The win is Dave's side's; Carol left, and is told and recorded so."""
    match = four_ready(carol, bob, dave, erin)
    match_concede(match_id=match.pk, player=carol)
    match_concede(match_id=match.pk, player=bob)
    match_concede(match_id=match.pk, player=erin)

    assert match_screen(match_id=match.pk, viewer=dave).outcome == "victory"
    assert match_screen(match_id=match.pk, viewer=carol).outcome == "left"
    client.force_login(carol)
    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
    assert ">You left the game</h2>" in page and "Victory" not in page
    assert (
        "Your team won after you left" in page
        and "Left (team won)" in client.get(reverse("game:match_history")).content.decode()
    )
    assert [past.result for past in match_history(player=carol, viewer=carol)] == [
        "Left (team won)"
    ]
    assert [past.result for past in match_history(player=dave, viewer=dave)] == ["Won"]


def test_a_finished_team_games_pages_show_for_its_players(client, carol, bob, dave, erin):
    """The match page, its replay and the match history of a game won by a side."""
    match = four_ready(carol, bob, dave, erin)
    match_concede(match_id=match.pk, player=carol)
    match_concede(match_id=match.pk, player=dave)

    for player in (carol, bob):
        client.force_login(player)
        for url in (
            reverse("game:match_page", args=[match.pk]),
            reverse("game:match_replay", args=[match.pk]),
            reverse("game:match_history"),
        ):
            assert client.get(url).status_code == 200, (player, url)


def test_a_team_games_history_row_names_both_opponents_and_the_teammate(
    client, carol, bob, dave, erin
):
    """A team game is played against a side: its row in the match history names both
    opponents, their decks, and the player's teammate."""
    match = four_ready(carol, bob, dave, erin)
    match_concede(match_id=match.pk, player=carol)
    match_concede(match_id=match.pk, player=dave)

    (past,) = match_history(player=carol, viewer=carol)
    client.force_login(carol)
    page = client.get(reverse("game:match_history")).content.decode()

    assert [seat.player for seat in past.opponents] == [bob, erin]
    assert ([seat.player for seat in past.teammates], past.result) == ([dave], "Lost")
    row = re.sub(r"<[^>]+>", "", re.search(r"<tbody>.*</tbody>", page, re.DOTALL).group(0))
    assert "Bob and Erin (with Dave)" in row
    assert "Jedi against Sith and Imperial" in row


def test_a_player_who_left_the_game_may_play_another_match_while_it_goes_on(carol, bob, dave, erin):
    match = four_ready(carol, bob, dave, erin)

    match_concede(match_id=match.pk, player=carol)

    assert dict(match.seats.values_list("seat", "left_game")) == {
        0: True,
        1: False,
        2: False,
        3: False,
    }
    other = match_create(host=carol, deck=carol.deck, settings=MatchSettings())
    assert other.status == MatchStatus.OPEN
    with pytest.raises(MatchError, match=f"You are already in match {match.pk}"):
        match_join(match_id=other.pk, player=dave, deck=dave.deck)


def test_a_fallen_flag_makes_its_player_leave_and_the_game_goes_on(carol, bob, dave, erin):
    match = four_ready(carol, bob, dave, erin, time_limit=20 * 60)
    flagged = match.clock_seat
    Match.objects.filter(pk=match.pk).update(clock_since=F("clock_since") - timedelta(minutes=6))

    assert match_time_check(match_id=match.pk)

    match.refresh_from_db()
    game, state = current(match)
    assert match.status == MatchStatus.PLAYING and game.ended is None
    assert not in_game(state, flagged)
    assert MatchSeat.objects.get(match=match, seat=flagged).left_game
    assert match.clock_seat == engine.legal_actions(state).seat != flagged
    assert MatchSeat.objects.get(match=match, seat=flagged).clock_left_ms <= 0
    assert not match_time_check(match_id=match.pk)


# THE GAME SCREEN, "The Playmat" (offer a draw, offer to adjourn), with the other three
# players of a 2-versus-2 team game (MULTIPLAYER GAMES) to agree


def test_a_team_games_draw_is_agreed_once_every_other_player_accepts(carol, bob, dave, erin):
    match = four_ready(carol, bob, dave, erin)

    match_offer(match_id=match.pk, player=carol, offer="draw")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    with pytest.raises(MatchError, match="You have agreed to a draw already."):
        match_offer_answer(match_id=match.pk, player=bob, accept=True)
    # Offering the same is agreeing to it.
    match_offer(match_id=match.pk, player=dave, offer="draw")
    match.refresh_from_db()
    assert (match.status, match.offer_agreed) == (MatchStatus.PLAYING, [1, 2])
    seen = match_screen(match_id=match.pk, viewer=bob).offer
    assert seen["agreed"] and seen["waiting"] == ["Erin"]

    match_offer_answer(match_id=match.pk, player=erin, accept=True)

    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner) == (
        MatchStatus.FINISHED,
        DRAWN_BY_AGREEMENT,
        None,
    )


def test_the_playmat_asks_each_player_still_to_agree_and_tells_who_is_awaited(
    carol, bob, dave, erin
):
    match = four_ready(carol, bob, dave, erin)

    def menu(viewer) -> str:
        return fragments.match_screen(match_screen(match_id=match.pk, viewer=viewer))

    assert "Offer a draw" in menu(carol) and "Offer to adjourn" in menu(carol)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)

    assert "waiting for Dave and Erin" in menu(carol)
    assert "You accepted Carol's offer; waiting for Dave and Erin." in menu(bob)
    for asked in (dave, erin):
        assert "Carol offers to adjourn." in menu(asked)
        assert '"accept": "1"' in menu(asked)
    assert '"accept": "1"' not in menu(bob)


def test_concede_asks_naming_only_the_players_still_in_the_game(carol, bob, dave, erin):
    """MULTIPLAYER GAMES, "Leaving the Game": Concede says who plays on after the player
    leaves, and against whom; a player who has left is no longer said to play on or to be
    played against."""

    def asked() -> str:
        return match_screen(match_id=match.pk, viewer=carol).concede_question

    ask = "Concede and leave this game?"
    match = four_ready(carol, bob, dave, erin)
    assert asked() == (
        f"{ask} You lose and leave it; your teammate Dave plays on alone against both opponents."
    )
    match_concede(match_id=match.pk, player=erin)
    assert asked() == f"{ask} You lose and leave it; your teammate Dave plays on alone against Bob."
    match_concede(match_id=match.pk, player=dave)
    assert asked() == f"{ask} Dave has left already: your team loses it."


def test_one_refusal_ends_a_team_games_offer(carol, bob, dave, erin):
    match = four_ready(carol, bob, dave, erin)
    match_offer(match_id=match.pk, player=bob, offer="draw")
    match_offer_answer(match_id=match.pk, player=carol, accept=True)

    match_offer_answer(match_id=match.pk, player=erin, accept=False)

    match.refresh_from_db()
    assert (match.status, match.offer, match.offer_agreed) == (MatchStatus.PLAYING, "", [])
    with pytest.raises(MatchError, match="There is no offer of another player's to answer."):
        match_offer_answer(match_id=match.pk, player=dave, accept=True)


def test_a_team_game_adjourned_by_all_is_resumed_without_the_player_who_left(
    carol, bob, dave, erin, monkeypatch
):
    """A player who left the game has no say in an offer, and a resumed game does not wait
    for him in the lobby or on the Match Launch screen ("/resume": all opponents from that
    game must be in the same lobby)."""
    match = four_ready(carol, bob, dave, erin)
    match_concede(match_id=match.pk, player=erin)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    with pytest.raises(MatchError, match="You have left this game"):
        match_offer_answer(match_id=match.pk, player=erin, accept=True)
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    match_offer_answer(match_id=match.pk, player=dave, accept=True)
    match.refresh_from_db()
    assert match.status == MatchStatus.ADJOURNED
    game, before = current(match)

    present = {"Carol", "Bob", "Dave"}
    monkeypatch.setattr(offers, "in_lobby", lambda player, lobby: player.username in present)
    match_resume(match_id=match.pk, player=carol, lobby="main")
    for player in (carol, bob, dave):
        match_ready(match_id=match.pk, player=player)

    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert engine.to_json(current(match)[1]) == engine.to_json(before)


def test_a_player_leaving_ends_the_offer_standing(carol, bob, dave, erin):
    match = four_ready(carol, bob, dave, erin)
    match_offer(match_id=match.pk, player=carol, offer="draw")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)

    match_concede(match_id=match.pk, player=erin)

    match.refresh_from_db()
    assert (match.status, match.offer, match.offer_agreed) == (MatchStatus.PLAYING, "", [])


def test_computer_players_agree_to_adjourn_a_team_game(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)
    match_join(match_id=match.pk, player=bob, deck=bob.deck, team=1)
    match_fill_with_computers(match_id=match.pk, player=carol)
    for player in (carol, bob):
        match_ready(match_id=match.pk, player=player)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")

    assert computer_answer_offer(match_id=match.pk)

    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and len(match.offer_agreed) == 2
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    match.refresh_from_db()
    assert match.status == MatchStatus.ADJOURNED


def test_a_player_away_is_not_claimed_against_in_a_team_game(carol, bob, dave, erin):
    match = four_ready(carol, bob, dave, erin)
    with pytest.raises(MatchError, match="a player away can't be claimed against"):
        match_claim(match_id=match.pk, player=carol)


@pytest.mark.slow
def test_computer_players_play_a_whole_game_through_the_task_and_its_log_replays(
    carol, monkeypatch
):
    """Carol plays with the greedy agent's choices beside three computer players, each
    turn of theirs run as the task runs it; then the stored log replays to the same game.
    The computers think at the easiest level, to keep the test short."""
    monkeypatch.setattr(skirmish, "TEAM_LEVEL", "easy")
    # A seed whose game is among the shorter ones.
    monkeypatch.setattr(matches, "secrets", SeededSecrets(WHOLE_GAME_SEED))
    match = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)
    match_fill_with_computers(match_id=match.pk, player=carol)
    match_ready(match_id=match.pk, player=carol)
    agent = GreedyAgent()
    twice_tried = False

    for _ in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        game, state = current(match)
        decision = engine.legal_actions(state)
        if decision.seat == 0:
            action = agent.choose(state, decision)
            game_act(match_id=match.pk, player=carol, ply=game.applied, action=action)
        else:
            assert tasks.computer_move(match_id=match.pk, game_number=1, ply=game.applied)
            if not twice_tried:
                # Run twice, or late, the task acts only at the ply it was scheduled for.
                assert not tasks.computer_move(match_id=match.pk, game_number=1, ply=game.applied)
                twice_tried = True

    assert match.status == MatchStatus.FINISHED
    game, state = current(match)
    assert game.winner_seat is not None and game.winner_seat == state.winner
    assert {seat for (seat,) in game.actions.values_list("seat")} == {0, 1, 2, 3}
    # The players who lost while their teammates played on have left the game.
    left = set(match.seats.filter(left_game=True).values_list("seat", flat=True))
    assert left == set(state.teams.left)
    actions = game.actions.order_by("number").values_list("action", flat=True)
    replayed = engine.replay(game.decklists, game.seed, actions, first=game.first_seat)
    assert engine.to_json(replayed) == game.state


def test_once_no_person_plays_on_the_computers_finish_the_game_in_a_run(carol, monkeypatch):
    monkeypatch.setattr(skirmish, "TEAM_LEVEL", "easy")
    match = match_create(host=carol, deck=carol.deck, settings=TEAM_GAME)
    match_fill_with_computers(match_id=match.pk, player=carol)
    match_ready(match_id=match.pk, player=carol)

    match_concede(match_id=match.pk, player=carol)
    for _ in range(100):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        game = match.games.get()
        assert tasks.computer_move(match_id=match.pk, game_number=1, ply=game.applied)

    assert match.status == MatchStatus.FINISHED
    game = match.games.get()
    winners = match.seats.filter(seat__in=[game.winner_seat % 2, game.winner_seat % 2 + 2])
    names = " and ".join(winners.values_list("player__username", flat=True))
    assert match.end_reason.startswith(f"{names} won by ")


# The match page's sockets


def hidden_from(state, viewer: int | None) -> set[int]:
    """Every hand but ``viewer``'s own (an observer's: every hand), and every deck and quest
    pile but the viewer's own quest pile."""
    hidden = set()
    for seat, player in enumerate(state.seats):
        hidden |= set(player.deck)
        if seat != viewer:
            hidden |= set(player.hand) | set(player.quest_pile)
    return hidden


def shown_ids(screen: str) -> set[int]:
    """The card ids a screen gives; the team playmat's rows are named by their seat's number
    (``mat-row-seat2``), not by a card, and are left out."""
    return {card for _, card in card_ids(re.sub(r'id="mat-row-seat\d"', "", screen))}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_each_socket_of_a_team_game_receives_only_its_own_seats_view(open_page, catalog):
    """A teammate's hand is as hidden as an opponent's (MULTIPLAYER GAMES): each of the four
    players' sockets shows his own hand and no other, the observer's no hand at all, when
    the game begins and after a decision."""
    people = await database_sync_to_async(
        lambda: [
            player_with_deck(name, archetype)
            for name, archetype in (
                ("Carol", "jedi"),
                ("Bob", "sith"),
                ("Dave", "rebel"),
                ("Erin", "imperial"),
            )
        ]
    )()
    watcher = await database_sync_to_async(UserFactory)(username="Watcher")
    match = await database_sync_to_async(four_ready)(*people)
    path = f"/ws/match/{match.pk}/"
    viewers = [*range(4), None]
    pages = [await open_page(player, path) for player in [*people, watcher]]
    for page in pages:
        await page.until('aria-label="Playmat"')

    for moment in ("begun", "after a decision"):
        game, state = await database_sync_to_async(current)(match)
        for viewer, page in zip(viewers, pages, strict=True):
            shown = shown_ids(page.screen)
            assert not shown & hidden_from(state, viewer), (moment, viewer)
            if viewer is not None:
                own = set(state.seats[viewer].hand)
                assert own and own <= shown, (moment, viewer)
        if moment == "begun":
            decision = engine.legal_actions(state)
            await database_sync_to_async(game_act)(
                match_id=match.pk,
                player=people[decision.seat],
                ply=game.applied,
                action=decision.actions[0],
            )
            for page in pages:
                assert await page.next_fragment(3) is not None
