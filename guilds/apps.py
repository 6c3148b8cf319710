from django.apps import AppConfig


class GuildsConfig(AppConfig):
    name = "guilds"
    default_auto_field = "django.db.models.BigAutoField"
