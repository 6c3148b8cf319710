"""The daily quests: which three are on offer on a day, what a finished match counts toward
each, and the guards that keep a match from counting at all. Pure: the same day gives the
same quests in every process, with no database and no stored draw.

Rotation: quest slot ``s`` (of three) is replaced on the days whose ordinal is ``s`` modulo
3, so one quest changes each day and each lasts three days. Each slot goes through its whole
pool in an order drawn from SHA-256 (never Python's ``hash``, which differs per process) of
the slot and the round of the pool, and a new round never begins with the quest the last one
ended on."""

import hashlib
from dataclasses import dataclass
from datetime import date

from collection.earnings.facts import MatchFacts, SeatFacts
from collection.earnings.rates import COMPUTER_LEVELS, QuestDefinition, Rates

SLOTS = 3


@dataclass(frozen=True)
class OfferedQuest:
    """A quest on offer: its definition, its slot and the first and last days it is offered."""

    quest: QuestDefinition
    slot: int
    since: date
    until: date


def _round_order(pool: tuple[QuestDefinition, ...], slot: str, round_number: int) -> list:
    def draw(quest: QuestDefinition) -> str:
        return hashlib.sha256(f"{slot}:{round_number}:{quest.slug}".encode()).hexdigest()

    return sorted(pool, key=draw)


def _round_drawn(pool: tuple[QuestDefinition, ...], slot: str, round_number: int) -> list:
    order = _round_order(pool, slot, round_number)
    # Swapping the first two leaves the last in place (pools hold three or more), so the
    # round before ends on its own drawn order's last quest.
    if order[0] == _round_order(pool, slot, round_number - 1)[-1]:
        order[0], order[1] = order[1], order[0]
    return order


def daily_quests(day: date, rates: Rates) -> list[OfferedQuest]:
    """The three quests on offer on ``day`` (UTC), in slot order."""
    ordinal = day.toordinal()
    offered = []
    for index, slot in enumerate(rates.quest_slots):
        replaced = ordinal - (ordinal - index) % SLOTS
        turn = replaced // SLOTS  # how many times this slot has been replaced
        pool = rates.slot_pool(slot)
        round_number, position = divmod(turn, len(pool))
        quest = _round_drawn(pool, slot, round_number)[position]
        offered.append(
            OfferedQuest(
                quest=quest,
                slot=index,
                since=date.fromordinal(replaced),
                until=date.fromordinal(replaced + SLOTS - 1),
            )
        )
    return offered


def _level_at_least(level: str, lowest: str) -> bool:
    return COMPUTER_LEVELS.index(level) >= COMPUTER_LEVELS.index(lowest)


def match_refusal(match: MatchFacts, seat: SeatFacts, rates: Rates) -> str:
    """Why ``match`` earns ``seat``'s player nothing (no win credits, no quest progress), or
    "" when it counts. The guards against farming: no tutorial (they pay once, on their
    own), no computer opponent below the lowest level, no game conceded, lost on time or
    left before the early-concession turn."""
    if match.mode == "tutorial":
        return "tutorials pay once, when first completed"
    lowest = rates.wins.lowest_computer_level
    for opponent in match.opponents(seat):
        if opponent.computer_level and not _level_at_least(opponent.computer_level, lowest):
            return f"against the computer below {lowest.capitalize()}"
    turns = rates.wins.early_concession_turns
    for game in match.games:
        if not game.decided_by_play and game.turns < turns:
            return f"a game ended by a concession before turn {turns}"
    return ""


def quest_progress(quest: QuestDefinition, match: MatchFacts, seat: SeatFacts) -> int:
    """What ``match`` (one that counts) adds to ``quest`` for ``seat``'s player."""
    if quest.archetypes and seat.archetype not in quest.archetypes:
        return 0
    if quest.modes and match.mode not in quest.modes:
        return 0
    opponents = match.opponents(seat)
    if quest.opponents == "people" and not all(each.person for each in opponents):
        return 0
    if quest.opponents == "computers" and all(each.person for each in opponents):
        return 0
    if quest.lowest_computer_level and not any(
        each.computer_level and _level_at_least(each.computer_level, quest.lowest_computer_level)
        for each in opponents
    ):
        return 0
    counted = {
        "games": 1,
        "wins": int(seat.won),
        "units_played": seat.units_played,
        "tactics_played": seat.tactics_played,
        "quests_completed": seat.quests_completed,
        "raids": seat.raids,
    }
    return counted[quest.counts]
