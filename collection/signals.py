from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from collection.services.ledger import wallet_for


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def open_wallet_of_new_player(sender, instance, created, raw=False, **kwargs):
    """A new player starts with the Store's starting balance (rulebook: the Online Store)."""
    if created and not raw:
        wallet_for(owner=instance)
