"""The Deck Builder's Test Draw (game/views.py): a hand kept in the URL, shuffled by seed."""

import re
from urllib.parse import parse_qs

import pytest
from django.urls import reverse

from tests.decks.test_decks import entries, give, ids, starter
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TEST_DRAW = reverse("game:test_draw")


@pytest.fixture
def deck(catalog):
    return starter("jedi")


@pytest.fixture
def player_client(client, deck):
    player = UserFactory()
    give(player, deck)
    client.force_login(player)
    return client


def draw(client, deck, **state):
    response = client.get(TEST_DRAW, {"entry": entries(ids(deck)), **state})
    assert response.status_code == 200
    return response


def hand_titles(response) -> list[str]:
    return [held["card"].title for held in response.context["hand"]]


def test_an_opening_hand_of_six_from_the_deck_part_only(player_client, deck):
    response = draw(player_client, deck)
    hand = response.context["hand"]
    assert len(hand) == 6
    assert all(held["card"].card_type not in ("avatar", "quest") for held in hand)
    assert response.context["deck_size"] == 53
    assert response.context["library_left"] == 47


def test_the_same_seed_gives_the_same_hand(player_client, deck):
    assert hand_titles(draw(player_client, deck, seed="42")) == hand_titles(
        draw(player_client, deck, seed="42")
    )


def test_click_a_card_to_discard_it_then_draw_one(player_client, deck):
    opening = draw(player_client, deck, seed="7")
    discarded = opening.context["hand"][2]
    after_discard = draw(player_client, deck, **parse_qs(discarded["discard"]))
    assert len(after_discard.context["hand"]) == 5
    assert [card.title for card in after_discard.context["discard_pile"]] == [
        discarded["card"].title
    ]

    after_draw = draw(player_client, deck, **parse_qs(after_discard.context["draw_query"]))
    titles = hand_titles(after_draw)
    assert len(titles) == 6 and titles[:5] == hand_titles(after_discard)
    assert after_draw.context["library_left"] == 46


def test_shuffle_and_redraw_starts_over_with_a_new_seed(player_client, deck):
    page = draw(player_client, deck).content.decode()
    assert re.search(r'hx-get="/game/test-draw/"[^>]*>Shuffle &amp; Redraw', page)


def test_draw_stops_when_the_deck_runs_out(player_client, deck):
    last = draw(player_client, deck, seed="1", drawn="47")
    assert last.context["library_left"] == 0
    assert last.context["draw_query"] == ""


@pytest.mark.parametrize(
    "state",
    [
        {"seed": "abc"},
        {"seed": "1", "drawn": "-1"},
        {"seed": "1", "drawn": "999"},
        {"seed": "1", "discard": "6"},
        {"seed": "1", "discard": "x"},
        {"seed": "9" * 40},
    ],
)
def test_a_draw_that_cant_be_read_shuffles_anew_with_a_message(player_client, deck, state):
    response = draw(player_client, deck, **state)
    assert len(response.context["hand"]) == 6
    assert "could not be read" in response.content.decode()


def test_an_empty_deck_says_what_to_add(player_client):
    response = player_client.get(TEST_DRAW)
    assert response.status_code == 200
    assert "Add units, abilities, items or tactics" in response.content.decode()
