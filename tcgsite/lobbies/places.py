"""Where players are, and how a lobby's User List shows them (rulebook, "User Lists").

A player's *room* is the lobby whose User List shows them: the last of the Casual, Trade and
Tournaments lobbies they entered, or the Main Lobby until they enter one of those. Their
*place* is the page they have open (the newest, with several tabs). A player also appears in the
Main Lobby's list while they are at the Main Lobby, whatever their room.

The colour of a name says where its player is, seen from the lobby showing it: white in this
lobby, green starting a game, red in a game, the Deck Builder, the Collection Manager or a
Trade Screen, dark gray at the Main Lobby (and on the other pages of the site, which the
rulebook's client had not).
"""

from django.db import models


class Lobby(models.TextChoices):
    MAIN = "main", "Main Lobby"
    CASUAL = "casual", "Casual Lobby"
    TRADE = "trade", "Trade Lobby"
    TOURNAMENTS = "tournaments", "Tournaments Lobby"


# The lobbies a player moves into by entering them; the Main Lobby is visited, not moved into.
ROOMS_ENTERED = frozenset({Lobby.CASUAL, Lobby.TRADE, Lobby.TOURNAMENTS})


class Place(models.TextChoices):
    MAIN = "main", "at the Main Lobby"
    CASUAL = "casual", "in the Casual Lobby"
    TRADE = "trade", "in the Trade Lobby"
    TOURNAMENTS = "tournaments", "in the Tournaments Lobby"
    LAUNCH = "launch", "starting a game"
    GAME = "game", "in a game"
    DECK_BUILDER = "deck_builder", "in the Deck Builder"
    COLLECTION = "collection", "in the Collection Manager"
    TRADING = "trading", "trading"
    ELSEWHERE = "elsewhere", "elsewhere on the site"


class Status(models.TextChoices):
    """The rulebook's four colours, named by what they mean."""

    HERE = "here", "white"
    STARTING = "starting", "green"
    BUSY = "busy", "red"
    AWAY = "away", "dark gray"


# The Trade Screen "is similar to the Collection Manager" (rulebook, "Trade Screen").
BUSY_PLACES = frozenset({Place.GAME, Place.DECK_BUILDER, Place.COLLECTION, Place.TRADING})


def room_after_entering(place: str, room: str | None) -> str:
    """The room of a player who opens ``place`` while in ``room`` (None: not online)."""
    if place in ROOMS_ENTERED:
        return place
    return room or Lobby.MAIN


def appears_in(lobby: str, *, room: str, place: str) -> bool:
    return room == lobby or (lobby == Lobby.MAIN and place == Place.MAIN)


def status_in(lobby: str, *, place: str) -> Status:
    if place == lobby:
        return Status.HERE
    if place == Place.LAUNCH:
        return Status.STARTING
    if place in BUSY_PLACES:
        return Status.BUSY
    return Status.AWAY


def lobbies_showing(*, room: str, place: str) -> dict[str, Status]:
    """Each lobby whose User List shows a player in ``room`` at ``place``, with their status."""
    return {
        lobby: status_in(lobby, place=place)
        for lobby in Lobby.values
        if appears_in(lobby, room=room, place=place)
    }
