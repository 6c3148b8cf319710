from django.urls import path

from collection.views import wizard

urlpatterns = [
    path("", wizard.deck_wizard, name="deck_wizard"),
    path("fill/", wizard.deck_wizard_fill, name="deck_wizard_fill"),
]
