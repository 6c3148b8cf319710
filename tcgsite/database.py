"""The database under load: what a request that waited too long for a connection is told.

In production each web process takes its connections from a bounded pool (settings,
``DATABASE_POOL_SIZE``); a request that finds every connection lent for longer than
``DATABASE_POOL_TIMEOUT`` seconds is refused before it has written anything (a request takes
its connection at its first query and keeps it to its end), so it is answered with a page
that says the site is busy, not with a server error.
"""

import sys

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.views import defaults
from psycopg_pool import PoolTimeout

BUSY_MESSAGE = "The site is busy; try again in a moment."
# Seconds a browser (or a client script) is asked to wait before trying again.
BUSY_RETRY_AFTER_SECONDS = 5


def is_pool_timeout(error: BaseException | None) -> bool:
    """Whether ``error`` is, or was raised from, the pool's refusal to lend a connection
    (Django wraps it in its own ``OperationalError``)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, PoolTimeout):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def busy_response() -> HttpResponse:
    # Rendered without the request: its context processors would ask the database again.
    response = HttpResponse(render_to_string("503.html", {"message": BUSY_MESSAGE}), status=503)
    response["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
    return response


def server_error(request):
    """The site's ``handler500``: Django calls it while handling the uncaught exception, so
    ``sys.exc_info()`` still names it."""
    if is_pool_timeout(sys.exc_info()[1]):
        return busy_response()
    return defaults.server_error(request)
