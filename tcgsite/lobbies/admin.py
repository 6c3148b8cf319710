from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.utils import timezone

from tcgsite.lobbies.models import ChatMessage, ChatMute, Presence
from tcgsite.lobbies.services.moderation import (
    ModerationError,
    chat_mute,
    chat_unmute,
    mute_refusal,
)

MUTE_PERIODS = (
    ("hour", "an hour", timedelta(hours=1)),
    ("day", "a day", timedelta(days=1)),
    ("week", "a week", timedelta(days=7)),
)


def _mute_action(key: str, label: str, duration: timedelta):
    def action(modeladmin, request, queryset):
        senders = {message.sender for message in queryset.select_related("sender")}
        for sender in sorted(senders, key=lambda user: user.username.lower()):
            try:
                mute = chat_mute(
                    user=sender,
                    until=timezone.now() + duration,
                    reason="Chat moderation",
                    by=request.user,
                )
            except ModerationError as error:
                modeladmin.message_user(request, error.message, messages.ERROR)
            else:
                modeladmin.message_user(
                    request, f"{sender} is muted until {mute.until:%Y-%m-%d %H:%M} UTC."
                )

    action.__name__ = f"mute_senders_for_{key}"
    return admin.action(description=f"Mute the senders for {label}")(action)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Recent messages per lobby, searchable; mute their senders from here."""

    list_display = ("sent_at", "lobby", "sender", "kind", "recipient", "text")
    list_filter = ("lobby", "kind", "sent_at")
    search_fields = ("text", "sender__username", "recipient__username")
    date_hierarchy = "sent_at"
    ordering = ("-sent_at", "-pk")
    list_select_related = ("sender", "recipient")
    readonly_fields = ("lobby", "sender", "kind", "recipient", "text", "sent_at")
    actions = [_mute_action(*period) for period in MUTE_PERIODS]

    def has_add_permission(self, request):
        return False


class ChatMuteForm(forms.ModelForm):
    class Meta:
        model = ChatMute
        fields = ("user", "until", "reason")

    def clean(self):
        cleaned = super().clean()
        user, until = cleaned.get("user"), cleaned.get("until")
        if user and until and (refusal := mute_refusal(user=user, until=until)):
            raise forms.ValidationError(refusal)
        return cleaned


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    form = ChatMuteForm
    list_display = ("user", "until", "in_force", "reason", "muted_by", "created_at")
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user",)
    readonly_fields = ("muted_by", "created_at")
    fields = ("user", "until", "reason", "muted_by", "created_at")
    actions = ["end_mutes"]

    @admin.display(boolean=True, description="In force")
    def in_force(self, mute):
        return mute.until > timezone.now()

    def has_change_permission(self, request, obj=None):
        return False  # a mute is ended with the action, so the record stays as it was given

    def save_model(self, request, obj, form, change):
        # The form ran the service's checks; the service writes.
        saved = chat_mute(user=obj.user, until=obj.until, reason=obj.reason, by=request.user)
        obj.pk = saved.pk

    @admin.action(description="End these mutes now")
    def end_mutes(self, request, queryset):
        ended = sum(chat_unmute(user=mute.user) for mute in queryset.select_related("user"))
        self.message_user(request, f"{ended} mute(s) ended.")


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    """Who is online now, and where (read-only: presence follows the players' pages)."""

    list_display = ("user", "room", "place", "online_since")
    list_filter = ("room", "place")
    search_fields = ("user__username",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
