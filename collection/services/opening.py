"""Opening starter decks and booster packs."""

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Prefetch

from collection import registry
from collection.boosters import (
    FOIL_ONE_IN,
    BoosterError,
    booster_draw,
    pool_problems,
    recipe_digest,
    slots_problems,
)
from collection.cards.models import Card, Rarity
from collection.models import (
    BoosterRecipe,
    CardOwnership,
    LedgerReason,
    Opening,
    OwnedProduct,
    ProductKind,
    StarterDeckCard,
)
from collection.services.ledger import CardChange, Ledger, ledger_operation, owners_lock
from tcgsite.accounts.models import User
from tcgsite.errors import UserError

MAX_OPEN_AT_ONCE = 24


class OpeningError(UserError):
    """Products that can't be opened; the message is shown to the player."""


@dataclass(frozen=True)
class Reveal:
    """One opened product: its cards in reveal order, and which of them are new."""

    owned_product: OwnedProduct
    cards: list[Card]
    new_card_ids: frozenset[int]
    already_opened: bool
    # The last ``foils`` of the cards are foil copies.
    foils: int = 0


def products_open(*, owner: User, owned_product_ids: list[int]) -> list[Reveal]:
    """Open one or several of the player's unopened products in one transaction, each in a
    ledger operation of its own, referenced ``opening:<owned product id>``.

    Each product is opened exactly once, however often this is called: a product already
    opened (a double click, a replayed request) reveals what its opening revealed and adds
    nothing. An opened starter deck also becomes a saved deck, through the handlers of
    ``collection.registry``, inside its operation. The queries grow with the number of
    products, never with the number of cards.
    """
    ids = sorted(set(owned_product_ids))
    if not ids:
        raise OpeningError("Choose at least one starter deck or booster pack to open.")
    if len(ids) > MAX_OPEN_AT_ONCE:
        raise OpeningError(f"Open at most {MAX_OPEN_AT_ONCE} products at once.")
    starter_cards = StarterDeckCard.objects.order_by("card__number")
    with transaction.atomic():
        # Locked before reading which products are still unopened, so two requests opening
        # the same products (a double click) take turns, and the second finds them opened.
        owners_lock(owners=[owner])
        items = list(
            OwnedProduct.objects.select_related("product__card_set", "opening")
            .prefetch_related(Prefetch("product__starter_cards", queryset=starter_cards))
            .filter(owner=owner, pk__in=ids)
            .order_by("pk")
        )
        if len(items) != len(ids):
            raise OpeningError("Some of those products are not in your collection.")
        unopenable = [item.product.name for item in items if not item.product.opens]
        if unopenable:
            raise OpeningError(f"{unopenable[0]} can't be opened: it is a ticket, not a pack.")
        opened_before = {item.pk for item in items if item.opened}
        openings = _openings(owner, [item for item in items if not item.opened])
        for opening in openings:
            _opening_write(owner, opening)
    new_openings = {opening.owned_product.pk: opening for opening in openings}
    openings = [new_openings.get(item.pk) or item.opening for item in items]
    cards = Card.objects.select_related("card_set").in_bulk(
        {card_id for opening in openings for card_id in opening.card_ids}
    )
    return [
        Reveal(
            owned_product=item,
            cards=[cards[card_id] for card_id in opening.card_ids],
            new_card_ids=frozenset(opening.new_card_ids),
            already_opened=item.pk in opened_before,
            foils=len(opening.foil_card_ids),
        )
        for item, opening in zip(items, openings, strict=True)
    ]


def products_open_aside(
    *, ledger: Ledger, owner: User, owned_products: list[OwnedProduct], note: str
) -> list[Opening]:
    """Open products inside the caller's ledger operation without adding their cards to the
    owner's collection; the openings, saved, in the order of ``owned_products``.

    For cards that are the player's only later, such as a Sealed tournament's card pool
    (its cards join the collection when the tournament is over): each product is used up
    and its opening recorded exactly as ``products_open`` records it (a booster's seed and
    recipe, so ``opening_check`` can draw it again), and the caller puts the cards where
    they belong. No deck is saved from a starter deck opened this way.
    """
    unopenable = [item.product.name for item in owned_products if not item.product.opens]
    if unopenable:
        raise OpeningError(f"{unopenable[0]} can't be opened: it is a ticket, not a pack.")
    openings = _openings(owner, owned_products)
    ledger.products_consume(owner=owner, owned_products=owned_products, note=note)
    for opening in openings:
        opening.save()
    return openings


def _opening_write(owner: User, opening: Opening) -> None:
    """One product's cards in, the product spent, what it revealed recorded."""
    item = opening.owned_product
    with ledger_operation(
        owners=[owner], reason=LedgerReason.OPENING, reference=f"opening:{item.pk}"
    ) as ledger:
        note = _note(opening)
        plain_count = len(opening.card_ids) - len(opening.foil_card_ids)
        ledger.cards_change(
            changes=[
                CardChange(
                    owner=owner, card_id=card_id, delta=1, note=note, foil=index >= plain_count
                )
                for index, card_id in enumerate(opening.card_ids)
            ]
        )
        ledger.products_consume(owner=owner, owned_products=[item])
        opening.save()
        if item.product.kind == ProductKind.STARTER_DECK:
            for handler in registry.starter_opened_handlers:
                handler(owner=owner, product=item.product, card_ids=opening.card_ids)


def _openings(owner: User, items: list[OwnedProduct]) -> list[Opening]:
    """What each unopened product reveals, unsaved; a card is new only at its first reveal."""
    if not items:
        return []
    owned = set(
        CardOwnership.objects.filter(owner=owner, quantity__gt=0).values_list("card_id", flat=True)
    )
    pools: dict[int, dict[str, list[int]]] = {}
    recipes: dict[int, BoosterRecipe] = {}
    openings = []
    for item in items:
        product, seed, recipe, foil_card_ids = item.product, None, None, []
        if product.kind == ProductKind.STARTER_DECK:
            card_ids = [
                line.card_id for line in product.starter_cards.all() for _ in range(line.quantity)
            ]
        else:
            if product.card_set_id not in pools:
                pools[product.card_set_id] = booster_pool(product.card_set_id)
            if product.pk not in recipes:
                recipes[product.pk] = _recipe(product.booster_slots, pools[product.card_set_id])
            recipe = recipes[product.pk]
            seed = secrets.randbits(62)
            draw = booster_draw(recipe.pool, recipe.slots, seed, foil_one_in=recipe.foil_one_in)
            card_ids, foil_card_ids = draw.card_ids, draw.foil_card_ids
        if not card_ids:
            raise OpeningError(f"{product.name} has no cards to reveal; please tell staff.")
        new_card_ids = list(dict.fromkeys(card_id for card_id in card_ids if card_id not in owned))
        owned.update(card_ids)
        openings.append(
            Opening(
                owned_product=item,
                seed=seed,
                drawn_from=recipe,
                card_ids=card_ids,
                new_card_ids=new_card_ids,
                foil_card_ids=foil_card_ids,
            )
        )
    return openings


def _recipe(slots, pool: dict[str, list[int]]) -> BoosterRecipe:
    """The stored recipe of these slots, this pool and today's foil rate, written the first
    time it is used."""
    recipe, _created = BoosterRecipe.objects.get_or_create(
        digest=recipe_digest(slots, pool, FOIL_ONE_IN),
        defaults={"slots": slots, "pool": pool, "foil_one_in": FOIL_ONE_IN},
    )
    return recipe


def _note(opening: Opening) -> str:
    return f"opened {opening.owned_product.product.name} #{opening.owned_product.pk}"


def booster_pool(card_set_id: int) -> dict[str, list[int]]:
    """The set's cards by rarity, in card-number order (the order seeds are replayed on)."""
    pool: dict[str, list[int]] = {}
    cards = Card.objects.filter(card_set_id=card_set_id).exclude(
        rarity__in=[Rarity.STARTER_OR_REWARD, Rarity.PROMO]
    )
    for card_id, rarity in cards.order_by("number").values_list("pk", "rarity"):
        pool.setdefault(rarity, []).append(card_id)
    return pool


@dataclass(frozen=True)
class OpeningCheck:
    """Whether an opening's seed draws its recorded cards again from its recorded recipe:
    ``genuine`` is None when there is nothing to draw again (a starter deck's fixed contents,
    or a pack opened before recipes were kept); ``explanation`` says which, for a person."""

    genuine: bool | None
    explanation: str


def opening_check(*, opening: Opening) -> OpeningCheck:
    """Draw a booster opening again from its seed and the recipe recorded with it, whatever
    staff have changed in the slots, cards or rarities since; never fails on odd data."""
    if opening.seed is None:
        return OpeningCheck(None, "A starter deck holds fixed cards: nothing was drawn.")
    recipe = opening.drawn_from
    if recipe is None:
        return OpeningCheck(
            None, "This pack was opened before openings recorded what they were drawn from."
        )
    problems = slots_problems(recipe.slots) + pool_problems(recipe.pool)
    if problems or recipe_digest(recipe.slots, recipe.pool, recipe.foil_one_in) != recipe.digest:
        return OpeningCheck(
            False,
            "The recorded slots and card pool were altered: they no longer match their digest.",
        )
    try:
        drawn = booster_draw(
            recipe.pool, recipe.slots, opening.seed, foil_one_in=recipe.foil_one_in
        )
    except BoosterError as error:
        return OpeningCheck(False, f"The recorded recipe can't be drawn from: {error}")
    if (drawn.card_ids, drawn.foil_card_ids) != (opening.card_ids, opening.foil_card_ids):
        return OpeningCheck(False, "The seed draws other cards than the ones recorded.")
    return OpeningCheck(
        True,
        "The seed draws exactly these cards, in this order, and the same foil, from the "
        "recorded recipe.",
    )
