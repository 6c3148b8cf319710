"""The suite's processes keep apart in Redis (tests/process_isolation.py)."""

import os

import pytest
from django.conf import settings

from tests.process_isolation import PROCESS, SHARED_PREFIX, SHARED_REDIS_URL, own_redis_url


@pytest.mark.parametrize(
    ("url", "process", "own"),
    [
        ("redis://127.0.0.1:6379/0", 0, "redis://127.0.0.1:6379/0"),
        ("redis://127.0.0.1:6379/0", 1, "redis://127.0.0.1:6379/1"),
        ("redis://127.0.0.1:6379/15", 1, "redis://127.0.0.1:6379/0"),
        ("redis://127.0.0.1:6379", 2, "redis://127.0.0.1:6379/2"),
    ],
)
def test_each_process_takes_the_redis_database_after_the_one_before(url, process, own):
    assert own_redis_url(url, process) == own


@pytest.mark.skipif(
    not (SHARED_REDIS_URL and PROCESS),
    reason="the suite's processes share Redis in production mode, on several processes",
)
def test_this_process_has_its_own_redis_database_and_channel_prefix():
    own = own_redis_url(SHARED_REDIS_URL, int(PROCESS.removeprefix("gw")))
    layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]

    assert layer["prefix"] == f"{SHARED_PREFIX}-{PROCESS}"
    assert layer["hosts"][0]["address"] == settings.CACHES["default"]["LOCATION"] == own
    assert os.environ["REDIS_URL"] == own  # for the processes the tests start
