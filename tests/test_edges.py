"""Edges only read on GET (docs/design.md, "How code is written": no write on a GET)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.cards.models import Card
from collection.models import Wallet
from tcgsite.navigation import SECTIONS

WRITES = ("INSERT", "UPDATE", "DELETE")


def navigator_urls() -> list[str]:
    return [entry.url for section in SECTIONS for entry in section.entries]


@pytest.mark.django_db
def test_every_page_of_the_navigator_reads_without_writing(client, catalog, player):
    """Given a player whose wallet is not open yet, when they open every page of the
    Navigator, a card page, the Deckbuilding Wizard and Create Avatar, then no request
    writes to the database (the Store shows the balance the wallet will open with)."""
    Wallet.objects.filter(owner=player).delete()
    card = Card.objects.printed().first()
    urls = [
        *navigator_urls(),
        card.get_absolute_url(),
        reverse("decks:deck_wizard"),
        reverse("decks:avatar_create"),
    ]
    client.get(reverse("lobby"))  # the session is saved once, at the first request
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
        assert writes == [], url
    assert not Wallet.objects.filter(owner=player).exists()
