from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from tcgsite.accounts import views
from tcgsite.accounts.forms import LoginForm

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            template_name="accounts/login.html",
            authentication_form=LoginForm,
            redirect_authenticated_user=True,
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change.html",
            success_url=reverse_lazy("accounts:password_changed"),
        ),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="accounts/password_changed.html"),
        name="password_changed",
    ),
    path("preferences/", views.preferences, name="preferences_home"),
    path("preferences/<slug:page>/", views.preferences, name="preferences"),
    path("tips/<slug:screen>/hide/", views.hide_tips, name="hide_tips"),
    path("players/", views.player_list, name="player_list"),
    path("players/<str:username>/", views.player_info, name="player_info"),
    path("players/<str:username>/friend/", views.friend_toggle, name="friend_toggle"),
    path("players/<str:username>/ignore/", views.ignore_toggle, name="ignore_toggle"),
    path("avatars/<slug:choice>.svg", views.avatar_picture, name="avatar_picture"),
]
