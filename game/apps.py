from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"

    def ready(self):
        from game.commands import register_match_commands
        from game.menu import register_match_menu_entries
        from game.receivers import connect_receivers
        from game.selectors import MATCH_LOBBIES, casual_panel, casual_running_panel, play_panel
        from tcgsite.lobbies.places import Lobby
        from tcgsite.lobbies.registry import LobbyPanel, register_lobby_panel

        # Rulebook, Guilds, "Guild-Only Matches": matches are created "in the Casual Lobby and
        # in the Trade Lobby"; both show the one list of waiting matches.
        for lobby in MATCH_LOBBIES:
            register_lobby_panel(
                LobbyPanel(
                    f"{lobby}_matches", lobby, casual_panel, windows="game/_match_dialog.html"
                )
            )
        # Rulebook, Casual Lobby: its first area shows "matches in progress".
        register_lobby_panel(LobbyPanel("casual_running", Lobby.CASUAL, casual_running_panel))
        # The Main Lobby's Play entry (the Tutorials, Skirmish and Casual).
        register_lobby_panel(LobbyPanel("play", Lobby.MAIN, play_panel))
        register_match_menu_entries()
        register_match_commands()
        connect_receivers()
