"""Staff read what players earned: every income with its ledger operation, every finished
match as it was counted, the quests' progress, and the quest catalogue with its rotation.
All read-only: earnings change only through collection/earnings/services.py."""

from datetime import timedelta

from django.contrib import admin
from django.utils import timezone

from collection.admin import ReadOnlyAdmin
from collection.earnings.models import Earning, MatchTally, QuestProgress
from collection.earnings.quests import daily_quests
from collection.earnings.rates import rates

ROTATION_DAYS = 7


@admin.register(Earning)
class EarningAdmin(ReadOnlyAdmin):
    list_display = ("created", "player", "kind", "day", "credits", "card", "note", "operation")
    list_filter = ("kind", "day")
    list_select_related = ("player", "card", "operation")
    search_fields = ("player__username", "note", "operation__reference")
    date_hierarchy = "day"


@admin.register(MatchTally)
class MatchTallyAdmin(ReadOnlyAdmin):
    list_display = ("created", "player", "match_number", "day", "won", "win_paid", "withheld")
    list_filter = ("won", "win_paid", "day")
    list_select_related = ("player",)
    search_fields = ("player__username", "=match_number")
    date_hierarchy = "day"


@admin.register(QuestProgress)
class QuestProgressAdmin(ReadOnlyAdmin):
    """The players' progress, below the quest catalogue and the quests on offer this week."""

    list_display = ("day", "player", "quest", "progress", "goal", "completed")
    list_filter = ("day", "quest")
    list_select_related = ("player",)
    search_fields = ("player__username", "quest")
    change_list_template = "admin/earnings/questprogress/change_list.html"

    def changelist_view(self, request, extra_context=None):
        table = rates()
        today = timezone.now().date()
        days = [today + timedelta(days=offset) for offset in range(ROTATION_DAYS)]
        context = {
            "quest_catalogue": table.quests,
            "quest_rotation": [
                (day, [offered.quest for offered in daily_quests(day, table)]) for day in days
            ],
            **(extra_context or {}),
        }
        return super().changelist_view(request, extra_context=context)
