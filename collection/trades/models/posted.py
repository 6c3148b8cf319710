from django.conf import settings
from django.db import models
from django.utils import timezone

from collection.cards.models import Card
from collection.models import Product
from guilds.models import Guild


class PostedTradeStatus(models.TextChoices):
    OPEN = "open", "Open"
    ACCEPTED = "accepted", "Accepted"
    WITHDRAWN = "withdrawn", "Withdrawn"


class TradeSide(models.TextChoices):
    OFFER = "offer", "Offered by the poster"
    WANT = "want", "Wanted by the poster"


class PostedTrade(models.Model):
    """A trade left in the Trade Lobby like a message board post (rulebook, "Posted Trades"):
    what its poster offers and what they want, for the first player who accepts it."""

    poster = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="posted_trades"
    )
    # Set for a Guild-Only trade: only members of this guild see and accept it.
    guild = models.ForeignKey(
        Guild, on_delete=models.CASCADE, null=True, blank=True, related_name="posted_trades"
    )
    status = models.CharField(
        max_length=10, choices=PostedTradeStatus.choices, default=PostedTradeStatus.OPEN
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="posted_trades_accepted",
    )
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The board, newest first: walked in order, it stops at a page's last trade.
            models.Index(fields=["status", "-id"], name="posted_trade_board"),
            models.Index(fields=["poster", "-created_at"], name="posted_trade_by_poster"),
            models.Index(fields=["accepted_by", "-closed_at"], name="posted_trade_by_taker"),
        ]

    def __str__(self):
        return f"Posted trade {self.pk} by {self.poster}"

    def offered_lines(self) -> list["PostedTradeLine"]:
        """What the poster gives (read from prefetched lines where there are some)."""
        return [line for line in self.lines.all() if line.side == TradeSide.OFFER]

    def wanted_lines(self) -> list["PostedTradeLine"]:
        """What the poster asks for in return."""
        return [line for line in self.lines.all() if line.side == TradeSide.WANT]


class PostedTradeLine(models.Model):
    """Copies of a card, or unopened products of one kind, on one side of a posted trade."""

    trade = models.ForeignKey(PostedTrade, on_delete=models.CASCADE, related_name="lines")
    side = models.CharField(max_length=5, choices=TradeSide.choices)
    card = models.ForeignKey(
        Card, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    product = models.ForeignKey(
        Product, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Foil copies of the card, apart from its plain copies.
    foil = models.BooleanField(default=False)
    quantity = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(card__isnull=False) ^ models.Q(product__isnull=False),
                name="posted_trade_line_is_card_or_product",
            ),
            models.CheckConstraint(
                condition=models.Q(foil=False) | models.Q(card__isnull=False),
                name="posted_trade_line_foil_is_a_card",
            ),
        ]
        # The board's "can accept" test reads one trade's wanted lines at a time.
        indexes = [models.Index(fields=["trade", "side"], name="posted_trade_line_side")]

    def __str__(self):
        return f"{self.quantity} × {self.item_name} ({self.get_side_display()})"

    @property
    def item_name(self) -> str:
        if self.card_id:
            return f"{self.card.title} (foil)" if self.foil else self.card.title
        return self.product.name
