import factory
from django.conf import settings

from collection.cards.models import Card, CardSet
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
