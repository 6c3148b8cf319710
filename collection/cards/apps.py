from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "collection.cards"
    label = "cards"
    verbose_name = "Cards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from collection.cards import signals  # noqa: F401
