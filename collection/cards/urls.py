from django.urls import path

from collection.cards import views

app_name = "cards"

urlpatterns = [
    path("cards/", views.card_list, name="card_list"),
    path("cards/<int:set_number>/<int:number>/", views.card_detail, name="card_detail"),
    path("cards/<int:set_number>/<int:number>.svg", views.card_face, name="card_face"),
]
