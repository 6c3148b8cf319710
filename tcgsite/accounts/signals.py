from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db.models.signals import post_save
from django.dispatch import receiver

from tcgsite.accounts.avatars import PLAYER_AVATAR_CHOICES
from tcgsite.accounts.login_throttle import login_failure_record, login_success_record
from tcgsite.accounts.models import Preferences, User
from tcgsite.inputs import client_address


@receiver(post_save, sender=User)
def create_preferences(sender, instance, created, raw=False, **kwargs):
    """Every account has Preferences, however it was created (sign-up, admin, shell). Its
    first avatar follows the account's number round the portraits, so that two newcomers do
    not look alike in the lists and the chat."""
    if created and not raw:
        avatar, _label = PLAYER_AVATAR_CHOICES[(instance.pk - 1) % len(PLAYER_AVATAR_CHOICES)]
        Preferences.objects.get_or_create(user=instance, defaults={"avatar_choice": avatar})


@receiver(user_login_failed)
def count_login_failure(sender, credentials, request=None, **kwargs):
    login_failure_record(username=credentials.get("username"), address=client_address(request))


@receiver(user_logged_in)
def forget_login_failures(sender, request, user, **kwargs):
    login_success_record(username=user.get_username())
