import uuid

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.core.exceptions import PermissionDenied
from django.db.models import Sum
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from collection.boosters import BoosterError, booster_draw, slots_problems
from collection.models import (
    BoosterRecipe,
    CardOwnership,
    CreditEntry,
    ItemEntry,
    LedgerOperation,
    Opening,
    OwnedProduct,
    Product,
    ProductKind,
    StarterDeckCard,
    Wallet,
)
from collection.services.ledger import LedgerOperationDone
from collection.services.opening import booster_pool, opening_check
from collection.services.store import MAX_CREDITS, StoreError, credits_grant, product_grant
from tcgsite.accounts.models import User
from tcgsite.inputs import object_id

# --- Store, ownership and ledgers ---------------------------------------------------------
# Balances, owned items and ledgers change only through the services (collection/services/),
# so staff see them read-only here and give credits or products with the grant form.


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ProductAdminForm(forms.ModelForm):
    """Checks that a booster's slots are well formed and that its set can fill them."""

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("kind") != ProductKind.BOOSTER_PACK or self.errors:
            return cleaned
        card_set, slots = cleaned.get("card_set"), cleaned.get("booster_slots")
        if card_set is None:
            self.add_error("card_set", "A booster pack draws its cards from a set: choose one.")
            return cleaned
        problems = slots_problems(slots)
        if not problems:
            try:
                booster_draw(booster_pool(card_set.pk), slots, seed=0)
            except BoosterError as error:
                problems = [str(error)]
        if problems:
            self.add_error("booster_slots", problems)
        return cleaned


class StarterDeckCardInline(admin.TabularInline):
    model = StarterDeckCard
    autocomplete_fields = ("card",)
    extra = 0


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    form = ProductAdminForm
    inlines = [StarterDeckCardInline]
    list_display = ("name", "kind", "price", "for_sale", "card_set", "archetype", "cards_in_deck")
    list_editable = ("price", "for_sale")
    list_filter = ("kind", "for_sale", "card_set", "archetype")
    list_select_related = ("card_set",)
    search_fields = ("name", "description")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(deck_size=Sum("starter_cards__quantity"))

    @admin.display(description="cards in deck", ordering="deck_size")
    def cards_in_deck(self, product):
        return product.deck_size or "—"


class GrantForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        queryset=User.objects.order_by("username"),
        widget=FilteredSelectMultiple("players", is_stacked=False),
    )
    credits = forms.IntegerField(
        required=False,
        min_value=-MAX_CREDITS,
        max_value=MAX_CREDITS,
        help_text="Credits for each player; a negative number takes credits back.",
    )
    product = forms.ModelChoiceField(queryset=Product.objects.all(), required=False)
    quantity = forms.IntegerField(
        min_value=1,
        max_value=100,
        initial=1,
        required=False,
        help_text="How many of the product each player gets.",
    )
    note = forms.CharField(max_length=200, required=False, help_text="Kept in the ledger.")
    # Made when the form is rendered: the same form sent twice grants once.
    reference = forms.UUIDField(initial=uuid.uuid4, required=False, widget=forms.HiddenInput)

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("credits") and not cleaned.get("product"):
            raise forms.ValidationError("Grant some credits, a product, or both.")
        if cleaned.get("product") and not cleaned.get("quantity") and not self.errors:
            self.add_error("quantity", "Say how many of the product each player gets.")
        return cleaned


@admin.register(Wallet)
class WalletAdmin(admin.ModelAdmin):
    list_display = ("owner", "credits", "registered", "ledger")
    list_select_related = ("owner",)
    list_filter = (("owner__registered_at", admin.EmptyFieldListFilter),)
    search_fields = ("owner__username",)
    readonly_fields = ("owner", "credits")
    actions = ("grant_to_selected",)

    def has_add_permission(self, request):
        return False  # the ledger opens a wallet with the starting balance when first needed

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(boolean=True, ordering="owner__registered_at")
    def registered(self, wallet):
        return wallet.owner.is_registered

    @admin.display(description="ledger")
    def ledger(self, wallet):
        url = reverse("admin:collection_creditentry_changelist")
        return format_html(
            '<a href="{}?owner__id__exact={}">Credit history</a>', url, wallet.owner_id
        )

    @admin.action(description="Grant credits or products to the selected players…")
    def grant_to_selected(self, request, queryset):
        owners = ",".join(str(owner_id) for owner_id in queryset.values_list("owner_id", flat=True))
        return redirect(f"{reverse('admin:collection_wallet_grant')}?players={owners}")

    def get_urls(self):
        grant = path(
            "grant/", self.admin_site.admin_view(self.grant_view), name="collection_wallet_grant"
        )
        return [grant, *super().get_urls()]

    def grant_view(self, request):
        """Give credits and/or products to players through the services, one ledger row each."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            form = GrantForm(request.POST)
            if form.is_valid():
                self._grant(request, **form.cleaned_data)
                return redirect("admin:collection_wallet_changelist")
        else:
            chosen = [
                player_id
                for value in request.GET.get("players", "").split(",")
                if (player_id := object_id(value)) is not None
            ]
            form = GrantForm(initial={"players": chosen})
        context = {
            **self.admin_site.each_context(request),
            "title": "Grant credits or products",
            "form": form,
            "media": self.media + form.media,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "collection/store_grant.html", context)

    def _grant(self, request, *, players, credits, product, quantity, note, reference) -> None:
        granted, already = [], []
        for player in players:
            try:
                if credits:
                    credits_grant(
                        owner=player,
                        amount=credits,
                        note=note,
                        reference=reference and f"grant:{reference}:credits:player {player.pk}",
                    )
                if product:
                    product_grant(
                        owner=player,
                        product=product,
                        quantity=quantity,
                        note=note,
                        reference=reference and f"grant:{reference}:products:player {player.pk}",
                    )
            except LedgerOperationDone:
                already.append(player.username)
            except StoreError as error:
                self.message_user(request, f"{player}: {error}", messages.ERROR)
            else:
                granted.append(player.username)
        if already:
            self.message_user(
                request,
                f"This form was already sent for {', '.join(already)}: nothing granted again.",
                messages.WARNING,
            )
        if granted:
            what = " and ".join(
                part
                for part in (
                    f"{credits:+d} credits" if credits else "",
                    f"{quantity} × {product}" if product else "",
                )
                if part
            )
            self.message_user(request, f"Granted {what} to {', '.join(granted)}.", messages.SUCCESS)


@admin.register(LedgerOperation)
class LedgerOperationAdmin(ReadOnlyAdmin):
    list_display = ("created", "reason", "reference")
    list_filter = ("reason", "created")
    search_fields = ("reference",)
    date_hierarchy = "created"


@admin.register(CreditEntry)
class CreditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created", "owner", "delta", "balance_after", "reason", "note", "operation")
    list_filter = ("reason", "created")
    list_select_related = ("owner", "operation")
    search_fields = ("owner__username", "note", "operation__reference")
    date_hierarchy = "created"


@admin.register(OwnedProduct)
class OwnedProductAdmin(ReadOnlyAdmin):
    list_display = ("product", "owner", "acquired", "opened")
    list_filter = ("product__kind", "product", ("opened", admin.EmptyFieldListFilter))
    list_select_related = ("product", "owner")
    search_fields = ("owner__username", "product__name")
    date_hierarchy = "acquired"


@admin.register(BoosterRecipe)
class BoosterRecipeAdmin(ReadOnlyAdmin):
    """What packs were drawn from; written by openings, never edited."""

    list_display = ("digest", "slots", "created")
    search_fields = ("digest",)
    date_hierarchy = "created"


@admin.register(Opening)
class OpeningAdmin(ReadOnlyAdmin):
    list_display = (
        "product",
        "owner",
        "seed",
        "drawn_from",
        "cards",
        "new_cards",
        "audited",
        "created",
    )
    list_filter = ("owned_product__product__kind", "owned_product__product")
    list_select_related = ("owned_product__product", "owned_product__owner", "drawn_from")
    search_fields = ("owned_product__owner__username", "owned_product__product__name")
    readonly_fields = ("audited", "audit")
    date_hierarchy = "created"
    list_per_page = 50  # the audit draws each booster again

    @admin.display(ordering="owned_product__product__name")
    def product(self, opening):
        return opening.owned_product.product

    @admin.display(ordering="owned_product__owner__username")
    def owner(self, opening):
        return opening.owned_product.owner

    @admin.display(description="cards")
    def cards(self, opening):
        return len(opening.card_ids)

    @admin.display(description="new")
    def new_cards(self, opening):
        return len(opening.new_card_ids)

    @admin.display(boolean=True, description="audited")
    def audited(self, opening):
        """Whether the seed draws the recorded cards again from the recorded recipe; unknown
        for starter decks and for packs opened before recipes were kept."""
        return opening_check(opening=opening).genuine

    @admin.display(description="audit")
    def audit(self, opening):
        return opening_check(opening=opening).explanation


@admin.register(CardOwnership)
class CardOwnershipAdmin(ReadOnlyAdmin):
    list_display = ("owner", "card", "quantity", "foil", "want", "trade", "need")
    list_filter = ("card__card_set", "card__rarity", "card__card_type")
    list_select_related = ("owner", "card__card_set")
    search_fields = ("owner__username", "card__title")


@admin.register(ItemEntry)
class ItemEntryAdmin(ReadOnlyAdmin):
    list_display = ("created", "owner", "item", "foil", "delta", "reason", "note", "operation")
    list_filter = ("reason", "foil", "created")
    list_select_related = ("owner", "card__card_set", "owned_product__product", "operation")
    search_fields = (
        "owner__username",
        "card__title",
        "owned_product__product__name",
        "note",
        "operation__reference",
    )
    date_hierarchy = "created"

    @admin.display(description="card or product")
    def item(self, entry):
        return entry.card if entry.card_id else entry.owned_product
