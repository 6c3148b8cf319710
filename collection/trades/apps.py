from django.apps import AppConfig


class TradesConfig(AppConfig):
    name = "collection.trades"
    label = "trades"
    verbose_name = "Trades"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from collection.trades.live_lobby import register_live_trade_features
        from collection.trades.posted_lobby import register_posted_trade_features

        register_live_trade_features()
        register_posted_trade_features()
