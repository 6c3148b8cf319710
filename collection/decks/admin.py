from django import forms
from django.contrib import admin
from django.db import models

from collection.cards.models import Card
from collection.decks.models import Deck, DeckCard, LimitedPool, PlayFormat
from collection.decks.selectors import MAX_ENTRY_COPIES
from tcgsite.inputs import object_id


def _unknown_titles(titles) -> list[str]:
    known = set(Card.objects.filter(title__in=titles).values_list("title", flat=True))
    return [title for title in titles if title not in known]


class PlayFormatAdminForm(forms.ModelForm):
    """Banned and restricted titles are lists of exact card titles: typos are refused."""

    def _titles(self, name: str) -> list[str]:
        titles = self.cleaned_data.get(name) or []
        if not isinstance(titles, list) or not all(isinstance(t, str) for t in titles):
            raise forms.ValidationError('Write a list of card titles: ["Title", "Other title"].')
        titles = list(dict.fromkeys(title.strip() for title in titles if title.strip()))
        unknown = _unknown_titles(titles)
        if unknown:
            raise forms.ValidationError(f"No card has the title {', '.join(map(repr, unknown))}.")
        return titles

    def clean_banned_titles(self):
        return self._titles("banned_titles")

    def clean_restricted_titles(self):
        return self._titles("restricted_titles")


@admin.register(PlayFormat)
class PlayFormatAdmin(admin.ModelAdmin):
    form = PlayFormatAdminForm
    list_display = ("name", "kind", "position", "allowed_sets", "banned", "restricted")
    list_editable = ("position",)
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("sets",)

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("sets")

    @admin.display(description="sets")
    def allowed_sets(self, play_format):
        return ", ".join(str(card_set.number) for card_set in play_format.sets.all()) or "all"

    @admin.display(description="banned")
    def banned(self, play_format):
        return len(play_format.banned_titles or [])

    @admin.display(description="restricted")
    def restricted(self, play_format):
        return len(play_format.restricted_titles or [])


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    autocomplete_fields = ("card",)
    extra = 0


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "cards", "updated")
    list_select_related = ("owner",)
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)
    inlines = (DeckCardInline,)
    date_hierarchy = "updated"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(card_total=models.Sum("entries__quantity"))

    @admin.display(description="cards", ordering="card_total")
    def cards(self, deck):
        return deck.card_total or 0


class LimitedPoolAdminForm(forms.ModelForm):
    """Staff make pools by hand until sealed tournaments open products into them."""

    def clean_card_counts(self):
        counts = self.cleaned_data.get("card_counts")
        if not isinstance(counts, dict) or not counts:
            raise forms.ValidationError('Write {"<card id>": copies, ...} with at least one card.')
        wrong = [
            f"{key!r}: {copies!r}"
            for key, copies in counts.items()
            if object_id(key) is None
            or not isinstance(copies, int)
            or not 1 <= copies <= MAX_ENTRY_COPIES
        ]
        if wrong:
            raise forms.ValidationError(
                f"Each entry is a card id and a number of copies from 1 to {MAX_ENTRY_COPIES}, "
                f"not {', '.join(wrong)}."
            )
        ids = {object_id(key) for key in counts}
        found = set(Card.objects.printed().filter(pk__in=ids).values_list("pk", flat=True))
        if ids - found:
            missing = ", ".join(str(card_id) for card_id in sorted(ids - found))
            raise forms.ValidationError(f"No catalog card has the id {missing}.")
        return {str(object_id(key)): copies for key, copies in counts.items()}


@admin.register(LimitedPool)
class LimitedPoolAdmin(admin.ModelAdmin):
    form = LimitedPoolAdminForm
    list_display = ("name", "owner", "deadline", "cards", "deck")
    list_select_related = ("owner", "deck")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner", "deck")
    date_hierarchy = "deadline"

    @admin.display(description="cards")
    def cards(self, pool):
        counts = pool.card_counts if isinstance(pool.card_counts, dict) else {}
        return sum(copies for copies in counts.values() if isinstance(copies, int))
