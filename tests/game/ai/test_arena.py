"""Games between named agents (game.ai.arena): both seat orders, on one process or several."""

from game.ai.arena import AGENTS, chunks, matchups, play, play_team, team_lineups, team_seating
from game.ai.search import SearchAgent
from game.engine.simulation import percentile
from tests.game.ai.conftest import DECKS, SET_FILE


def test_the_agents_are_random_greedy_and_the_three_levels():
    assert list(AGENTS) == ["random", "greedy", "easy", "normal", "hard"]
    agent = AGENTS["hard"](1, DECKS)
    assert isinstance(agent, SearchAgent) and agent.settings.playouts >= 32


def test_every_ordered_pair_of_two_different_starter_decks_is_a_matchup():
    pairs = matchups(DECKS)

    assert len(pairs) == 12
    assert all(first is not second for first, second in pairs)


def test_each_agent_plays_every_matchup_from_both_seats():
    report = play(("random", "greedy"), 24, seed=4, set_file=SET_FILE)

    assert report.games == 24 and report.violations == []
    assert sum(report.wins_by_agent.values()) == 24
    # Both agents made decisions in the same games, whichever seat they sat in.
    assert len(report.decision_seconds[0]) > 0 and len(report.decision_seconds[1]) > 0


def test_games_on_several_processes_are_the_games_of_one():
    alone = play(("random", "greedy"), 30, seed=6, set_file=SET_FILE)
    spread = play(("random", "greedy"), 30, seed=6, set_file=SET_FILE, processes=2)

    assert spread.turns == alone.turns
    assert spread.wins_by_agent == alone.wins_by_agent
    assert spread.win_reasons == alone.win_reasons


def test_a_run_is_cut_in_pieces_of_whole_rounds():
    assert chunks(50) == [(0, 24), (24, 24), (48, 2)]


def test_percentiles_are_nearest_rank():
    samples = list(range(1, 101))

    assert [percentile(samples, share) for share in (0.5, 0.95, 0.99, 1.0)] == [50, 95, 99, 100]
    assert percentile([], 0.5) == 0.0


def test_a_team_run_seats_each_side_on_alternate_seats_and_swaps_the_sides():
    assert len(team_lineups(DECKS)) == 24
    seated = team_seating([("hard", "normal"), ("greedy", "random")])
    assert seated == ("hard", "greedy", "normal", "random")
    # Reversed, as simulate swaps the seats, each side holds the other side's seats.
    swapped = tuple(reversed(seated))
    assert {swapped[0], swapped[2]} == {"greedy", "random"}


def test_every_game_of_a_team_run_has_a_winning_side():
    report = play_team([("greedy", "greedy"), ("random", "random")], 4, seed=3, set_file=SET_FILE)

    assert report.games == 4 and report.violations == []
    assert report.wins_by_agent[0] + report.wins_by_agent[2] == 4
