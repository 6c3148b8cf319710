"""Numbers and text as a request carries them, read the same way by every edge.

A number in a URL or a form is ASCII digits, with a leading minus where a negative number makes
sense, and a bounded range. ``str.isdigit()`` is not that test: it says yes to "²" and "①",
which ``int()`` refuses, and ``int()`` reads Arabic-Indic and other scripts' digits that no page
of this site asks for. The range keeps a number within its database column and within the work
a request may ask for.

JSON from a socket's client is read by ``json_value``: Python's json module reads ``NaN``,
``Infinity`` and ``1e400`` (infinite), which no field of this site means, and nesting a thousand
deep ends its reading with a RecursionError; both are refused, as is anything nested deeper than
any message of the site, which the code that handles it could recurse into again.

The client's address (``client_address``) is the socket's peer, or, behind the deployment's
own proxies (``settings.TRUSTED_PROXIES``), the address the first of them appended to
X-Forwarded-For: whatever stands to its left, the client wrote itself.

Text: PostgreSQL can't store or compare a NUL character, and nobody types one, so
``tcgsite.middleware.NulCharactersMiddleware`` takes NULs out of query strings and forms
before any view reads them.
"""

import json
import math
import re

from django.conf import settings

# A database id (BigAutoField) is at most 2**63 - 1.
MAX_ID = 2**63 - 1
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,24}")
NUL = "\x00"
# Pages send at most 2 (htmx's HEADERS object in a socket message; a decision is flat).
MAX_JSON_DEPTH = 8


def whole_number_or_none(value, *, minimum: int, maximum: int) -> int | None:
    """The number, or None if ``value`` is not a whole number from ``minimum`` to ``maximum``
    (the caller says what it must be, with ``range_message``, or treats it as absent)."""
    text = "" if value is None else str(value).strip()
    if not _WHOLE_NUMBER.fullmatch(text):
        return None
    number = int(text)
    return number if minimum <= number <= maximum else None


def whole_numbers(values, *, minimum: int, maximum: int) -> list[int] | None:
    """A list of numbers (ids ticked in a form), or None if any one can't be read."""
    numbers = [whole_number_or_none(value, minimum=minimum, maximum=maximum) for value in values]
    return None if None in numbers else numbers


def object_id(value) -> int | None:
    """A database id from a request, or None (no row has it)."""
    return whole_number_or_none(value, minimum=1, maximum=MAX_ID)


def range_message(what: str, *, minimum: int, maximum: int) -> str:
    return f"{what} must be a whole number from {minimum:,} to {maximum:,}."


def without_nul(text: str) -> str:
    return text.replace(NUL, "")


def client_address(request) -> str | None:
    """The address of the client that sent ``request`` (None without one): with N trusted
    proxies, the Nth address of X-Forwarded-For from the right; with none, or on a request
    that came by fewer proxies than that, the socket's peer."""
    if request is None:
        return None
    peer = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXIES
    if not proxies:
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    if len(forwarded) < proxies:
        return peer
    return forwarded[-proxies].strip() or peer


def json_value(text: str):
    """The JSON value ``text`` holds; ValueError if it is not JSON, holds NaN or an infinite
    number, or nests lists and objects more than ``MAX_JSON_DEPTH`` deep."""
    if not isinstance(text, str):
        raise ValueError("JSON comes as text")
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError as error:
        raise ValueError("JSON nested too deep") from error
    if _nesting(value) > MAX_JSON_DEPTH:
        raise ValueError("JSON nested too deep")
    return value


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is not a finite number")
    return number


def _nesting(value) -> int:
    """How deep lists and objects nest in ``value`` (0: neither), read without recursion."""
    deepest = 0
    containers = [(value, 1)] if isinstance(value, dict | list) else []
    while containers:
        container, depth = containers.pop()
        deepest = max(deepest, depth)
        items = container.values() if isinstance(container, dict) else container
        containers.extend((item, depth + 1) for item in items if isinstance(item, dict | list))
    return deepest
