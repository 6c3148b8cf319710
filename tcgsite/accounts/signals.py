from django.db.models.signals import post_save
from django.dispatch import receiver

from tcgsite.accounts.models import Preferences, User


@receiver(post_save, sender=User)
def create_preferences(sender, instance, created, raw=False, **kwargs):
    """Every account has Preferences, however it was created (sign-up, admin, shell)."""
    if created and not raw:
        Preferences.objects.get_or_create(user=instance)
