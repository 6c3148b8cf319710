from django.contrib import admin
from django.db.models import Count

from guilds.models import Guild, GuildChatLine, GuildInvitation, GuildMembership


class MembershipInline(admin.TabularInline):
    model = GuildMembership
    extra = 0
    raw_id_fields = ("user",)
    fields = ("user", "officer", "joined_at", "message_seen_at")


@admin.register(Guild)
class GuildAdmin(admin.ModelAdmin):
    list_display = ("name", "leader", "member_count", "created_at")
    search_fields = ("name", "leader__username")
    raw_id_fields = ("leader",)
    list_select_related = ("leader",)
    inlines = (MembershipInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(members=Count("memberships"))

    @admin.display(description="Members", ordering="members")
    def member_count(self, guild):
        return guild.members


@admin.register(GuildMembership)
class GuildMembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "guild", "officer", "joined_at")
    list_filter = ("officer",)
    search_fields = ("user__username", "guild__name")
    raw_id_fields = ("user", "guild")


@admin.register(GuildInvitation)
class GuildInvitationAdmin(admin.ModelAdmin):
    list_display = ("invitee", "guild", "invited_by", "created_at")
    search_fields = ("invitee__username", "guild__name")
    raw_id_fields = ("invitee", "guild", "invited_by")


@admin.register(GuildChatLine)
class GuildChatLineAdmin(admin.ModelAdmin):
    """Guild Chat, for moderation: mutes are set on the lobbies' chat messages."""

    list_display = ("sent_at", "guild", "sender", "text")
    search_fields = ("sender__username", "guild__name", "text")
    raw_id_fields = ("guild", "sender")
    date_hierarchy = "sent_at"
    ordering = ("-sent_at",)
