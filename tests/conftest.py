import pytest


@pytest.fixture(autouse=True, scope="session")
def _plain_http_cookies():
    """The live test server speaks plain HTTP; production's secure cookies would not stick."""
    from django.conf import settings

    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher():
    """A password hashed with a deliberately slow hasher costs a tenth of a second or more, and
    the tests make hundreds of players; what they check does not depend on the hasher."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def catalog(db):
    """The real first set, loaded from its data file."""
    from collection.cards.services import set_files
    from collection.services.products import set_load

    for path in set_files():
        set_load(path=path)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache, as the database starts empty."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def booster(catalog):
    from collection.models import Product, ProductKind

    return Product.objects.get(kind=ProductKind.BOOSTER_PACK)


@pytest.fixture
def starter(catalog):
    from collection.models import Product, ProductKind

    return Product.objects.filter(kind=ProductKind.STARTER_DECK).order_by("name").first()


@pytest.fixture
def event_pass(db):
    from collection.models import Product, ProductKind

    product, _ = Product.objects.get_or_create(
        name="Event Pass", defaults={"kind": ProductKind.EVENT_PASS, "price": 100}
    )
    return product


@pytest.fixture
def player(client):
    from tests.factories import UserFactory

    user = UserFactory()
    client.force_login(user)
    return user
