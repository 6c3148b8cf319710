from django.contrib import admin
from django.urls import include, path

from tcgsite import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("", include("tcgsite.accounts.urls")),
    path("", include("collection.cards.urls")),
    path("", include("collection.urls")),
    path("", include("collection.decks.urls")),
    path("", include("game.urls")),
    path("admin/", admin.site.urls),
]
