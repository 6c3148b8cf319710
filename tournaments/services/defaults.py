"""The events a site opens with (rulebook, "Types of Tournament Queues"): the standard on-demand
queues ("On-Demand Queues will always appear in the tournament queue area of the Tournaments
Lobby") and a default schedule of scheduled events for the Events Calendar: a Constructed
event every evening, a Sealed event on weekends and a Sprint on weeknights ("Sprint
Tournaments are held on weeknights").

Each default carries a key of its own (``standard_key``), so creating them again finds what is
there, however staff have changed it, and adds only what is missing: staff who want one gone
close the queue (status Closed) or untick the schedule's Active rather than delete it.
"""

from datetime import time

from django.db import transaction

from collection.models import Product, ProductKind
from game.models import MatchStructure
from tcgsite.errors import UserError
from tournaments.models import (
    EventSchedule,
    TournamentKind,
    TournamentQueue,
    TournamentStructure,
)
from tournaments.services.queues import schedules_extend

# Rewards are paid in the newest booster pack (the Pack Pool of every default).
STANDARD_ON_DEMAND_QUEUES = (
    {
        "standard_key": "constructed-swiss",
        "title": "Constructed Swiss",
        "structure": TournamentStructure.SWISS,
        "max_players": 8,
        "reward_structure": "4-2-1-1",
    },
    {
        "standard_key": "constructed-single-elimination",
        "title": "Constructed Single Elimination",
        "structure": TournamentStructure.SINGLE_ELIMINATION,
        "style": MatchStructure.BEST_OF_THREE,
        "max_players": 8,
        "reward_structure": "4-2-1-1",
    },
    {
        "standard_key": "quick-four",
        "title": "Quick Four",
        "structure": TournamentStructure.SINGLE_ELIMINATION,
        "max_players": 4,
        "reward_structure": "2-1",
    },
    {
        "standard_key": "sealed-swiss",
        "title": "Sealed Swiss",
        "kind": TournamentKind.SEALED,
        "structure": TournamentStructure.SWISS,
        "max_players": 8,
        "sealed_starters": 1,
        "sealed_boosters": 2,
        "reward_structure": "4-2-1-1",
    },
    {
        # A Cut to Top 8 with combined styles: Swiss at Single Game, the top 8 best of three.
        "standard_key": "constructed-top-eight",
        "title": "Constructed Top Eight",
        "structure": TournamentStructure.CUT_TO_TOP_8,
        "style": MatchStructure.SINGLE_GAME,
        "cut_style": MatchStructure.BEST_OF_THREE,
        "max_players": 16,
        "reward_structure": "6-4-3-3-1*",
    },
    {
        "standard_key": "best-of-five-four",
        "title": "Showdown Four",
        "structure": TournamentStructure.SINGLE_ELIMINATION,
        "style": MatchStructure.BEST_OF_FIVE,
        "max_players": 4,
        "reward_structure": "3-1",
    },
)

# Weekdays as EventSchedule writes them: 0 Monday to 6 Sunday. The times (UTC) keep the three
# apart: a weeknight's Sprint (three rounds of 40 minutes) is over before the evening's
# Constructed event opens its queue, and a weekend's Sealed event (building, three Swiss
# rounds of 40 minutes and a top 8 of 70-minute rounds) before it starts.
DEFAULT_SCHEDULES = (
    {
        "standard_key": "weeknight-sprint",
        "title": "Weeknight Sprint",
        "weekdays": "0,1,2,3,4",
        "start_time": time(17, 0),
        "structure": TournamentStructure.SWISS,
        "rounds": 3,
        "max_players": 16,
        "sprint": True,
        "reward_structure": "3-2-1*",
    },
    {
        "standard_key": "evening-constructed",
        "title": "Evening Constructed",
        "weekdays": "0,1,2,3,4,5,6",
        "start_time": time(20, 0),
        "structure": TournamentStructure.SWISS,
        "max_players": 32,
        "reward_structure": "5-4-3-2-1*",
    },
    {
        "standard_key": "weekend-sealed",
        "title": "Weekend Sealed",
        "weekdays": "5,6",
        "start_time": time(13, 0),
        "kind": TournamentKind.SEALED,
        "structure": TournamentStructure.CUT_TO_TOP_8,
        "style": MatchStructure.SINGLE_GAME,
        "cut_style": MatchStructure.BEST_OF_THREE,
        "rounds": 3,
        "max_players": 32,
        "sealed_starters": 1,
        "sealed_boosters": 2,
        "reward_structure": "6-4-3-2-1*",
    },
)


class NoCatalog(UserError):
    pass


def standard_events_open() -> tuple[list[TournamentQueue], list[EventSchedule]]:
    """Create the standard on-demand queues and default schedules the site does not have
    (by key: a default staff changed is kept as they left it), then the scheduled queues of
    every active schedule for the days ahead. What was created: nothing on a second run."""
    with transaction.atomic():
        # Two starts at once: the second waits here, then finds the first one's rows.
        pack_pool = (
            Product.objects.select_for_update()
            .filter(kind=ProductKind.BOOSTER_PACK)
            .order_by("-pk")
            .first()
        )
        if pack_pool is None:
            raise NoCatalog("There is no booster pack to pay rewards in: load the catalog first.")
        queue_keys = set(
            TournamentQueue.objects.exclude(standard_key="").values_list("standard_key", flat=True)
        )
        queues = [
            TournamentQueue.objects.create(
                **rules, on_demand=True, position=position, pack_pool=pack_pool
            )
            for position, rules in enumerate(STANDARD_ON_DEMAND_QUEUES, start=1)
            if rules["standard_key"] not in queue_keys
        ]
        schedule_keys = set(
            EventSchedule.objects.exclude(standard_key="").values_list("standard_key", flat=True)
        )
        schedules = [
            EventSchedule.objects.create(**rules, pack_pool=pack_pool)
            for rules in DEFAULT_SCHEDULES
            if rules["standard_key"] not in schedule_keys
        ]
        schedules_extend()
    return queues, schedules
