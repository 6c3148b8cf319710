"""The search agent: determinised Monte Carlo look-ahead over the greedy agent's play.

At each decision with a choice, the agent

1. works out what its seat knows (``view(state, seat)``: never the full state) and samples
   *possible worlds* that agree with it (``game.ai.worlds``): every hand, deck and quest
   pile it cannot see, its teammates' as well as its opponents', and its own deck order,
   are made up from the decklists it knows;
2. tries each candidate action in the same worlds, then plays on with the greedy agent's
   choices for every seat (``game.ai.playout``) until the look-ahead's horizon (the start
   of a later turn), and judges the position reached for its whole side
   (``playout.evaluate``: both teammates' assets, a heroic encounter's own victory
   conditions);
3. spends a fixed number of these playouts per decision (in a team game each at most
   ``TURN_ACTIONS`` actions a turn), halving the candidates after each
   round (successive halving: the promising actions get most of the playouts), and takes
   the best; on a tie the greedy agent's own choice, which it always keeps among the
   candidates.

Every decision of a seat goes through it, so in a team game it also chooses which
opposing avatar a raid attacks and, as the attacking player, who commands a tied defense
(MULTIPLAYER GAMES, "Attacking Raid Commander", "Defending Raid Commander").

It is deterministic: the random numbers of a decision come from the agent's seed and the
number of actions applied so far, and the budget is a number of playouts, never a time. So a
game against it replays exactly from the match's seed and action log, even with a new agent
object for every decision (it keeps no memory from one decision to the next but a cache of
work that depends on nothing random).
"""

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from game.ai.playout import evaluate, playout_action, side_score
from game.ai.worlds import CardPool, Sight, clone
from game.engine import api
from game.engine.actions import Action, Decision
from game.engine.errors import IllegalAction
from game.engine.printed import DefinitionsIndex
from game.engine.state import State


@dataclass(frozen=True)
class Settings:
    """How hard the agent thinks: ``playouts`` per decision (split among the candidates),
    at most ``candidates`` actions tried, and the look-ahead's ``horizon`` in turns (1: to
    the end of the current turn; 2: through the next player's turn as well)."""

    playouts: int
    candidates: int = 12
    horizon: int = 2


LEVELS: Mapping[str, Settings] = MappingProxyType(
    {
        "easy": Settings(playouts=6, candidates=3, horizon=1),
        "normal": Settings(playouts=16, candidates=8, horizon=2),
        "hard": Settings(playouts=48, candidates=12, horizon=3),
    }
)


# The most actions a playout of a team game carries out for each turn of its horizon: a turn
# of the greedy agent's play takes 20 actions or so, but one side's army on a crowded playmat (four
# players' units, a boss's five-card draws) can take hundreds, and the decision as long; the
# look-ahead judges the position where it stopped.
TURN_ACTIONS = 40


# The order in which actions other than the greedy choice are tried (a stable sort keeps the
# engine's order within each kind).
_FIRST_TRIED = MappingProxyType({"done": 0, "pass": 0, "raid": 1})


class SearchAgent:
    """Looks ahead in possible worlds; see the module's docstring.

    ``priors`` are the decklists it expects of each archetype (the starter decks), and of
    any avatar known by its title (a heroic encounter's boss): it samples another seat's
    unseen cards from the one of that seat's avatar, or else its archetype. ``own`` is
    its own decklist, if known (else the prior of its own archetype stands for it).
    """

    def __init__(
        self,
        seed: int,
        settings: Settings | str = "normal",
        *,
        priors: Mapping[str, dict],
        own: dict | None = None,
    ):
        self.seed = seed
        self.settings = LEVELS[settings] if isinstance(settings, str) else settings
        self.pool = CardPool(priors, own)
        # The definitions index of each table of definitions met, so that it is worked out
        # once a game rather than once a decision. Nothing random: replays are unaffected.
        self.indexes: dict[tuple[str, ...], tuple[list[dict], DefinitionsIndex]] = {}

    def choose(self, state: State, decision: Decision) -> Action:
        legal = decision.actions
        if len(legal) == 1:
            return legal[0]
        seat = decision.seat
        if seat is None:
            raise ValueError("the game is over: there is nothing to decide")
        generator = random.Random(self.seed * 1_000_003 + state.applied)  # noqa: S311
        sight = Sight(state, api.view(state, seat), self.pool, self.indexes)
        worlds = _Worlds(sight, generator)
        first = worlds.get(0)
        candidates = self._candidates(first, decision)
        if len(candidates) == 1:
            return candidates[0]
        # A team game's sides are uneven: its positions are judged as changes from here
        # (``evaluate``). What ``side_score`` reads is public, so any world gives it.
        baseline = 0.0 if state.teams is None else side_score(first, seat)
        return self._halve(candidates, worlds, seat, state.turn, baseline)

    def _candidates(self, world: State, decision: Decision) -> list[Action]:
        """The actions worth trying: the greedy agent's choice, then ending the phase or
        passing and raiding (where the greedy agent is weakest: when to stop, when to
        attack), then the rest as the engine lists them, up to the level's number."""
        greedy = playout_action(world, decision)
        others = [action for action in decision.actions if action != greedy]
        others.sort(key=lambda action: _FIRST_TRIED.get(action["kind"], len(_FIRST_TRIED)))
        return [greedy, *others][: self.settings.candidates]

    def _halve(
        self, candidates: list[Action], worlds: "_Worlds", seat: int, turn: int, baseline: float
    ) -> Action:
        """Successive halving: in each round every candidate still in is played out in the
        same new worlds, then the better half goes on; the budget is split evenly among the
        rounds. Ties keep the earlier candidate (the greedy choice first)."""
        budget = self.settings.playouts
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        alive = list(range(len(candidates)))
        world_number = 0
        for round_number in range(rounds):
            per_candidate = max(1, budget // (rounds * len(alive)))
            for _ in range(per_candidate):
                world = worlds.get(world_number)
                world_number += 1
                for index in alive:
                    totals[index] += self._playout(world, candidates[index], seat, turn, baseline)
                    counts[index] += 1
            alive.sort(key=lambda index: (-totals[index] / counts[index], index))
            if round_number < rounds - 1:
                alive = alive[: max(1, math.ceil(len(alive) / 2))]
            if len(alive) == 1:
                break
        return candidates[alive[0]]

    def _playout(
        self, world: State, action: Action, seat: int, turn: int, baseline: float
    ) -> float:
        """The value for ``seat``'s side of ``action`` in ``world``, played on to the
        horizon."""
        copy = clone(world)
        try:
            api.apply(copy, action)
        except IllegalAction:
            return -2.0  # never in a world that agrees with the view; ranks it last
        end = turn + self.settings.horizon
        # A two-player game's turns are short, and cut short they misjudge its raids.
        steps_left = None if world.teams is None else self.settings.horizon * TURN_ACTIONS
        while copy.winner is None and copy.turn < end and steps_left != 0:
            api.apply(copy, playout_action(copy, api.legal_actions(copy)))
            if steps_left is not None:
                steps_left -= 1
        return evaluate(copy, seat, baseline)


class _Worlds:
    """The possible worlds of one decision, sampled as they are first asked for, so every
    candidate is tried in the same ones (common random numbers)."""

    def __init__(self, sight: Sight, generator: random.Random):
        self.sight = sight
        self.generator = generator
        self.sampled: list[State] = []

    def get(self, number: int) -> State:
        while len(self.sampled) <= number:
            self.sampled.append(self.sight.world(self.generator))
        return self.sampled[number]
