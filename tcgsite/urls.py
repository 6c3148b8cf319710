from django.contrib import admin
from django.urls import include, path

from tcgsite.lobbies import views as lobby_views

urlpatterns = [
    path("", lobby_views.main_lobby, name="lobby"),
    path("", include("tcgsite.lobbies.urls")),
    path("", include("tcgsite.accounts.urls")),
    path("", include("collection.cards.urls")),
    path("", include("collection.urls")),
    path("", include("collection.decks.urls")),
    path("", include("guilds.urls")),
    path("", include("collection.trades.urls")),
    path("", include("game.urls")),
    path("", include("tournaments.urls")),
    path("", include("tcgsite.help.urls")),
    path("admin/", admin.site.urls),
]

handler500 = "tcgsite.database.server_error"
