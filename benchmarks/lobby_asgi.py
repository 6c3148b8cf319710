"""The site's ASGI application plus a bare echo consumer, for benchmarks/lobby_chat.py and
benchmarks/match_load.py.

The echo consumer is the baseline: it joins one group and relays each message it receives to
the whole group, with no session, database or HTML, so the lobby's and the matches' figures can
be read beside what the server and the channel layer cost alone. At ``ws/bench/echo/`` every
socket shares one group (a lobby); at ``ws/bench/echo/<room>/`` the sockets of one room share a
group of their own (a match's players and observers).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.urls import path  # noqa: E402

django_application = get_asgi_application()

from tcgsite.routing import websocket_application, websocket_urlpatterns  # noqa: E402
from tcgsite.serving import interpreter_tune_for_serving  # noqa: E402

ECHO_GROUP = "bench-echo"


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        room = self.scope["url_route"]["kwargs"].get("room")
        self.echo_group = f"{ECHO_GROUP}-{room}" if room else ECHO_GROUP
        await self.channel_layer.group_add(self.echo_group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.echo_group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(
            self.echo_group, {"type": "echo.text", "text": text_data}
        )

    async def echo_text(self, event):
        await self.send(text_data=event["text"])


site_sockets = websocket_application(websocket_urlpatterns)
echo_sockets = URLRouter(
    [
        path("ws/bench/echo/", EchoConsumer.as_asgi()),
        path("ws/bench/echo/<slug:room>/", EchoConsumer.as_asgi()),
    ]
)


async def websockets(scope, receive, send):
    if scope["path"].startswith("/ws/bench/"):
        return await echo_sockets(scope, receive, send)
    return await site_sockets(scope, receive, send)


application = ProtocolTypeRouter({"http": django_application, "websocket": websockets})
# As tcgsite/asgi.py does.
interpreter_tune_for_serving()
