from django.urls import path

from collection.decks.views import avatars, card_page, decks, wizard

app_name = "decks"

urlpatterns = [
    path("avatars/", avatars.avatar_list, name="avatar_list"),
    path("avatars/new/", avatars.avatar_create_page, name="avatar_create"),
    path("avatars/new/preview/", avatars.avatar_preview_fragment, name="avatar_preview"),
    path("decks/wizard/", wizard.deck_wizard, name="deck_wizard"),
    path("decks/wizard/fill/", wizard.deck_wizard_fill, name="deck_wizard_fill"),
    path("decks/", decks.deck_builder, name="deck_builder"),
    path("decks/<int:deck_id>/", decks.deck_edit, name="deck_edit"),
    path("decks/<int:deck_id>/delete/", decks.deck_delete, name="deck_delete"),
    path("decks/limited/<int:pool_id>/", decks.limited_builder, name="limited_builder"),
    path("decks/builder/collection/", decks.builder_collection, name="deck_builder_collection"),
    path("decks/builder/deck/", decks.deck_container, name="deck_container"),
    path("decks/builder/open/", decks.deck_open_menu, name="deck_open_menu"),
    path("decks/builder/change/", decks.deck_change, name="deck_change"),
    path("decks/builder/save/", decks.deck_save, name="deck_save"),
    path("decks/builder/validate/", decks.deck_validate, name="deck_validate"),
    path("decks/builder/statistics/", decks.deck_statistics, name="deck_statistics"),
    path("decks/builder/export/", decks.deck_export, name="deck_export"),
    path("decks/builder/import/", decks.deck_import, name="deck_import"),
    path("decks/add/<int:card_id>/", card_page.deck_card_add, name="deck_card_add"),
]
