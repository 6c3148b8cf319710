"""The Collection Manager's binder (rulebook, COLLECTION MANAGER; FILTERS & SEARCH OPTIONS):
unopened products first, then cards in card-number order with Quantity, Want, and Trade or
Need, in Graphic View and Table View, filtered and sorted by the collection's numbers too."""

import operator

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.models import CardOwnership
from collection.services.store import product_grant
from collection.services.wants import MAX_WANT, WantError, tradeable_cards, want_set
from tcgsite.accounts.models import TipScreen
from tcgsite.accounts.services import preferences_for
from tests.factories import CardFactory, CardOwnershipFactory, CardSetFactory, UserFactory

pytestmark = pytest.mark.django_db

BINDER = reverse("collection:binder")
HTMX = {"HX-Request": "true"}


@pytest.fixture
def small_set(player, empty_catalog):
    """Eight cards numbered 1-8 with (Quantity, Want): owned, wanted, both and neither."""
    card_set = CardSetFactory(number=1)
    numbers = [(3, 1), (1, 3), (2, 2), (0, 2), (0, 0), (4, 0), (1, 1), (0, 0)]
    cards = []
    for position, (quantity, want) in enumerate(numbers, start=1):
        card = CardFactory(card_set=card_set, number=position, title=f"Card {position}")
        if quantity or want:
            CardOwnershipFactory(owner=player, card=card, quantity=quantity, want=want)
        card.quantity, card.want = quantity, want
        cards.append(card)
    return cards


def shown(response) -> list:
    return list(response.context["page"].object_list)


def table(client, params=None) -> list:
    response = client.get(BINDER, {**(params or {}), "view": "table"})
    assert response.status_code == 200
    assert response.context["filters"].errors == []
    return shown(response)


def change_want(client, card, want, **extra):
    return client.post(
        reverse("collection:want_change", args=[card.pk]), {"want": want, **extra}, headers=HTMX
    )


def test_unopened_products_come_first_grouped_by_product_with_a_count(
    client, player, booster, event_pass
):
    """ "New, unopened items appear on the first page(s) of your binder." """
    boosters = product_grant(owner=player, product=booster, quantity=3)
    product_grant(owner=player, product=event_pass, quantity=1)

    response = client.get(BINDER)

    groups = {group["product"]: group for group in response.context["unopened"]}
    assert groups[booster]["count"] == 3
    assert groups[booster]["ids"] == [item.pk for item in boosters]
    assert groups[event_pass]["count"] == 1
    page = response.content.decode()
    assert page.index("Unopened products") < page.index('id="results"')
    # Open All carries the three boosters, Open the oldest one; an event pass is a ticket.
    assert page.count('name="open"') == 3 + 1
    assert "3 unopened booster packs" in page


def test_an_empty_binder_points_to_the_store(client, player):
    page = client.get(BINDER).content.decode()
    assert "No unopened products." in page
    assert reverse("collection:store") in page


def test_cards_in_card_number_order_paged_by_the_players_card_size(client, player, catalog):
    preferences = preferences_for(user=player)

    first, second = client.get(BINDER), client.get(BINDER, {"page": 2})
    preferences.card_size_collection = "small"
    preferences.save()
    small = client.get(BINDER)

    numbers = [card.number for card in shown(first) + shown(second)]
    assert numbers == sorted(numbers) and len(numbers) == 32
    assert len(shown(small)) == 18
    assert len(table(client)) == 100


def test_unowned_cards_appear_by_default_so_a_player_can_want_them(client, player, small_set):
    cards = table(client)

    assert [card.number for card in cards] == list(range(1, 9))
    assert [(card.owned, card.want) for card in cards] == [
        (card.quantity, card.want) for card in small_set
    ]


def test_show_only_cards_i_own_preference_hides_the_others(client, player, small_set):
    preferences = preferences_for(user=player)
    preferences.show_only_owned_cards = True
    preferences.save()

    response = client.get(BINDER, {"view": "table"})

    assert [card.number for card in shown(response)] == [1, 2, 3, 6, 7]
    assert "only cards you own" in response.content.decode()


def test_graphic_view_shows_quantity_want_and_trade_or_need_under_each_card(
    client, player, small_set
):
    """Trade when Quantity is above Want, Need when it is below."""
    page = client.get(BINDER).content.decode()

    def numbers_of(card):
        start = page.index(f'id="numbers-{card.pk}"')
        return page[start : page.index("</div>", start)]

    surplus, missing = numbers_of(small_set[0]), numbers_of(small_set[1])
    assert 'class="numbers__qty">3<' in surplus and "Trade</small><strong>2<" in surplus
    assert 'class="numbers__qty">1<' in missing and "Need</small><strong>2<" in missing
    assert "?size=medium" in page


def test_want_plus_button_saves_at_once_and_returns_just_that_cards_numbers(
    client, player, small_set
):
    """Given a card the player lacks, when they press + on Want, then an ownership row with
    Quantity 0 holds the Want, and the fragment shows Need 1."""
    lacking = small_set[4]

    response = change_want(client, lacking, 1, view="graphic")

    ownership = CardOwnership.objects.get(owner=player, card=lacking)
    assert (ownership.quantity, ownership.want) == (0, 1)
    fragment = response.content.decode()
    assert fragment.lstrip().startswith(f'<div class="numbers" id="numbers-{lacking.pk}"')
    assert "Need</small><strong>1<" in fragment
    assert 'name="want" value="0"' in fragment and 'name="want" value="2"' in fragment
    assert "<html" not in fragment


def test_want_minus_button_turns_need_into_trade(client, player, small_set):
    owned_twice = small_set[2]  # Quantity 2, Want 2

    response = change_want(client, owned_twice, 1)

    assert CardOwnership.objects.get(owner=player, card=owned_twice).want == 1
    assert "Trade</small><strong>1<" in response.content.decode()


def test_want_change_in_table_view_returns_the_cards_row(client, player, small_set):
    response = change_want(client, small_set[0], 5, view="table")

    fragment = response.content.decode().lstrip()
    assert fragment.startswith(f'<tr id="row-{small_set[0].pk}"')
    assert '<td class="num collection-col need">2</td>' in fragment


@pytest.mark.parametrize(
    ("want", "message"),
    [
        (-1, f"Want must be between 0 and {MAX_WANT}; -1 is out of range."),
        (MAX_WANT + 1, f"Want must be between 0 and {MAX_WANT}; 100 is out of range."),
        ("lots", f"Want must be a whole number from 0 to {MAX_WANT}."),
        ("", f"Want must be a whole number from 0 to {MAX_WANT}."),
    ],
)
def test_want_out_of_range_or_not_a_number_shows_a_message_and_keeps_the_want(
    client, player, small_set, want, message
):
    card = small_set[1]  # Want 3

    response = change_want(client, card, want)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert CardOwnership.objects.get(owner=player, card=card).want == 3


def test_want_without_htmx_redirects_back_to_the_binder_page_with_a_message(
    client, player, small_set
):
    url = reverse("collection:want_change", args=[small_set[1].pk])
    back = f"{BINDER}?view=table&num=need%3E0"

    saved = client.post(url, {"want": 4, "next": back})
    refused = client.post(url, {"want": 400, "next": back}, follow=True)
    elsewhere = client.post(url, {"want": 4, "next": "https://evil.example/"})

    assert saved.status_code == 302 and saved.url == back
    assert "400 is out of range" in refused.content.decode()
    assert elsewhere.url == BINDER


def test_want_on_an_unknown_card_or_another_players_avatar_is_refused(client, player, small_set):
    avatar = CardFactory(card_set=CardSetFactory(number=0), creator=UserFactory())

    nowhere = reverse("collection:want_change", args=[999999])
    unknown = client.post(nowhere, {"want": 1}, headers=HTMX)
    theirs = change_want(client, avatar, 1)
    plain = client.post(nowhere, {"want": 1}, follow=True)

    assert "There is no such card." in unknown.content.decode()
    assert "There is no such card." in theirs.content.decode()
    assert "There is no such card." in plain.content.decode()
    assert not CardOwnership.objects.filter(card=avatar).exists()


def test_want_set_service_checks_its_input(player, small_set):
    card = small_set[4]
    for bad in (True, "3", 2.5, -1, MAX_WANT + 1):
        with pytest.raises(WantError):
            want_set(owner=player, card=card, want=bad)
    avatar = CardFactory(card_set=CardSetFactory(number=0), creator=UserFactory())
    with pytest.raises(WantError, match="another player's avatar"):
        want_set(owner=player, card=avatar, want=1)
    assert want_set(owner=player, card=card, want=MAX_WANT).want == MAX_WANT


def test_tradeable_cards_are_only_those_with_trade_of_one_or_more(player, small_set):
    """ "Other players will see only the cards ... with a Trade value of 1 or more." """
    rows = list(tradeable_cards(owner=player))

    assert [row.card.number for row in rows] == [1, 6]
    assert [row.trade for row in rows] == [2, 4]
    assert list(tradeable_cards(owner=UserFactory())) == []


COMPARE = {">": operator.gt, ">=": operator.ge, "=": operator.eq}
COMPARE.update({"<=": operator.le, "<": operator.lt, "!=": operator.ne})


@pytest.mark.parametrize("attribute", ["owned", "want", "trade", "need"])
@pytest.mark.parametrize("op", list(COMPARE))
def test_collection_numbers_filter_with_every_operator(client, player, small_set, attribute, op):
    def value_of(card):
        return {
            "owned": card.quantity,
            "want": card.want,
            "trade": max(card.quantity - card.want, 0),
            "need": max(card.want - card.quantity, 0),
        }[attribute]

    cards = table(client, {"num": f"{attribute}{op}1"})

    expected = [card.number for card in small_set if COMPARE[op](value_of(card), 1)]
    assert [card.number for card in cards] == expected


def test_collection_numeric_filter_added_from_the_form_controls(client, player, small_set):
    response = client.get(BINDER, {"num_attr": "need", "num_op": ">", "num_value": "0"})

    assert [str(numeric) for numeric in response.context["filters"].numeric] == ["need>0"]
    assert [card.number for card in shown(response)] == [2, 4]


def test_card_filters_and_search_work_in_the_binder(client, player, small_set):
    assert [card.number for card in table(client, {"q": "Card 7"})] == [7]
    assert len(table(client, {"type": "quest"})) == 0


@pytest.mark.parametrize("key", ["owned", "want", "trade", "need"])
def test_table_view_sorts_by_collection_numbers(client, player, small_set, key):
    ascending = [getattr(card, key) for card in table(client, {"sort": key})]
    descending = [getattr(card, key) for card in table(client, {"sort": f"-{key}"})]

    assert ascending == sorted(ascending)
    assert descending == sorted(ascending, reverse=True)
    header = client.get(BINDER, {"view": "table", "sort": key}).content.decode()
    assert f"sort=-{key}" in header  # the sorted column's link reverses it


def test_htmx_results_request_returns_results_and_pushes_canonical_url(client, player, small_set):
    response = client.get(
        BINDER,
        {"num_attr": "owned", "num_op": ">=", "num_value": "1"},
        headers={**HTMX, "HX-Target": "results"},
    )

    assert response["HX-Push-Url"] == f"{BINDER}?num=owned%3E%3D1"
    assert "Unopened products" not in response.content.decode()
    assert f'name="next" value="{BINDER}?num=owned%3E%3D1"' in response.content.decode()

    CardFactory.create_batch(20, card_set=small_set[0].card_set)
    second_page = client.get(BINDER, {"page": 2}, headers={**HTMX, "HX-Target": "results"})
    assert second_page["HX-Push-Url"] == f"{BINDER}?page=2"


def test_binder_shows_registration_and_collection_tips(client, player):
    page = client.get(BINDER).content.decode()
    assert "Not registered" in page and "Player Tips" in page

    preferences = preferences_for(user=player)
    preferences.hidden_tips = [TipScreen.COLLECTION]
    preferences.save()
    assert "Player Tips" not in client.get(BINDER).content.decode()


def test_binder_needs_a_logged_in_player(client):
    assert client.get(BINDER).status_code == 302


@pytest.mark.parametrize("view", ["graphic", "table"])
def test_binder_query_count_does_not_grow_with_the_collection(client, player, view, empty_catalog):
    card_set = CardSetFactory(number=1)

    def own(count):
        for card in CardFactory.create_batch(count, card_set=card_set):
            CardOwnershipFactory(owner=player, card=card, quantity=2, want=1)

    def queries_for_one_page() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(BINDER, {"view": view}).status_code == 200
        return len(captured)

    queries_for_one_page()  # the first visit opens the player's preferences
    own(5)  # (each batch of new cards also clears the cached trait list, once)
    few = queries_for_one_page()
    own(150)
    assert queries_for_one_page() == few


def test_the_rows_addresses_built_from_prefixes_are_the_routes_own(client):
    """The binder's rows build each card's addresses from a prefix instead of reversing them
    once per card (collection/templatetags/binder.py): they are the addresses ``reverse``
    gives."""
    player = UserFactory()
    card = CardOwnershipFactory(owner=player, quantity=1).card
    client.force_login(player)

    for view in ("table", "graphic"):
        page = client.get(BINDER, {"view": view, "q": card.title}).content.decode()
        number = [card.card_set.number, card.number]
        assert f'href="{reverse("cards:card_detail", args=number)}"' in page
        assert f'action="{reverse("collection:want_change", args=[card.pk])}"' in page
    face = reverse("cards:card_face", args=[card.card_set.number, card.number])
    assert f'src="{face}?size=' in client.get(BINDER, {"q": card.title}).content.decode()
