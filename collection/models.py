from django.conf import settings
from django.db import models

from collection.cards.models import Archetype, Card, CardSet, Rarity


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


class LedgerOperation(models.Model):
    """One change of ownership, which may write many ledger rows (a booster's 15 cards, both
    sides of a trade). Its unique reference makes an operation that runs twice write once."""

    reference = models.CharField(
        max_length=200,
        unique=True,
        null=True,
        blank=True,
        help_text='What the operation is, once: "grant:<uuid>:…", "trade:34", "payout:…".',
    )
    reason = models.CharField(max_length=20, choices=LedgerReason.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self):
        return self.reference or f"{self.get_reason_display()} #{self.pk}"


class CreditEntry(models.Model):
    """One change of a player's credits; the wallet's balance is their running sum."""

    operation = models.ForeignKey(
        LedgerOperation, on_delete=models.PROTECT, related_name="credit_entries"
    )
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
    """One product a player holds; opening it keeps the row, with when it was opened. A
    product that changes hands keeps its row: ``acquired`` is when its current owner got it."""

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


class BoosterRecipe(models.Model):
    """What booster packs were drawn from: a booster's slots and its set's card pool by rarity,
    as they were when a pack was opened. Stored once per distinct content and named by the
    SHA-256 of that content (``collection.boosters.recipe_digest``), so staff may edit slots,
    cards and rarities later and every opening can still be drawn again exactly."""

    digest = models.CharField(max_length=64, unique=True)
    slots = models.JSONField(help_text='[{"rarity": "R", "count": 1}, ...], in drawing order.')
    pool = models.JSONField(help_text='{"R": [card id, ...], ...}, each in card-number order.')
    foil_one_in = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="One booster in this many holds a foil in place of a common; empty for "
        "recipes kept before there were foils.",
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"Booster recipe {self.digest[:12]}"


class Opening(models.Model):
    """What opening a product revealed, with the seed that drew a booster's cards and the
    recipe it drew them from."""

    owned_product = models.OneToOneField(
        OwnedProduct, on_delete=models.PROTECT, related_name="opening"
    )
    seed = models.BigIntegerField(null=True, blank=True)
    drawn_from = models.ForeignKey(
        BoosterRecipe,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="openings",
        help_text="Empty for starter decks, and for packs opened before recipes were kept "
        "whose cards today's slots and cards no longer draw.",
    )
    card_ids = models.JSONField(help_text="The revealed cards, in reveal order.")
    new_card_ids = models.JSONField(
        default=list, help_text="Revealed cards the player did not own before."
    )
    foil_card_ids = models.JSONField(
        default=list,
        help_text="The revealed cards that are foil copies: the last ones of the card ids.",
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
    # How many of the ``quantity`` copies are foils; the others are plain.
    foil = models.PositiveIntegerField(default=0)
    want = models.PositiveIntegerField(default=0)
    # Until the player sets Want, it follows their saved decks (``wants_follow_deck``): the
    # copies a deck uses are not offered for trade by default.
    want_chosen = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "card"], name="one_ownership_per_card"),
            models.CheckConstraint(
                condition=models.Q(foil__lte=models.F("quantity")), name="foils_within_copies"
            ),
        ]

    def __str__(self):
        return f"{self.owner}: {self.quantity} × {self.card.title}"

    @property
    def trade(self) -> int:
        """Extra copies: Quantity above Want (the rulebook's Trade)."""
        return max(self.quantity - self.want, 0)

    @property
    def plain(self) -> int:
        return self.quantity - self.foil

    @property
    def need(self) -> int:
        """Copies still wanted: Want above Quantity (the rulebook's Need)."""
        return max(self.want - self.quantity, 0)


class ItemEntry(models.Model):
    """One change of ownership of a card or a product: the ledger of owned items."""

    operation = models.ForeignKey(
        LedgerOperation, on_delete=models.PROTECT, related_name="item_entries"
    )
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey(
        Card, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    owned_product = models.ForeignKey(
        OwnedProduct, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The copies are foils (a foil opened, traded); a foil's ``card`` counts it as its card.
    foil = models.BooleanField(default=False)
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
        if self.foil:
            item = f"foil {item}"
        return f"{self.owner} {self.delta:+d} {item} ({self.get_reason_display()})"
