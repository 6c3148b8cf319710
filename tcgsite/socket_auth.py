"""The user of a socket, read from its session without waiting for the database thread.

channels' AuthMiddleware reads the user with ``database_sync_to_async``, on the one thread
where every consumer of the process does its database work. Under a crowd that thread has a
queue, and a socket whose handshake waits in it longer than daphne's 5 seconds is dropped
before it opens. Here the read runs on the event loop's own pool of threads instead, each with
its own connection, given back as soon as the user is known; the consumers accept the socket
before their own database work (``RealtimeConsumer``), so nothing before the handshake waits
in that queue.
"""

from types import SimpleNamespace

from asgiref.sync import sync_to_async
from channels.auth import AuthMiddleware
from channels.sessions import SessionMiddlewareStack
from django.contrib import auth
from django.db import close_old_connections, connection


def session_user(session):
    """The session's user (Django's own check of the session, its backend and its hash), or
    the anonymous user."""
    close_old_connections()
    try:
        return auth.get_user(SimpleNamespace(session=session))
    finally:
        connection.close()


class SessionAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await sync_to_async(session_user, thread_sensitive=False)(
            scope["session"]
        )


def SessionAuthMiddlewareStack(inner):  # noqa: N802 - named like channels' AuthMiddlewareStack
    return SessionMiddlewareStack(SessionAuthMiddleware(inner))
