from django.conf import settings
from django.db import models
from django.utils import timezone

from collection.cards.models import Card
from collection.models import Product


class TradeSessionStatus(models.TextChoices):
    REQUESTED = "requested", "Asked"
    DECLINED = "declined", "Declined"
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class TradeSession(models.Model):
    """A one-on-one trade session of the Trade Lobby (rulebook, "Trading with Other Players",
    "Trade Screen"): asked for by ``initiator``, accepted by ``partner``; while open the two
    build an offer, accept it, confirm it, and may go on to further trades."""

    initiator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trade_sessions_started"
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trade_sessions_joined"
    )
    status = models.CharField(
        max_length=10, choices=TradeSessionStatus.choices, default=TradeSessionStatus.REQUESTED
    )
    # Every change of the offer raises it; an acceptance or confirmation holds for one version.
    offer_version = models.PositiveIntegerField(default=0)
    initiator_accepted = models.BooleanField(default=False)
    partner_accepted = models.BooleanField(default=False)
    initiator_confirmed = models.BooleanField(default=False)
    partner_confirmed = models.BooleanField(default=False)
    # Swaps completed in this session; the next swap's ledger reference is
    # "trade:<session>:<trades_completed + 1>", so a swap runs once.
    trades_completed = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"Trade session {self.pk}: {self.initiator} and {self.partner}"


class TradeSessionLine(models.Model):
    """Copies of a card, or unopened products of one kind, that ``giver`` gives in the
    session's current offer."""

    session = models.ForeignKey(TradeSession, on_delete=models.CASCADE, related_name="lines")
    giver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey(
        Card, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    product = models.ForeignKey(
        Product, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    quantity = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(card__isnull=False) ^ models.Q(product__isnull=False),
                name="trade_session_line_is_card_or_product",
            ),
        ]

    def __str__(self):
        item = self.card.title if self.card_id else str(self.product)
        return f"{self.giver} gives {self.quantity} × {item}"
