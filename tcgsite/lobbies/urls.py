from django.urls import path

from tcgsite.lobbies import views

app_name = "lobbies"

urlpatterns = [
    path("lobbies/<slug:lobby>/", views.lobby_page, name="lobby"),
    path("lobbies/<slug:lobby>/players/<str:username>/menu/", views.user_menu, name="user_menu"),
    path("friends/", views.friends, name="friends"),
    path("friends/<slug:list_name>/add/", views.friends_add, name="friends_add"),
]
