from django.urls import path

from tcgsite.lobbies.consumers import LobbyConsumer, PresenceConsumer

websocket_urlpatterns = [
    path("ws/lobby/<slug:place>/", LobbyConsumer.as_asgi(), name="lobby_socket"),
    path("ws/presence/<slug:place>/", PresenceConsumer.as_asgi(), name="presence_socket"),
]
