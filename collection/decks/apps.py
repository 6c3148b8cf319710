from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "collection.decks"
    label = "decks"
    verbose_name = "Decks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from collection.cards.registry import CardPanel, card_panel_register
        from collection.decks.services.decks import starter_deck_save
        from collection.decks.views.card_page import card_page_decks
        from collection.registry import starter_opened_register

        starter_opened_register(starter_deck_save)
        card_panel_register(CardPanel(template="decks/_card_panel.html", context=card_page_decks))
