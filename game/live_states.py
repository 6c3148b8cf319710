"""The states of the live games a web process has just played or shown, kept so that the next
action on a game starts from its state without reading and decoding the game's stored JSON
(34 KB for a two-player game).

A state is kept under its game's id and seed salt with its number of actions applied, and
only once the transaction that stored them has committed (it comes with the announcement of
the change: ``MatchMoment.unpack``). Under the match's lock, a game whose stored ``applied``
is the kept one is in exactly the kept state, whichever process applied the actions (the
engine is deterministic); the random salt keeps a state from being taken for another game
that later got the same id. The state kept is the one the announcement's screens are built
from, which nothing changes: each action takes a copy of its own (``game.ai.worlds.clone``,
quicker than unpickling the state again).
"""

import pickle
import threading
from collections import OrderedDict

from game.ai.worlds import clone
from game.engine.state import State, from_dict, to_dict


def pack_state(state: State) -> bytes:
    """The state as bytes for this site's own processes (through the channel layer), quicker
    to write and read than its JSON."""
    return pickle.dumps(to_dict(state), protocol=pickle.HIGHEST_PROTOCOL)


def unpack_state(packed: bytes) -> State:
    return from_dict(pickle.loads(packed))  # noqa: S301 - written by ``pack_state`` here


def live_state_key(game) -> tuple[int, str]:
    return (game.pk, game.seed_salt)


class LiveStates:
    """The latest state of each game by ``live_state_key``, with its number of actions
    applied; the games least recently kept are forgotten beyond ``size``. A kept state is
    never changed: each ``take`` is a copy of its own, which the taker may change. Shared by
    the threads of a process."""

    def __init__(self, size: int):
        self.size = size
        self.kept: OrderedDict[tuple[int, str], tuple[int, State]] = OrderedDict()
        self.lock = threading.Lock()

    def keep(self, game, state: State) -> None:
        """Keep ``state``, the state of ``game`` as committed with ``game.applied`` actions,
        which nothing may change from now on."""
        key = live_state_key(game)
        with self.lock:
            kept = self.kept.get(key)
            if kept is not None and kept[0] > game.applied:
                return  # a later state is kept already
            self.kept[key] = (game.applied, state)
            self.kept.move_to_end(key)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def take(self, game, applied: int | None = None) -> State | None:
        """A copy of the state of ``game`` after ``applied`` actions (its own ``applied`` by
        default: the caller holds the match's lock, under which ``game`` was read), if kept."""
        with self.lock:
            kept = self.kept.get(live_state_key(game))
        if kept is None or kept[0] != (game.applied if applied is None else applied):
            return None
        return clone(kept[1])


# A thousand games' states, each shared with the screens of its last announcement.
live_states = LiveStates(size=1000)


class PackedHere:
    """What this process packed lately for its other processes, by the bytes it packed: the
    sockets of this process that receive those bytes back (through the channel layer) take
    the original instead of unpacking a copy of it. The originals must not be changed once
    packed. The oldest are forgotten beyond ``size``. Shared by the threads of a process."""

    def __init__(self, size: int):
        self.size = size
        self.kept: OrderedDict[bytes, object] = OrderedDict()
        self.lock = threading.Lock()

    def keep(self, packed: bytes, original: object) -> None:
        with self.lock:
            self.kept[packed] = original
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def original(self, packed: bytes) -> object | None:
        with self.lock:
            return self.kept.get(packed)


# Kept for the few milliseconds until the announcement of each comes back.
packed_here = PackedHere(size=32)
