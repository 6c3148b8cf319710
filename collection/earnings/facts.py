"""The plain facts of a finished match that earnings are paid on. The game app, above this
one, reads them from the match it stored (its games' final states and event logs) and hands
them over when the match ends; nothing here reads a match itself. Pure: no database."""

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class GameFacts:
    """One game of the match: how many turns it lasted (every player's counted) and whether
    the rules decided it (an avatar destroyed, the quests completed, an empty deck), rather
    than a concession, a fallen flag, a player leaving or staff."""

    turns: int
    decided_by_play: bool


@dataclass(frozen=True)
class SeatFacts:
    """One seat of the match: who sat there, with what, what they did and how it ended.
    ``computer_level`` is the level of a computer's seat ("easy", "normal", "hard"), blank
    for a person's."""

    player_id: int
    side: int
    archetype: str
    computer_level: str
    won: bool
    units_played: int = 0
    tactics_played: int = 0
    quests_completed: int = 0
    raids: int = 0

    @property
    def person(self) -> bool:
        return not self.computer_level


@dataclass(frozen=True)
class MatchFacts:
    """A finished match: its number, the UTC day it ended (the day its earnings count
    toward), how it was played (one of rates.MODES), its games and its seats."""

    match_id: int
    day: date
    mode: str
    games: tuple[GameFacts, ...]
    seats: tuple[SeatFacts, ...]

    def opponents(self, seat: SeatFacts) -> tuple[SeatFacts, ...]:
        return tuple(other for other in self.seats if other.side != seat.side)
