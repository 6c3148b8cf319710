from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "collection.decks"
    label = "decks"
    verbose_name = "Decks"
    default_auto_field = "django.db.models.BigAutoField"
