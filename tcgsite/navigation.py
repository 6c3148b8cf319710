"""The rulebook's Navigator: Home, Play, Cards, Community, Miscellaneous, Store, Exit.

A section appears only once something behind it is built, so there is never a dead link;
later features add their entries here.
"""

from dataclasses import dataclass
from functools import lru_cache

from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from tcgsite.jinja import url


@dataclass(frozen=True)
class NavEntry:
    label: str
    url_name: str
    args: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        # Every page of a logged-in player draws the Navigator's twenty entries, each address
        # asked twice: reversed once per process (and URL configuration), not each time.
        return url(self.url_name, *self.args)


@dataclass(frozen=True)
class NavSection:
    key: str
    label: str
    icon: str
    entries: tuple[NavEntry, ...]


SECTIONS = (
    NavSection("home", "Home", "\u2302", (NavEntry("Main Lobby", "lobby"),)),
    NavSection(
        "play",
        "Play",
        "\u2694",
        (
            NavEntry("Tutorials", "game:tutorials"),
            NavEntry("Scenarios", "game:scenarios"),
            NavEntry("Casual", "lobbies:lobby", ("casual",)),
            NavEntry("Skirmish", "game:skirmish"),
            NavEntry("Tournaments", "lobbies:lobby", ("tournaments",)),
            NavEntry("Events Calendar", "tournaments:calendar"),
            NavEntry("Sprint Leaderboard", "tournaments:sprint_leaderboard"),
            NavEntry("Match History", "game:match_history"),
        ),
    ),
    NavSection(
        "cards",
        "Cards",
        "\u2660",
        (
            NavEntry("Collection", "collection:binder"),
            NavEntry("Deck Builder", "decks:deck_builder"),
            NavEntry("My Avatars", "decks:avatar_list"),
            NavEntry("Card Browser", "cards:card_list"),
        ),
    ),
    NavSection(
        "community",
        "Community",
        "\u263a",
        (
            NavEntry("Trade", "lobbies:lobby", ("trade",)),
            NavEntry("Friends", "lobbies:friends"),
            NavEntry("Guilds", "guilds:guild_list"),
            NavEntry("Players", "accounts:player_list"),
            NavEntry("Ratings", "tournaments:ratings"),
        ),
    ),
    NavSection(
        "miscellaneous",
        "Miscellaneous",
        "\u2699",
        (NavEntry("Preferences", "accounts:preferences_home"), NavEntry("Help", "help:home")),
    ),
    NavSection("store", "Store", "\u2605", (NavEntry("Store", "collection:store"),)),
)


# Stands for the Exit form's CSRF field in the rendering that every player's pages share.
_CSRF_MARKER = "\x00csrf\x00"


class Navigator:
    """The Navigator of one page, drawn where the template prints it."""

    sections = SECTIONS

    def __init__(self, request):
        self.request = request

    def __html__(self) -> SafeString:
        urlconf, script_prefix, path = get_urlconf(), get_script_prefix(), self.request.path
        current = path if path in _entry_urls(urlconf, script_prefix) else ""
        before, after = _navigator_halves(urlconf, script_prefix, current)
        csrf_field = format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">',
            get_token(self.request),
        )
        return mark_safe(before + csrf_field + after)  # noqa: S308 - rendered, escaped above

    __str__ = __html__


@lru_cache(maxsize=16)
def _entry_urls(urlconf, script_prefix: str) -> frozenset[str]:
    return frozenset(entry.url for section in SECTIONS for entry in section.entries)


@lru_cache(maxsize=256)
def _navigator_halves(urlconf, script_prefix: str, current_path: str) -> tuple[str, str]:
    """The Navigator's HTML before and after the Exit form's CSRF field: the same for every
    player, so rendered once per process for each page it marks as the current one."""
    html = render_to_string(
        "_navigator.html",
        {"navigator": SECTIONS, "current_path": current_path, "csrf_marker": _CSRF_MARKER},
    )
    before, after = html.split(_CSRF_MARKER)
    return before, after


def navigator(request):
    if not request.user.is_authenticated:
        return {}
    return {"navigator": Navigator(request)}
