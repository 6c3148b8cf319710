"""The rulebook's Navigator: Home, Play, Cards, Community, Miscellaneous, Store, Exit.

A section appears only once something behind it is built, so there is never a dead link;
later features add their entries here.
"""

from dataclasses import dataclass

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
        (NavEntry("Preferences", "accounts:preferences_home"),),
    ),
    NavSection("store", "Store", "\u2605", (NavEntry("Store", "collection:store"),)),
)


def navigator(request):
    if not request.user.is_authenticated:
        return {}
    return {"navigator": SECTIONS}
