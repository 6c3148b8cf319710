from django.urls import path

from guilds import views

app_name = "guilds"

urlpatterns = [
    path("guilds/", views.guild_list, name="guild_list"),
    path("guilds/create/", views.guild_create, name="guild_create"),
    path("guilds/<int:guild_id>/", views.guild_detail, name="guild_detail"),
    path("guilds/invite/", views.guild_invite, name="guild_invite"),
    path("guilds/invite/<str:username>/", views.guild_invite, name="guild_invite_player"),
    path(
        "guilds/invitations/<int:invitation_id>/accept/",
        views.invitation_accept,
        name="invitation_accept",
    ),
    path(
        "guilds/invitations/<int:invitation_id>/decline/",
        views.invitation_decline,
        name="invitation_decline",
    ),
    path("guilds/leave/", views.guild_leave, name="guild_leave"),
    path("guilds/kick/<str:username>/", views.guild_kick, name="guild_kick"),
    path("guilds/officers/<str:username>/", views.guild_officer, name="guild_officer"),
    path("guilds/message/", views.guild_message, name="guild_message"),
]
