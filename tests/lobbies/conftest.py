import asyncio
import re

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

from tcgsite.routing import websocket_application, websocket_urlpatterns
from tests.channel_layers import BOTH_LAYERS, SITE_ORIGIN
from tests.factories import UserFactory


@pytest_asyncio.fixture(autouse=True)
async def _close_the_orm_threads_connections(django_db_blocker):
    """The ORM's thread outlives a test and would keep PostgreSQL's test database open. It is
    closed even after a test without the database: a connection some earlier test left open
    there must not make that test fail."""
    yield
    with django_db_blocker.unblock():
        await database_sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Group versions and the sweep's lock live in the cache; each test starts from zero.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(params=BOTH_LAYERS)
def layer(request, settings):
    settings.CHANNEL_LAYERS = request.param
    return request.param


@pytest.fixture
def application(settings, layer):
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.CSRF_TRUSTED_ORIGINS = []
    return websocket_application(websocket_urlpatterns)


def session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    session_id = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_id}".encode())


# A match page's screen in a frame, and its regions (game/fragments.py).
SCREEN_SWAPPED = '<div id="match-screen" hx-swap-oob="true">'
SCREEN_END = '</div>\n<ol id="match-log"'
SCREEN_REGION = re.compile(r'<!--region-->\s*<([\w-]+)[^>]*?\sid="([\w-]+)".*?<!--/region-->', re.S)


CONNECT_SECONDS = 10


class Page:
    """One browser page's socket, as a test sees it: the HTML fragments it receives."""

    def __init__(self, application, user, path, cookie):
        self.user = user
        self.closed = False
        # A match page's screen as the page shows it, and every frame as it came.
        self.screen: str | None = None
        self.frames: list[str] = []
        self.communicator = WebsocketCommunicator(application, path, headers=[SITE_ORIGIN, cookie])

    async def open(self):
        # A bound on a busy machine, not a wait: a match page's socket reads its screen first.
        connected, _ = await self.communicator.connect(timeout=CONNECT_SECONDS)
        assert connected
        return self

    async def next_fragment(self, timeout: float) -> str | None:
        """The next fragment within ``timeout`` seconds, or None. It polls: a communicator
        whose receive times out cancels its consumer."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while await self.communicator.receive_nothing(timeout=0.02, interval=0.01):
            if loop.time() >= deadline:
                return None
        message = await self.communicator.receive_output()
        if message["type"] != "websocket.send":
            raise AssertionError(f"the socket sent {message}")
        self.frames.append(message["text"])
        return self.shown(message["text"])

    def shown(self, frame: str) -> str:
        """A match page's frame as the page shows it: a frame of changed regions of the screen
        (game/fragments.py) swapped into the screen shown before, and given whole, as a frame
        of the whole screen would; any other fragment as it came."""
        if SCREEN_SWAPPED in frame:
            start = frame.index(SCREEN_SWAPPED) + len(SCREEN_SWAPPED)
            self.screen = frame[start : frame.index(SCREEN_END, start)]
            return frame
        regions = {
            found.group(2): found.group(0).replace(' hx-swap-oob="true"', "", 1)
            for found in SCREEN_REGION.finditer(frame)
        }
        if not regions or self.screen is None:
            return frame
        self.screen = SCREEN_REGION.sub(
            lambda found: regions.get(found.group(2), found.group(0)), self.screen
        )
        rest = frame[frame.rindex("<!--/region-->") + len("<!--/region-->") :].lstrip("\n")
        return f"{SCREEN_SWAPPED}{self.screen}{SCREEN_END}{rest}"

    async def until(self, pattern: str, timeout: float = 3) -> str:
        """The first fragment received that matches ``pattern`` (a regular expression)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = []
        while (left := deadline - loop.time()) > 0:
            html = await self.next_fragment(left)
            if html is None:
                break
            seen.append(html)
            if re.search(pattern, html):
                return html
        raise AssertionError(f"nothing matched {pattern!r}; received: {seen}")

    async def nothing_matching(self, pattern: str, timeout: float = 0.4) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            html = await self.next_fragment(left)
            if html is None:
                return
            assert not re.search(pattern, html), html

    async def say(self, text: str) -> None:
        await self.communicator.send_json_to({"text": text, "HEADERS": {}})

    async def close(self):
        # A consumer that already ended (a receive that timed out cancels it) has nothing to
        # disconnect; disconnecting it would raise its end again in the fixture's teardown,
        # before the database is emptied, and every later test of the process would inherit
        # the failed test's rows.
        if not self.closed and not self.communicator.future.done():
            self.closed = True
            await self.communicator.disconnect()


@pytest_asyncio.fixture
async def open_page(application):
    """Opens a page's socket: ``await open_page(user, "/ws/lobby/casual/")``."""
    pages = []

    async def open_(user, path):
        cookie = await database_sync_to_async(session_cookie)(user)
        page = await Page(application, user, path, cookie).open()
        pages.append(page)
        return page

    yield open_
    for page in pages:
        await page.close()


@pytest.fixture
def players(transactional_db):
    return {name: UserFactory(username=name) for name in ("Carol", "Bob", "Dave")}
