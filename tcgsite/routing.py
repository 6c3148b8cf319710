"""The site's websocket routes, and the application that serves them.

Each app with sockets (lobbies, game, trades) keeps its routes in its own ``routing.py`` as
``websocket_urlpatterns`` and is listed in ``APP_ROUTING_MODULES`` below, the one place that
composes them, as ``tcgsite/urls.py`` composes the pages.
"""

from channels.routing import URLRouter
from channels.security.websocket import OriginValidator
from django.conf import settings

from collection.trades import routing as trades_routing
from game import routing as game_routing
from tcgsite.lobbies import routing as lobbies_routing
from tcgsite.socket_auth import SessionAuthMiddlewareStack

APP_ROUTING_MODULES = (lobbies_routing, game_routing, trades_routing)

websocket_urlpatterns = [
    pattern for module in APP_ROUTING_MODULES for pattern in module.websocket_urlpatterns
]


def allowed_origins() -> list[str]:
    """The origins whose pages may open a socket: those Django trusts with a form post.

    A socket is authenticated by the session cookie, which the browser sends whichever page
    opens it, so the Origin check is a socket's CSRF protection. Pages served from an allowed
    host qualify (as with channels' AllowedHostsOriginValidator), and so does every origin in
    CSRF_TRUSTED_ORIGINS, written there as ``https://*.example.com`` and here as
    ``https://.example.com``.
    """
    hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not hosts:
        # What Django itself serves when DEBUG is on and ALLOWED_HOSTS is empty.
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    trusted = [origin.replace("://*.", "://.", 1) for origin in settings.CSRF_TRUSTED_ORIGINS]
    return [*hosts, *trusted]


def websocket_application(urlpatterns):
    """The websocket side of the site for these routes: origin checked, user from the session
    (read off the consumers' database thread: tcgsite/socket_auth.py)."""
    return OriginValidator(SessionAuthMiddlewareStack(URLRouter(urlpatterns)), allowed_origins())
