"""Whole simulated games (game.engine.simulation): every invariant checked after every
action, each finished game replayed, and what the report prints."""

import itertools
import time
from pathlib import Path

from game.ai.agents import RandomAgent
from game.engine import api
from game.engine.checked_play import SHORT_DECISION
from game.engine.decklists import starter_decklists
from game.engine.simulation import Report, replay_violations, simulate

SET_FILE = (
    Path(__file__).resolve().parents[3] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)
DECKS = starter_decklists(SET_FILE)
MATCHUPS = [[DECKS[a], DECKS[b]] for a, b in itertools.permutations(sorted(DECKS), 2)]
# The decision at which a cheating agent breaks the game, well before any game ends.
CHEAT_AT = 40


class Cheater(RandomAgent):
    """Plays at random, and at its ``CHEAT_AT``-th decision changes the state behind the
    engine's back with ``cheat``."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.decisions = 0

    def choose(self, state, decision):
        self.decisions += 1
        if self.decisions == CHEAT_AT:
            self.cheat(state, decision.seat)
        return super().choose(state, decision)


class PowerThief(Cheater):
    def cheat(self, state, seat):
        state.seats[seat].power = -10


class CardHider(Cheater):
    """Moves the bottom card of its deck out of the game: every card is still in exactly one
    zone, but no action put it there."""

    def cheat(self, state, seat):
        state.seats[seat].removed.append(state.seats[seat].deck.pop())


class Sleeper(RandomAgent):
    """Waits 2 ms before each decision: a long decision that takes no CPU time."""

    def choose(self, state, decision):
        time.sleep(0.002)
        return super().choose(state, decision)


class SometimesSleeper(RandomAgent):
    """Quick at every third decision, waiting 2 ms before the others."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.decisions = 0

    def choose(self, state, decision):
        self.decisions += 1
        if self.decisions % 3:
            time.sleep(0.002)
        return super().choose(state, decision)


def played_game(seed: int) -> tuple[list[dict], list[dict], api.State]:
    decklists = MATCHUPS[0]
    state = api.new_game(decklists, seed)
    agent = RandomAgent(seed)
    played = []
    while state.winner is None:
        played.append(agent.choose(state, api.legal_actions(state)))
        api.apply(state, played[-1])
    return decklists, played, state


def test_an_invariant_broken_during_a_game_is_reported_at_the_action_after():
    report = simulate(1, seed=2, agents=[PowerThief, RandomAgent], decklists=MATCHUPS)

    first = report.violations[0]
    # Seat 0 decides at least every other action, so its 40th decision is by action 80.
    action = int(first.split("action ")[1].split(":")[0])
    assert CHEAT_AT <= action <= 2 * CHEAT_AT
    assert first.startswith(f"game 0, action {action}: seat 0 has ")
    assert first.endswith(" power")


def test_a_game_changed_behind_the_engines_back_does_not_replay():
    report = simulate(1, seed=2, agents=[CardHider, RandomAgent], decklists=MATCHUPS)

    assert report.games == 1
    assert len(report.violations) == 1
    assert report.violations[0].startswith("game 0: replaying its actions ")


def test_a_finished_game_replays_to_its_state():
    decklists, played, state = played_game(seed=11)

    assert replay_violations(decklists, 11, played, state) == []


def test_a_state_the_actions_do_not_lead_to_is_reported():
    decklists, played, state = played_game(seed=11)
    state.seats[1].power += 1

    assert replay_violations(decklists, 11, played, state) == [
        "replaying its actions gives another state"
    ]


def test_actions_that_cannot_be_replayed_are_reported_rather_than_raised():
    decklists, played, state = played_game(seed=11)

    problems = replay_violations(decklists, 11, [*played, {"kind": "done"}], state)

    assert problems == ["replaying its actions fails: GameOver('the game is over')"]


def test_games_per_second_keep_three_significant_digits_however_slow():
    report = Report(games=48, seconds=1685.0, turns=[30] * 48, actions=[400] * 48)

    assert "48 games in 1685.00 s: 0.0285 games per second" in report.summary()


def test_games_per_second_keep_a_decimal_when_fast():
    report = Report(games=200, seconds=1.58, turns=[30] * 200, actions=[400] * 200)

    assert ": 126.6 games per second" in report.summary()


def test_a_long_decision_counts_the_cpu_time_of_its_thread_not_the_wall_clock():
    report = simulate(1, seed=3, agents=[Sleeper, RandomAgent], decklists=MATCHUPS)

    cpu, wall = report.decision_seconds[0], report.decision_wall_seconds[0]
    assert cpu and all(seconds >= 0.002 for seconds in wall)
    assert all(
        cpu_seconds < wall_seconds / 2 for cpu_seconds, wall_seconds in zip(cpu, wall, strict=True)
    )


def test_a_decision_shorter_than_a_cpu_clock_reading_counts_its_wall_clock_time():
    report = simulate(1, seed=3, agents=[RandomAgent, RandomAgent], decklists=MATCHUPS)

    timed = list(zip(report.decision_seconds[0], report.decision_wall_seconds[0], strict=True))
    short = [(cpu, wall) for cpu, wall in timed if wall < SHORT_DECISION]
    assert short and all(cpu == wall for cpu, wall in short)


def test_the_cpu_clock_is_read_around_a_decision_only_after_a_long_one():
    """Reading the CPU clock costs a quick agent as much as its decision: it is read only
    when the seat's last decision was long, and a long decision right after a quick one
    counts its wall-clock time, which bounds its CPU time."""
    report = simulate(1, seed=3, agents=[SometimesSleeper, RandomAgent], decklists=MATCHUPS)

    timed = list(zip(report.decision_seconds[0], report.decision_wall_seconds[0], strict=True))
    # Whether a decision was quick is what its wall-clock time says: on a busy machine even
    # an agent's quick decision can run past SHORT_DECISION.
    long_after = [
        (previous_wall < SHORT_DECISION, cpu, wall)
        for (_, previous_wall), (cpu, wall) in zip(timed, timed[1:], strict=False)
        if wall >= SHORT_DECISION
    ]
    after_quick = [(cpu, wall) for quick, cpu, wall in long_after if quick]
    after_long = [(cpu, wall) for quick, cpu, wall in long_after if not quick]
    assert after_quick and all(cpu == wall for cpu, wall in after_quick)
    assert after_long and all(cpu < wall / 2 for cpu, wall in after_long)
