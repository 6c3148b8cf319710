"""Card faces arrive at once (issue 33, point 8: "card faces load blank for 1-2 s"): the
browser keeps a face for a day and then asks again with its ETag, answered 304 Not Modified
while the face is unchanged; every <img> of a face says its size, so the page keeps its
room before the face arrives."""

import re

import pytest
from django.urls import reverse

from collection.cards import selectors
from collection.cards.faces import FACE_SIZES
from collection.cards.models import Card
from collection.cards.views import FACE_MAX_AGE
from collection.decks.services.avatar_creation import avatar_create
from game import fragments
from tests.decks.test_avatar_creation import CHOICES
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def face_url(card: Card, size: str = "small") -> str:
    return reverse("cards:card_face", args=[card.card_set.number, card.number]) + f"?size={size}"


def test_a_face_is_cached_for_a_day_and_then_revalidated_by_its_etag(client, catalog):
    card = Card.objects.printed().first()

    first = client.get(face_url(card))
    again = client.get(face_url(card), headers={"If-None-Match": first["ETag"]})

    assert first.status_code == 200 and first.content.startswith(b"<svg")
    assert first["Cache-Control"] == f"public, max-age={FACE_MAX_AGE}"
    assert FACE_MAX_AGE >= 24 * 60 * 60
    assert re.fullmatch(r'"[0-9a-f]{32}"', first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]
    assert again["Cache-Control"] == first["Cache-Control"]


def test_a_face_changed_or_of_another_size_has_another_etag(client, catalog):
    card = Card.objects.printed().first()
    small = client.get(face_url(card))

    large = client.get(face_url(card, "large"))
    card.title = f"{card.title} Reprinted"
    card.save(update_fields=["title"])
    changed = client.get(face_url(card), headers={"If-None-Match": small["ETag"]})

    assert large["ETag"] != small["ETag"]
    assert changed.status_code == 200
    assert changed["ETag"] != small["ETag"]


def test_a_players_own_avatar_face_is_cached_by_their_browser_only(client, catalog):
    maker = UserFactory()
    avatar = avatar_create(owner=maker, choices=CHOICES, name="Kell Dorran")
    client.force_login(maker)

    face = client.get(face_url(avatar))

    assert face["Cache-Control"] == f"private, max-age={FACE_MAX_AGE}"


@pytest.mark.parametrize("size", ["small", "medium", "large"])
def test_the_binder_and_the_card_browser_give_each_face_its_size(client, catalog, size):
    player = UserFactory()
    player.preferences.card_size_collection = size
    player.preferences.save()
    client.force_login(player)
    face = FACE_SIZES[size]

    for page in (reverse("collection:binder"), reverse("cards:card_list")):
        html = client.get(page).content.decode()
        faces = re.findall(r"<img [^>]*\?size=[a-z]+[^>]*>", html)
        assert faces, page
        for tag in faces:
            assert f'width="{face.width}" height="{face.height}"' in tag, (page, tag)


def test_the_playmat_cards_give_their_face_its_size(catalog):
    card = {"id": 7, "title": "Think Fast", "type": "tactic", "face": [1, 267]}

    html = fragments.mat_card(card, interactive=False)

    small = FACE_SIZES["small"]
    assert re.search(rf'<img [^>]*width="{small.width}" height="{small.height}"', html)


def test_a_face_is_drawn_once_per_version_of_its_card(client, catalog, monkeypatch):
    """The card page and the face's address draw a face once and then serve it from the
    cache (it is the same for every player); an edited card is drawn anew at once."""
    card = Card.objects.printed().select_related("card_set").first()
    drawn = []
    draw = selectors.card_face_svg
    monkeypatch.setattr(
        selectors, "card_face_svg", lambda card, size: drawn.append(size) or draw(card, size=size)
    )

    first = client.get(face_url(card, "medium")).content
    again = client.get(face_url(card, "medium")).content
    client.get(card.get_absolute_url())
    client.get(card.get_absolute_url())
    card.title = "Renamed In A Set File"
    card.save()
    renamed = client.get(face_url(card, "medium")).content

    assert first == again
    assert b"Renamed In A Set File" in renamed and b"Renamed In A Set File" not in first
    assert drawn == ["medium", "large", "medium"]
