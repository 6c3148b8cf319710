"""Failed logins slow down, per account and per address (README, What a player can do).

The policy: an account may fail ACCOUNT_FREE_FAILURES times and an address (the client's IP,
tcgsite.inputs.client_address) ADDRESS_FREE_FAILURES times within FAILURES_REMEMBERED; each
failure after that locks the account (or the address) for FIRST_WAIT, doubled at every
further failure, up to LONGEST_WAIT. While locked, a login is refused without looking at the
password, and that refusal counts as no failure: retrying does not lengthen the wait. A
successful login forgets its account's failures but not its address's, or an attacker could
clear their address's count by logging in to an account of their own.

The counts live in the cache, which is Redis in production: every web process sees them.
"""

import hashlib
import math
import time

from django.core.cache import cache

ACCOUNT_FREE_FAILURES = 5
ADDRESS_FREE_FAILURES = 20
FIRST_WAIT = 30  # seconds
LONGEST_WAIT = 60 * 60
FAILURES_REMEMBERED = 24 * 60 * 60


def login_refusal(*, username: str | None, address: str | None) -> str | None:
    """Why a login must wait now, with how long, or None if it may go ahead."""
    account_wait = _remaining(_key("account", username))
    address_wait = _remaining(_key("address", address))
    if not account_wait and not address_wait:
        return None
    whose = "for this account" if account_wait >= address_wait else "from your address"
    return (
        f"Too many failed logins {whose}. For your safety, logging in is paused: "
        f"try again in {_duration(max(account_wait, address_wait))}."
    )


def login_failure_record(*, username: str | None, address: str | None) -> None:
    if login_refusal(username=username, address=address):
        return
    _count_failure(_key("account", username), ACCOUNT_FREE_FAILURES)
    _count_failure(_key("address", address), ADDRESS_FREE_FAILURES)


def login_success_record(*, username: str) -> None:
    key = _key("account", username)
    cache.delete_many([f"{key}:failures", f"{key}:locked-until"])


def _key(kind: str, value: str | None) -> str | None:
    if not value or not value.strip():
        return None
    # Names as the login form matches them (ignoring case), hashed to be a safe cache key.
    digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()
    return f"login-throttle:{kind}:{digest}"


def _count_failure(key: str | None, free_failures: int) -> None:
    if key is None:
        return
    cache.add(f"{key}:failures", 0, timeout=FAILURES_REMEMBERED)
    try:
        failures = cache.incr(f"{key}:failures")
    except ValueError:  # expired between the two calls: this failure is the first again
        failures = 1
        cache.set(f"{key}:failures", failures, timeout=FAILURES_REMEMBERED)
    if failures < free_failures:
        return
    wait = min(FIRST_WAIT * 2 ** (failures - free_failures), LONGEST_WAIT)
    cache.set(f"{key}:locked-until", time.time() + wait, timeout=wait)


def _remaining(key: str | None) -> int:
    if key is None:
        return 0
    locked_until = cache.get(f"{key}:locked-until")
    if locked_until is None:
        return 0
    return max(0, math.ceil(locked_until - time.time()))


def _duration(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
