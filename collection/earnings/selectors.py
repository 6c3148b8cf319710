"""What the pages read of a player's earnings: the Main Lobby's Daily quests panel."""

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils import timezone

from collection.earnings.models import Earning, MatchTally, QuestProgress
from collection.earnings.quests import daily_quests
from collection.earnings.rates import QuestDefinition, rates
from tcgsite.accounts.models import User


@dataclass(frozen=True)
class QuestLine:
    quest: QuestDefinition
    progress: int
    completed: bool
    # Days it is still offered, today included: it is replaced at midnight UTC after them.
    days_left: int

    @property
    def percent(self) -> int:
        return min(100, self.progress * 100 // self.quest.goal)


@dataclass(frozen=True)
class DailyEarnings:
    quests: list[QuestLine]
    wins_paid: int
    wins_cap: int
    win_credits: int
    credits_today: int
    next_quest_in: timedelta


def daily_earnings(*, player: User) -> DailyEarnings:
    """Today's (UTC) quests with the player's progress, the wins paid today against the
    cap, and the credits earned today."""
    now = timezone.now()
    today = now.date()
    table = rates()
    progress = {row.quest: row for row in QuestProgress.objects.filter(player=player, day=today)}
    lines = []
    for offered in daily_quests(today, table):
        row = progress.get(offered.quest.slug)
        lines.append(
            QuestLine(
                quest=offered.quest,
                progress=row.progress if row else 0,
                completed=bool(row and row.completed),
                days_left=(offered.until - today).days + 1,
            )
        )
    tomorrow = datetime.combine(today + timedelta(days=1), time(), tzinfo=now.tzinfo)
    return DailyEarnings(
        quests=lines,
        wins_paid=MatchTally.objects.filter(player=player, day=today, win_paid=True).count(),
        wins_cap=table.wins.daily_cap,
        win_credits=table.wins.credits,
        credits_today=Earning.objects.filter(player=player, day=today).aggregate(
            total=Sum("credits")
        )["total"]
        or 0,
        next_quest_in=tomorrow - now,
    )


def quests_panel(viewer: User) -> str:
    """The Main Lobby's Daily quests panel."""
    earnings = daily_earnings(player=viewer)
    hours, seconds = divmod(int(earnings.next_quest_in.total_seconds()), 3600)
    return render_to_string(
        "earnings/_quests_panel.html",
        {
            "earnings": earnings,
            "next_quest": f"{hours} h {seconds // 60:02d} min" if hours else f"{seconds // 60} min",
        },
    )
