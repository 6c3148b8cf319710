"""A month of a free player's daily play through the real services, and what it earns
(README, "How to earn credits").

On a throwaway database (an SQLite file in a temporary folder, the embedded default's
settings, deleted at the end) with the real card catalog, a new player signs up with the
starting credits and spends them all at once on a starter deck and four boosters, as a new
player would. Then, day after day on a moved clock (``django.utils.timezone.now`` is replaced
by the simulated time, so every service, the ledger's rows and the quests' day see it), they
play an hour: Skirmishes at Normal and a casual game against a friend, each match created by
the match services and played to its end through them (every decision checked and logged;
both seats choose with the greedy agent, the computer's too, to keep the run short), so that
the match's finishing task pays its earnings exactly as on the site. The first day they win
the six tutorials, then one Chapter 1 scenario a day until the five are won: those are paid
through the same earnings services the finishing task calls (their lessons and stories are
played by tests/game). Whenever they hold the price of an Event Pass, they buy one in the
Store to enter the day's event; the events' own rewards are left out (a conservative month:
they finish out of the credits every time).

Printed per day: the credits earned by source, spent, the balance at the end of the day and
whether an event was affordable that day; then the month's totals. Never fails on a number.

    .venv/bin/python benchmarks/economy_month.py

ECONOMY_DAYS (30), ECONOMY_SKIRMISHES (3 a day), ECONOMY_CASUAL (1 a day) and ECONOMY_SEED
choose the month.
"""

import contextlib
import io
import logging
import os
import random
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
for production_only in ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY"):
    os.environ.pop(production_only, None)
WORKDIR = tempfile.TemporaryDirectory(prefix="economy-month-")
os.environ["SQLITE_PATH"] = str(Path(WORKDIR.name) / "economy.sqlite3")
os.environ["DJANGO_SETTINGS_MODULE"] = "tcgsite.settings"
os.environ["EMBEDDED_BEAT"] = "false"

DAYS = int(os.environ.get("ECONOMY_DAYS", "30"))
SKIRMISHES = int(os.environ.get("ECONOMY_SKIRMISHES", "3"))
CASUAL = int(os.environ.get("ECONOMY_CASUAL", "1"))
SEED = int(os.environ.get("ECONOMY_SEED", "20261207"))
FIRST_DAY = datetime(2027, 1, 4, 18, tzinfo=UTC)  # a Monday evening, UTC
MINUTES_A_GAME = 15

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db.models import Sum  # noqa: E402

from collection.earnings.models import Earning, EarningKind  # noqa: E402
from collection.earnings.services import scenario_earnings_pay, tutorial_earnings_pay  # noqa: E402
from collection.models import Product, ProductKind  # noqa: E402
from collection.services.ledger import wallet_for  # noqa: E402
from collection.services.opening import products_open  # noqa: E402
from collection.services.store import product_grant, product_purchase  # noqa: E402
from game.ai.agents import GreedyAgent  # noqa: E402
from game.models import MatchStatus  # noqa: E402
from game.scenarios import chapter_scenarios  # noqa: E402
from game.services import matches  # noqa: E402
from game.services.matches import (  # noqa: E402
    MatchSettings,
    computers_play_on,
    match_create,
    match_join,
    match_ready,
)
from game.services.skirmish import skirmish_start  # noqa: E402
from game.tutorials import TUTORIALS  # noqa: E402
from tcgsite.accounts.models import User  # noqa: E402

SOURCES = {
    EarningKind.WIN: "wins",
    EarningKind.QUEST: "quests",
    EarningKind.TUTORIAL: "learning",
    EarningKind.ALL_TUTORIALS: "learning",
    EarningKind.SCENARIO: "learning",
}
COLUMNS = ("wins", "quests", "learning")
OPPONENTS = ("sith", "imperial", "rebel", "jedi")


class Clock:
    """The simulated time every service reads through ``django.utils.timezone.now``."""

    def __init__(self, start: datetime):
        self.time = start

    def now(self) -> datetime:
        return self.time

    def advance(self, minutes: int) -> None:
        self.time += timedelta(minutes=minutes)


class SeededSecrets:
    """The match service's ``secrets`` (each game's seed and salt), seeded: the month is the
    same every run."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)

    def randbelow(self, bound: int) -> int:
        return self.random.randrange(bound)

    def randbits(self, bits: int) -> int:
        return self.random.getrandbits(bits)

    def token_hex(self, size: int = 32) -> str:
        return self.random.randbytes(size).hex()


def player_with_starter(name: str, archetype: str, *, bought: bool):
    player = User.objects.create_user(username=name, password=None)
    starter = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype=archetype)
    if bought:
        booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
        items = product_purchase(buyer=player, product=starter)
        items += product_purchase(buyer=player, product=booster, quantity=4)
    else:
        items = product_grant(owner=player, product=starter, quantity=1)
    products_open(owner=player, owned_product_ids=[item.pk for item in items])
    return player, player.decks.get(name__startswith="Jedi" if archetype == "jedi" else "")


def played_out(match, clock: Clock) -> None:
    """Both seats choose with the greedy agent, through the match service, to the end."""
    agents = {0: GreedyAgent(), 1: GreedyAgent()}
    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        game = match.games.order_by("-number").first()
        computers_play_on(
            match_id=match.pk, game_number=game.number, ply=game.applied, agents=agents
        )
    clock.advance(MINUTES_A_GAME)


def earned_today(player, day) -> Counter:
    earned = Counter()
    rows = (
        Earning.objects.filter(player=player, day=day)
        .values_list("kind")
        .annotate(total=Sum("credits"))
    )
    for kind, total in rows:
        earned[SOURCES.get(kind, kind)] += total
    return earned


def main() -> None:
    logging.disable(logging.INFO)  # the finishing tasks' lines, run in this process
    call_command("migrate", verbosity=0)
    with contextlib.redirect_stdout(io.StringIO()):
        call_command("load_cards", verbosity=0)
    clock = Clock(FIRST_DAY)
    with (
        mock.patch("django.utils.timezone.now", clock.now),
        mock.patch.object(matches, "secrets", SeededSecrets(SEED)),
    ):
        month(clock)


def month(clock: Clock) -> None:
    rookie, deck = player_with_starter("Rookie", "jedi", bought=True)
    friend, friends_deck = player_with_starter("Friend", "sith", bought=False)
    event_pass = Product.objects.get(kind=ProductKind.EVENT_PASS)
    scenarios = list(chapter_scenarios(1))
    print(
        f"A free player's month: {SKIRMISHES} Skirmishes at Normal and {CASUAL} casual game a "
        f"day (about {(SKIRMISHES + CASUAL) * MINUTES_A_GAME} minutes)."
    )
    print(
        f"An Event Pass costs {event_pass.price} credits. Day 1 began with the 1,000 starting "
        "credits spent on a starter deck and four boosters."
    )
    print("learning: tutorials and scenarios; W/G: matches won of those played.")
    print()
    header = f"{'day':>3} {'date':10} {'wins':>5} {'quests':>6} {'learning':>8} {'earned':>6}"
    print(f"{header} {'spent':>5} {'balance':>7}  W/G  event")
    totals = Counter()
    events = 0
    for number in range(1, DAYS + 1):
        clock.time = FIRST_DAY + timedelta(days=number - 1)
        day = clock.time.date()
        if number == 1:
            for tutorial in TUTORIALS:
                tutorial_earnings_pay(
                    player=rookie,
                    slug=tutorial.slug,
                    title=tutorial.title,
                    all_completed=tutorial == TUTORIALS[-1],
                )
        if number - 2 in range(len(scenarios)):
            scenario = scenarios[number - 2]
            scenario_earnings_pay(player=rookie, number=scenario.number, title=scenario.title)
        wins = games = 0
        for index in range(SKIRMISHES):
            archetype = OPPONENTS[(number + index) % len(OPPONENTS)]
            match = skirmish_start(player=rookie, deck=deck, archetype=archetype, level="normal")
            played_out(match, clock)
            match.refresh_from_db()
            games, wins = games + 1, wins + (match.winner_id == rookie.pk)
        for _ in range(CASUAL):
            match = match_create(host=rookie, deck=deck, settings=MatchSettings())
            match_join(match_id=match.pk, player=friend, deck=friends_deck)
            match_ready(match_id=match.pk, player=rookie)
            match_ready(match_id=match.pk, player=friend)
            played_out(match, clock)
            match.refresh_from_db()
            games, wins = games + 1, wins + (match.winner_id == rookie.pk)
        affordable = wallet_for(owner=rookie).credits >= event_pass.price
        spent = 0
        if affordable:
            product_purchase(buyer=rookie, product=event_pass)
            spent, events = event_pass.price, events + 1
        earned = earned_today(rookie, day)
        totals.update(earned)
        totals["spent"] += spent
        balance = wallet_for(owner=rookie).credits
        line = " ".join(f"{earned[column]:>{max(5, len(column))}}" for column in COLUMNS)
        entered = "yes, entered" if affordable else "no"
        print(
            f"{number:>3} {day.isoformat()} {line} {sum(earned.values()):>6} {spent:>5} "
            f"{balance:>7}  {wins}/{games}  {entered}"
        )
    earned_total = sum(totals[column] for column in COLUMNS)
    print()
    print(
        f"Month: earned {earned_total} (wins {totals['wins']}, quests {totals['quests']}, "
        f"tutorials and scenarios {totals['learning']}), spent {totals['spent']}; "
        f"{events} events entered in {DAYS} days; "
        f"{(earned_total - totals['learning']) / DAYS:.0f} credits a day from play alone."
    )


if __name__ == "__main__":
    try:
        main()
    finally:
        WORKDIR.cleanup()
