"""Sealed tournaments (rulebook, "Sealed Tournaments", "Changing Decks Between Rounds",
"Limited Deck Builder"): the products opened into each player's card pool, the deck building
before round one, the deck each round is played with, and the pool joining the collection.

What a player brings. An event that asks for products takes, in the player's entry ledger
operation (``entry:<tournament>:<player>``), ``sealed_starters`` unopened starter decks of any
archetype and ``sealed_boosters`` unopened boosters of the Pack Pool, oldest first, and opens
them there. An event that asks for event passes only (no products) supplies them itself, in the
same operation: one starter deck, of an archetype drawn from the tournament's seed and the
player (among the starter decks of the Pack Pool's set, or any set's without a Pack Pool), and
``EVENT_BOOSTERS`` boosters of the Pack Pool (none without one); each is added to the player's
products and used up at once, so the ledger shows where every card came from. Either way the
products are opened as the Store's products are (``collection.services.opening``: a booster's
seed and recipe are recorded, so each pack can be drawn again), but their cards go into a
Limited card pool, "Tournament <number> pool", and not into the collection.

Deck building. ``building_begin`` gives every player ``sealed_minutes`` in the Limited Deck
Builder, whose timer shows the pool's deadline. A player is ready once they save a valid deck
from their pool (the Limited Deck Builder saves only valid ones); round one begins when every
player still in is ready, or at the end of the building time
(``tournaments.services.sealed_building``). From
round one on, the pools stay open until the latest the tournament can end (each round lasts at
most the round time), so that decks can be changed between rounds; a pool closes when its player
drops or when the tournament's pools are released at its conclusion.

The deck of each round. Each round is played with the pool's saved deck if it is valid in the
Limited format when the round begins: a change made during a round applies from the next one.
Otherwise (rulebook: "you will play the first round with the basic starter deck") with the
basic starter deck: the first set's starter deck of the archetype of the first starter deck
opened into the pool or, when none was, of an archetype drawn from the tournament's seed and
the player.

The pool joins the collection. When the player drops, or when the tournament has concluded and
is paid, the cards their products revealed (as the openings recorded them, whatever staff have
typed into the pool since) join their collection in one ledger operation,
``pool:<tournament>:<player>``, which is written once however often it runs.
"""

import random
from collections import Counter
from datetime import timedelta

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from collection.cards.models import Archetype
from collection.decks import selectors as deck_selectors
from collection.decks.models import LimitedPool
from collection.decks.registry import BuilderDetour
from collection.decks.services.pools import (
    limited_pool_create,
    limited_pools_close,
    limited_pools_time,
)
from collection.models import (
    ItemEntry,
    LedgerReason,
    Opening,
    OwnedProduct,
    Product,
    ProductKind,
)
from collection.services.ledger import (
    CardChange,
    Ledger,
    LedgerOperationDone,
    ledger_operation,
)
from collection.services.opening import products_open_aside
from game.selectors import deck_decklist, starter_decklist_of, starter_decklists_all
from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tcgsite.realtime import send_on_commit, user_group
from tournaments import fragments
from tournaments.models import Participant, Tournament, TournamentKind, TournamentStatus
from tournaments.selectors import current_participation, known_not_playing
from tournaments.services.entry import unopened

# Boosters of the Pack Pool an event supplies when its entry is event passes only.
EVENT_BOOSTERS = 3


class SealedError(UserError):
    pass


def pool_open(tournament: Tournament, participant: Participant, ledger: Ledger) -> LimitedPool:
    """Open the player's Sealed products into their card pool, inside their entry's ledger
    operation ``ledger`` (see the module's docstring for what is opened)."""
    player = participant.player
    if tournament.sealed_starters or tournament.sealed_boosters:
        items = _brought(tournament, player)
    else:
        items = _supplied(tournament, participant, ledger)
    openings = products_open_aside(
        ledger=ledger,
        owner=player,
        owned_products=items,
        note=f"Opened into the Tournament {tournament.pk} pool",
    )
    # Closed until deck building begins, a moment later in the same transaction.
    pool = limited_pool_create(
        owner=player,
        name=f"Tournament {tournament.pk} pool",
        card_counts=Counter(card_id for opening in openings for card_id in opening.card_ids),
        deadline=timezone.now(),
    )
    participant.pool = pool
    participant.save(update_fields=["pool"])
    return pool


def building_begin(tournament: Tournament) -> None:
    """The deck building phase before round one (the caller holds the tournament, just
    started): every pool opens for ``sealed_minutes`` and every player is told where."""
    tournament.status = TournamentStatus.DECK_BUILDING
    tournament.building_ends = timezone.now() + timedelta(minutes=tournament.sealed_minutes)
    tournament.save(update_fields=["status", "building_ends"])
    participants = list(
        tournament.participants.filter(dropped=None, pool__isnull=False).select_related("player")
    )
    limited_pools_time(
        pool_ids=[each.pool_id for each in participants], deadline=tournament.building_ends
    )
    for participant in participants:
        tell(participant.player, _building_toast(tournament, participant.pool_id))


def round_decklist(participant: Participant) -> tuple[dict, str]:
    """The decklist ``participant`` plays the round beginning now with, and its name: their
    pool's saved deck if it is valid in the Limited format, else the basic starter deck (see
    the module's docstring)."""
    pool = participant.pool
    if pool is not None and valid_pool_deck(pool):
        return deck_decklist(deck=pool.deck), pool.deck.name
    archetype = _fallback_archetype(participant)
    return starter_decklist_of(archetype), f"{Archetype(archetype).label} Starter Deck"


def participant_dropped(participant: Participant) -> None:
    """The player dropped (the caller holds the tournament's lock): their pool closes and
    joins their collection. During deck building, the sweep of
    ``tournaments.services.sealed_building`` begins round one if everyone left is ready."""
    _pool_release(participant)


def pools_release(tournament: Tournament) -> int:
    """At the conclusion: every pool closes and joins its player's collection; how many
    joined now. Safe to run twice."""
    if tournament.kind != TournamentKind.SEALED:
        return 0
    return sum(
        _pool_release(participant)
        for participant in tournament.participants.select_related("player")
    )


def builder_detour(*, player: User) -> BuilderDetour | None:
    """The gate registered into the Deck Builder: a player in a running Sealed tournament
    builds from their pool only (rulebook: "you cannot return to the normal Deck Builder
    until the tournament has concluded or you have dropped from the tournament")."""
    if known_not_playing(player):
        return None
    participation = current_participation(player=player)
    if (
        participation is None
        or participation.pool_id is None
        or participation.tournament.kind != TournamentKind.SEALED
    ):
        return None
    return BuilderDetour(
        pool_id=participation.pool_id,
        message=f"You are playing in Sealed tournament {participation.tournament_id}: until it "
        "concludes or you drop, you build from your card pool in the Limited Deck Builder.",
    )


def pool_drawn(participant: Participant) -> Counter[int]:
    """The cards the products opened at the player's entry revealed, as recorded: what
    their pool holds, and what joins their collection."""
    return Counter(
        card_id for card_ids, _foils in _entry_openings(participant) for card_id in card_ids
    )


def _pool_foils(participant: Participant) -> Counter[int]:
    """Which of the pool's cards are foil copies (they join the collection as foils)."""
    return Counter(card_id for _ids, foils in _entry_openings(participant) for card_id in foils)


def _entry_openings(participant: Participant) -> list[tuple[list[int], list[int]]]:
    """The card ids and foil card ids of each product opened at the player's entry."""
    opened = ItemEntry.objects.filter(
        operation__reference=_entry_reference(participant),
        owned_product__isnull=False,
        delta__lt=0,
    ).values("owned_product_id")
    return list(
        Opening.objects.filter(owned_product_id__in=opened).values_list("card_ids", "foil_card_ids")
    )


def pools_keep_open(tournament: Tournament, participants: list[Participant]) -> None:
    """From round one on, the players' pools stay open until the latest the tournament can
    end, for changes between rounds: each round ends by its time at the latest, and no
    structure plays more rounds than its Swiss rounds plus an elimination bracket of the
    whole field; one round more leaves the sweep time to end the last one."""
    rounds = tournament.swiss_rounds + len(participants).bit_length()
    limited_pools_time(
        pool_ids=[each.pool_id for each in participants if each.pool_id is not None],
        deadline=timezone.now()
        + max(tournament.round_length, tournament.bracket_round_length) * (rounds + 1),
    )


def valid_pool_deck(pool: LimitedPool) -> bool:
    """Whether the pool's saved deck is valid in the Limited format now, from the pool."""
    if pool.deck is None:
        return False
    builder = deck_selectors.builder_deck(
        owner=pool.owner, counts=deck_selectors.deck_counts(deck=pool.deck), pool=pool
    )
    if builder.problems:
        return False
    validation = deck_selectors.deck_list_validation(
        deck_selectors.limited_format(), builder.deck_list, builder.supply
    )
    return validation.valid


def tell(player: User, html: str) -> None:
    send_on_commit(
        group=user_group(player.pk),
        message_type="lobby.toast",
        payload={"sender_id": None, "html": html},
    )


# Helpers -----------------------------------------------------------------------------------


def _brought(tournament: Tournament, player: User) -> list[OwnedProduct]:
    starters = list(unopened(player, ProductKind.STARTER_DECK)[: tournament.sealed_starters])
    boosters = list(
        unopened(player, ProductKind.BOOSTER_PACK, product_id=tournament.pack_pool_id)[
            : tournament.sealed_boosters
        ]
    )
    if len(starters) < tournament.sealed_starters or len(boosters) < tournament.sealed_boosters:
        raise SealedError(
            f"{player.username} no longer holds the products tournament {tournament.pk} needs."
        )
    return starters + boosters


def _supplied(
    tournament: Tournament, participant: Participant, ledger: Ledger
) -> list[OwnedProduct]:
    """The products a passes-only event gives the player, theirs for the moment of opening."""
    starters = Product.objects.filter(kind=ProductKind.STARTER_DECK).order_by("pk")
    if tournament.pack_pool_id is not None:
        same_set = starters.filter(card_set_id=tournament.pack_pool.card_set_id)
        starters = same_set if same_set.exists() else starters
    choices = list(starters)
    if not choices:
        raise SealedError("The Store has no starter deck for this Sealed event to give.")
    note = f"Given by tournament {tournament.pk}"
    player = participant.player
    items = ledger.products_add(
        owner=player,
        product=_seeded(tournament, participant).choice(choices),
        quantity=1,
        note=note,
    )
    if tournament.pack_pool_id is not None:
        items += ledger.products_add(
            owner=player, product=tournament.pack_pool, quantity=EVENT_BOOSTERS, note=note
        )
    return items


def _fallback_archetype(participant: Participant) -> str:
    first_starter = (
        OwnedProduct.objects.filter(
            pk__in=ItemEntry.objects.filter(
                operation__reference=_entry_reference(participant), delta__lt=0
            ).values("owned_product_id"),
            product__kind=ProductKind.STARTER_DECK,
        )
        .exclude(product__archetype="")
        .order_by("acquired", "pk")
        .values_list("product__archetype", flat=True)
        .first()
    )
    basic = sorted(starter_decklists_all())
    if first_starter in basic:
        return first_starter
    tournament = Tournament.objects.get(pk=participant.tournament_id)
    return _seeded(tournament, participant).choice(basic)


def _pool_release(participant: Participant) -> bool:
    """Close the player's pool and add its cards to their collection, once; whether they
    were added now."""
    if participant.pool_id is not None:
        limited_pools_close(pool_ids=[participant.pool_id])
    drawn, foils = pool_drawn(participant), _pool_foils(participant)
    if not drawn:
        return False
    player = participant.player
    name = f"Tournament {participant.tournament_id} pool"
    try:
        with ledger_operation(
            owners=[player],
            reason=LedgerReason.OPENING,
            reference=f"pool:{participant.tournament_id}:{player.pk}",
        ) as ledger:
            ledger.cards_change(
                changes=[
                    CardChange(owner=player, card_id=card_id, delta=copies, note=name)
                    for card_id, copies in sorted((drawn - foils).items())
                ]
                + [
                    CardChange(owner=player, card_id=card_id, delta=copies, note=name, foil=True)
                    for card_id, copies in sorted(foils.items())
                ]
            )
            tell(
                player,
                fragments.notice_toast(f"The cards of your {name} joined your collection."),
            )
    except LedgerOperationDone:
        return False  # joined by an earlier run
    return True


def _entry_reference(participant: Participant) -> str:
    # The reference of the entry operation of tournaments.services.queues.
    return f"entry:{participant.tournament_id}:{participant.player_id}"


def _seeded(tournament: Tournament, participant: Participant) -> random.Random:
    """The player's own draw from the tournament's seed: the same every time it is asked."""
    return random.Random(f"sealed:{tournament.seed}:{participant.player_id}")  # noqa: S311


def _building_toast(tournament: Tournament, pool_id: int) -> str:
    return render_to_string(
        "tournaments/toast.html",
        {
            "text": f"Tournament {tournament.pk}: your card pool is open. Build your deck in "
            f"the Limited Deck Builder within {tournament.sealed_minutes} minutes and Save "
            "Deck to be ready.",
            "link": reverse("decks:limited_builder", args=[pool_id]),
            "link_text": "Build your deck",
        },
    )
