"""The collection app's pages; each area keeps its routes in collection/routes/."""

from django.urls import include, path

app_name = "collection"

urlpatterns = [
    path("cards/", include("collection.routes.cards")),
    path("store/", include("collection.routes.store")),
    path("collection/", include("collection.routes.binder")),
    path("avatars/", include("collection.routes.avatars")),
    path("decks/wizard/", include("collection.routes.wizard")),
    path("decks/", include("collection.routes.decks")),
]
