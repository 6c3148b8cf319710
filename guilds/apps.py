from django.apps import AppConfig


class GuildsConfig(AppConfig):
    name = "guilds"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from guilds.commands import register_guild_commands
        from guilds.menu import register_guild_menu_entries
        from guilds.receivers import connect_receivers

        register_guild_commands()
        register_guild_menu_entries()
        connect_receivers()
