from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_POST

from tcgsite.accounts import services as accounts
from tcgsite.accounts.models import TipScreen
from tcgsite.accounts.selectors import player_by_name
from tcgsite.lobbies import selectors
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import lobby_panels, menu_entries
from tcgsite.lobbies.tips import Tip

MAIN_SCREEN_TIPS = (
    Tip(
        "New here? Play the Tutorials: short guided games that teach you how to win.",
        link=("Open the Tutorials", reverse_lazy("game:tutorials")),
    ),
    "Then buy a starter deck in the Store, and open it in your Collection.",
    "The Navigator on the left takes you everywhere: hover an icon to see where it leads.",
    "Cards opens the card browser: filter by type, archetype or keyword, or search the text.",
    "Filters live in the address bar, so you can share a search with a friend.",
    "Preferences (under Miscellaneous) holds your Account Info, avatar and interface options.",
    "Type /help in a chat window for its commands; right-click a name for its menu.",
)

# What each lobby page says it is for, until its matches, trades or tournaments arrive.
LOBBY_INTRODUCTIONS = {
    Lobby.CASUAL: "The place for a pickup game, and the busiest chat of the galaxy.",
    Lobby.TRADE: "Meet other players to trade cards, event passes and booster packs.",
    Lobby.TOURNAMENTS: "Talk with the players of the rated tournaments.",
}


# The lobbies' own Player Tips (rulebook, PREFERENCES, Hide Player Tips: Trade Lobby, Casual
# Lobby), each hidden from its screen's box.
LOBBY_TIPS = {
    Lobby.CASUAL: (
        TipScreen.CASUAL_LOBBY,
        (
            "Create opens the match window: name your match, pick a structure and a deck,"
            " and say who may join or watch.",
            "Join Match on a Match Medallion takes the free seat of a waiting match; Match"
            " Info tells how it is set up.",
            "Right-click (or click) a name in the User List to challenge that player, or to"
            " watch the match they are playing.",
            Tip(
                "New to the game? A match or two here with your starter deck teaches a lot; so"
                " does a game against the computer.",
                link=("Play a Skirmish", reverse_lazy("game:skirmish")),
            ),
        ),
    ),
    Lobby.TRADE: (
        TipScreen.TRADE_LOBBY,
        (
            "Right-click (or click) a name in the User List and choose Trade, or type"
            " /trade NAME, to open a trade session with that player.",
            "Posted Trades holds offers left like notes on a board: accept one, or post"
            " your own and let the first taker complete it.",
            "A partner sees only the copies you hold above your Want: set it for each card"
            " in the Collection Manager.",
            "Booster packs, starter decks and event passes can change hands too.",
        ),
    ),
}


def main_lobby(request):
    if not request.user.is_authenticated:
        return render(request, "welcome.html")
    preferences = accounts.preferences_for(user=request.user)
    return render(
        request,
        "lobby.html",
        {
            "lobby": Lobby.MAIN,
            "lobby_label": Lobby.MAIN.label,
            "tips": MAIN_SCREEN_TIPS,
            "tips_screen": TipScreen.MAIN,
            "show_tips": not preferences.hides_tips_on(TipScreen.MAIN),
            "panels": [panel.render(request.user) for panel in lobby_panels(Lobby.MAIN)],
        },
    )


@login_required
def lobby_page(request, lobby):
    if lobby not in LOBBY_INTRODUCTIONS:
        raise Http404("There is no such lobby.")
    tips_screen, tips = LOBBY_TIPS.get(lobby, (None, ()))
    preferences = accounts.preferences_for(user=request.user)
    return render(
        request,
        "lobbies/lobby.html",
        {
            "tips": tips,
            "tips_screen": tips_screen,
            "show_tips": bool(tips) and not preferences.hides_tips_on(tips_screen),
            "lobby": lobby,
            "lobby_label": Lobby(lobby).label,
            "introduction": LOBBY_INTRODUCTIONS[lobby],
            "panels": [panel.render(request.user) for panel in lobby_panels(lobby)],
            "panel_windows": [panel.windows for panel in lobby_panels(lobby) if panel.windows],
        },
    )


@login_required
def user_menu(request, lobby, username):
    """The menu of a name in a lobby's User List, with the entries the features registered."""
    if lobby not in Lobby.values:
        raise Http404("There is no such lobby.")
    target = player_by_name(username=username)
    if target is None:
        raise Http404("There is no player of that name.")
    entries = []
    for entry in menu_entries():
        built = entry.build(request.user, target, lobby)
        if built is not None:
            label, (method, url) = built
            entries.append({"key": entry.key, "label": label, "method": method, "url": url})
    return render(request, "lobbies/_user_menu.html", {"target": target, "entries": entries})


@login_required
def friends(request):
    return render(request, "lobbies/friends.html", selectors.friends_page(user=request.user))


@login_required
@require_POST
def friends_add(request, list_name):
    """Add a player, by name, to the Friends List or the Ignore List."""
    if list_name not in ("friends", "ignored"):
        raise Http404("There is no such list.")
    name = request.POST.get("username", "").strip()
    other = player_by_name(username=name) if name else None
    if other is None:
        messages.error(
            request, f"There is no player called {name[:40]}." if name else "Type a player's name."
        )
        return redirect("lobbies:friends")
    try:
        if list_name == "friends":
            added = accounts.friend_add(user=request.user, friend=other)
            list_label = "Friends List"
        else:
            added = accounts.ignore_add(user=request.user, other=other)
            list_label = "Ignore List"
    except accounts.AccountError as error:
        messages.error(request, str(error))
    else:
        verb = "is now" if added else "is already"
        messages.success(request, f"{other.username} {verb} on your {list_label}.")
    return redirect("lobbies:friends")
