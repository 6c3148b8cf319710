from django.urls import path

from collection.views import cards

urlpatterns = [
    path("", cards.card_list, name="card_list"),
    path("<int:set_number>/<int:number>/", cards.card_detail, name="card_detail"),
    path("<int:set_number>/<int:number>.svg", cards.card_face, name="card_face"),
]
