from django import forms
from django.contrib import admin

from collection.cards.models import Card, CardSet
from collection.cards.services import catalog_card_problems


class CardAdminForm(forms.ModelForm):
    """The admin supplies model and fields (from the fieldsets); this adds the rules check."""

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            problems = catalog_card_problems(Card(**cleaned))
            if problems:
                raise forms.ValidationError(problems)
        return cleaned


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ("number", "code", "name", "released")
    search_fields = ("name", "code")


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm
    list_display = (
        "title",
        "collector_info",
        "card_type",
        "archetype",
        "rarity",
        "cost",
        "attack",
        "defense",
        "damage_bonus",
        "health",
        "level",
    )
    list_filter = ("card_set", "card_type", "archetype", "rarity", "restriction")
    list_select_related = ("card_set",)
    search_fields = ("title", "game_text", "lore", "artist", "trait_index", "keyword_index")
    ordering = ("card_set__number", "number")
    readonly_fields = ("trait_index", "keyword_index")
    fieldsets = (
        (None, {"fields": ("card_set", "number", "rarity", "title", "card_type", "archetype")}),
        (
            "Attributes",
            {
                "fields": (
                    "cost",
                    "attack",
                    "defense",
                    "damage_bonus",
                    "health",
                    "level",
                    "restriction",
                )
            },
        ),
        ("Text", {"fields": ("traits", "game_text", "lore", "artist")}),
        ("Rules", {"fields": ("rules", "trait_index", "keyword_index")}),
    )

    @admin.display(description="collector info", ordering="number")
    def collector_info(self, card):
        return card.collector_info
