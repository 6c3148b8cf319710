from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "collection"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from collection import signals  # noqa: F401
