from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tcgsite.accounts.session_user import session_user_register
        from tcgsite.lobbies.places import Lobby
        from tcgsite.lobbies.registry import LobbyPanel, register_lobby_panel
        from tournaments.fragments import lobby_panel
        from tournaments.receivers import connect_receivers
        from tournaments.selectors import with_running_tournament
        from tournaments.sprint_badges import connect_sprint_badges

        connect_receivers()
        session_user_register(with_running_tournament)
        register_lobby_panel(LobbyPanel("tournament_lists", Lobby.TOURNAMENTS, lobby_panel))
        connect_sprint_badges()
