"""The tournaments in the admin: staff schedule events and edit queues (their rules checked by
EventRules.clean), follow tournaments, pay rewards and give special ones through the services.
What the services write (tournaments, pairings, ratings, Sprint points and medals) is shown
read-only: a change by hand would bypass the ledger and the players' notifications."""

import uuid

from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.urls import reverse
from django.utils.html import format_html

from tournaments.models import (
    EventSchedule,
    Pairing,
    Participant,
    QueueEntry,
    RatingChange,
    SpecialReward,
    SprintMedal,
    SprintScore,
    SprintSettings,
    Tournament,
    TournamentQueue,
    TournamentStatus,
)
from tournaments.services.payout import RewardError, special_reward_give, tournament_payout
from tournaments.services.queues import schedules_extend

RULE_FIELDSETS = (
    (
        "Event",
        {"fields": ("title", "kind", "play_format", "structure", "style", "cut_style", "sprint")},
    ),
    ("Players and rounds", {"fields": ("max_players", "rounds", "round_minutes")}),
    (
        "Entry fee and rewards",
        {"fields": ("entry_passes", "k", "pack_pool", "reward_structure")},
    ),
    ("Sealed", {"fields": ("sealed_starters", "sealed_boosters", "sealed_minutes")}),
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(EventSchedule)
class EventScheduleAdmin(admin.ModelAdmin):
    """A recurring scheduled tournament; saving one creates its queues for the two weeks
    ahead."""

    list_display = ("title", "start_time", "weekdays", "structure", "kind", "sprint", "active")
    list_filter = ("active", "kind", "structure", "sprint")
    search_fields = ("title",)
    fieldsets = (
        (
            "Schedule (UTC)",
            {
                "fields": ("weekdays", "start_time", "active"),
                "description": "Its queues are created two weeks ahead, each with the rules below "
                "as they are then: to change a queue already created, edit it under Tournament "
                "queues.",
            },
        ),
        *RULE_FIELDSETS,
    )

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        created = schedules_extend()
        if created:
            self.message_user(
                request,
                f"{created} scheduled queue(s) created for the two weeks ahead.",
                messages.INFO,
            )


class QueueEntryInline(ReadOnlyInline):
    """Who waits: players join and leave in the lobby, where the entry fee is checked."""

    model = QueueEntry
    fields = ("player", "deck", "joined")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player", "deck")


@admin.register(TournamentQueue)
class TournamentQueueAdmin(admin.ModelAdmin):
    list_display = ("pk", "title", "queue_kind", "starts_at", "status", "waiting", "position")
    list_display_links = ("pk", "title")
    list_filter = ("on_demand", "status", "kind", "structure", "sprint")
    search_fields = ("title",)
    date_hierarchy = "starts_at"
    inlines = (QueueEntryInline,)
    readonly_fields = ("schedule", "end_reason", "created")
    fieldsets = (
        (
            "Queue",
            {
                "fields": ("on_demand", "starts_at", "status", "position"),
                "description": "A scheduled queue (On demand unticked) opens in the lobby 30 "
                "minutes before its start time (UTC) and starts then, however many joined.",
            },
        ),
        *RULE_FIELDSETS,
        ("Record", {"fields": ("schedule", "end_reason", "created")}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(waiting_count=Count("entries"))

    @admin.display(description="Kind", ordering="on_demand")
    def queue_kind(self, queue):
        return "On demand" if queue.on_demand else "Scheduled"

    @admin.display(description="Waiting", ordering="waiting_count")
    def waiting(self, queue):
        return queue.waiting_count


class ParticipantInline(ReadOnlyInline):
    model = Participant
    fields = (
        "seed",
        "player",
        "deck_name",
        "rating_start",
        "dropped",
        "eliminated_round",
        "final_rank",
        "packs",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")


class PairingInline(ReadOnlyInline):
    model = Pairing
    fields = ("round", "table", "first", "second", "winner", "decision", "decided", "match")
    readonly_fields = fields

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("first__player", "second__player", "winner__player", "match")
        )


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """A tournament is run by the services; staff follow it here and pay its rewards again
    if a payout was interrupted (it pays each player once, however often it runs)."""

    list_display = ("pk", "title", "status", "structure", "players", "round", "started", "paid")
    list_filter = ("status", "structure", "kind", "sprint")
    search_fields = ("title", "participants__player__username")
    date_hierarchy = "started"
    inlines = (ParticipantInline, PairingInline)
    readonly_fields = ("standings",)
    actions = ("pay_rewards",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(player_count=Count("participants"))

    @admin.display(description="Players", ordering="player_count")
    def players(self, tournament):
        return tournament.player_count

    @admin.display(description="Standings")
    def standings(self, tournament):
        url = reverse("tournaments:standings", args=[tournament.pk])
        return format_html('<a href="{}">Open the standings page</a>', url)

    @admin.action(description="Pay rewards (safe to repeat)")
    def pay_rewards(self, request, queryset):
        for tournament in queryset.order_by("pk"):
            if tournament.status != TournamentStatus.CONCLUDED:
                self.message_user(
                    request,
                    f"Tournament {tournament.pk} has not concluded: nothing to pay yet.",
                    messages.WARNING,
                )
                continue
            paid = tournament_payout(tournament_id=tournament.pk)
            self.message_user(
                request,
                f"Tournament {tournament.pk}: {paid} player(s) paid now; "
                "those paid before were not paid again.",
            )


@admin.register(Pairing)
class PairingAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "round", "table", "first", "second", "winner", "decision")
    list_filter = ("decision",)
    search_fields = ("first__player__username", "second__player__username")
    list_select_related = ("first__player", "second__player", "winner__player")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("created", "player", "before", "after", "change", "pairing")
    search_fields = ("player__username",)
    list_select_related = ("player", "pairing")
    date_hierarchy = "created"

    @admin.display(description="Change")
    def change(self, rating_change):
        return f"{rating_change.after - rating_change.before:+d}"


class SpecialRewardForm(forms.ModelForm):
    """Gives the reward while the form is checked, through special_reward_give, so that what
    it refuses (after 48 hours, to someone who did not play) shows as the form's error."""

    # Names this giving: the form sent twice (a double click, a resubmission) gives once.
    giving = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
    # The staff member giving it, set by SpecialRewardAdmin.get_form for each request.
    staff = None

    class Meta:
        model = SpecialReward
        fields = ("tournament", "player", "product", "quantity", "note")

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            self.instance = special_reward_give(
                tournament_id=cleaned["tournament"].pk,
                player=cleaned["player"],
                product=cleaned["product"],
                quantity=cleaned["quantity"],
                staff=self.staff,
                token=cleaned["giving"],
                note=cleaned.get("note", ""),
            )
        except RewardError as error:
            raise forms.ValidationError(error.message) from error
        return cleaned


@admin.register(SpecialReward)
class SpecialRewardAdmin(admin.ModelAdmin):
    """Rewards given by hand within 48 hours of a tournament's conclusion; once given, a
    reward is in the player's collection and the ledger, so it is never edited or deleted."""

    form = SpecialRewardForm
    list_display = ("created", "tournament", "player", "product", "quantity", "awarded_by", "note")
    search_fields = ("player__username", "note")
    list_select_related = ("tournament", "player", "product", "awarded_by")
    raw_id_fields = ("tournament", "player")

    def get_form(self, request, obj=None, **kwargs):
        # modelform_factory makes a new class on each call: the attribute is this request's.
        form = super().get_form(request, obj, **kwargs)
        form.staff = request.user
        return form

    def save_model(self, request, obj, form, change):
        """Nothing to save: the form's check gave the reward (SpecialRewardForm.clean)."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(SprintSettings)
class SprintSettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "points_for_entry", "points_per_win", "silver_level", "bronze_level")


@admin.register(SprintScore)
class SprintScoreAdmin(ReadOnlyAdmin):
    list_display = ("month", "player", "points", "events", "wins")
    list_filter = ("month",)
    search_fields = ("player__username",)
    list_select_related = ("player",)


@admin.register(SprintMedal)
class SprintMedalAdmin(ReadOnlyAdmin):
    list_display = ("month", "color", "player", "points", "awarded")
    list_filter = ("color", "month")
    search_fields = ("player__username",)
    list_select_related = ("player",)
