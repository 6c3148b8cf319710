"""What matches add to a name's menu in a User List (rulebook, "User Lists"): Challenge, in
the Casual Lobby, opens the Create window for a match only that player may join; Join hosted
game, for the match the player hosts and you may join; and Observe match, for the match they
play that allows observers."""

from urllib.parse import urlencode

from django.urls import reverse

from game.selectors import guild_only_refusal, open_matches, watchable_match
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import is_ignored
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import MenuEntry, register_menu_entry


def challenge(viewer: User, target: User, lobby: str):
    if lobby != Lobby.CASUAL or viewer.pk == target.pk or is_ignored(user=target, other=viewer):
        return None
    url = f"{reverse('game:match_create')}?{urlencode({'challenge': target.username})}"
    return "Challenge", ("dialog", url)


def join_hosted_game(viewer: User, target: User, lobby: str):
    if lobby != Lobby.CASUAL or viewer.pk == target.pk:
        return None
    hosted = next(
        (match for match in open_matches(viewer=viewer) if match.host_id == target.pk), None
    )
    if hosted is None:
        return None
    return "Join hosted game", ("dialog", reverse("game:match_join", args=[hosted.pk]))


def observe_match(viewer: User, target: User, lobby: str):
    if viewer.pk == target.pk:
        return None
    match = watchable_match(player=target)
    if match is None or guild_only_refusal(match=match, viewer=viewer):
        return None
    return "Observe match", ("dialog", reverse("game:match_info", args=[match.pk]))


def register_match_menu_entries() -> None:
    register_menu_entry(MenuEntry("challenge", challenge, order=5))
    register_menu_entry(MenuEntry("join_hosted_game", join_hosted_game, order=10))
    register_menu_entry(MenuEntry("observe_match", observe_match, order=20))
