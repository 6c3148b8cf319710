"""Row locks for ownership changes, always taken in the same order.

A player's wallet row is the lock for everything that player owns: every service that moves
cards, products or credits locks the wallets of the players involved first, ordered by
owner id, so two transactions never wait on each other in a cycle (on SQLite, where
select_for_update does nothing, IMMEDIATE transactions serialise writers instead).
"""

from collection.models import Wallet


def lock_wallets(owners) -> list[Wallet]:
    """Lock the wallets of ``owners`` (which must exist), returned in the order given."""
    ids = sorted({owner.pk for owner in owners})
    locked = {
        wallet.owner_id: wallet
        for wallet in Wallet.objects.select_for_update()
        .filter(owner_id__in=ids)
        .order_by("owner_id")
    }
    return [locked[owner.pk] for owner in owners]
