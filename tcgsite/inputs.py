"""Numbers and text as a request carries them, read the same way by every edge.

A number in a URL or a form is ASCII digits, with a leading minus where a negative number makes
sense, and a bounded range. ``str.isdigit()`` is not that test: it says yes to "²" and "①",
which ``int()`` refuses, and ``int()`` reads Arabic-Indic and other scripts' digits that no page
of this site asks for. The range keeps a number within its database column and within the work
a request may ask for.

Text: PostgreSQL can't store or compare a NUL character, and nobody types one, so
``tcgsite.middleware.NulCharactersMiddleware`` takes NULs out of query strings and forms
before any view reads them.
"""

import re

# A database id (BigAutoField) is at most 2**63 - 1.
MAX_ID = 2**63 - 1
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,24}")
NUL = "\x00"


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
