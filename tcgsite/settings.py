"""Settings, read from the environment.

Two runtime modes (see README): the embedded default (SQLite, the in-memory channel layer,
Celery tasks and the periodic schedule inside the web process) and production, chosen by
setting DATABASE_URL, REDIS_URL and DJANGO_SECRET_KEY, all three (PostgreSQL, Redis, a Celery
worker and beat, behind a reverse proxy that terminates TLS).
"""

import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Production mode needs all of these; the embedded default takes none of them.
PRODUCTION_REQUIRED = ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY")
# These mean nothing on the embedded default: setting one shows that production was meant.
PRODUCTION_ONLY = ("DJANGO_ALLOWED_HOSTS", "DJANGO_CSRF_TRUSTED_ORIGINS", "DJANGO_HTTPS")


def production_settings_missing(environ) -> str | None:
    """Why production mode is half-entered (a message naming what is missing), or None.

    A half-entered production would otherwise fall back to the embedded default, with DEBUG
    on, the built-in secret key and the demo staff account's published password.
    """
    given = [name for name in (*PRODUCTION_REQUIRED, *PRODUCTION_ONLY) if environ.get(name)]
    missing = [name for name in PRODUCTION_REQUIRED if not environ.get(name)]
    if not given or not missing:
        return None
    return (
        f"Production mode is half set up: {', '.join(given)} "
        f"{'is' if len(given) == 1 else 'are'} set but {', '.join(missing)} "
        f"{'is' if len(missing) == 1 else 'are'} missing. Set {', '.join(missing)} as well, "
        f"or unset {', '.join(given)} for the embedded default."
    )


if half_set_up := production_settings_missing(os.environ):
    raise ImproperlyConfigured(half_set_up)

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
EMBEDDED = not DATABASE_URL

if EMBEDDED:
    DEBUG = env_flag("DJANGO_DEBUG", default=True)
    # A developer's machine: a fixed key there is harmless and keeps sessions across restarts.
    SECRET_KEY = "embedded-development-key-not-for-production"  # noqa: S105
else:
    if env_flag("DJANGO_DEBUG", default=False):
        raise ImproperlyConfigured(
            "DJANGO_DEBUG is on in production mode: debug pages show settings and code to "
            "anyone. Unset DJANGO_DEBUG."
        )
    DEBUG = False
    SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "django_celery_beat",
    "tcgsite.accounts",
    "tcgsite.lobbies",
    "guilds",
    "collection.cards",
    "collection",
    "collection.decks",
    "collection.trades",
    "game",
    "tournaments",
    "tcgsite.help",
    # Last, though at the collection layer: its Daily quests panel comes after the Main
    # Lobby's Play panel, and lobby panels show in the order their apps register them.
    "collection.earnings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tcgsite.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "tcgsite.middleware.NulCharactersMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: a middleware that runs only synchronously, below the ones that can run either
    # way, keeps them all on the request's one thread under daphne. Below them, it made
    # Django run them on the event loop and hand each of their steps to that thread and
    # back, several crossings between the two threads a request.
    "tcgsite.middleware.SiteNotFoundPageMiddleware",
]
# benchmarks/soak.py's measure of each request's CPU (tcgsite/request_cpu.py); off otherwise.
REQUEST_CPU_LOG = os.environ.get("REQUEST_CPU_LOG", "")
if REQUEST_CPU_LOG:
    MIDDLEWARE.insert(0, "tcgsite.request_cpu.RequestCpuMiddleware")

ROOT_URLCONF = "tcgsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tcgsite.navigation.navigator",
                "collection.context_processors.header_credits",
                "tournaments.context_processors.tournament_timer",
            ],
        },
    },
    # The live match screen, rendered anew for every socket of a match after each decision:
    # Jinja2 renders it several times faster (tcgsite/jinja.py).
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "tcgsite.jinja.environment",
            # Named here, not imported by tcgsite: a filter is called straight from the
            # compiled template, where a function passed in the context goes through
            # Jinja's Context.call on every card drawn.
            "filters": {
                "mat_card": "game.fragments.mat_card",
                "tactic_shown": "game.fragments.tactic_shown",
                "icon": "game.fragments.icon",
                "glossary_links": "tcgsite.help.links.glossary_links",
            },
        },
    },
]

WSGI_APPLICATION = "tcgsite.wsgi.application"
ASGI_APPLICATION = "tcgsite.asgi.application"

# Database connections in production (README, Production mode, "Database connections"). A
# web process serves each request's sync work on a thread of its own, so a connection kept per
# thread would pile up with the threads: it takes a connection from a pool of at most
# DATABASE_POOL_SIZE (Django's PostgreSQL pool), lent for one request or one socket's database
# turn, and a request that waits DATABASE_POOL_TIMEOUT seconds for one gets the busy page
# (tcgsite.database). Celery's processes run one task at a time on one thread: with
# DATABASE_POOL_SIZE=0 (the Procfile's worker and beat) they keep one plain connection. The
# name each kind of process gives its connections (DATABASE_APPLICATION_NAME) shows in
# PostgreSQL's pg_stat_activity.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "12"))
DATABASE_POOL_TIMEOUT = float(os.environ.get("DATABASE_POOL_TIMEOUT", "10"))

if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=0 if DATABASE_POOL_SIZE else 60)
    }
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "application_name", os.environ.get("DATABASE_APPLICATION_NAME", "tcgsite")
    )
    if DATABASE_POOL_SIZE:
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": min(2, DATABASE_POOL_SIZE),
            "max_size": DATABASE_POOL_SIZE,
            "timeout": DATABASE_POOL_TIMEOUT,
            # Connections beyond min_size that lie unused this long are closed.
            "max_idle": 60,
        }
    # Django turns psycopg's prepared statements off (for connection poolers in transaction
    # mode, which this site does not sit behind). Only cursors that bind on the server
    # prepare, and only a match decision's statements use one (game.services.decision_sql):
    # Django's own cursors bind on the client and never prepare.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)
    # Channels' live-server tests run the site in a child process: it must find the test
    # database by an explicit name.
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_DATABASE_NAME", "test_tcgsite")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "var" / "tcgsite.sqlite3")),
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
            # A path of its own lets two test runs share a checkout.
            "TEST": {
                "NAME": os.environ.get(
                    "TEST_SQLITE_PATH", str(BASE_DIR / "var" / "test_tcgsite.sqlite3")
                )
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["tcgsite.accounts.backends.CaseInsensitiveUsernameBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "accounts:login"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic collects and WhiteNoise serves from; a site started beside the checkout's
# own (benchmarks/soak.py, while the suite runs) collects into one of its own.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "var" / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if EMBEDDED
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Pub/sub rather than the list-based core layer: a group message is one PUBLISH
            # that Redis hands to each process once, whatever the number of sockets. With
            # the core layer, benchmarks/lobby_chat.py saw idle sockets closed with 1011 at
            # 500 clients on one process. redis-py's asyncio pool refuses (rather than
            # waits) past 100 connections in use, which a few hundred sockets joining at
            # once exceed.
            # The prefix keeps apart the groups of several sites on one Redis: its pub/sub
            # channels, unlike its keys, are shared by all of its databases.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "max_connections": 1000}],
                "prefix": os.environ.get("REDIS_CHANNEL_PREFIX", "asgi"),
            },
        }
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery. Embedded: tasks run eagerly in the web process and an in-process beat thread
# (started by tcgsite.asgi) fires the periodic schedule. Production: Redis broker, a worker
# and beat with django-celery-beat's database scheduler.
# Presence (tcgsite/lobbies/services/presence.py): how often a socket says it is alive, how long
# a silent one (its process died) stays listed, and how long a closed page keeps its player
# listed while they move to another page.
LOBBY_HEARTBEAT_SECONDS = float(os.environ.get("LOBBY_HEARTBEAT_SECONDS", "10"))
LOBBY_PRESENCE_EXPIRY_SECONDS = float(os.environ.get("LOBBY_PRESENCE_EXPIRY_SECONDS", "30"))
LOBBY_PRESENCE_GRACE_SECONDS = float(os.environ.get("LOBBY_PRESENCE_GRACE_SECONDS", "5"))
# An untimed match's player who has been away from its page this long may be claimed against
# (the win, or an adjournment) by the one who stayed (game/services/offers.py).
MATCH_AWAY_CLAIM_SECONDS = int(os.environ.get("MATCH_AWAY_CLAIM_SECONDS", "180"))
# A tournament match's player away this long forfeits the game (rulebook, "Disconnecting").
MATCH_EVENT_FORFEIT_SECONDS = int(os.environ.get("MATCH_EVENT_FORFEIT_SECONDS", "600"))
# Whether a decision that leaves its game going waits, before it is announced, for PostgreSQL
# to flush its COMMIT to disk. By default it does not (synchronous_commit off for that
# transaction alone): the flush cost a millisecond a decision on this project's machines, and
# what it guards against is a crash of the database server itself within the WAL writer's
# fraction of a second, which would undo that game's last moves, consistently (a web process
# killed loses nothing either way). A decision that ends a game, and every other write,
# always waits (docs/architecture.md, "Durability").
DECISION_COMMIT_FLUSHED = env_flag("DECISION_COMMIT_FLUSHED", False)
# The pause between two games of a match, in which the loser of the last chooses who goes first.
MATCH_NEXT_GAME_SECONDS = int(os.environ.get("MATCH_NEXT_GAME_SECONDS", "15"))
# The computer opponent's pause before it acts, so that a person can follow what it did.
COMPUTER_PAUSE_SECONDS = float(os.environ.get("COMPUTER_PAUSE_SECONDS", "0.8"))
# A match of two computer players applies up to this many decisions per task, in one
# transaction: it is played for the tournament, not to be watched move by move.
COMPUTER_RUN_ACTIONS = int(os.environ.get("COMPUTER_RUN_ACTIONS", "60"))
# A computer's turn not played this long after it was due is handed on again by the periodic
# sweep: the process that handed it off ended first (a management command's), or lost it.
# Longer than a busy web process's background threads keep a turn waiting.
COMPUTER_OVERDUE_SECONDS = int(os.environ.get("COMPUTER_OVERDUE_SECONDS", "30"))
# How well the house computer players play in tournaments (game.models.ComputerLevel).
TOURNAMENT_COMPUTER_LEVEL = os.environ.get("TOURNAMENT_COMPUTER_LEVEL", "easy")

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = EMBEDDED
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE
EMBEDDED_BEAT = env_flag("EMBEDDED_BEAT", default=EMBEDDED)

# The demo world's staff account exists only on the embedded default.
DEMO_STAFF_USERNAME = "staff"
DEMO_STAFF_PASSWORD = "staff-demo-password"  # noqa: S105 - documented local-only demo login
DEMO_PLAYER_PASSWORD = "demo-player-password"  # noqa: S105 - documented local-only demo login

# How many proxies of this deployment stand in front of daphne, each appending the address it
# received the request from to X-Forwarded-For: the client's address is the one the first of
# them appended (tcgsite.inputs.client_address). 0, the default: clients reach daphne
# directly, and the client is the socket's peer.
_trusted_proxies = os.environ.get("TRUSTED_PROXIES", "0").strip()
if not re.fullmatch(r"[0-9]{1,2}", _trusted_proxies):
    raise ImproperlyConfigured(
        f"TRUSTED_PROXIES is {_trusted_proxies!r}: set it to how many proxies stand in front "
        "of the site, 0 (the default) if clients reach it directly, 1 behind one nginx or Caddy."
    )
TRUSTED_PROXIES = int(_trusted_proxies)

if not EMBEDDED:
    # Production runs behind a reverse proxy on the same machine that terminates TLS and sets
    # X-Forwarded-Proto (the Procfile binds daphne to 127.0.0.1 only, so nothing else can send
    # that header). DJANGO_HTTPS=false serves plain http, for a local try-out only.
    HTTPS = env_flag("DJANGO_HTTPS", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = HTTPS
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
    SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS else 0
    SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = HTTPS

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# The Store's currency: what a new player starts with.
STARTING_CREDITS = int(os.environ.get("STARTING_CREDITS", "1000"))
