from django.apps import AppConfig


class LobbiesConfig(AppConfig):
    name = "tcgsite.lobbies"
    label = "lobbies"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tcgsite.lobbies.commands import register_built_in_commands
        from tcgsite.lobbies.menu import register_built_in_menu_entries

        register_built_in_commands()
        register_built_in_menu_entries()
