from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "tcgsite.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tcgsite import lookups  # noqa: F401
        from tcgsite.accounts import signals  # noqa: F401
