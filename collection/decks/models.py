from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from collection.cards.models import Card, CardSet


class FormatKind(models.TextChoices):
    CONSTRUCTED = "constructed", "Constructed"
    LIMITED = "limited", "Limited"


class PlayFormat(models.Model):
    """A play format the Deck Validator checks decks against (rulebook, DECK BUILDER, Validate)."""

    name = models.CharField(max_length=60, unique=True)
    slug = models.SlugField(unique=True)
    kind = models.CharField(
        max_length=12, choices=FormatKind.choices, default=FormatKind.CONSTRUCTED
    )
    description = models.TextField()
    sets = models.ManyToManyField(
        CardSet, blank=True, help_text="Cards must come from these sets; none chosen allows all."
    )
    banned_titles = models.JSONField(default=list, blank=True, help_text="Titles not allowed.")
    restricted_titles = models.JSONField(
        default=list, blank=True, help_text="Titles allowed only one copy."
    )
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "name"]

    def __str__(self):
        return self.name


class Deck(models.Model):
    """A player's deck, saved on the server: avatar, quest pile and deck, as card counts."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    name = models.CharField(max_length=60)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "name"]
        constraints = [
            # "Temple Guard" and "temple guard" are one name, whichever request saves it.
            models.UniqueConstraint(
                "owner", Lower("name"), name="deck_name_per_owner_ignoring_case"
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.owner})"


class DeckCard(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    quantity = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deck", "card"], name="deck_card_once"),
            models.CheckConstraint(condition=models.Q(quantity__gte=1), name="deck_card_positive"),
        ]

    def __str__(self):
        return f"{self.quantity} × {self.card.title}"


class LimitedPool(models.Model):
    """The cards a player may build from in the Limited Deck Builder, until the deadline."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="limited_pools"
    )
    name = models.CharField(max_length=80)
    card_counts = models.JSONField(help_text='{"<card id>": copies, ...}')
    deadline = models.DateTimeField()
    deck = models.OneToOneField(
        Deck, on_delete=models.SET_NULL, null=True, blank=True, related_name="limited_pool"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"{self.name} ({self.owner})"
