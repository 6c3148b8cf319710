from django.contrib import admin

from collection.trades.models import (
    PostedTrade,
    PostedTradeLine,
    TradeSession,
    TradeSessionLine,
    TradeSessionSwap,
)


class PostedTradeLineInline(admin.TabularInline):
    model = PostedTradeLine
    extra = 0
    raw_id_fields = ["card", "product"]


@admin.register(PostedTrade)
class PostedTradeAdmin(admin.ModelAdmin):
    """Posted trades, to look into a player's question; their items move only by accepting."""

    list_display = ["pk", "poster", "status", "guild", "accepted_by", "created_at", "closed_at"]
    list_filter = ["status"]
    search_fields = ["poster__username", "accepted_by__username"]
    raw_id_fields = ["poster", "accepted_by", "guild"]
    readonly_fields = ["status", "accepted_by", "closed_at"]
    inlines = [PostedTradeLineInline]


# --- live trade sessions ----------------------------------------------------------------------


class TradeSessionLineInline(admin.TabularInline):
    model = TradeSessionLine
    fields = ("giver", "card", "product", "quantity")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class TradeSessionSwapInline(admin.TabularInline):
    model = TradeSessionSwap
    fields = ("number", "offer_version", "items", "completed_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(TradeSession)
class TradeSessionAdmin(admin.ModelAdmin):
    """Live trade sessions, to look into a player's question: read only, since items move
    only through the players' confirmations (the ledger keeps each swap as trade:<id>:<n>)."""

    list_display = ["pk", "initiator", "partner", "status", "trades_completed", "created_at"]
    list_filter = ["status"]
    search_fields = ["initiator__username", "partner__username"]
    readonly_fields = [field.name for field in TradeSession._meta.fields]
    inlines = [TradeSessionLineInline, TradeSessionSwapInline]

    def has_add_permission(self, request):
        return False
