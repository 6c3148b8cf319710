from django.conf import settings
from django.db import models
from django.urls import reverse


class CardType(models.TextChoices):
    AVATAR = "avatar", "Avatar"
    QUEST = "quest", "Quest"
    UNIT = "unit", "Unit"
    ABILITY = "ability", "Ability"
    ITEM = "item", "Item"
    TACTIC = "tactic", "Tactic"


class Archetype(models.TextChoices):
    JEDI = "jedi", "Jedi"
    REBEL = "rebel", "Rebel"
    IMPERIAL = "imperial", "Imperial"
    SITH = "sith", "Sith"
    GENERIC = "", "Generic"


class Rarity(models.TextChoices):
    RARE = "R", "Rare"
    UNCOMMON = "U", "Uncommon"
    COMMON = "C", "Common"
    FIXED = "F", "Starter or reward"
    PROMO = "P", "Promo"


NUMERIC_ATTRIBUTES = ("cost", "attack", "defense", "damage_bonus", "health", "level")


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
        return reverse("collection:card_detail", args=[self.card_set.number, self.number])

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


class ProductKind(models.TextChoices):
    STARTER_DECK = "starter_deck", "Starter deck"
    BOOSTER_PACK = "booster_pack", "Booster pack"
    EVENT_PASS = "event_pass", "Event pass"


# A booster's rarity slots: 15 cards, one rare, three uncommons, eleven commons (no F or P
# cards, which come in starter decks, as rewards and as promos).
DEFAULT_BOOSTER_SLOTS = [
    {"rarity": Rarity.RARE, "count": 1},
    {"rarity": Rarity.UNCOMMON, "count": 3},
    {"rarity": Rarity.COMMON, "count": 11},
]


def default_booster_slots():
    return [dict(slot) for slot in DEFAULT_BOOSTER_SLOTS]


class Product(models.Model):
    """Something sold in the Store or handed out: a starter deck, a booster pack, an event pass."""

    kind = models.CharField(max_length=14, choices=ProductKind.choices)
    name = models.CharField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    price = models.PositiveIntegerField(help_text="In credits, the Store's currency.")
    for_sale = models.BooleanField(default=True)
    card_set = models.ForeignKey(
        CardSet,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="products",
        help_text="Boosters draw from this set.",
    )
    archetype = models.CharField(max_length=10, choices=Archetype.choices, blank=True)
    booster_slots = models.JSONField(
        default=default_booster_slots,
        blank=True,
        help_text='Boosters only: [{"rarity": "R", "count": 1}, ...] drawn without repeats.',
    )

    class Meta:
        ordering = ["kind", "price", "name"]

    def __str__(self):
        return self.name

    @property
    def opens(self) -> bool:
        return self.kind in (ProductKind.STARTER_DECK, ProductKind.BOOSTER_PACK)


class StarterDeckCard(models.Model):
    """One line of a starter deck's fixed contents."""

    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="starter_cards")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    quantity = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["product", "card"], name="starter_card_once"),
        ]

    def __str__(self):
        return f"{self.quantity} × {self.card.title}"


class Wallet(models.Model):
    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wallet"
    )
    credits = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.owner}: {self.credits} credits"


class LedgerReason(models.TextChoices):
    STARTING_BALANCE = "starting_balance", "Starting balance"
    PURCHASE = "purchase", "Store purchase"
    GRANT = "grant", "Granted by staff"
    AVATAR_CREATED = "avatar_created", "Avatar created"
    OPENING = "opening", "Product opened"
    TRADE = "trade", "Trade"
    REWARD = "reward", "Reward"
    ENTRY = "entry", "Tournament entry"


class CreditEntry(models.Model):
    """One change of a player's credits; the wallet's balance is their running sum."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    delta = models.IntegerField()
    balance_after = models.PositiveIntegerField()
    reason = models.CharField(max_length=20, choices=LedgerReason.choices)
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name_plural = "credit entries"

    def __str__(self):
        return f"{self.owner} {self.delta:+d} ({self.get_reason_display()})"


class OwnedProduct(models.Model):
    """One product a player holds; opening it keeps the row, with when it was opened."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_products"
    )
    product = models.ForeignKey(Product, on_delete=models.PROTECT, related_name="+")
    acquired = models.DateTimeField(auto_now_add=True)
    opened = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["acquired", "pk"]
        indexes = [models.Index(fields=["owner", "opened"])]

    def __str__(self):
        state = "opened" if self.opened else "unopened"
        return f"{self.product} of {self.owner} ({state})"


class Opening(models.Model):
    """What opening a product revealed, with the seed that drew a booster's cards."""

    owned_product = models.OneToOneField(
        OwnedProduct, on_delete=models.PROTECT, related_name="opening"
    )
    seed = models.BigIntegerField(null=True, blank=True)
    card_ids = models.JSONField(help_text="The revealed cards, in reveal order.")
    new_card_ids = models.JSONField(
        default=list, help_text="Revealed cards the player did not own before."
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"Opening of {self.owned_product}"


class CardOwnership(models.Model):
    """How many copies of a card a player owns, and how many they want (Collection Manager)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cards"
    )
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    quantity = models.PositiveIntegerField(default=0)
    want = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "card"], name="one_ownership_per_card"),
        ]

    def __str__(self):
        return f"{self.owner}: {self.quantity} × {self.card.title}"

    @property
    def trade(self) -> int:
        """Extra copies: Quantity above Want (the rulebook's Trade)."""
        return max(self.quantity - self.want, 0)

    @property
    def need(self) -> int:
        """Copies still wanted: Want above Quantity (the rulebook's Need)."""
        return max(self.want - self.quantity, 0)


class ItemEntry(models.Model):
    """One change of ownership of a card or a product: the ledger of owned items."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey(
        Card, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    owned_product = models.ForeignKey(
        OwnedProduct, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    delta = models.IntegerField()
    reason = models.CharField(max_length=20, choices=LedgerReason.choices)
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name_plural = "item entries"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(card__isnull=False) ^ models.Q(owned_product__isnull=False),
                name="item_entry_is_card_or_product",
            ),
        ]

    def __str__(self):
        item = self.card.title if self.card_id else str(self.owned_product)
        return f"{self.owner} {self.delta:+d} {item} ({self.get_reason_display()})"


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
            models.UniqueConstraint(fields=["owner", "name"], name="deck_name_per_owner"),
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
