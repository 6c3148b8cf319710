"""An iCalendar writer (RFC 5545), just what the Events Calendar's feed needs: one VCALENDAR of
VEVENTs with UTC times. A calendar application subscribes to the feed, so the text must be
exact: CRLF line endings (3.1), content lines folded at 75 octets without splitting a UTF-8
character (3.1), TEXT values escaped (3.3.11) and UTC times in the basic format (3.3.5).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

CRLF = "\r\n"
# RFC 5545, 3.1: "Lines of text SHOULD NOT be longer than 75 octets, excluding the line break."
LINE_OCTETS = 75


@dataclass(frozen=True)
class Event:
    """One VEVENT. ``stamp`` is DTSTAMP: without a METHOD, when the event was last revised
    (RFC 5545, 3.8.7.2), so the same event gives the same text at every download."""

    uid: str
    stamp: datetime
    start: datetime
    end: datetime
    summary: str
    description: str
    url: str


def escape_text(value: str) -> str:
    """A TEXT value (RFC 5545, 3.3.11): backslash, semicolon and comma escaped, and every line
    break (CRLF, CR or LF) written as \\n."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def fold(line: str) -> str:
    """A content line folded as RFC 5545, 3.1 asks: pieces of at most 75 octets, each after the
    first starting with the one space that marks a continuation (which counts in its 75). A
    multi-octet UTF-8 character is never split between two pieces."""
    pieces: list[str] = []
    current, octets = "", 0
    for character in line:
        size = len(character.encode("utf-8"))
        if octets + size > LINE_OCTETS:
            pieces.append(current)
            current, octets = " ", 1
        current += character
        octets += size
    pieces.append(current)
    return CRLF.join(pieces)


def utc_time(moment: datetime) -> str:
    """A DATE-TIME in UTC, e.g. 20250714T190000Z (RFC 5545, 3.3.5, form #2)."""
    if moment.tzinfo is None:
        raise ValueError("an iCalendar time needs a time zone")
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar(events: Iterable[Event], *, product: str, name: str) -> str:
    """The VCALENDAR text of ``events``: ``product`` is its PRODID, ``name`` the title
    calendar applications show (X-WR-CALNAME, which they read though RFC 5545 does not
    define it)."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{product}",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}",
            f"DTSTAMP:{utc_time(event.stamp)}",
            f"DTSTART:{utc_time(event.start)}",
            f"DTEND:{utc_time(event.end)}",
            f"SUMMARY:{escape_text(event.summary)}",
            f"DESCRIPTION:{escape_text(event.description)}",
            f"URL:{event.url}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + CRLF for line in lines)
