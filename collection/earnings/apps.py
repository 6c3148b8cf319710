from django.apps import AppConfig


class EarningsConfig(AppConfig):
    name = "collection.earnings"
    label = "earnings"
    verbose_name = "Earnings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from collection.earnings.rates import rates
        from collection.earnings.selectors import quests_panel
        from tcgsite.lobbies.places import Lobby
        from tcgsite.lobbies.registry import LobbyPanel, register_lobby_panel

        rates()  # a rates table that does not hold together stops the site here, with the reason
        register_lobby_panel(LobbyPanel("daily_quests", Lobby.MAIN, quests_panel))
