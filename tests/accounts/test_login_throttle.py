"""Failed logins slow down, per account and per address, with a wait that doubles
(tcgsite/accounts/login_throttle.py states the policy)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tcgsite.accounts import login_throttle
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

WRONG = "not-the-password"


class Clock:
    """The throttle's clock, moved forward by the test instead of waited for."""

    def __init__(self):
        self.now = 1_900_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(login_throttle, "time", clock)
    return clock


def log_in(client, username, password, address="203.0.113.7", url="accounts:login", forwarded=None):
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client.post(
        reverse(url), {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_sixty_wrong_passwords_then_the_right_one_does_not_log_in(client):
    UserFactory(username="Shochu")

    for _ in range(60):
        log_in(client, "Shochu", WRONG)
    response = log_in(client, "Shochu", PASSWORD)

    assert response.status_code == 200
    assert not logged_in(client)
    assert "Too many failed logins for this account" in response.content.decode()


def test_five_failures_lock_the_account_for_a_wait_that_doubles(client, clock):
    UserFactory(username="Paladon")

    for _ in range(4):
        response = log_in(client, "paladon", WRONG)
        assert "correct username and password" in response.content.decode()
    response = log_in(client, "Paladon", WRONG)
    assert "Too many failed logins for this account" in response.content.decode()
    assert "try again in 30 seconds" in response.content.decode()

    clock.now += 20  # retrying while locked is refused, and does not lengthen the wait
    assert "try again in 10 seconds" in log_in(client, "Paladon", PASSWORD).content.decode()

    clock.now += 11
    response = log_in(client, "Paladon", WRONG)
    assert "try again in 1 minute." in response.content.decode()

    clock.now += 61
    log_in(client, "Paladon", PASSWORD)
    assert logged_in(client)


def test_a_successful_login_forgets_the_accounts_failures(client, clock):
    UserFactory(username="Vicki")
    for _ in range(4):
        log_in(client, "Vicki", WRONG)
    log_in(client, "Vicki", PASSWORD)
    assert logged_in(client)
    client.logout()

    for _ in range(4):
        response = log_in(client, "Vicki", WRONG)
    assert "correct username and password" in response.content.decode()


def test_twenty_failures_from_one_address_lock_that_address_only(client, clock):
    """An attacker trying one password on many accounts."""
    UserFactory(username="Jason")
    for number in range(20):
        log_in(client, f"guess{number}", WRONG, address="198.51.100.9")

    response = log_in(client, "Jason", PASSWORD, address="198.51.100.9")
    assert not logged_in(client)
    assert "Too many failed logins from your address" in response.content.decode()
    assert "try again in 30 seconds" in response.content.decode()

    log_in(client, "Jason", PASSWORD, address="192.0.2.44")
    assert logged_in(client)


def test_addresses_a_client_writes_in_x_forwarded_for_are_not_its_own(client, clock):
    """With no trusted proxy (the default), the client is the socket's peer."""
    UserFactory(username="Jason")
    for number in range(25):
        log_in(
            client, f"guess{number}", WRONG, address="198.51.100.9", forwarded=f"10.0.0.{number}"
        )

    response = log_in(client, "Jason", PASSWORD, address="198.51.100.9", forwarded="192.0.2.44")
    assert not logged_in(client)
    assert "Too many failed logins from your address" in response.content.decode()


def test_behind_one_proxy_the_address_it_appended_is_the_clients(client, clock, settings):
    """The proxy appends its peer's address to whatever X-Forwarded-For the client sent."""
    settings.TRUSTED_PROXIES = 1
    UserFactory(username="Jason")
    for number in range(25):
        log_in(
            client,
            f"guess{number}",
            WRONG,
            address="127.0.0.1",
            forwarded=f"10.0.0.{number}, 198.51.100.9",
        )

    response = log_in(client, "Jason", PASSWORD, address="127.0.0.1", forwarded="198.51.100.9")
    assert not logged_in(client)
    assert "Too many failed logins from your address" in response.content.decode()
    # Another client, through the same proxy, even naming the locked one first.
    log_in(client, "Jason", PASSWORD, address="127.0.0.1", forwarded="198.51.100.9, 192.0.2.44")
    assert logged_in(client)


def test_the_admin_login_is_throttled_too(client, clock):
    UserFactory(username="Tyler", is_staff=True, is_superuser=True)
    for _ in range(5):
        log_in(client, "Tyler", WRONG, url="admin:login")

    response = log_in(client, "Tyler", PASSWORD, url="admin:login")

    assert not logged_in(client)
    assert "Too many failed logins for this account" in response.content.decode()


@pytest.mark.skipif(settings.EMBEDDED, reason="production mode's Redis cache")
def test_failures_counted_by_one_web_process_lock_the_account_in_another():
    """Several web processes run side by side in production: the counts live in Redis."""
    other_process = subprocess.run(  # noqa: S603 - the site's own code
        [
            sys.executable,
            "-c",
            "import django; django.setup()\n"
            "from tcgsite.accounts.login_throttle import login_failure_record\n"
            "for _ in range(5): login_failure_record(username='Wedge', address=None)",
        ],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tcgsite.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert other_process.returncode == 0, other_process.stderr

    assert login_throttle.login_refusal(username="wedge", address=None)
