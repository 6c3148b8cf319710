"""A live server for browser tests that speaks websockets too.

pytest-django's live server is a WSGI thread: the pages' sockets (lobby chat, presence) would
get a 404. This one runs the site's ASGI application (HTTP with static files, and the
websocket routes) with uvicorn in a thread of the test process, so that tests keep sharing the
process's settings, cache and in-memory channel layer, as they do with pytest-django's.
"""

import asyncio
import socket
import threading
import time

from channels.routing import ProtocolTypeRouter
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.test.utils import modify_settings


class CachedStaticFilesHandler(ASGIStaticFilesHandler):
    """Django's static files, which a browser may keep for the test. Without a lifetime it
    guesses one from the files' age, seconds on a fresh clone, and asks again: the admin
    walk made 576 requests for static files there, 50 with this one. Each test's browser
    context starts with an empty cache, and the files do not change while a test runs."""

    def serve(self, request):
        response = super().serve(request)
        if response.status_code == 200:
            response["Cache-Control"] = "max-age=3600"
        return response


class AsgiLiveServer:
    def __init__(self, host: str = "localhost"):
        import uvicorn

        from tcgsite.routing import websocket_application, websocket_urlpatterns

        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        with self._live_server_modified_settings:
            # The origin check reads ALLOWED_HOSTS when the application is built.
            sockets = websocket_application(websocket_urlpatterns)
        application = ProtocolTypeRouter(
            {"http": CachedStaticFilesHandler(get_asgi_application()), "websocket": sockets}
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

    def wait_idle(self, timeout: float = 10) -> None:
        """Wait until no request or socket is being handled, and no other database session
        is inside a transaction: a page closed at the end of a test has its socket's
        disconnect and heartbeat (presence) still to run, which must not meet the emptying
        of the database that ends the test."""
        deadline = time.monotonic() + timeout
        while self._server.server_state.tasks and time.monotonic() < deadline:
            time.sleep(0.05)
        while _busy_database_sessions() and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop(self):
        self._server.should_exit = True
        self._thread.join(timeout=10)


def _busy_database_sessions() -> int:
    """The other sessions of the test database that are running a statement or hold a
    transaction open (PostgreSQL; SQLite's writers wait for each other)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
            "AND state IN ('active', 'idle in transaction')"
        )
        return cursor.fetchone()[0]
