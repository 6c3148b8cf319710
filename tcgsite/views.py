from django.shortcuts import render

from tcgsite.accounts.models import TipScreen
from tcgsite.accounts.services import preferences_for

MAIN_SCREEN_TIPS = (
    "New here? Buy a starter deck in the Store, then open it in your Collection.",
    "The Navigator on the left takes you everywhere: hover an icon to see where it leads.",
    "Cards opens the card browser: filter by type, archetype or keyword, or search the text.",
    "Filters live in the address bar, so you can share a search with a friend.",
    "Preferences (under Miscellaneous) holds your Account Info, avatar and interface options.",
    "Hover a highlighted keyword on a card to read what it means.",
)


def lobby(request):
    if not request.user.is_authenticated:
        return render(request, "welcome.html")
    preferences = preferences_for(user=request.user)
    return render(
        request,
        "lobby.html",
        {
            "tips": MAIN_SCREEN_TIPS,
            "tips_screen": TipScreen.MAIN,
            "show_tips": not preferences.hides_tips_on(TipScreen.MAIN),
        },
    )
