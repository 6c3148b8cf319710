"""The entries the lobbies put in a name's menu in a User List (rulebook, "User Lists"):
Add to friends list or Remove, Ignore or Unignore, Get info."""

from django.urls import reverse

from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import is_friend, is_ignored
from tcgsite.lobbies.registry import MenuEntry, register_menu_entry


def friends(viewer: User, target: User, lobby: str):
    if viewer.pk == target.pk:
        return None
    url = reverse("accounts:friend_toggle", args=[target.username])
    if is_friend(user=viewer, other=target):
        return "Remove from friends list", ("post", url)
    return "Add to friends list", ("post", url)


def ignore(viewer: User, target: User, lobby: str):
    if viewer.pk == target.pk:
        return None
    url = reverse("accounts:ignore_toggle", args=[target.username])
    if is_ignored(user=viewer, other=target):
        return "Unignore", ("post", url)
    if target.is_staff:
        return None
    return "Ignore", ("post", url)


def get_info(viewer: User, target: User, lobby: str):
    return "Get info", ("dialog", reverse("accounts:player_info", args=[target.username]))


def register_built_in_menu_entries() -> None:
    register_menu_entry(MenuEntry("friends", friends, order=50))
    register_menu_entry(MenuEntry("ignore", ignore, order=60))
    register_menu_entry(MenuEntry("get_info", get_info, order=90))
