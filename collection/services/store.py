"""The Store and staff grants: purchases and grants of credits and products."""

from collection.models import LedgerReason, OwnedProduct, Product, ProductKind, Wallet
from collection.services.ledger import ledger_operation
from tcgsite.accounts.models import User
from tcgsite.accounts.services import account_register
from tcgsite.errors import UserError

MAX_PURCHASE_QUANTITY = 24
# A wallet's balance is a positive integer column: 2**31 - 1 on PostgreSQL.
MAX_CREDITS = 2**31 - 1


class StoreError(UserError):
    """A purchase or grant that can't be made; the message is shown to the player or staff."""


def credits_grant(
    *, owner: User, amount: int, note: str = "", reference: str | None = None
) -> Wallet:
    """Staff give (or, with a negative amount, take back) credits; a grant with a
    ``reference`` already made raises ``LedgerOperationDone`` and gives nothing again."""
    if amount == 0:
        raise StoreError("Grant a number of credits other than zero.")
    with ledger_operation(owners=[owner], reason=LedgerReason.GRANT, reference=reference) as ledger:
        wallet = ledger.wallets[owner.pk]
        if wallet.credits + amount < 0:
            raise StoreError(f"{owner} has only {wallet.credits} credits to take back.")
        if wallet.credits + amount > MAX_CREDITS:
            raise StoreError(
                f"{owner} has {wallet.credits:,} credits; a wallet holds at most "
                f"{MAX_CREDITS:,}, so grant at most {MAX_CREDITS - wallet.credits:,}."
            )
        return ledger.credits_change(owner=owner, delta=amount, note=note)


def product_purchase(
    *, buyer: User, product: Product, quantity: int = 1, reference: str | None = None
) -> list[OwnedProduct]:
    """Buy ``quantity`` of a product for credits; the first starter deck or booster bought
    registers the account (rulebook: registering for tournaments). A purchase with a
    ``reference`` already made raises ``LedgerOperationDone`` and buys nothing again."""
    if not product.for_sale:
        raise StoreError(f"{product.name} is not for sale.")
    if not 1 <= quantity <= MAX_PURCHASE_QUANTITY:
        raise StoreError(f"Buy between 1 and {MAX_PURCHASE_QUANTITY} at a time.")
    cost = product.price * quantity
    with ledger_operation(
        owners=[buyer], reason=LedgerReason.PURCHASE, reference=reference
    ) as ledger:
        wallet = ledger.wallets[buyer.pk]
        if wallet.credits < cost:
            raise StoreError(
                f"{quantity} × {product.name} costs {cost} credits; you have {wallet.credits}."
            )
        ledger.credits_change(owner=buyer, delta=-cost, note=f"{quantity} × {product.name}")
        items = ledger.products_add(owner=buyer, product=product, quantity=quantity)
        if product.kind in (ProductKind.STARTER_DECK, ProductKind.BOOSTER_PACK):
            account_register(user=buyer)
    return items


def product_grant(
    *, owner: User, product: Product, quantity: int, note: str = "", reference: str | None = None
) -> list[OwnedProduct]:
    """Staff give products (they do not register the account: only a purchase does); a
    grant with a ``reference`` already made raises ``LedgerOperationDone``."""
    if not 1 <= quantity <= 100:
        raise StoreError("Grant between 1 and 100 products at a time.")
    with ledger_operation(owners=[owner], reason=LedgerReason.GRANT, reference=reference) as ledger:
        return ledger.products_add(owner=owner, product=product, quantity=quantity, note=note)
