"""Products and a logged-in player, shared by the Store, opening and binder tests."""

import pytest

from collection.models import Product, ProductKind
from tests.factories import UserFactory


@pytest.fixture
def booster(catalog):
    return Product.objects.get(kind=ProductKind.BOOSTER_PACK)


@pytest.fixture
def starter(catalog):
    return Product.objects.filter(kind=ProductKind.STARTER_DECK).order_by("name").first()


@pytest.fixture
def event_pass(db):
    product, _ = Product.objects.get_or_create(
        name="Event Pass", defaults={"kind": ProductKind.EVENT_PASS, "price": 100}
    )
    return product


@pytest.fixture
def player(client):
    user = UserFactory()
    client.force_login(user)
    return user
