from django.apps import AppConfig


class TradesConfig(AppConfig):
    name = "collection.trades"
    label = "trades"
    verbose_name = "Trades"
    default_auto_field = "django.db.models.BigAutoField"
