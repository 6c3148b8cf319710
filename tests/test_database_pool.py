"""Production mode's bounded connection pool (README, Production mode, "Database
connections"): a request that waits too long for a connection gets the busy page, with
nothing written, and the site's sockets say the same."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from collection.models import OwnedProduct, Wallet
from tcgsite.database import BUSY_MESSAGE, is_pool_timeout
from tests.database_pool import POOLED, connection_held_elsewhere, pool_of_one

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not POOLED, reason="the pool is production mode's; SQLite needs none"),
]


@pytest.fixture
def browser_of(player):
    client = Client(raise_request_exception=False)
    client.force_login(player)
    connection.close()  # the test's thread holds no connection of the pool
    return client


def test_a_request_that_waits_too_long_for_a_connection_gets_the_busy_page(browser_of):
    with pool_of_one(), connection_held_elsewhere():
        response = browser_of.get(reverse("collection:store"))

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "The site is busy" in page
    assert BUSY_MESSAGE in page
    assert "Nothing was changed." in page


def test_a_purchase_refused_as_busy_writes_nothing_and_can_be_sent_again(
    browser_of, player, booster
):
    page = browser_of.get(
        reverse("collection:store_confirm"), {"product": booster.pk, "quantity": 1}
    ).content.decode()
    confirmation = re.search(r'name="confirmation" value="([0-9a-f-]{36})"', page)[1]
    purchase = {"product": booster.pk, "quantity": 1, "confirmation": confirmation}
    credits = Wallet.objects.get(owner=player).credits
    connection.close()

    with pool_of_one(), connection_held_elsewhere():
        refused = browser_of.post(reverse("collection:store_buy"), purchase)

    assert refused.status_code == 503
    assert Wallet.objects.get(owner=player).credits == credits
    assert not OwnedProduct.objects.filter(owner=player, product=booster).exists()

    browser_of.post(reverse("collection:store_buy"), purchase)

    assert Wallet.objects.get(owner=player).credits == credits - booster.price
    assert OwnedProduct.objects.filter(owner=player, product=booster).count() == 1


def test_only_the_pools_refusal_is_taken_for_busy():
    """Any other database error stays a server error, logged as such."""
    with pool_of_one(), connection_held_elsewhere():
        with pytest.raises(Exception) as refused:
            connection.ensure_connection()

    assert is_pool_timeout(refused.value)
    assert not is_pool_timeout(ValueError("not the pool"))
