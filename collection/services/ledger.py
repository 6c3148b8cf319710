"""The ledger writers: the only code that changes credits, cards and owned products.

A player's wallet row is the lock for everything that player owns. An operation opens a
transaction, creates the wallets it lacks (with the starting balance) and locks them with
``select_for_update`` in owner-id order, so two operations never wait on each other in a
cycle (on SQLite, where ``select_for_update`` does nothing, IMMEDIATE transactions serialise
writers instead). Every write then goes through the ``Ledger`` the operation yields, which
refuses to touch an owner it has not locked, refuses anything that would leave a balance, a
card quantity or a product holding below zero (raising ``LedgerError``, before writing
anything), and writes the matching ``CreditEntry`` and ``ItemEntry`` rows, all pointing to
the operation's one ``LedgerOperation`` row.

An operation may carry a unique reference. A second run with the same reference writes
nothing and raises ``LedgerOperationDone``; two concurrent runs race on the reference's
unique index and exactly one wins. A future trade, two players swapping cards for credits::

    with ledger_operation(
        owners=[trade.maker, trade.taker], reason=LedgerReason.TRADE, reference=f"trade:{trade.pk}"
    ) as ledger:
        ledger.cards_move(sender=trade.maker, receiver=trade.taker, counts={card.pk: 2})
        ledger.credits_move(sender=trade.taker, receiver=trade.maker, amount=300)

and a tournament payout, safe to run again after a crash::

    for place in standings:
        try:
            with ledger_operation(
                owners=[place.player],
                reason=LedgerReason.REWARD,
                reference=f"payout:tournament {tournament.pk}:player {place.player.pk}",
            ) as ledger:
                ledger.credits_change(owner=place.player, delta=place.credits)
                ledger.products_add(owner=place.player, product=booster, quantity=place.packs)
        except LedgerOperationDone:
            pass  # paid by an earlier run
"""

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from collection.cards.models import Card
from collection.models import (
    CardOwnership,
    CreditEntry,
    ItemEntry,
    LedgerOperation,
    LedgerReason,
    OwnedProduct,
    Product,
    Wallet,
)
from tcgsite.accounts.models import User
from tcgsite.errors import UserError


class LedgerError(UserError):
    """A change that would leave a player owing credits, cards or products."""


class LedgerOperationDone(UserError):
    """The operation's reference was written before: this run wrote nothing."""

    def __init__(self, operation: LedgerOperation):
        super().__init__(f"{operation.reference} was already done; nothing was written again.")
        self.operation = operation


@dataclass(frozen=True)
class CardChange:
    """Copies of one card entering (``delta`` > 0) or leaving one owner's collection."""

    owner: User
    card_id: int
    delta: int
    note: str = ""
    # Foil copies (a booster's foil, a foil traded); plain copies otherwise.
    foil: bool = False


def wallet_for(*, owner: User) -> Wallet:
    """The player's wallet, opened with the starting balance the first time it is needed."""
    wallet = Wallet.objects.filter(owner=owner).first()
    if wallet is not None:
        return wallet
    with transaction.atomic():
        return owners_lock(owners=[owner])[owner.pk]


def owners_lock(*, owners: Iterable[User]) -> dict[int, Wallet]:
    """Lock the owners' wallets, creating those missing, in owner-id order; keyed by owner id.

    For a service that only reads under the lock (a deck saved against the collection);
    writers use ``ledger_operation``, which calls this.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("Lock owners inside transaction.atomic(); the lock ends with it.")
    wallets = {}
    # One owner at a time: creating a wallet waits on another transaction creating the same
    # one, so creating and locking must follow the same order as locking alone.
    for owner in sorted({owner.pk: owner for owner in owners}.values(), key=lambda o: o.pk):
        wallet = Wallet.objects.select_for_update().filter(owner=owner).first()
        wallets[owner.pk] = wallet or _wallet_open(owner)
    return wallets


def _wallet_open(owner: User) -> Wallet:
    try:
        with transaction.atomic():
            wallet = Wallet.objects.create(owner=owner, credits=settings.STARTING_CREDITS)
            operation = LedgerOperation.objects.create(reason=LedgerReason.STARTING_BALANCE)
            CreditEntry.objects.create(
                operation=operation,
                owner=owner,
                delta=settings.STARTING_CREDITS,
                balance_after=settings.STARTING_CREDITS,
                reason=LedgerReason.STARTING_BALANCE,
            )
    except IntegrityError:  # another transaction opened it first
        wallet = Wallet.objects.select_for_update().get(owner=owner)
    return wallet


@contextmanager
def ledger_operation(
    *, owners: Iterable[User], reason: LedgerReason, reference: str | None = None
) -> Iterator["Ledger"]:
    """One transaction that locks ``owners`` and yields their ``Ledger``; an exception
    leaves nothing of the operation written. With a ``reference`` already written, raises
    ``LedgerOperationDone`` before the block runs."""
    refusal = None
    with transaction.atomic():
        ledger = Ledger(wallets=owners_lock(owners=owners), reason=reason)
        try:
            with transaction.atomic():
                if reference is not None:
                    ledger._record(reference)
                yield ledger
        except UserError as error:
            # Refused: the operation's own savepoint is rolled back, but the wallets it
            # opened stay opened, with their starting balances.
            refusal = error
        finally:
            ledger._close()
    if refusal is not None:
        raise refusal


class Ledger:
    """The writers of one operation over the owners it has locked."""

    def __init__(self, *, wallets: dict[int, Wallet], reason: LedgerReason):
        self.wallets = wallets
        self.reason = reason
        self._operation: LedgerOperation | None = None
        self._open = True

    def _record(self, reference: str) -> None:
        try:
            with transaction.atomic():
                self._operation = LedgerOperation.objects.create(
                    reference=reference, reason=self.reason
                )
        except IntegrityError:
            raise LedgerOperationDone(LedgerOperation.objects.get(reference=reference)) from None

    def _close(self) -> None:
        self._open = False

    @property
    def operation(self) -> LedgerOperation:
        """The operation's row, created with its first ledger row when it has no reference,
        so an operation that ends up writing nothing leaves nothing behind."""
        if self._operation is None:
            self._operation = LedgerOperation.objects.create(reason=self.reason)
        return self._operation

    # --- credits --------------------------------------------------------------------------

    def credits_change(self, *, owner: User, delta: int, note: str = "") -> Wallet:
        """Credits from the bank (``delta`` > 0) or back to it."""
        wallet = self._wallet(owner)
        if wallet.credits + delta < 0:
            raise LedgerError(f"{owner} has {wallet.credits} credits; {-delta} can't be taken.")
        if delta:
            self._credits_write(wallet, delta, note)
        return wallet

    def credits_move(self, *, sender: User, receiver: User, amount: int, note: str = "") -> None:
        if amount <= 0:
            raise LedgerError("Move a positive number of credits.")
        self.credits_change(owner=sender, delta=-amount, note=note)
        self.credits_change(owner=receiver, delta=amount, note=note)

    def _credits_write(self, wallet: Wallet, delta: int, note: str) -> None:
        wallet.credits += delta
        wallet.save(update_fields=["credits"])
        CreditEntry.objects.create(
            operation=self.operation,
            owner_id=wallet.owner_id,
            delta=delta,
            balance_after=wallet.credits,
            reason=self.reason,
            note=note[:200],
        )

    # --- cards ----------------------------------------------------------------------------

    def cards_change(self, *, changes: Iterable[CardChange]) -> None:
        """Add and remove copies for any of the locked owners in a few queries, however many
        changes: one ledger row per owner, card, note and finish (foil or plain).

        Foil and plain copies are counted apart: removing plain copies never takes a foil,
        so an ownership's foils never outnumber its copies."""
        rows: Counter[tuple[int, int, str, bool]] = Counter()
        for change in changes:
            self._wallet(change.owner)
            rows[change.owner.pk, change.card_id, change.note[:200], change.foil] += change.delta
        plain: Counter[tuple[int, int]] = Counter()
        foil: Counter[tuple[int, int]] = Counter()
        for (owner_id, card_id, _note, is_foil), delta in rows.items():
            (foil if is_foil else plain)[owner_id, card_id] += delta
        keys = set(plain) | set(foil)
        if not keys:
            return
        existing = {
            (row.owner_id, row.card_id): row
            for row in CardOwnership.objects.filter(
                owner_id__in={owner_id for owner_id, _ in keys},
                card_id__in={card_id for _, card_id in keys},
            )
        }
        for key in sorted(keys):
            row = existing.get(key)
            held_plain, held_foil = (row.plain, row.foil) if row else (0, 0)
            if held_plain + plain[key] < 0:
                self._refuse_short(key, -plain[key], "plain " if held_foil else "")
            if held_foil + foil[key] < 0:
                self._refuse_short(key, -foil[key], "foil ")
        created, updated = [], []
        for key in keys:
            owner_id, card_id = key
            row = existing.get(key)
            if row is None:
                created.append(
                    CardOwnership(
                        owner_id=owner_id,
                        card_id=card_id,
                        quantity=plain[key] + foil[key],
                        foil=foil[key],
                    )
                )
            elif plain[key] or foil[key]:
                row.quantity += plain[key] + foil[key]
                row.foil += foil[key]
                updated.append(row)
        CardOwnership.objects.bulk_create(created)
        CardOwnership.objects.bulk_update(updated, ["quantity", "foil"])
        operation = self.operation
        ItemEntry.objects.bulk_create(
            ItemEntry(
                operation=operation,
                owner_id=owner_id,
                card_id=card_id,
                foil=is_foil,
                delta=delta,
                reason=self.reason,
                note=note,
            )
            for (owner_id, card_id, note, is_foil), delta in rows.items()
            if delta
        )

    def _refuse_short(self, key: tuple[int, int], copies: int, finish: str) -> None:
        owner_id, card_id = key
        owner, card = self.wallets[owner_id].owner, Card.objects.get(pk=card_id)
        raise LedgerError(f"{owner} does not have {copies} {finish}× {card.title}.")

    def cards_move(
        self,
        *,
        sender: User,
        receiver: User,
        counts: Mapping[int, int],
        note: str = "",
        foil: bool = False,
    ) -> None:
        """Copies from one owner to another: ``counts`` maps card ids to copies, all plain or,
        with ``foil``, all foils (a foil stays a foil)."""
        if any(count <= 0 for count in counts.values()):
            raise LedgerError("Move a positive number of copies of each card.")
        self.cards_change(
            changes=[
                change
                for card_id, count in counts.items()
                for change in (
                    CardChange(owner=sender, card_id=card_id, delta=-count, note=note, foil=foil),
                    CardChange(owner=receiver, card_id=card_id, delta=count, note=note, foil=foil),
                )
            ]
        )

    # --- products -------------------------------------------------------------------------

    def products_add(
        self, *, owner: User, product: Product, quantity: int, note: str = ""
    ) -> list[OwnedProduct]:
        self._wallet(owner)
        items = OwnedProduct.objects.bulk_create(
            OwnedProduct(owner=owner, product=product) for _ in range(quantity)
        )
        self._products_write(owner, items, 1, note)
        return items

    def products_move(
        self, *, sender: User, receiver: User, owned_products: list[OwnedProduct], note: str = ""
    ) -> None:
        """Unopened products change hands (a trade, a tournament entry)."""
        self._wallet(receiver)
        self._products_check(sender, owned_products)
        now = timezone.now()
        OwnedProduct.objects.filter(pk__in=[item.pk for item in owned_products]).update(
            owner=receiver, acquired=now
        )
        self._products_write(sender, owned_products, -1, note)
        self._products_write(receiver, owned_products, 1, note)
        for item in owned_products:
            item.owner, item.acquired = receiver, now

    def products_consume(
        self, *, owner: User, owned_products: list[OwnedProduct], note: str = ""
    ) -> None:
        """Products used up (opened): the rows stay, marked with when."""
        self._products_check(owner, owned_products)
        now = timezone.now()
        OwnedProduct.objects.filter(pk__in=[item.pk for item in owned_products]).update(opened=now)
        for item in owned_products:
            item.opened = now
        self._products_write(owner, owned_products, -1, note)

    def _products_check(self, owner: User, owned_products: list[OwnedProduct]) -> None:
        self._wallet(owner)
        ids = {item.pk for item in owned_products}
        # The owner's wallet lock keeps these rows as they are read until the end.
        held = set(
            OwnedProduct.objects.filter(pk__in=ids, owner=owner, opened__isnull=True).values_list(
                "pk", flat=True
            )
        )
        if held != ids or len(ids) != len(owned_products):
            raise LedgerError(f"{owner} does not hold those products unopened.")

    def _products_write(
        self, owner: User, owned_products: list[OwnedProduct], delta: int, note: str
    ) -> None:
        operation = self.operation
        ItemEntry.objects.bulk_create(
            ItemEntry(
                operation=operation,
                owner=owner,
                owned_product=item,
                delta=delta,
                reason=self.reason,
                note=note[:200],
            )
            for item in owned_products
        )

    def _wallet(self, owner: User) -> Wallet:
        if not self._open:
            raise RuntimeError("This ledger operation has ended; start another.")
        try:
            return self.wallets[owner.pk]
        except KeyError:
            raise RuntimeError(f"{owner} is not locked by this ledger operation.") from None
