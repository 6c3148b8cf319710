from django.urls import path

from collection.views import avatars

urlpatterns = [
    path("", avatars.avatar_list, name="avatar_list"),
    path("new/", avatars.avatar_create_page, name="avatar_create"),
    path("new/preview/", avatars.avatar_preview_fragment, name="avatar_preview"),
]
