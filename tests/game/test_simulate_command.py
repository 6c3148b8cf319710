"""`manage.py simulate`: whole games between agents, with the engine's invariants checked."""

import pytest
from django.core.management import CommandError, call_command


def test_simulate_prints_speed_turns_win_reasons_and_violations(capsys):
    call_command("simulate", games=6, seed=5, agents="random,greedy", thorough=True)

    output = capsys.readouterr().out
    assert "agents: seat 0 random, seat 1 greedy" in output
    assert "6 games in" in output and "games per second" in output and "turns a game" in output
    assert "won by: " in output
    assert "invariant violations: none" in output


@pytest.mark.parametrize("agents", ["random", "random,cheater", "greedy,greedy,random"])
def test_simulate_refuses_unknown_or_missing_agents(agents):
    with pytest.raises(CommandError, match="Give two agents"):
        call_command("simulate", games=1, agents=agents)


def test_simulate_pits_a_level_of_the_search_agent_against_another_agent(capsys):
    call_command("simulate", games=2, seed=3, agents="easy,random")

    output = capsys.readouterr().out
    assert "agents: seat 0 easy, seat 1 random" in output
    assert "wins: agent 0: " in output
    assert "win rate: agent 0: " in output and "(95% CI " in output
    assert "game length: mean " in output
    assert "decision time agent 0: CPU p50 " in output and "p95 " in output and "p99 " in output
    assert "decision time agent 1: " in output
    assert "invariant violations: none" in output


def test_simulate_spreads_games_over_processes_and_counts_each_once(capsys):
    call_command("simulate", games=30, seed=9, agents="random,greedy", processes=2)

    output = capsys.readouterr().out
    assert "30 games in" in output
    wins = output.split("wins: ")[1].splitlines()[0]
    assert sum(int(part.split(": ")[1]) for part in wins.split(", ")) == 30
    assert "invariant violations: none" in output


def test_simulate_refuses_no_processes():
    with pytest.raises(CommandError, match="at least one process"):
        call_command("simulate", games=1, processes=0)


def test_simulate_plays_a_heroic_encounter_and_prints_the_heroes_win_rate(capsys):
    call_command("simulate", encounter="shadow-enclave", games=1, seed=4, agents="random")

    output = capsys.readouterr().out
    assert "encounter: The Shadow Enclave (shadow-enclave) at Normal" in output
    assert "played by random in every order of seats, against the boss played by normal" in output
    assert "1 games in" in output
    assert "heroes' win rate: " in output and "(95% CI " in output and "of 1 games" in output
    assert "turns: mean " in output
    assert "the heroes won by: " in output and "the boss won by: " in output
    assert "invariant violations: none" in output
    assert "decision time heroes (random): CPU p50 " in output
    assert "decision time boss (normal): CPU p50 " in output and "p99 " in output


def test_simulate_refuses_an_unknown_heroes_agent():
    with pytest.raises(CommandError, match="Name the heroes' agent"):
        call_command("simulate", encounter="shadow-enclave", games=1, agents="greedy,greedy")


def test_simulate_plays_two_sides_of_two_and_prints_each_sides_win_rate(capsys):
    call_command("simulate", games=3, seed=2, agents="greedy,greedy/random,random")

    output = capsys.readouterr().out
    assert "2-versus-2: side A greedy,greedy against side B random,random" in output
    assert "3 games in" in output and "invariant violations: none" in output
    side_a = output.split("side A (greedy,greedy) win rate: ")[1].splitlines()[0]
    side_b = output.split("side B (random,random) win rate: ")[1].splitlines()[0]
    assert "(95% CI " in side_a and side_a.endswith("of 3 games")
    wins = [int(line.split(", ")[-1].split(" of ")[0]) for line in (side_a, side_b)]
    assert sum(wins) == 3
    assert "decision time greedy: CPU p50 " in output and "decision time random: " in output


@pytest.mark.parametrize(
    "agents", ["greedy/random,random", "greedy,greedy/random,cheater", "a/b/c"]
)
def test_simulate_refuses_sides_that_are_not_two_of_two_known_agents(agents):
    with pytest.raises(CommandError, match="two sides of two agents"):
        call_command("simulate", games=1, agents=agents)


def test_simulate_refuses_an_unknown_encounter():
    with pytest.raises(CommandError, match="there is no encounter 'hoth'"):
        call_command("simulate", encounter="hoth", games=1)


def test_simulate_plays_starholds_for_any_number_of_players(capsys):
    call_command("simulate", game="starholds", games=2, seed=2, players=3, agents="greedy,random")

    output = capsys.readouterr().out
    assert "Starholds: agent 0 greedy, agent 1 random, seated in rotation" in output
    assert "2 games of 3 players in " in output and "games per second" in output
    assert "round reached: mean " in output
    assert "ended by: " in output
    assert "agent 0 (greedy, " in output and "(95% CI " in output
    assert "invariant violations: none" in output


def test_simulate_refuses_an_unknown_starholds_agent_or_table():
    with pytest.raises(CommandError, match="unknown agent"):
        call_command("simulate", game="starholds", games=1, agents="random,cheater")
    with pytest.raises(CommandError, match="2 to 12 players"):
        call_command("simulate", game="starholds", games=1, players=13)
