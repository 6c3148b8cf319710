"""Websockets are served beside HTTP, only to pages of the site and the origins it trusts."""

import importlib

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.urls import path

from tcgsite.routing import websocket_application

# The consumers close the old database connections of the thread they run on, which checks any
# connection an earlier test left open there (production keeps connections for a minute).
pytestmark = pytest.mark.django_db


@pytest.fixture
def application(settings):
    settings.ALLOWED_HOSTS = ["play.example.com"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.org", "http://localhost:8000"]
    return websocket_application([path("ws/open/", AsyncWebsocketConsumer.as_asgi())])


async def opens(application, headers) -> bool:
    communicator = WebsocketCommunicator(application, "/ws/open/", headers=headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "origin",
    [
        "https://play.example.com",
        "http://play.example.com:8000",
        "https://cards.example.org",
        "https://example.org",
        "http://localhost:8000",
    ],
)
async def test_pages_of_allowed_hosts_and_csrf_trusted_origins_open_sockets(application, origin):
    assert await opens(application, [(b"origin", origin.encode())])


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "origin",
    ["https://evil.example.net", "https://example.org.evil.net", "http://localhost:8001"],
)
async def test_pages_of_other_origins_cannot_open_sockets(application, origin):
    assert not await opens(application, [(b"origin", origin.encode())])


@pytest.mark.asyncio
async def test_a_socket_without_an_origin_is_refused(application):
    assert not await opens(application, [])


@pytest.mark.asyncio
async def test_the_site_serves_websockets_beside_http_behind_the_origin_check(
    settings, interpreter_restored
):
    settings.EMBEDDED_BEAT = False
    site = importlib.import_module("tcgsite.asgi").application

    assert set(site.application_mapping) == {"http", "websocket"}
    assert not await opens(site, [(b"origin", b"https://evil.example.net")])
