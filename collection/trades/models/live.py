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
    # Who ended the session (Return to Lobby), or declined the request.
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "initiator"], name="trade_session_initiator")]

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
    # Foil copies of the card, offered apart from its plain copies.
    foil = models.BooleanField(default=False)
    quantity = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(card__isnull=False) ^ models.Q(product__isnull=False),
                name="trade_session_line_is_card_or_product",
            ),
            models.UniqueConstraint(
                fields=["session", "giver", "card", "foil"],
                condition=models.Q(card__isnull=False),
                name="trade_session_line_card_once",
            ),
            models.UniqueConstraint(
                fields=["session", "giver", "product"],
                condition=models.Q(product__isnull=False),
                name="trade_session_line_product_once",
            ),
        ]

    def __str__(self):
        item = self.card.title if self.card_id else str(self.product)
        if self.foil:
            item = f"foil {item}"
        return f"{self.giver} gives {self.quantity} × {item}"


class TradeSessionSwap(models.Model):
    """A swap completed in a session: the offer both players confirmed at ``offer_version``,
    moved by the ledger operation ``trade:<session>:<number>``. Unique per offer version, so a
    confirmation sent again for an offer already swapped finds it here and moves nothing."""

    session = models.ForeignKey(TradeSession, on_delete=models.CASCADE, related_name="swaps")
    number = models.PositiveIntegerField()
    offer_version = models.PositiveIntegerField()
    # What moved: [{"giver": user id, "card": id or null, "foil": bool, "product": id or null,
    # "quantity": n}].
    items = models.JSONField(default=list)
    completed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "offer_version"], name="trade_swap_once_per_offer"
            ),
            models.UniqueConstraint(fields=["session", "number"], name="trade_swap_number"),
        ]

    def __str__(self):
        return f"Swap {self.number} of trade session {self.session_id}"
