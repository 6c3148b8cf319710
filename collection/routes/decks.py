from django.urls import path

from collection.views import decks

urlpatterns = [
    path("", decks.deck_builder, name="deck_builder"),
    path("<int:deck_id>/", decks.deck_edit, name="deck_edit"),
    path("<int:deck_id>/delete/", decks.deck_delete, name="deck_delete"),
    path("limited/<int:pool_id>/", decks.limited_builder, name="limited_builder"),
    path("builder/collection/", decks.builder_collection, name="deck_builder_collection"),
    path("builder/deck/", decks.deck_container, name="deck_container"),
    path("builder/open/", decks.deck_open_menu, name="deck_open_menu"),
    path("builder/change/", decks.deck_change, name="deck_change"),
    path("builder/save/", decks.deck_save, name="deck_save"),
    path("builder/validate/", decks.deck_validate, name="deck_validate"),
    path("builder/statistics/", decks.deck_statistics, name="deck_statistics"),
    path("builder/export/", decks.deck_export, name="deck_export"),
    path("builder/import/", decks.deck_import, name="deck_import"),
]
