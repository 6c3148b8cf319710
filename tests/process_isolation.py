"""The suite on several processes (pytest-xdist, ``make test``): each process has Redis to
itself, as it has its own test database (pytest-django names it after the process).

Loaded with ``-p`` (pyproject.toml), before pytest-django reads the settings, so that the
settings, and every process a test starts (daphne, a Celery worker), take the process's own
Redis database and pub/sub prefix: one process's ``cache.clear()`` would otherwise empty
the other's cache, and a group of one process's match reach the other's sockets.
"""

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis's default


def own_redis_url(url: str, process: int) -> str:
    parts = urlsplit(url)
    database = (int(parts.path.strip("/") or 0) + process) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{database}"))


PROCESS = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1...
SHARED_REDIS_URL = os.environ.get("REDIS_URL", "")
SHARED_PREFIX = os.environ.get("REDIS_CHANNEL_PREFIX", "asgi")
if PROCESS and SHARED_REDIS_URL:
    os.environ["REDIS_URL"] = own_redis_url(SHARED_REDIS_URL, int(PROCESS.removeprefix("gw")))
    # Suffixed, not replaced: two runs sharing one Redis (two checkouts) keep their own prefixes.
    os.environ["REDIS_CHANNEL_PREFIX"] = f"{SHARED_PREFIX}-{PROCESS}"
