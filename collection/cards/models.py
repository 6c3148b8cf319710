from django.conf import settings
from django.db import models
from django.urls import reverse

from game.engine import vocabulary


def _choices(name: str, values, labels) -> type[models.TextChoices]:
    """TextChoices built from the vocabulary's values and labels; each member is named after
    its label (``Rarity.STARTER_OR_REWARD``, ``Archetype.GENERIC``)."""
    members = [
        (labels[value].upper().replace(" ", "_"), (value, labels[value])) for value in values
    ]
    return models.TextChoices(name, members)


CardType = _choices("CardType", vocabulary.CARD_TYPES, vocabulary.CARD_TYPE_LABELS)
Archetype = _choices("Archetype", vocabulary.ARCHETYPES, vocabulary.ARCHETYPE_LABELS)
Rarity = _choices("Rarity", vocabulary.RARITIES, vocabulary.RARITY_LABELS)
NUMERIC_ATTRIBUTES = vocabulary.NUMERIC_ATTRIBUTES


PLAYER_AVATAR_SET_NUMBER = 0


class CardSet(models.Model):
    """A card set; number 0 holds the avatars players make with Create Avatar."""

    number = models.PositiveSmallIntegerField(unique=True)
    code = models.CharField(max_length=8, unique=True)
    name = models.CharField(max_length=80, unique=True)
    released = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["number"]

    def __str__(self):
        return f"{self.number}. {self.name}"


class CardQuerySet(models.QuerySet):
    def printed(self):
        """The catalog's cards: every card but the avatars players made."""
        return self.filter(creator__isnull=True)

    def collectable_by(self, player):
        """The cards a player may collect and build with: printed ones, and the avatars they
        made themselves (never another player's)."""
        return self.filter(models.Q(creator__isnull=True) | models.Q(creator=player))

    def visible_to(self, viewer):
        """The cards ``viewer`` (a player, staff, or an anonymous visitor) may look at.

        A player-made avatar carries its creator's name, so it is shown to its creator and
        to staff only; a visitor who is not logged in sees printed cards alone. In a match it
        is in play, and public to everyone who sees the match: the match draws it through an
        address of its own, which asks the match's rule of watching (docs/architecture.md,
        "Who may see which cards").
        """
        if viewer is None or not viewer.is_authenticated:
            return self.printed()
        if viewer.is_staff:
            return self.all()
        return self.collectable_by(viewer)


class Card(models.Model):
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    number = models.PositiveSmallIntegerField()
    rarity = models.CharField(max_length=1, choices=Rarity.choices)
    title = models.CharField(max_length=80)
    card_type = models.CharField(max_length=10, choices=CardType.choices)
    archetype = models.CharField(max_length=10, choices=Archetype.choices, blank=True)
    traits = models.JSONField(default=list, blank=True)
    restriction = models.CharField(max_length=40, blank=True)
    cost = models.SmallIntegerField(null=True, blank=True)
    attack = models.SmallIntegerField(null=True, blank=True)
    defense = models.SmallIntegerField(null=True, blank=True)
    damage_bonus = models.SmallIntegerField(null=True, blank=True)
    health = models.SmallIntegerField(null=True, blank=True)
    level = models.SmallIntegerField(null=True, blank=True)
    game_text = models.TextField(blank=True)
    lore = models.TextField(blank=True)
    artist = models.CharField(max_length=80, blank=True)
    rules = models.JSONField(default=dict, blank=True)
    # Set only on avatar cards a player made with Create Avatar (they live in set 0).
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="created_avatars",
    )
    # Lower-cased "|a|b|" forms of traits and keyword names, kept by save(), so that the
    # browser filters them with one portable LIKE on SQLite and PostgreSQL alike.
    trait_index = models.CharField(max_length=400, blank=True, editable=False)
    keyword_index = models.CharField(max_length=400, blank=True, editable=False)

    objects = CardQuerySet.as_manager()

    class Meta:
        ordering = ["card_set__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "number"], name="card_number_in_set"),
        ]
        indexes = [models.Index(fields=["card_type", "archetype"])]

    def __str__(self):
        return f"{self.title} ({self.collector_info})"

    def save(self, *args, **kwargs):
        self.trait_index = _index(self.traits)
        self.keyword_index = _index(self.keyword_names)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("cards:card_detail", args=[self.card_set.number, self.number])

    @property
    def collector_info(self) -> str:
        """The rulebook's "Collector Information": set number, rarity letter, card number."""
        return f"{self.card_set.number}{self.rarity}{self.number}"

    @property
    def keyword_names(self) -> list[str]:
        return [entry["keyword"] for entry in self.rules.get("keywords", [])]

    @property
    def type_line(self) -> str:
        """Card type, archetype and traits, as printed under the title."""
        parts = [self.get_card_type_display()]
        if self.archetype:
            parts.append(self.get_archetype_display())
        parts.extend(self.traits)
        return " \u2022 ".join(parts)


def _index(names) -> str:
    if not names:
        return ""
    return "|" + "|".join(name.lower() for name in names) + "|"
