import datetime

import factory
from django.conf import settings
from django.utils import timezone
from django.utils.text import slugify

from collection.cards.models import Card, CardSet
from collection.decks.models import Deck, DeckCard, LimitedPool, PlayFormat
from collection.models import CardOwnership, OwnedProduct, Product, ProductKind, Wallet
from tcgsite.accounts.models import User

PASSWORD = "a-long-test-password-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = settings.AUTH_USER_MODEL
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(user: User, create, extracted, **kwargs):
        if create:
            user.save()


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardSet
        django_get_or_create = ("number",)

    number = factory.Sequence(lambda n: n + 90)
    code = factory.Sequence(lambda n: f"T{n}")
    name = factory.Sequence(lambda n: f"Test Set {n}")


class CardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Card

    card_set = factory.SubFactory(CardSetFactory)
    number = factory.Sequence(lambda n: n + 1)
    rarity = "C"
    title = factory.Sequence(lambda n: f"Test Card {n}")
    card_type = "unit"
    archetype = ""
    cost = 2
    attack = 2
    defense = 2
    damage_bonus = 0
    health = 2


# Test setup only: the application writes credits, cards and products through its services,
# with ledger rows; these make the rows directly, without them.


class ProductFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Product
        django_get_or_create = ("name",)

    kind = ProductKind.BOOSTER_PACK
    name = factory.Sequence(lambda n: f"Test Product {n}")
    price = 100


class BoosterPackFactory(ProductFactory):
    name = factory.Sequence(lambda n: f"Test Booster Pack {n}")
    card_set = factory.SubFactory(CardSetFactory)


class StarterDeckFactory(ProductFactory):
    kind = ProductKind.STARTER_DECK
    name = factory.Sequence(lambda n: f"Test Starter Deck {n}")
    price = 400
    archetype = "jedi"


class EventPassFactory(ProductFactory):
    """The Event Pass: a ticket, not a pack (one of a name, like every product)."""

    kind = ProductKind.EVENT_PASS
    name = "Event Pass"


class WalletFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Wallet
        django_get_or_create = ("owner",)

    owner = factory.SubFactory(UserFactory)
    credits = settings.STARTING_CREDITS


class OwnedProductFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = OwnedProduct

    owner = factory.SubFactory(UserFactory)
    product = factory.SubFactory(BoosterPackFactory)


class CardOwnershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardOwnership

    owner = factory.SubFactory(UserFactory)
    card = factory.SubFactory(CardFactory)
    quantity = 1
    want = 0


class PlayFormatFactory(factory.django.DjangoModelFactory):
    """A Constructed format; ``sets=[...]`` limits it to those sets."""

    class Meta:
        model = PlayFormat
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Test Format {n}")
    slug = factory.LazyAttribute(lambda play_format: slugify(play_format.name))
    description = "A format made by a test."

    @factory.post_generation
    def sets(play_format: PlayFormat, create, extracted, **kwargs):
        if create and extracted:
            play_format.sets.set(extracted)


class DeckFactory(factory.django.DjangoModelFactory):
    """A saved deck; ``cards={card: copies, ...}`` gives it its lines."""

    class Meta:
        model = Deck
        skip_postgeneration_save = True

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Test Deck {n}")

    @factory.post_generation
    def cards(deck: Deck, create, extracted, **kwargs):
        if create and extracted:
            DeckCard.objects.bulk_create(
                DeckCard(deck=deck, card=card, quantity=copies)
                for card, copies in extracted.items()
            )


class LimitedPoolFactory(factory.django.DjangoModelFactory):
    """A Limited pool open for 30 minutes; ``cards={card: copies, ...}`` fills it (or give
    ``card_counts`` as stored, to test what the builder makes of odd data)."""

    class Meta:
        model = LimitedPool

    class Params:
        cards: dict = {}

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Test Pool {n}")
    card_counts = factory.LazyAttribute(
        lambda pool: {str(card.pk): copies for card, copies in pool.cards.items()}
    )
    deadline = factory.LazyFunction(lambda: timezone.now() + datetime.timedelta(minutes=30))
