from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from tcgsite.accounts.forms import AdminLoginForm
from tcgsite.accounts.models import Preferences, TipScreen, User


class PreferencesAdminForm(forms.ModelForm):
    # Ticked screens, as on Preferences → User Interface: an empty JSON box would be null.
    hidden_tips = forms.MultipleChoiceField(
        label="Hide the Player Tips of these screens",
        choices=TipScreen.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


admin.site.login_form = AdminLoginForm


class PreferencesInline(admin.StackedInline):
    model = Preferences
    form = PreferencesAdminForm
    can_delete = False


@admin.register(User)
class PlayerAdmin(UserAdmin):
    inlines = [PreferencesInline]
    list_display = ("username", "email", "is_staff", "is_active", "date_joined", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "date_joined")
    search_fields = ("username", "email", "first_name", "last_name")
    filter_horizontal = ("groups", "user_permissions", "friends")
    fieldsets = (*UserAdmin.fieldsets, ("Friends", {"fields": ("friends",)}))

    def save_formset(self, request, form, formset, change):
        if formset.model is Preferences and not change:
            # Saving the new account already made its Preferences (signals.create_preferences):
            # the inline fills those in rather than adding a second row for the same player.
            for inline_form in formset.forms:
                inline_form.instance.pk = form.instance.preferences.pk
                inline_form.instance._state.adding = False
        super().save_formset(request, form, formset, change)
