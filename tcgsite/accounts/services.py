"""Business operations on accounts: the only writers of players' preferences and friends."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from tcgsite.accounts.models import Preferences, TipScreen, User, Visibility
from tcgsite.errors import UserError
from tcgsite.realtime import send_on_commit, user_group


class AccountError(UserError):
    """A request a player can make by mistake; the message is shown to them."""


class UsernameTaken(AccountError):
    """Another player has the name, in this case or another."""

    def __init__(self):
        # The sign-up form's own words, so that a lost race reads like any taken name.
        super().__init__(User().unique_error_message(User, ["username"]).messages[0])


def account_create(*, username: str, password: str) -> User:
    """A new player. The form checks that the name is free, but two sign-ups of one name (in
    any case) can both pass that check: the database's unique constraint on the lower-case
    name lets one through, and the other gets the form's name-taken message."""
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError as error:
        if User.objects.filter(username__iexact=username).exists():
            raise UsernameTaken from error
        raise


def preferences_for(*, user: User) -> Preferences:
    preferences, _ = Preferences.objects.get_or_create(user=user)
    return preferences


def tips_hide(*, user: User, screen: str) -> Preferences:
    if screen not in TipScreen.values:
        raise AccountError(f"There are no Player Tips called {screen!r}.")
    with transaction.atomic():
        preferences = Preferences.objects.select_for_update().get(user=user)
        if screen not in preferences.hidden_tips:
            preferences.hidden_tips = [*preferences.hidden_tips, screen]
            preferences.save(update_fields=["hidden_tips"])
    return preferences


def friend_add(*, user: User, friend: User) -> bool:
    """Put ``friend`` on the Friends List, taking them off the Ignore List; False if they were
    on it already."""
    if friend.pk == user.pk:
        raise AccountError("You can't add yourself to your Friends List.")
    with transaction.atomic():
        user.ignored.remove(friend)
        if user.friends.filter(pk=friend.pk).exists():
            return False
        user.friends.add(friend)
    return True


def friend_remove(*, user: User, friend: User) -> bool:
    """Take ``friend`` off the Friends List; False if they were not on it."""
    if not user.friends.filter(pk=friend.pk).exists():
        return False
    user.friends.remove(friend)
    return True


def ignore_add(*, user: User, other: User) -> bool:
    """Put ``other`` on the Ignore List, taking them off the Friends List; False if they were
    on it already."""
    if other.pk == user.pk:
        raise AccountError("You can't ignore yourself.")
    if other.is_staff:
        raise AccountError(f"{other.username} is a staff member and can't be ignored.")
    with transaction.atomic():
        user.friends.remove(other)
        if user.ignored.filter(pk=other.pk).exists():
            return False
        user.ignored.add(other)
        _announce_ignore_list(user)
    return True


def ignore_remove(*, user: User, other: User) -> bool:
    """Take ``other`` off the Ignore List; False if they were not on it."""
    with transaction.atomic():
        if not user.ignored.filter(pk=other.pk).exists():
            return False
        user.ignored.remove(other)
        _announce_ignore_list(user)
    return True


def _announce_ignore_list(user: User) -> None:
    """Tell the player's open sockets, which filter what they deliver by this list."""
    send_on_commit(
        group=user_group(user.pk),
        message_type="accounts.ignore_list",
        payload={"ignored": sorted(user.ignored.values_list("pk", flat=True))},
    )


def account_info_visible(*, owner: User, viewer: User | None) -> dict[str, str]:
    """The Account Info fields of ``owner`` that ``viewer`` may read, by their visibility."""
    preferences = preferences_for(user=owner)
    is_self = viewer is not None and viewer.pk == owner.pk
    is_friend = (
        viewer is not None
        and viewer.is_authenticated
        and owner.friends.filter(pk=viewer.pk).exists()
    )

    def may_see(visibility: str) -> bool:
        return (
            is_self
            or visibility == Visibility.EVERYONE
            or (visibility == Visibility.FRIENDS and is_friend)
        )

    fields = {
        "personal_message": preferences.personal_message_visibility,
        "messenger_handle": preferences.messenger_handle_visibility,
        "home_page": preferences.home_page_visibility,
    }
    return {
        name: getattr(preferences, name)
        for name, visibility in fields.items()
        if may_see(visibility) and getattr(preferences, name)
    }


def account_register(*, user: User) -> None:
    """Register the account (rulebook: registering for tournaments), once: the first starter
    deck or booster bought does it."""
    User.objects.filter(pk=user.pk, registered_at__isnull=True).update(registered_at=timezone.now())
