import pytest


@pytest.fixture(autouse=True, scope="session")
def _plain_http_cookies():
    """The live test server speaks plain HTTP; production's secure cookies would not stick."""
    from django.conf import settings

    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


@pytest.fixture
def catalog(db):
    """The real first set, loaded from its data file."""
    from collection.catalog import catalog_load_set, set_files

    for path in set_files():
        catalog_load_set(path=path)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache, as the database starts empty."""
    from django.core.cache import cache

    cache.clear()
