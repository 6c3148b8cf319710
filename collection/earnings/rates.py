"""The rates table (collection/earnings/rates.json): what each income pays, the guards against
farming, and the daily quests. Plain data, read and checked once when the site starts
(``EarningsConfig.ready``); a table that does not hold together is refused with the reason.
Pure: no database, nothing mutable."""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

RATES_PATH = Path(__file__).with_name("rates.json")

# The computer opponent's levels, weakest first (game.models.ComputerLevel's values).
COMPUTER_LEVELS = ("easy", "normal", "hard")
# What a quest may count in a finished match, for the player (collection.earnings.facts).
QUEST_COUNTS = ("games", "wins", "units_played", "tactics_played", "quests_completed", "raids")
ARCHETYPES = ("jedi", "rebel", "sith", "imperial")
# How a match was played (collection.earnings.facts.MatchMode).
MODES = ("casual", "skirmish", "scenario", "tutorial", "team", "raid", "tournament")
OPPONENTS = ("any", "people", "computers")
MEDAL_COLORS = ("gold", "silver", "bronze")


class RatesError(ValueError):
    """The rates table does not hold together; the message says where."""


@dataclass(frozen=True)
class Reward:
    credits: int
    promo: bool = False


@dataclass(frozen=True)
class WinRates:
    credits: int
    daily_cap: int  # wins paid per player per UTC day
    pair_daily_cap: int  # wins paid per day between the same two people, either way
    lowest_computer_level: str  # a win over a computer below this level pays nothing
    early_concession_turns: int  # a game conceded before this many turns counts for nothing


@dataclass(frozen=True)
class PlaceCredits:
    first: int
    last: int
    credits: int


@dataclass(frozen=True)
class QuestDefinition:
    slug: str
    slot: str
    title: str
    counts: str
    goal: int
    credits: int
    archetypes: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()
    opponents: str = "any"
    lowest_computer_level: str = ""


@dataclass(frozen=True)
class Rates:
    wins: WinRates
    tutorial: Reward
    all_tutorials: Reward
    scenario: Reward
    sprint_medals: Mapping[str, Reward]
    tournament_places: tuple[PlaceCredits, ...]
    promo_places: int
    promo_smallest_field: int
    quest_slots: tuple[str, ...]
    quests: tuple[QuestDefinition, ...]

    def place_credits(self, *, place: int, field: int) -> int:
        """Credits for finishing ``place`` of ``field`` players: only the top half is paid."""
        if place > field // 2:
            return 0
        return next(
            (tier.credits for tier in self.tournament_places if tier.first <= place <= tier.last),
            0,
        )

    def place_earns_promo(self, *, place: int, field: int) -> bool:
        """A top-eight finish in a field larger than eight (in a smaller one everyone is)."""
        return field >= self.promo_smallest_field and place <= self.promo_places

    def slot_pool(self, slot: str) -> tuple[QuestDefinition, ...]:
        return tuple(quest for quest in self.quests if quest.slot == slot)

    def quest(self, slug: str) -> QuestDefinition | None:
        return next((quest for quest in self.quests if quest.slug == slug), None)


def _count(value, where: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise RatesError(f"{where} must be a whole number of at least {least}, not {value!r}.")
    return value


def _choice(value, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise RatesError(f"{where} must be one of {', '.join(allowed)}, not {value!r}.")
    return value


def _reward(data, where: str) -> Reward:
    if not isinstance(data, dict):
        raise RatesError(f"{where} must be an object with its credits.")
    promo = data.get("promo", False)
    if not isinstance(promo, bool):
        raise RatesError(f"{where}.promo must be true or false.")
    return Reward(credits=_count(data.get("credits"), f"{where}.credits"), promo=promo)


def _quest(data: dict, slots: tuple[str, ...], index: int) -> QuestDefinition:
    where = f"quests[{index}]"
    if not isinstance(data, dict):
        raise RatesError(f"{where} must be an object.")
    for key in ("slug", "title"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise RatesError(f"{where}.{key} must be a text.")
    archetypes = tuple(data.get("archetypes", ()))
    for archetype in archetypes:
        _choice(archetype, ARCHETYPES, f"{where}.archetypes")
    modes = tuple(data.get("modes", ()))
    for mode in modes:
        _choice(mode, MODES, f"{where}.modes")
    level = data.get("lowest_computer_level", "")
    if level:
        _choice(level, COMPUTER_LEVELS, f"{where}.lowest_computer_level")
    return QuestDefinition(
        slug=data["slug"],
        slot=_choice(data.get("slot"), slots, f"{where}.slot"),
        title=data["title"],
        counts=_choice(data.get("counts"), QUEST_COUNTS, f"{where}.counts"),
        goal=_count(data.get("goal"), f"{where}.goal", least=1),
        credits=_count(data.get("credits"), f"{where}.credits", least=1),
        archetypes=archetypes,
        modes=modes,
        opponents=_choice(data.get("opponents", "any"), OPPONENTS, f"{where}.opponents"),
        lowest_computer_level=level,
    )


def rates_parse(data: dict) -> Rates:
    """The rates table from its JSON, checked; ``RatesError`` names what is wrong."""
    wins = data.get("wins") or {}
    win_rates = WinRates(
        credits=_count(wins.get("credits"), "wins.credits"),
        daily_cap=_count(wins.get("daily_cap"), "wins.daily_cap"),
        pair_daily_cap=_count(wins.get("pair_daily_cap"), "wins.pair_daily_cap"),
        lowest_computer_level=_choice(
            wins.get("lowest_computer_level"), COMPUTER_LEVELS, "wins.lowest_computer_level"
        ),
        early_concession_turns=_count(
            wins.get("early_concession_turns"), "wins.early_concession_turns"
        ),
    )
    medals = data.get("sprint_medals") or {}
    if set(medals) != set(MEDAL_COLORS):
        raise RatesError("sprint_medals must name gold, silver and bronze.")
    places = []
    for index, tier in enumerate(data.get("tournament_places") or ()):
        span = tier.get("places") if isinstance(tier, dict) else None
        if not isinstance(span, list) or len(span) != 2:
            raise RatesError(f"tournament_places[{index}].places must be [first, last].")
        first = _count(span[0], f"tournament_places[{index}].places", least=1)
        last = _count(span[1], f"tournament_places[{index}].places", least=first)
        if places and first != places[-1].last + 1:
            raise RatesError(f"tournament_places[{index}] must begin after the tier before.")
        credits = _count(tier.get("credits"), f"tournament_places[{index}].credits")
        if places and credits > places[-1].credits:
            raise RatesError(f"tournament_places[{index}] pays more than the tier before.")
        places.append(PlaceCredits(first=first, last=last, credits=credits))
    promo = data.get("top_eight_promo") or {}
    slots = tuple(data.get("quest_slots") or ())
    if len(slots) != 3 or len(set(slots)) != 3:
        raise RatesError("quest_slots must name three slots: three quests a day, one each.")
    quests = tuple(_quest(each, slots, index) for index, each in enumerate(data.get("quests", ())))
    slugs = [quest.slug for quest in quests]
    if len(set(slugs)) != len(slugs):
        raise RatesError("Two quests share a slug.")
    for slot in slots:
        # One slot's quest is replaced each day without coming back at once: a pool of three
        # lets the order drawn for the next round avoid the quest that just left.
        if sum(quest.slot == slot for quest in quests) < 3:
            raise RatesError(f"The quest slot {slot} needs at least three quests.")
    return Rates(
        wins=win_rates,
        tutorial=_reward(data.get("tutorial"), "tutorial"),
        all_tutorials=_reward(data.get("all_tutorials"), "all_tutorials"),
        scenario=_reward(data.get("scenario"), "scenario"),
        sprint_medals=MappingProxyType(
            {color: _reward(medals[color], f"sprint_medals.{color}") for color in medals}
        ),
        tournament_places=tuple(places),
        promo_places=_count(promo.get("places"), "top_eight_promo.places", least=1),
        promo_smallest_field=_count(
            promo.get("smallest_field"), "top_eight_promo.smallest_field", least=2
        ),
        quest_slots=slots,
        quests=quests,
    )


@cache
def rates() -> Rates:
    """The site's rates table, read once."""
    return rates_parse(json.loads(RATES_PATH.read_text(encoding="utf-8")))
