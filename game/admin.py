from django import forms
from django.contrib import admin, messages
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html

from game.models import (
    Game,
    GameAction,
    Match,
    MatchChatLine,
    MatchSeat,
    MatchStatus,
    ScenarioProgress,
)
from game.services.matches import MatchError, match_end_by_staff


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    fields = ("seat", "player", "deck_name", "archetype", "side", "ready", "clock_left_ms")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class GameInline(admin.TabularInline):
    model = Game
    fields = ("number", "applied", "winner_seat", "win_reason", "seed_hash", "started", "ended")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class EndMatchForm(forms.Form):
    reason = forms.CharField(
        max_length=150, help_text="Recorded as the match's end, e.g. 'stuck after a crash'."
    )


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Every match; a stuck one can be ended with a recorded reason."""

    list_display = ("pk", "title", "host", "status", "structure", "time_limit", "created", "winner")
    list_filter = ("status", "structure", "created")
    search_fields = ("title", "host__username", "seats__player__username")
    list_select_related = ("host", "winner")
    inlines = [MatchSeatInline, GameInline]
    readonly_fields = (
        "watch",
        "title",
        "host",
        "status",
        "structure",
        "allow_observers",
        "friends_only",
        "light_vs_dark",
        "time_limit",
        "clock_seat",
        "clock_since",
        "created",
        "started",
        "ended",
        "winner",
        "end_reason",
    )
    exclude = ("password",)
    actions = ["end_matches"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="Replay")
    def watch(self, match: Match) -> str:
        """The replay of a finished match; the match's page (its public view) otherwise."""
        if match.status == MatchStatus.FINISHED and match.games.exists():
            url = reverse("game:match_replay", args=[match.pk])
            return format_html('<a href="{}">Open the replay</a>', url)
        if match.status == MatchStatus.PLAYING and match.allow_observers:
            url = reverse("game:match_page", args=[match.pk])
            return format_html('<a href="{}">Observe the match</a>', url)
        return "No replay yet: the match has not finished."

    @admin.action(description="End the selected matches (stuck), with a reason")
    def end_matches(self, request, queryset):
        form = EndMatchForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            for match in queryset:
                try:
                    match_end_by_staff(
                        match_id=match.pk, staff=request.user, reason=form.cleaned_data["reason"]
                    )
                except MatchError as error:
                    self.message_user(request, f"Match {match.pk}: {error.message}", messages.ERROR)
                else:
                    self.message_user(request, f"Match {match.pk} ended.")
            return None
        return render(
            request,
            "admin/game/end_matches.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "matches": queryset,
                "action": "end_matches",
                "opts": self.model._meta,
            },
        )


@admin.register(GameAction)
class GameActionAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "seat", "action", "created")
    list_filter = ("created",)
    search_fields = ("game__match__title",)
    readonly_fields = ("game", "number", "seat", "action", "events", "created")

    def has_add_permission(self, request):
        return False


@admin.register(MatchChatLine)
class MatchChatLineAdmin(admin.ModelAdmin):
    list_display = ("sent_at", "match", "sender", "kind", "recipient", "text")
    list_filter = ("kind", "sent_at")
    search_fields = ("text", "sender__username")
    readonly_fields = ("match", "sender", "kind", "recipient", "text", "sent_at")

    def has_add_permission(self, request):
        return False


@admin.register(ScenarioProgress)
class ScenarioProgressAdmin(admin.ModelAdmin):
    """Who has won which scenario (rulebook, "Scenarios"). A row opens the next scenario of
    its chapter; deleting one locks it again, but the reward card granted stays owned."""

    list_display = ("player", "scenario", "won", "match")
    list_filter = ("scenario", "won")
    search_fields = ("player__username",)
    raw_id_fields = ("player", "match")
    readonly_fields = ("won",)
