"""What a player must bring to enter a tournament (rulebook, "Registering", "Event Passes",
"Joining a Tournament Queue", "Selecting Your Deck"): checked when they join, and again when
the event begins, when the fee is taken."""

from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, PlayFormat
from collection.models import OwnedProduct, ProductKind
from game.selectors import deck_decklist
from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tournaments.models import EventRules, TournamentKind

STANDARD_FORMAT = "standard"


class EntryError(UserError):
    pass


def unopened(owner: User, kind: str, *, product_id: int | None = None):
    held = OwnedProduct.objects.filter(owner=owner, opened=None, product__kind=kind)
    if product_id is not None:
        held = held.filter(product_id=product_id)
    return held.order_by("acquired", "pk")


def fee_problem(rules: EventRules, player: User) -> str | None:
    """Why ``player`` can't pay the entry fee of ``rules`` now, or None."""
    if not player.is_registered:
        return (
            "Only registered players enter tournaments: buy a starter deck or a booster pack "
            "in the Store to register."
        )
    passes = unopened(player, ProductKind.EVENT_PASS).count()
    if passes < rules.entry_passes:
        return (
            f"This tournament costs {_count(rules.entry_passes, 'event pass')}; "
            f"you hold {passes}. The Store sells them."
        )
    if rules.kind == TournamentKind.SEALED:
        starters = unopened(player, ProductKind.STARTER_DECK).count()
        if starters < rules.sealed_starters:
            return (
                "This Sealed tournament needs "
                f"{_count(rules.sealed_starters, 'unopened starter deck')}; you hold {starters}."
            )
        boosters = unopened(player, ProductKind.BOOSTER_PACK, product_id=rules.pack_pool_id).count()
        if boosters < rules.sealed_boosters:
            name = rules.pack_pool.name if rules.pack_pool else "booster pack"
            return (
                f"This Sealed tournament needs {rules.sealed_boosters} unopened {name}"
                f"{'s' if rules.sealed_boosters != 1 else ''}; you hold {boosters}."
            )
    return None


def play_format_of(rules: EventRules) -> PlayFormat | None:
    return rules.play_format or PlayFormat.objects.filter(slug=STANDARD_FORMAT).first()


def deck_problem(rules: EventRules, player: User, deck: Deck | None) -> str | None:
    """Why ``deck`` can't be ``player``'s deck in a Constructed tournament, or None."""
    if rules.kind == TournamentKind.SEALED:
        return None
    if deck is None:
        return "Select the deck you will play in the whole tournament."
    if deck.owner_id != player.pk:
        return "Choose one of your own decks."
    play_format = play_format_of(rules)
    if play_format is not None:
        # The format's rules include an avatar and a whole quest pile.
        if not deck_selectors.deck_validate(deck=deck, play_format=play_format).valid:
            return (
                f"{deck.name} is not a valid {play_format.name} deck: "
                "open it in the Deck Builder to see why."
            )
        return None
    decklist = deck_decklist(deck=deck)
    if decklist["avatar"] is None or not decklist["quests"]:
        return f"{deck.name} needs an avatar and a quest pile."
    return None


def _count(number: int, noun: str) -> str:
    if number == 1:
        return f"1 {noun}"
    return f"{number} {noun}{'es' if noun.endswith('ss') else 's'}"
