"""The Store and players' credits: the only writers of wallets and product purchases."""

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from collection.models import (
    CreditEntry,
    ItemEntry,
    LedgerReason,
    OwnedProduct,
    Product,
    ProductKind,
    Wallet,
)
from collection.services.locks import lock_wallets
from tcgsite.accounts.models import User
from tcgsite.errors import UserError

MAX_PURCHASE_QUANTITY = 24


class StoreError(UserError):
    """A purchase or grant that can't be made; the message is shown to the player or staff."""


def wallet_for(*, owner: User) -> Wallet:
    """The player's wallet, opened with the starting balance the first time it is needed."""
    wallet = Wallet.objects.filter(owner=owner).first()
    if wallet is not None:
        return wallet
    try:
        with transaction.atomic():
            wallet = Wallet.objects.create(owner=owner, credits=settings.STARTING_CREDITS)
            CreditEntry.objects.create(
                owner=owner,
                delta=settings.STARTING_CREDITS,
                balance_after=settings.STARTING_CREDITS,
                reason=LedgerReason.STARTING_BALANCE,
            )
    except IntegrityError:
        wallet = Wallet.objects.get(owner=owner)
    return wallet


def credits_grant(*, owner: User, amount: int, note: str = "") -> Wallet:
    """Staff give (or, with a negative amount, take back) credits."""
    if amount == 0:
        raise StoreError("Grant a number of credits other than zero.")
    wallet_for(owner=owner)
    with transaction.atomic():
        (wallet,) = lock_wallets([owner])
        if wallet.credits + amount < 0:
            raise StoreError(f"{owner} has only {wallet.credits} credits to take back.")
        _change_credits(wallet, amount, LedgerReason.GRANT, note)
    return wallet


def product_purchase(*, buyer: User, product: Product, quantity: int = 1) -> list[OwnedProduct]:
    """Buy ``quantity`` of a product for credits; the first starter deck or booster bought
    registers the account (rulebook: registering for tournaments)."""
    if not product.for_sale:
        raise StoreError(f"{product.name} is not for sale.")
    if not 1 <= quantity <= MAX_PURCHASE_QUANTITY:
        raise StoreError(f"Buy between 1 and {MAX_PURCHASE_QUANTITY} at a time.")
    wallet_for(owner=buyer)
    cost = product.price * quantity
    with transaction.atomic():
        (wallet,) = lock_wallets([buyer])
        if wallet.credits < cost:
            raise StoreError(
                f"{quantity} × {product.name} costs {cost} credits; you have {wallet.credits}."
            )
        _change_credits(wallet, -cost, LedgerReason.PURCHASE, f"{quantity} × {product.name}")
        items = _add_products(buyer, product, quantity, LedgerReason.PURCHASE)
        if product.kind in (ProductKind.STARTER_DECK, ProductKind.BOOSTER_PACK):
            User.objects.filter(pk=buyer.pk, registered_at__isnull=True).update(
                registered_at=timezone.now()
            )
    return items


def product_grant(*, owner: User, product: Product, quantity: int, note: str = "") -> list:
    """Staff give products (they do not register the account: only a purchase does)."""
    if not 1 <= quantity <= 100:
        raise StoreError("Grant between 1 and 100 products at a time.")
    wallet_for(owner=owner)
    with transaction.atomic():
        lock_wallets([owner])
        return _add_products(owner, product, quantity, LedgerReason.GRANT, note)


def _change_credits(wallet: Wallet, delta: int, reason: str, note: str) -> None:
    wallet.credits += delta
    wallet.save(update_fields=["credits"])
    CreditEntry.objects.create(
        owner_id=wallet.owner_id,
        delta=delta,
        balance_after=wallet.credits,
        reason=reason,
        note=note[:200],
    )


def _add_products(owner, product, quantity, reason, note="") -> list[OwnedProduct]:
    items = [OwnedProduct.objects.create(owner=owner, product=product) for _ in range(quantity)]
    ItemEntry.objects.bulk_create(
        ItemEntry(owner=owner, owned_product=item, delta=1, reason=reason, note=note[:200])
        for item in items
    )
    return items
