from django.urls import path

from collection import views

app_name = "collection"

urlpatterns = [
    path("", views.card_list, name="card_list"),
    path("<int:set_number>/<int:number>/", views.card_detail, name="card_detail"),
    path("<int:set_number>/<int:number>.svg", views.card_face, name="card_face"),
]
