"""A live server for browser tests that speaks websockets too.

pytest-django's live server is a WSGI thread: the pages' sockets (lobby chat, presence) would
get a 404. This one runs the site's ASGI application (HTTP with static files, and the
websocket routes) with uvicorn in a thread of the test process, so that tests keep sharing the
process's settings, cache and in-memory channel layer, as they do with pytest-django's.
"""

import asyncio
import socket
import threading

from channels.routing import ProtocolTypeRouter
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.test.utils import modify_settings


class AsgiLiveServer:
    def __init__(self, host: str = "localhost"):
        import uvicorn

        from tcgsite.routing import websocket_application, websocket_urlpatterns

        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        with self._live_server_modified_settings:
            # The origin check reads ALLOWED_HOSTS when the application is built.
            sockets = websocket_application(websocket_urlpatterns)
        application = ProtocolTypeRouter(
            {"http": ASGIStaticFilesHandler(get_asgi_application()), "websocket": sockets}
        )
        listening = socket.socket()
        listening.bind((host, 0))
        self.port = listening.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        config = uvicorn.Config(
            application, log_level="warning", lifespan="off", ws="websockets", ws_ping_interval=None
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._server.serve(sockets=[listening])), daemon=True
        )
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the live server did not start")
            threading.Event().wait(0.05)

    def __str__(self):
        return self.url

    def stop(self):
        self._server.should_exit = True
        self._thread.join(timeout=10)
