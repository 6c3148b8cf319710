from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from collection.cards.models import Card
from collection.cards.selectors import KNOWN_TRAITS_CACHE_KEY


@receiver([post_save, post_delete], sender=Card)
def forget_known_traits(sender, **kwargs):
    cache.delete(KNOWN_TRAITS_CACHE_KEY)
