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
