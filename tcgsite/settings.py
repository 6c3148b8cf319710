"""Settings, read from the environment.

Two runtime modes (see README): the embedded default (SQLite, the in-memory channel layer,
Celery tasks and the periodic schedule inside the web process) and production, chosen by
setting DATABASE_URL and REDIS_URL (PostgreSQL, Redis, a Celery worker and beat).
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
EMBEDDED = not (DATABASE_URL and REDIS_URL)

DEBUG = env_flag("DJANGO_DEBUG", default=EMBEDDED)
# The embedded default is a developer's machine: a fixed key there is harmless and keeps
# sessions across restarts. Production refuses to start without its own key.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or (
    "embedded-development-key-not-for-production" if EMBEDDED else ""
)
if not SECRET_KEY:
    raise RuntimeError("DJANGO_SECRET_KEY must be set when DATABASE_URL and REDIS_URL are set.")

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
    "collection.cards",
    "collection",
    "collection.decks",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "tcgsite.middleware.NulCharactersMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

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
            ],
        },
    },
]

WSGI_APPLICATION = "tcgsite.wsgi.application"
ASGI_APPLICATION = "tcgsite.asgi.application"

if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
    # Channels' live-server tests run the site in a child process: it must find the test
    # database by an explicit name.
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_DATABASE_NAME", "test_tcgsite")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "var" / "tcgsite.sqlite3")),
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
            "TEST": {"NAME": str(BASE_DIR / "var" / "test_tcgsite.sqlite3")},
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
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if EMBEDDED or DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
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

if not DEBUG:
    SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# The Store's currency: what a new player starts with.
STARTING_CREDITS = int(os.environ.get("STARTING_CREDITS", "1000"))
