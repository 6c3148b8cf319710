from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "collection"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from collection import signals  # noqa: F401
        from collection.cards.registry import CardPanel, card_panel_register
        from collection.views.card_page import card_page_numbers
        from tcgsite.accounts.session_user import session_user_register

        session_user_register(lambda users: users.select_related("wallet"))
        card_panel_register(
            CardPanel(template="collection/_card_panel.html", context=card_page_numbers)
        )
