"""The collection app's pages; each area keeps its routes in collection/routes/."""

from django.urls import include, path

app_name = "collection"

urlpatterns = [
    path("cards/", include("collection.routes.cards")),
]
