"""Numbers and text from requests (tcgsite/inputs.py, tcgsite/middleware.py)."""

import pytest
from django.urls import reverse

from collection.cards.models import Card
from tcgsite.accounts.models import User
from tcgsite.inputs import (
    MAX_JSON_DEPTH,
    client_address,
    json_value,
    range_message,
    whole_number_or_none,
    whole_numbers,
)
from tests.factories import CardOwnershipFactory, DeckFactory, UserFactory


@pytest.mark.parametrize(
    "text, number",
    [("0", 0), ("42", 42), (" 7 ", 7), ("-3", -3), ("007", 7), (10, 10)],
)
def test_ascii_whole_numbers_in_range_are_read(text, number):
    assert whole_number_or_none(text, minimum=-5, maximum=100) == number


@pytest.mark.parametrize(
    "text",
    [
        "\u00b2",  # superscript two: isdigit() but not int()
        "\u2460",  # circled one: the same
        "\u0661",  # Arabic-Indic one: int() reads it
        "\uff11",  # fullwidth one: int() reads it too
        "1_000",  # int() reads it
        "+5",
        "1.0",
        "1e3",
        "abc",
        "",
        None,
        "-6",
        "101",
        "9" * 5000,
        "\x00",
    ],
)
def test_anything_else_is_none(text):
    assert whole_number_or_none(text, minimum=-5, maximum=100) is None


@pytest.mark.parametrize(
    ("proxies", "forwarded", "address"),
    [
        (0, "10.0.0.1, 198.51.100.9", "127.0.0.1"),
        (1, "10.0.0.1, 198.51.100.9", "198.51.100.9"),
        (1, "198.51.100.9", "198.51.100.9"),
        (2, "10.0.0.1, 198.51.100.9, 192.0.2.1", "198.51.100.9"),
        (2, "198.51.100.9", "127.0.0.1"),  # came by fewer proxies than the deployment has
        (1, None, "127.0.0.1"),
        (1, "10.0.0.1, ", "127.0.0.1"),
    ],
)
def test_the_clients_address_is_the_one_the_sites_first_proxy_appended(
    rf, settings, proxies, forwarded, address
):
    settings.TRUSTED_PROXIES = proxies
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", **headers)

    assert client_address(request) == address


def test_json_as_the_pages_send_it_is_read():
    text = '{"type": "act", "ply": "3", "action": "{}", "HEADERS": {"HX-Request": "true"}}'
    assert json_value(text)["HEADERS"] == {"HX-Request": "true"}
    assert json_value("[" * MAX_JSON_DEPTH + "1.5" + "]" * MAX_JSON_DEPTH)


@pytest.mark.parametrize(
    "text",
    [
        "NaN",
        "[Infinity]",
        '{"ply": -Infinity}',
        "1e400",
        "9" * 5000,  # more digits than Python reads into an int
        "[" * 1_000 + "]" * 1_000,  # Python's json gives up with a RecursionError
        "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1),
        "",
        None,
        b"{}",
    ],
)
def test_json_no_page_sends_is_a_value_error(text):
    with pytest.raises(ValueError):
        json_value(text)


def test_one_clear_message_says_what_a_number_must_be():
    assert (
        range_message("Quantity", minimum=1, maximum=10_000)
        == "Quantity must be a whole number from 1 to 10,000."
    )


def test_a_list_is_read_whole_or_not_at_all():
    assert whole_numbers(["1", "2"], minimum=1, maximum=9) == [1, 2]
    assert whole_numbers(["1", "\u00b2"], minimum=1, maximum=9) is None


# NUL characters: PostgreSQL refuses them in text, so they never reach a view.


@pytest.mark.django_db
def test_a_search_with_a_nul_character_searches_without_it(client, catalog):
    """The issue's example: /cards/?q=%00 without logging in."""
    title = Card.objects.printed().order_by("pk").first().title

    response = client.get(reverse("cards:card_list"), {"q": f"{title}\x00", "trait": "\x00"})

    assert response.status_code == 200
    assert response.context["filters"].text == title
    assert title in response.content.decode()


@pytest.mark.django_db
def test_a_deck_name_with_a_nul_character_is_saved_without_it(client, catalog):
    player = UserFactory()
    card = Card.objects.printed().first()
    CardOwnershipFactory(owner=player, card=card, quantity=1)
    deck = DeckFactory(owner=player, name="Rogue One", cards={card: 1})
    client.force_login(player)

    client.post(
        reverse("decks:deck_save"),
        {"deck": deck.pk, "name": "Rogue\x00 Two", "entry": f"{card.pk}x1"},
    )

    deck.refresh_from_db()
    assert deck.name == "Rogue Two"


@pytest.mark.django_db
def test_a_player_search_and_address_with_a_nul_character(client):
    player = UserFactory(username="Wedge")
    client.force_login(player)

    search = client.get(reverse("accounts:player_list"), {"q": "We\x00dge"})
    address = client.get("/players/We%00dge/")

    assert search.status_code == 200 and "Wedge" in search.content.decode()
    assert address.status_code == 400
    assert "NUL character" in address.content.decode()


@pytest.mark.django_db
def test_ids_no_column_can_hold_find_nothing_in_a_list_of_ids():
    """SQLite raised OverflowError on ``id__in`` with such a number (staff granting to
    tampered player ids, for one)."""
    player = UserFactory()

    found = User.objects.filter(pk__in=[player.pk, 2**70, -(2**70)])

    assert list(found) == [player]
    assert not User.objects.filter(pk__in=[2**70]).exists()
