from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "collection.decks"
    label = "decks"
    verbose_name = "Decks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from collection.decks.services.decks import starter_deck_save
        from collection.registry import starter_opened_register

        starter_opened_register(starter_deck_save)
