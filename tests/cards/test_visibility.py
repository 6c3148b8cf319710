"""Which cards a player may see and use: printed ones and the avatars they made. A player-made
avatar (set 0) carries its creator's name, so it is shown to its creator and to staff only
(in a match, everyone who sees the match sees it through the match's own address:
tests/game/test_match_pages.py); anyone else gets the
same 404 as for a number that does not exist, so avatars can't be counted by number."""

import re

import pytest
from django.urls import reverse

from collection.cards.models import PLAYER_AVATAR_SET_NUMBER, Card
from collection.decks.services.avatar_creation import avatar_create
from tests.decks.test_avatar_creation import CHOICES
from tests.factories import CardFactory, UserFactory

pytestmark = pytest.mark.django_db

CSRF_TOKEN = re.compile(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"')


def page_text(response) -> str:
    """The page without its per-request CSRF token, to compare two answers."""
    return CSRF_TOKEN.sub("", response.content.decode())


def test_a_player_uses_printed_cards_and_their_own_avatars_but_no_one_elses():
    maker, other = UserFactory(), UserFactory()
    printed = CardFactory()
    own = CardFactory(card_set=printed.card_set, creator=maker, card_type="avatar")
    foreign = CardFactory(card_set=printed.card_set, creator=other, card_type="avatar")

    usable = set(Card.objects.collectable_by(maker))

    assert printed in usable and own in usable and foreign not in usable
    assert set(Card.objects.printed()) >= {printed}
    assert own not in set(Card.objects.printed())


def test_who_may_see_a_player_made_avatar():
    maker, other = UserFactory(), UserFactory()
    staff = UserFactory(is_staff=True)
    printed = CardFactory()
    made = CardFactory(card_set=printed.card_set, creator=maker, card_type="avatar")

    assert made in Card.objects.visible_to(maker)
    assert made in Card.objects.visible_to(staff)
    assert made not in Card.objects.visible_to(other)
    assert made not in Card.objects.visible_to(None)
    assert printed in Card.objects.visible_to(None) and printed in Card.objects.visible_to(other)


@pytest.fixture
def made(catalog):
    """An avatar made with Create Avatar, as a player makes it."""
    maker = UserFactory(username="Maker")
    return avatar_create(owner=maker, choices=CHOICES, name="Kell Dorran")


def pages_of(card) -> list[str]:
    number = card.card_set.number, card.number
    return [
        reverse("cards:card_detail", args=number),
        reverse("cards:card_face", args=number),
        reverse("cards:card_face", args=number) + "?size=large",
    ]


def missing_pages(card) -> list[str]:
    """The same pages for the next, unused number of set 0."""
    number = PLAYER_AVATAR_SET_NUMBER, card.number + 1
    return [
        reverse("cards:card_detail", args=number),
        reverse("cards:card_face", args=number),
        reverse("cards:card_face", args=number) + "?size=large",
    ]


def test_a_visitor_who_is_not_logged_in_gets_the_404_of_a_missing_number(client, made):
    for url, missing in zip(pages_of(made), missing_pages(made), strict=True):
        refused, absent = client.get(url), client.get(missing)
        assert refused.status_code == absent.status_code == 404, url
        assert page_text(refused) == page_text(absent)
        assert b"Maker" not in refused.content and b"Kell Dorran" not in refused.content


def test_another_player_gets_the_404_of_a_missing_number(client, made):
    client.force_login(UserFactory())
    for url, missing in zip(pages_of(made), missing_pages(made), strict=True):
        refused, absent = client.get(url), client.get(missing)
        assert refused.status_code == absent.status_code == 404, url
        assert page_text(refused) == page_text(absent)


@pytest.mark.parametrize("who", ["creator", "staff"])
def test_the_creator_and_staff_see_the_avatar_and_its_face(client, made, who):
    client.force_login(made.creator if who == "creator" else UserFactory(is_staff=True))
    detail, face, _large = pages_of(made)

    page = client.get(detail)
    image = client.get(face)

    assert page.status_code == 200 and "Kell Dorran" in page.content.decode()
    assert image.status_code == 200 and image["Content-Type"] == "image/svg+xml"
    assert image["Cache-Control"].startswith("private")


def test_the_card_browser_and_its_search_never_list_player_made_avatars(client, made):
    client.force_login(made.creator)
    for params in ({}, {"q": "Kell"}, {"view": "table", "type": "avatar"}, {"set": "0"}):
        response = client.get(reverse("cards:card_list"), params)
        assert response.status_code == 200
        assert made not in list(response.context["page"].object_list), params
        assert "Kell Dorran" not in response.content.decode()


def test_another_players_avatar_does_not_reach_the_builders_fragments_or_exports(client, made):
    client.force_login(UserFactory())
    entry = [f"{made.pk}x1"]
    absent = [f"{made.pk + 1000}x1"]
    for name in ("decks:deck_container", "decks:deck_export", "decks:deck_validate"):
        refused = client.get(reverse(name), {"entry": entry}).content.decode()
        missing = client.get(reverse(name), {"entry": absent}).content.decode()
        assert "Kell Dorran" not in refused, name
        assert refused.replace(str(made.pk), "N") == missing.replace(str(made.pk + 1000), "N")
    exported = client.get(reverse("decks:deck_export"), {"entry": entry, "download": "1"})
    assert b"Kell Dorran" not in exported.content
