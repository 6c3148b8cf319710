"""Production mode cannot be half-entered (README, Production mode): each case starts the
site's own `manage.py check` in a fresh process with the environment given."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[1]
SETTINGS_NAMES = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "DJANGO_HTTPS",
    "DJANGO_DEBUG",
    "REDIS_CHANNEL_PREFIX",
    "DATABASE_POOL_SIZE",
    "DATABASE_POOL_TIMEOUT",
    "DATABASE_APPLICATION_NAME",
    "TRUSTED_PROXIES",
    "STATIC_ROOT",
)
PRODUCTION = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/tcgsite",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    # What `check --deploy` asks of a key: long and random-looking.
    "DJANGO_SECRET_KEY": "p8Qe2v!Lr0zW4xYk7Nc-Tg9Hs3Jd6Ub1Fa5Mo8Ei2Rw7Kq4Zl0Xy6Vn3",
    "DJANGO_ALLOWED_HOSTS": "galaxies.example.org",
}


def manage(*args: str, **environment: str) -> subprocess.CompletedProcess:
    env = {name: value for name, value in os.environ.items() if name not in SETTINGS_NAMES}
    env.update(environment)
    return subprocess.run(  # noqa: S603 - the site's own manage.py
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def setting_shown(expression: str, **environment: str) -> str:
    """``expression`` (of ``settings``) as printed by the site started with ``environment``."""
    shown = manage(
        "shell",
        "--verbosity",
        "0",
        "-c",
        f"from django.conf import settings; print({expression})",
        **environment,
    )
    assert shown.returncode == 0, shown.stderr
    return shown.stdout.strip()


def debug_of(**environment: str) -> str:
    return setting_shown("settings.DEBUG", **environment)


@pytest.mark.parametrize(
    ("given", "missing"),
    [
        ({"DATABASE_URL": PRODUCTION["DATABASE_URL"]}, "REDIS_URL, DJANGO_SECRET_KEY are missing"),
        ({"REDIS_URL": PRODUCTION["REDIS_URL"]}, "DATABASE_URL, DJANGO_SECRET_KEY are missing"),
        (
            {"DATABASE_URL": PRODUCTION["DATABASE_URL"], "REDIS_URL": PRODUCTION["REDIS_URL"]},
            "DJANGO_SECRET_KEY is missing",
        ),
        (
            {"DJANGO_SECRET_KEY": "s3cret"},
            "DATABASE_URL, REDIS_URL are missing",
        ),
        (
            {"DJANGO_ALLOWED_HOSTS": "galaxies.example.org"},
            "DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY are missing",
        ),
    ],
)
def test_a_production_setting_without_the_others_stops_start_up_naming_what_is_missing(
    given, missing
):
    result = manage("check", **given)

    assert result.returncode != 0
    assert "Production mode is half set up" in result.stderr
    assert missing in result.stderr
    assert "System check identified no issues" not in result.stdout


def test_debug_cannot_be_turned_on_in_production_mode():
    result = manage("check", DJANGO_DEBUG="true", **PRODUCTION)

    assert result.returncode != 0
    assert "DJANGO_DEBUG is on in production mode" in result.stderr


def test_debug_is_on_only_on_the_embedded_default():
    assert debug_of() == "True"
    assert debug_of(DJANGO_DEBUG="false") == "False"
    assert debug_of(**PRODUCTION) == "False"


def test_production_mode_passes_the_deployment_checklist():
    """HSTS, secure cookies and the redirect to https (behind the proxy's X-Forwarded-Proto)."""
    result = manage("check", "--deploy", "--fail-level", "DEBUG", **PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def make_dry_run(*arguments: str) -> str:
    """The commands `make` would run, without running them."""
    dry_run = subprocess.run(  # noqa: S603 - the project's own Makefile
        [shutil.which("make"), "--dry-run", *arguments],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dry_run.returncode == 0, dry_run.stderr
    return dry_run.stdout


def test_make_start_creates_demo_players_only_when_asked():
    """Their passwords are published in the README; `make run` keeps them."""
    assert "manage.py demo" not in make_dry_run("start")
    assert "manage.py demo" in make_dry_run("start", "DEMO=1")
    assert "manage.py demo" in make_dry_run("run")


def test_the_procfile_serves_the_site_on_host_and_port_behind_the_proxy():
    """README, Production mode: daphne on 127.0.0.1:8000 unless HOST and PORT say otherwise,
    leaving X-Forwarded-For to the site (TRUSTED_PROXIES): daphne's --proxy-headers would
    take its leftmost address, which the client writes, for the client's."""
    web = next(
        line for line in (BASE_DIR / "Procfile").read_text().splitlines() if line.startswith("web:")
    )

    assert "-b ${HOST:-127.0.0.1} -p ${PORT:-8000}" in web
    assert "--proxy-headers" not in web


def test_the_number_of_trusted_proxies_comes_from_the_environment_none_by_default():
    assert setting_shown("settings.TRUSTED_PROXIES", **PRODUCTION) == "0"
    assert setting_shown("settings.TRUSTED_PROXIES", TRUSTED_PROXIES="1", **PRODUCTION) == "1"


def test_the_static_files_are_collected_in_var_unless_the_environment_says_where():
    """A site started beside the checkout's (benchmarks/soak.py during the suite) collects its
    own: collecting into the checkout's rewrites files the test processes are reading."""
    assert setting_shown("settings.STATIC_ROOT", **PRODUCTION) == str(
        BASE_DIR / "var" / "staticfiles"
    )
    elsewhere = str(BASE_DIR / "var" / "another-site-static")
    assert setting_shown("settings.STATIC_ROOT", STATIC_ROOT=elsewhere, **PRODUCTION) == elsewhere


@pytest.mark.parametrize("value", ["-1", "\u00b9"])
def test_a_number_of_trusted_proxies_that_is_no_count_stops_start_up(value):
    result = manage("check", TRUSTED_PROXIES=value, **PRODUCTION)

    assert result.returncode != 0
    assert f"TRUSTED_PROXIES is {value!r}" in result.stderr


def test_the_database_urls_options_are_kept_beside_prepared_statements():
    """The options of DATABASE_URL's query string reach the database, and psycopg's prepared
    statements, which Django turns off, are turned on (a match decision's statements use
    them: game.services.decision_sql)."""
    environment = {**PRODUCTION, "DATABASE_URL": PRODUCTION["DATABASE_URL"] + "?sslmode=disable"}

    options = setting_shown(
        "sorted(settings.DATABASES['default']['OPTIONS'].items())", **environment
    )

    assert "('prepare_threshold', 5), ('sslmode', 'disable')" in options


def test_a_web_process_takes_its_connections_from_a_bounded_pool():
    """README, Production mode, "Database connections": each web process lends at most
    DATABASE_POOL_SIZE connections, none kept per thread (CONN_MAX_AGE 0), and a request
    waits DATABASE_POOL_TIMEOUT seconds for one."""
    database = "settings.DATABASES['default']"
    shown = setting_shown(
        f"{database}['CONN_MAX_AGE'], {database}['OPTIONS']['pool'], "
        f"{database}['OPTIONS']['application_name']",
        **PRODUCTION,
        DATABASE_POOL_SIZE="7",
        DATABASE_POOL_TIMEOUT="2.5",
        DATABASE_APPLICATION_NAME="tcgsite-web",
    )

    assert shown == ("0 {'min_size': 2, 'max_size': 7, 'timeout': 2.5, 'max_idle': 60} tcgsite-web")
    default = setting_shown(f"{database}['OPTIONS']['pool']['max_size']", **PRODUCTION)
    assert default == "12"


def test_celerys_processes_keep_one_plain_connection():
    """A Celery process runs one task at a time on one thread: DATABASE_POOL_SIZE=0, as the
    Procfile gives the worker and beat, means no pool."""
    database = "settings.DATABASES['default']"
    shown = setting_shown(
        f"{database}['CONN_MAX_AGE'], 'pool' in {database}['OPTIONS']",
        **PRODUCTION,
        DATABASE_POOL_SIZE="0",
    )

    assert shown == "60 False"


def test_the_procfile_names_each_kind_of_process_and_pools_only_the_web():
    """What pg_stat_activity shows of each kind of process, and the bound README's
    arithmetic counts: WEB_PROCESSES pools, WORKER_PROCESSES and beat's plain connections."""
    lines = dict(
        line.split(": ", 1) for line in (BASE_DIR / "Procfile").read_text().splitlines() if line
    )

    assert "DATABASE_APPLICATION_NAME=tcgsite-web " in lines["web"]
    assert "DATABASE_POOL_SIZE" not in lines["web"]
    for kind in ("worker", "beat"):
        assert f"DATABASE_APPLICATION_NAME=tcgsite-{kind} DATABASE_POOL_SIZE=0 " in lines[kind]
    assert "--concurrency ${WORKER_PROCESSES:-2}" in lines["worker"]


def test_in_production_mode_redis_stamps_the_messages_versions_as_it_publishes_them():
    """The cache (the version counters) and the channel layer are one Redis, and the layer
    carries plain msgpack: a message's version is counted and the message published in one
    round trip (tcgsite.realtime), not counted by the process first."""
    stamped = manage(
        "shell",
        "--verbosity",
        "0",
        "-c",
        "from tcgsite import realtime; print(realtime._redis_stamps())",
        **PRODUCTION,
    )

    assert stamped.returncode == 0, stamped.stderr
    assert stamped.stdout.strip() == "True"


def test_sites_sharing_one_redis_keep_their_groups_apart_by_the_channel_prefix():
    """Redis's pub/sub channels are common to all its databases: a site's prefix is its own."""
    prefix = "settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']"

    assert setting_shown(prefix, **PRODUCTION) == "asgi"
    assert setting_shown(prefix, **PRODUCTION, REDIS_CHANNEL_PREFIX="staging") == "staging"
