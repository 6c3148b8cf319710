"""A card's page for a logged-in player: the copies they own, their Want, and Add to a deck
(rulebook, COLLECTION MANAGER: Quantity and Want; DECK BUILDING: the rules a deck keeps)."""

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.cards.models import Card
from collection.decks.models import DeckCard
from collection.models import CardOwnership, Product
from tests.factories import DeckFactory, LimitedPoolFactory, UserFactory

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def own(player, card, copies) -> None:
    CardOwnership.objects.update_or_create(owner=player, card=card, defaults={"quantity": copies})


def starter_cards(archetype: str) -> dict[Card, int]:
    product = Product.objects.get(kind="starter_deck", archetype=archetype)
    return {line.card: line.quantity for line in product.starter_cards.select_related("card")}


@pytest.fixture
def jedi_deck(player):
    """A valid Jedi starter deck the player owns exactly, saved."""
    cards = starter_cards("jedi")
    for card, copies in cards.items():
        own(player, card, copies)
    return DeckFactory(owner=player, name="Temple Guard", cards=cards)


def add(client, card, deck):
    return client.post(
        reverse("decks:deck_card_add", args=[card.pk]), {"deck": deck.pk}, follow=True
    )


def unit_of(cards: dict[Card, int], copies: int) -> Card:
    return next(c for c, n in cards.items() if c.card_type == "unit" and n == copies)


def test_the_card_page_shows_the_copies_owned_and_the_want(client, player, catalog):
    card = Card.objects.filter(card_type="unit").first()
    own(player, card, 2)

    page = client.get(card.get_absolute_url()).content.decode()

    assert "You own <strong>2</strong> copies." in page
    assert f'aria-label="Want one more {card.title}"' in page
    assert f'name="next" value="{card.get_absolute_url()}"' in page


def test_want_from_the_card_page_uses_the_wants_service_and_returns_there(client, player, catalog):
    card = Card.objects.filter(card_type="unit").first()

    response = client.post(
        reverse("collection:want_change", args=[card.pk]),
        {"want": 3, "next": card.get_absolute_url()},
    )

    assert response.url == card.get_absolute_url()
    assert CardOwnership.objects.get(owner=player, card=card).want == 3


def test_a_visitor_sees_no_collection_or_deck_panel(client, catalog):
    card = Card.objects.filter(card_type="unit").first()

    page = client.get(card.get_absolute_url()).content.decode()

    assert "In your collection" not in page
    assert "Add to a deck" not in page


def test_add_to_deck_adds_one_copy_to_the_chosen_deck(client, player, jedi_deck, catalog):
    cards = starter_cards("jedi")
    card = unit_of(cards, 2)
    own(player, card, 3)

    response = add(client, card, jedi_deck)

    assert DeckCard.objects.get(deck=jedi_deck, card=card).quantity == 3
    assert messages_of(response)[0].startswith(
        f"Added 1 copy of {card.title} to \u201cTemple Guard\u201d: 3 in it now."
    )
    assert response.redirect_chain[-1][0] == card.get_absolute_url()


def test_add_to_deck_never_goes_beyond_the_copies_owned(client, player, jedi_deck, catalog):
    card = unit_of(starter_cards("jedi"), 2)

    response = add(client, card, jedi_deck)

    assert messages_of(response) == [
        f"Not added to \u201cTemple Guard\u201d: All 2 copies of {card.title} you own are in "
        "the deck."
    ]
    assert DeckCard.objects.get(deck=jedi_deck, card=card).quantity == 2


def test_add_to_deck_keeps_at_most_four_copies_of_a_title(client, player, catalog):
    cards = starter_cards("jedi")
    card = next(c for c in cards if c.card_type == "unit")
    own(player, card, 6)
    deck = DeckFactory(owner=player, name="Four", cards={card: 4})

    response = add(client, card, deck)

    assert messages_of(response) == [
        f"{card.title} was not added to \u201cFour\u201d: 5 copies of {card.title!r}. Keep at "
        "most 4 of a title."
    ]
    assert DeckCard.objects.get(deck=deck, card=card).quantity == 4


def test_add_to_deck_refuses_a_second_avatar_and_a_card_of_another_archetype(
    client, player, jedi_deck, catalog
):
    sith = starter_cards("sith")
    sith_avatar = next(c for c in sith if c.card_type == "avatar")
    sith_unit = next(c for c in sith if c.card_type == "unit" and c.archetype == "sith")
    own(player, sith_avatar, 1)
    own(player, sith_unit, 1)

    avatar_refusal = messages_of(add(client, sith_avatar, jedi_deck))
    unit_refusal = messages_of(add(client, sith_unit, jedi_deck))

    assert "keep exactly one" in avatar_refusal[0]
    assert unit_refusal[0].startswith(
        f"{sith_unit.title} was not added to \u201cTemple Guard\u201d"
    )
    assert "not jedi like the avatar" in unit_refusal[0]
    assert not DeckCard.objects.filter(card__in=[sith_avatar, sith_unit]).exists()


def test_a_deck_without_avatar_yet_takes_cards_of_any_archetype(client, player, catalog):
    card = next(c for c in starter_cards("sith") if c.archetype == "sith" and c.card_type == "unit")
    own(player, card, 1)
    deck = DeckFactory(owner=player, name="Draft")

    add(client, card, deck)

    assert DeckCard.objects.get(deck=deck, card=card).quantity == 1


@pytest.mark.parametrize(
    ("deck_id", "message"),
    [
        ("abc", "That deck is not one of your decks."),
        ("", "That deck is not one of your decks."),
        ("99999999999999999999999", "That deck is not one of your decks."),
        # Decks keep no row once deleted: a number no deck has is a deck deleted meanwhile.
        ("99999999", "That deck was deleted."),
    ],
)
def test_add_to_an_unknown_deck_gets_a_message(client, player, catalog, deck_id, message):
    card = Card.objects.filter(card_type="unit").first()
    own(player, card, 1)

    response = client.post(
        reverse("decks:deck_card_add", args=[card.pk]), {"deck": deck_id}, follow=True
    )

    assert response.status_code == 200
    assert messages_of(response) == [message]


def test_add_to_another_players_deck_or_a_limited_deck_is_refused(client, player, catalog):
    card = Card.objects.filter(card_type="unit").first()
    own(player, card, 2)
    theirs = DeckFactory(owner=UserFactory(), name="Theirs")
    pool = LimitedPoolFactory(owner=player, cards={card: 2})
    limited = DeckFactory(owner=player, name="Sealed")
    pool.deck = limited
    pool.save()

    assert messages_of(add(client, card, theirs)) == ["That deck is not one of your decks."]
    assert messages_of(add(client, card, limited)) == [
        "\u201cSealed\u201d is a Limited deck: change it in the Limited Deck Builder."
    ]
    assert not DeckCard.objects.filter(card=card).exists()


def test_the_deck_panel_offers_the_players_decks_last_saved_first(client, player, catalog):
    card = Card.objects.filter(card_type="unit").first()
    own(player, card, 1)
    older = DeckFactory(owner=player, name="Older")
    newer = DeckFactory(owner=player, name="Newer", cards={card: 1})

    page = client.get(card.get_absolute_url()).content.decode()

    assert page.index(f'<option value="{newer.pk}">Newer (1 in it)') < page.index(
        f'<option value="{older.pk}">Older'
    )
    assert f"?entry={card.pk}x1" in page


def test_the_deck_panel_says_when_the_player_owns_no_copy(client, player, catalog):
    card = Card.objects.filter(card_type="unit").first()
    DeckFactory(owner=player, name="Mine")

    page = client.get(card.get_absolute_url()).content.decode()

    assert f"You own no copy of {card.title}: a deck holds only cards you own." in page
    assert 'name="deck"' not in page


def test_add_to_deck_needs_post_and_a_logged_in_player(client, catalog):
    card = Card.objects.filter(card_type="unit").first()
    url = reverse("decks:deck_card_add", args=[card.pk])
    assert client.post(url).status_code == 302
    client.force_login(UserFactory())
    assert client.get(url).status_code == 405


def test_card_page_query_count_does_not_grow_with_the_players_decks(client, player, catalog):
    """Add to a deck lists every deck of the player, each with the copies of the card it
    holds: the page reads them in the same number of queries for one deck as for fifteen."""
    card = Card.objects.printed().filter(card_type="unit").first()
    own(player, card, 4)
    url = card.get_absolute_url()

    def queries_for_the_page() -> int:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        return len(captured)

    DeckFactory(owner=player, name="Deck 0", cards={card: 1})
    few = queries_for_the_page()
    for number in range(1, 15):
        DeckFactory(owner=player, name=f"Deck {number}", cards={card: 2})
    page = client.get(url).content.decode()

    assert queries_for_the_page() == few
    assert page.count("(2 in it)") == 14
