from django.urls import path

from game import views

app_name = "game"

urlpatterns = [
    path("game/test-draw/", views.test_draw, name="test_draw"),
]
