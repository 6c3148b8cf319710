from django.urls import path

from collection.trades.consumers import TradeSessionConsumer

websocket_urlpatterns = [
    path("ws/trade/<int:session_id>/", TradeSessionConsumer.as_asgi(), name="trade_socket"),
]
