from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"

    def ready(self):
        from game.commands import register_match_commands
        from game.menu import register_match_menu_entries
        from game.selectors import casual_panel
        from tcgsite.lobbies.places import Lobby
        from tcgsite.lobbies.registry import LobbyPanel, register_lobby_panel

        register_lobby_panel(LobbyPanel("casual_matches", Lobby.CASUAL, casual_panel))
        register_match_menu_entries()
        register_match_commands()
