"""The Deck Builder's Test Draw (game/views.py): a hand kept in the page, shuffled by seed."""

import re
import time

import pytest
from django.urls import reverse

from collection.cards.models import Card
from game.engine.deckrules import MAX_COPIES
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


def state(response, **click) -> dict[str, list]:
    """What the page sends for a click: its hidden draw fields plus the clicked button's."""
    sent: dict[str, list] = {}
    for name, value in [*response.context["draw_fields"], *click.items()]:
        sent.setdefault(name, []).append(str(value))
    return sent


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
    after_discard = draw(player_client, deck, **state(opening, discard=discarded["position"]))
    assert len(after_discard.context["hand"]) == 5
    assert [card.title for card in after_discard.context["discard_pile"]] == [
        discarded["card"].title
    ]

    after_draw = draw(player_client, deck, **state(after_discard, draw=1))
    titles = hand_titles(after_draw)
    assert len(titles) == 6 and titles[:5] == hand_titles(after_discard)
    assert after_draw.context["library_left"] == 46


def test_shuffle_and_redraw_starts_over_with_a_new_seed(player_client, deck):
    page = draw(player_client, deck).content.decode()
    assert re.search(r'hx-get="/game/test-draw/"[^>]*>Shuffle &amp; Redraw', page)


def test_draw_stops_when_the_deck_runs_out(player_client, deck):
    last = draw(player_client, deck, seed="1", drawn="47")
    assert last.context["library_left"] == 0
    assert not last.context["can_draw"]
    assert draw(player_client, deck, **state(last, draw=1)).context["library_left"] == 0


@pytest.mark.parametrize(
    "state",
    [
        {"seed": "abc"},
        {"seed": "1", "drawn": "-1"},
        {"seed": "1", "drawn": "999"},
        {"seed": "1", "discard": "6"},
        {"seed": "1", "discard": "x"},
        {"seed": "9" * 40},
        {"seed": "\u00b2"},
        {"seed": "1", "drawn": "\u2460"},
        {"seed": "1", "discard": "\u0661"},
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


def test_an_absurd_draw_is_bounded_by_the_deck_building_rules_and_answered_small(
    player_client, catalog
):
    """Rulebook, Deck Building: no more than four copies of a single card title. Every card
    at 999 copies and 9,999 draws cost seconds and megabytes; Test Draw shuffles at most
    four copies of each card and never draws more than the deck holds."""
    cards = list(Card.objects.printed().exclude(card_type__in=("avatar", "quest")))
    absurd = {"entry": [f"{card.pk}x999" for card in cards], "seed": "1", "drawn": "9999"}

    started = time.perf_counter()
    response = player_client.get(TEST_DRAW, absurd)
    elapsed = time.perf_counter() - started

    assert response.status_code == 200
    assert response.context["deck_size"] == MAX_COPIES * len(cards)
    assert len(response.context["hand"]) == 6
    page = response.content.decode()
    assert f"at most {MAX_COPIES} copies of a card" in page
    assert "could not be read" in page
    assert len(response.content) < 50_000
    assert elapsed < 2


def test_drawing_the_whole_deck_and_discarding_half_sends_the_draw_once(player_client, deck):
    """Each answer holds the discarded positions once, not again for every card in hand."""
    size = sum(deck.values()) - 5  # the avatar and the four quests are not in the draw deck
    discarded = [str(position) for position in range(0, size, 2)]
    response = draw(player_client, deck, seed="3", drawn=str(size - 6), discard=discarded)

    assert len(response.context["hand"]) == size - len(discarded)
    assert response.content.decode().count("discard") < 2 * size
