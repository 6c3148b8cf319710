from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from tcgsite.accounts.forms import AdminLoginForm
from tcgsite.accounts.models import Preferences, User

admin.site.login_form = AdminLoginForm


class PreferencesInline(admin.StackedInline):
    model = Preferences
    can_delete = False


@admin.register(User)
class PlayerAdmin(UserAdmin):
    inlines = [PreferencesInline]
    list_display = ("username", "email", "is_staff", "is_active", "date_joined", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "date_joined")
    search_fields = ("username", "email", "first_name", "last_name")
    filter_horizontal = ("groups", "user_permissions", "friends")
    fieldsets = (*UserAdmin.fieldsets, ("Friends", {"fields": ("friends",)}))
