"""Decks: the Deck Builder's selectors and services (collection/decks/) and its views."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from collection.cards.models import Card, CardSet
from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, DeckCard, LimitedPool, PlayFormat
from collection.decks.services import decks
from collection.models import CardOwnership, Product
from game.engine import deckrules
from tests.factories import (
    CardFactory,
    CardOwnershipFactory,
    CardSetFactory,
    DeckFactory,
    LimitedPoolFactory,
    PlayFormatFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

BUILDER = reverse("decks:deck_builder")
CHANGE = reverse("decks:deck_change")
SAVE = reverse("decks:deck_save")


def give(owner, counts: dict) -> None:
    """The player owns these copies (a test's shortcut past opening products)."""
    for card, quantity in counts.items():
        CardOwnership.objects.update_or_create(
            owner=owner, card=card, defaults={"quantity": quantity}
        )


def starter(archetype: str) -> dict[Card, int]:
    product = Product.objects.get(kind="starter_deck", archetype=archetype)
    return {line.card: line.quantity for line in product.starter_cards.select_related("card")}


def ids(counts: dict[Card, int]) -> dict[int, int]:
    return {card.pk: copies for card, copies in counts.items()}


def entries(counts: dict[int, int]) -> list[str]:
    return [f"{card_id}x{copies}" for card_id, copies in counts.items()]


def rules_of(validation) -> dict[str, deckrules.RuleCheck]:
    return {check.rule: check for check in validation.checks}


@pytest.fixture
def jedi(catalog) -> dict[Card, int]:
    return starter("jedi")


@pytest.fixture
def player(jedi):
    user = UserFactory()
    give(user, jedi)
    return user


@pytest.fixture
def standard(catalog):
    return PlayFormat.objects.get(slug="standard")


@pytest.fixture
def limited(catalog):
    return PlayFormat.objects.get(slug="limited")


# Saving -----------------------------------------------------------------------------------


def test_a_starter_deck_saves_and_is_valid_for_standard(player, jedi, standard, limited):
    saved = decks.deck_save(owner=player, name="  Temple   Guard ", counts=ids(jedi))

    assert saved.created
    deck = Deck.objects.get(owner=player)
    assert deck.name == "Temple Guard"
    assert deck_selectors.deck_counts(deck=deck) == ids(jedi)
    assert (saved.valid_for, saved.invalid_for) == (["Standard"], [])
    assert deck_selectors.deck_validate(deck=deck, play_format=standard).valid
    pool_only = rules_of(deck_selectors.deck_validate(deck=deck, play_format=limited))
    assert not pool_only[deckrules.POOL_ONLY_RULE].ok


def test_saving_more_copies_than_owned_is_refused_with_the_titles(player, jedi):
    card = next(card for card, copies in jedi.items() if copies == 3)
    CardOwnership.objects.filter(owner=player, card=card).update(quantity=2)

    with pytest.raises(
        deck_selectors.DeckError, match=rf"3 copies of {re.escape(card.title)} but you own 2"
    ):
        decks.deck_save(owner=player, name="Greedy", counts=ids(jedi))
    assert not Deck.objects.exists()


def test_cards_not_owned_at_all_are_refused(player, catalog):
    sith_card = next(card for card in starter("sith") if card.archetype == "sith")
    with pytest.raises(deck_selectors.DeckError, match="you own 0"):
        decks.deck_save(owner=player, name="Borrowed", counts={sith_card.pk: 1})


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "Give the deck a name"), ("   ", "Give the deck a name"), ("x" * 61, "at most 60")],
)
def test_a_deck_needs_a_name(player, jedi, name, message):
    with pytest.raises(deck_selectors.DeckError, match=message):
        decks.deck_save(owner=player, name=name, counts=ids(jedi))


def test_an_empty_deck_is_not_saved(player):
    with pytest.raises(deck_selectors.DeckError, match="The deck is empty"):
        decks.deck_save(owner=player, name="Nothing", counts={})


def test_an_unknown_card_is_refused(player, jedi):
    with pytest.raises(deck_selectors.DeckError, match="no card #999999"):
        decks.deck_save(owner=player, name="Ghost", counts={**ids(jedi), 999999: 1})


def test_duplicate_names_are_refused_ignoring_case_but_renaming_works(player, jedi):
    first = decks.deck_save(owner=player, name="Temple Guard", counts=ids(jedi)).deck
    with pytest.raises(deck_selectors.DeckError, match="already have a deck called"):
        decks.deck_save(owner=player, name="temple guard", counts=ids(jedi))

    renamed = decks.deck_save(
        owner=player, name="Temple Sentinels", counts=ids(jedi), deck_id=first.pk
    )
    assert not renamed.created
    assert list(Deck.objects.values_list("name", flat=True)) == ["Temple Sentinels"]

    decks.deck_save(owner=player, name="Second", counts=ids(jedi))
    with pytest.raises(deck_selectors.DeckError, match="already have a deck called"):
        decks.deck_save(owner=player, name="Second", counts=ids(jedi), deck_id=first.pk)


def test_another_players_deck_is_not_overwritten(player, jedi):
    other = UserFactory()
    give(other, jedi)
    theirs = decks.deck_save(owner=other, name="Theirs", counts=ids(jedi)).deck

    with pytest.raises(deck_selectors.DeckError, match="not one of your decks"):
        decks.deck_save(owner=player, name="Mine", counts=ids(jedi), deck_id=theirs.pk)
    assert Deck.objects.get(pk=theirs.pk).name == "Theirs"


def test_saving_over_a_deck_replaces_its_cards(player, jedi):
    deck = decks.deck_save(owner=player, name="Work", counts=ids(jedi)).deck
    avatar = next(card for card in jedi if card.card_type == "avatar")

    decks.deck_save(owner=player, name="Work", counts={avatar.pk: 1}, deck_id=deck.pk)

    assert list(DeckCard.objects.filter(deck=deck).values_list("card_id", "quantity")) == [
        (avatar.pk, 1)
    ]


def test_an_invalid_deck_in_progress_saves_and_says_so(player, jedi):
    avatar = next(card for card in jedi if card.card_type == "avatar")
    saved = decks.deck_save(owner=player, name="Just started", counts={avatar.pk: 1})
    assert saved.invalid_for == ["Standard"]


def test_deleting_only_ones_own_decks(player, jedi):
    deck = decks.deck_save(owner=player, name="Old", counts=ids(jedi)).deck
    with pytest.raises(deck_selectors.DeckError):
        decks.deck_delete(owner=UserFactory(), deck_id=deck.pk)
    assert decks.deck_delete(owner=player, deck_id=deck.pk) == "Old"
    assert not Deck.objects.exists()


# Validation -------------------------------------------------------------------------------


def test_a_deck_whose_cards_were_traded_away_is_no_longer_valid(player, jedi, standard):
    """Validity is checked when a deck is used, never stored at save time."""
    deck = decks.deck_save(owner=player, name="Traded", counts=ids(jedi)).deck
    card = next(card for card, copies in jedi.items() if copies == 3)
    CardOwnership.objects.filter(owner=player, card=card).update(quantity=1)

    validation = deck_selectors.deck_validate(deck=deck, play_format=standard)

    assert not validation.valid
    check = rules_of(validation)[deckrules.OWNED_RULE]
    assert check.offending == (card.title,)
    assert "you own 1" in check.explanation


def test_a_format_made_in_the_admin_bans_and_restricts_titles(player, jedi):
    deck = decks.deck_save(owner=player, name="Temple Guard", counts=ids(jedi)).deck
    three = [card.title for card, copies in jedi.items() if copies == 3]
    strict = PlayFormatFactory(
        banned_titles=[three[0], 42],
        restricted_titles=[three[1]],
        sets=[CardSet.objects.get(number=1)],
    )

    checks = rules_of(deck_selectors.deck_validate(deck=deck, play_format=strict))

    assert checks[deckrules.SETS_RULE].ok
    assert checks[deckrules.BANNED_RULE].offending == (three[0],)
    assert checks[deckrules.RESTRICTED_RULE].offending == (three[1],)


def test_a_set_restricted_format_refuses_cards_of_other_sets(player, jedi):
    deck = decks.deck_save(owner=player, name="Temple Guard", counts=ids(jedi)).deck
    other_set = CardSetFactory(number=7, name="Future Set")
    only_future = PlayFormatFactory(sets=[other_set])

    check = rules_of(deck_selectors.deck_validate(deck=deck, play_format=only_future))[
        deckrules.SETS_RULE
    ]

    assert not check.ok and "7. Future Set" in check.explanation


# The deck under construction --------------------------------------------------------------


def test_adding_never_goes_beyond_the_copies_owned(player, jedi):
    card = next(card for card, copies in jedi.items() if copies == 3)

    counts, message = deck_selectors.deck_entries_change(
        owner=player, counts={card.pk: 2}, card_id=str(card.pk), copies="3", operation="add"
    )

    assert counts == {card.pk: 3}
    assert message.startswith("Added 1 copy of") and "You own 3" in message
    with pytest.raises(deck_selectors.DeckError, match=r"All 3 copies .* are in the deck"):
        deck_selectors.deck_entries_change(
            owner=player, counts=counts, card_id=str(card.pk), copies="1", operation="add"
        )


@pytest.mark.parametrize(
    ("card_id", "copies", "operation", "message"),
    [
        ("1", "abc", "add", "from 1 to 99"),
        ("1", "-2", "add", "from 1 to 99"),
        ("1", "100", "add", "from 1 to 99"),
        ("nope", "1", "add", "not one you can use"),
        ("999999", "1", "add", "not one you can use"),
        ("1", "1", "steal", "add or remove"),
    ],
)
def test_bad_changes_get_a_clear_message(player, card_id, copies, operation, message):
    with pytest.raises(deck_selectors.DeckError, match=message):
        deck_selectors.deck_entries_change(
            owner=player, counts={}, card_id=card_id, copies=copies, operation=operation
        )


def test_removing_copies(player, jedi):
    card = next(iter(jedi))
    counts, message = deck_selectors.deck_entries_change(
        owner=player, counts={card.pk: 2}, card_id=str(card.pk), copies="5", operation="remove"
    )
    assert counts == {} and message == f"Removed 2 copies of {card.title}."


def builder_shape(builder) -> list[tuple]:
    return [(line.card.pk, line.copies, line.available) for line in builder.lines]


@pytest.mark.parametrize("pool", [False, True], ids=["collection", "limited pool"])
def test_a_change_to_the_shown_deck_matches_the_deck_read_afresh(player, jedi, pool):
    """The Deck Builder's double-click changes the deck it already shows: only a card the
    deck does not hold yet is read, and the result is the deck as read anew."""
    cards = [card for card, copies in jedi.items() if copies >= 3]
    limited = (
        LimitedPoolFactory(owner=player, card_counts={str(c.pk): n for c, n in jedi.items()})
        if pool
        else None
    )
    builder = deck_selectors.builder_deck(
        owner=player, counts={cards[0].pk: 1, cards[1].pk: 2}, pool=limited
    )
    changes = [
        (cards[0], "2", "add"),  # more of a card in the deck
        (cards[2], "1", "add"),  # a card not in the deck yet
        (cards[1], "1", "remove"),  # fewer copies
        (cards[0], "9", "remove"),  # all of them
    ]
    for card, copies, operation in changes:
        in_deck = card.pk in builder.counts
        with CaptureQueriesContext(connection) as queries:
            builder, message = deck_selectors.builder_deck_change(
                owner=player,
                builder=builder,
                card_id=str(card.pk),
                copies=copies,
                operation=operation,
                pool=limited,
            )
        assert len(queries) == (0 if in_deck else 1 if pool else 2), message
        afresh = deck_selectors.builder_deck(owner=player, counts=builder.counts, pool=limited)
        assert builder_shape(builder) == builder_shape(afresh)
        assert {pk: builder.supply.counts.get(pk) for pk in builder.counts} == {
            pk: afresh.supply.counts.get(pk) for pk in builder.counts
        }
    assert builder.counts == {cards[1].pk: 1, cards[2].pk: 1}
    with pytest.raises(deck_selectors.DeckError, match="is not in the deck"):
        deck_selectors.builder_deck_change(
            owner=player,
            builder=builder,
            card_id=str(cards[0].pk),
            copies="1",
            operation="remove",
            pool=limited,
        )


def test_another_players_avatar_is_not_usable(player):
    made = CardFactory(card_set=CardSetFactory(number=0), card_type="avatar", creator=UserFactory())
    CardOwnershipFactory(owner=player, card=made)
    with pytest.raises(deck_selectors.DeckError):
        deck_selectors.deck_entries_change(
            owner=player, counts={}, card_id=str(made.pk), copies="1", operation="add"
        )


def test_entries_that_cant_be_read_are_left_out_with_a_message():
    counts, problems = deck_selectors.entries_parse(["12x3", "12x1", "garbage", "5x0", "7x", "x9"])
    assert counts == {12: 4}
    assert len(problems) == 4


def test_import_keeps_known_lines_and_explains_the_others(player, jedi):
    three = next(card for card, copies in jedi.items() if copies == 3)
    avatar = next(card for card in jedi if card.card_type == "avatar")
    text = f"Avatar\n1 {avatar.title}\nDeck\n6 {three.title}\n2 No Such Card\n"

    imported = deck_selectors.deck_import(owner=player, text=text)

    assert imported.counts == {avatar.pk: 1, three.pk: 3}
    assert [str(problem) for problem in imported.problems] == [
        f"Line 4 \u201c6 {three.title}\u201d: you own only 3; 3 imported.",
        "Line 5 \u201c2 No Such Card\u201d: no card has this title.",
    ]


def test_an_exported_deck_imports_back_the_same(player, jedi):
    builder = deck_selectors.builder_deck(owner=player, counts=ids(jedi))
    text = deckrules.export_text(builder.deck_list, name="Round trip")
    assert deck_selectors.deck_import(owner=player, text=text).counts == ids(jedi)


def test_import_names_the_deck_after_its_header(player, jedi):
    builder = deck_selectors.builder_deck(owner=player, counts=ids(jedi))
    text = deckrules.export_text(builder.deck_list, name="Temple Guard " + "x" * 80)

    imported = deck_selectors.deck_import(owner=player, text=text)

    assert imported.name == ("Temple Guard " + "x" * 80)[:60]
    assert imported.counts == ids(jedi)


def test_import_refuses_a_huge_text(player):
    with pytest.raises(deck_selectors.DeckError, match="at most 20,000 characters"):
        deck_selectors.deck_import(owner=player, text="x" * 20_001)


# The Limited Deck Builder -----------------------------------------------------------------


@pytest.fixture
def pool(player, jedi):
    return LimitedPoolFactory(owner=player, name="Sealed Sunday", cards=jedi)


def test_a_limited_deck_saves_from_the_pool_and_is_valid_for_limited(player, jedi, pool, limited):
    CardOwnership.objects.filter(owner=player).delete()  # the collection plays no part

    saved = decks.deck_save(owner=player, name="Sealed", counts=ids(jedi), pool=pool)

    pool.refresh_from_db()
    assert pool.deck == saved.deck
    assert saved.valid_for == ["Limited"]
    assert deck_selectors.deck_validate(deck=saved.deck, play_format=limited).valid
    # In Constructed play the cards must be owned: the pool's are not.
    standard = PlayFormat.objects.get(slug="standard")
    assert not deck_selectors.deck_validate(deck=saved.deck, play_format=standard).valid
    assert deck_selectors.owner_decks(owner=player) == []  # it opens from its pool, not Open Deck
    again = decks.deck_save(owner=player, name="Sealed", counts=ids(jedi), pool=pool)
    assert again.deck == saved.deck and not again.created


def test_an_invalid_limited_deck_is_not_saved_and_the_validator_says_why(player, jedi, pool):
    avatar = next(card for card in jedi if card.card_type == "avatar")
    with pytest.raises(deck_selectors.DeckInvalid) as refused:
        decks.deck_save(owner=player, name="Sealed", counts={avatar.pk: 1}, pool=pool)
    assert not refused.value.validation.valid
    assert not Deck.objects.exists()


def test_saving_after_the_deadline_is_refused(player, jedi, pool):
    pool.deadline = timezone.now() - datetime.timedelta(seconds=1)
    pool.save()
    with pytest.raises(deck_selectors.DeckError, match="Deck building for Sealed Sunday ended"):
        decks.deck_save(owner=player, name="Late", counts=ids(jedi), pool=pool)


def test_pool_cards_are_limited_to_the_pools_copies(player, jedi, pool):
    card = next(card for card, copies in jedi.items() if copies == 3)
    pool.card_counts[str(card.pk)] = 2
    pool.save()
    with pytest.raises(deck_selectors.DeckError, match="but the card pool holds 2"):
        decks.deck_save(owner=player, name="Sealed", counts=ids(jedi), pool=pool)


# Views ------------------------------------------------------------------------------------


def test_the_builder_needs_a_logged_in_player(client):
    response = client.get(BUILDER)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_builder_offers_only_owned_cards(client, player, jedi):
    client.force_login(player)
    response = client.get(BUILDER, {"view": "table"})
    assert response.status_code == 200
    shown = {card.pk for card in response.context["page"]}
    assert shown == {card.pk for card in jedi}
    page = response.content.decode()
    assert 'data-op="add"' in page and "Deck Builder" in page


def test_the_builder_filters_the_collection(client, player, jedi):
    client.force_login(player)
    response = client.get(
        reverse("decks:deck_builder_collection"), {"type": "quest", "view": "table"}
    )
    assert {card.card_type for card in response.context["page"]} == {"quest"}
    assert response.context["page"].paginator.count == 4


def test_toolbar_links_to_create_avatar_and_the_wizard(client, player):
    client.force_login(player)
    page = client.get(BUILDER).content.decode()
    assert f'href="{reverse("decks:avatar_create")}"' in page
    assert f'href="{reverse("decks:deck_wizard")}"' in page


@pytest.mark.parametrize("view", ["graphic", "table"])
def test_builder_query_count_does_not_grow_with_the_collection(client, view, empty_catalog):
    """Same number of queries with 5 owned cards as with 150, and with a deck of each."""
    player = UserFactory()
    client.force_login(player)
    card_set = CardSetFactory(number=1)

    def queries_for_the_builder(cards) -> int:
        give(player, dict.fromkeys(cards, 4))
        deck = DeckFactory(owner=player, cards=dict.fromkeys(cards, 4))
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("decks:deck_edit", args=[deck.pk]), {"view": view})
        assert response.status_code == 200
        return len(captured)

    few = queries_for_the_builder(CardFactory.create_batch(5, card_set=card_set))
    many = queries_for_the_builder(CardFactory.create_batch(150, card_set=card_set))
    assert many == few


def test_another_players_deck_does_not_open(client, player, jedi):
    other = UserFactory()
    give(other, jedi)
    theirs = decks.deck_save(owner=other, name="Theirs", counts=ids(jedi)).deck
    client.force_login(player)
    assert client.get(reverse("decks:deck_edit", args=[theirs.pk])).status_code == 404


def test_double_click_adds_one_copy_and_returns_the_deck_container(client, player, jedi):
    client.force_login(player)
    card = next(iter(jedi))
    response = client.post(CHANGE, {"card": card.pk, "op": "add", "copies": "1"})
    assert response.status_code == 200
    page = response.content.decode()
    assert f'value="{card.pk}x1"' in page
    assert f"Added 1 copy of {card.title}." in page


@pytest.mark.parametrize(
    "data",
    [
        {"card": "abc", "op": "add"},
        {"card": "1", "op": "add", "copies": "lots"},
        {"card": "1", "op": "add", "entry": ["garbage"]},
        {"op": "add", "deck": "999999"},
        {"op": "add", "pool": "abc"},
    ],
)
def test_bad_changes_answer_with_a_message_not_an_error(client, player, data):
    client.force_login(player)
    response = client.post(CHANGE, data)
    assert response.status_code == 200
    assert "deck-status--error" in response.content.decode()


def test_save_over_htmx_pushes_the_decks_url(client, player, jedi):
    client.force_login(player)
    response = client.post(
        SAVE, {"name": "Temple Guard", "entry": entries(ids(jedi))}, HTTP_HX_REQUEST="true"
    )
    deck = Deck.objects.get(owner=player)
    assert response["HX-Push-Url"] == reverse("decks:deck_edit", args=[deck.pk])
    page = response.content.decode()
    assert "Saved \u201cTemple Guard\u201d. Valid for Standard." in page
    assert f'name="deck" value="{deck.pk}"' in page

    again = client.post(SAVE, {"name": "Temple Guard", "entry": entries(ids(jedi))})
    assert "already have a deck called" in again.content.decode()


def test_save_without_htmx_redirects_with_a_message(client, player, jedi):
    client.force_login(player)
    response = client.post(SAVE, {"name": "Plain", "entry": entries(ids(jedi))}, follow=True)
    deck = Deck.objects.get(owner=player)
    assert response.redirect_chain[-1][0] == reverse("decks:deck_edit", args=[deck.pk])
    assert "Saved \u201cPlain\u201d." in response.content.decode()


def test_delete_view_removes_the_deck(client, player, jedi):
    deck = decks.deck_save(owner=player, name="Gone", counts=ids(jedi)).deck
    client.force_login(player)
    response = client.post(reverse("decks:deck_delete", args=[deck.pk]), follow=True)
    assert "Deleted the deck \u201cGone\u201d." in response.content.decode()
    assert not Deck.objects.exists()


def test_opening_a_deck_deleted_in_another_tab_says_so_in_the_builder(client, player, jedi):
    """Open Deck's list (or another tab) still showed the deck: the builder opens empty with
    the message, not a 404."""
    deck = decks.deck_save(owner=player, name="Gone", counts=ids(jedi)).deck
    decks.deck_delete(owner=player, deck_id=deck.pk)
    client.force_login(player)

    response = client.get(reverse("decks:deck_edit", args=[deck.pk]), follow=True)

    assert response.redirect_chain == [(BUILDER, 302)]
    assert "That deck was deleted." in response.content.decode()


def test_saving_a_deck_deleted_in_another_tab_saves_nothing_and_says_so(client, player, jedi):
    """Save Deck over a deck deleted meanwhile: refused with the message, nothing written; the
    container no longer names the deck, so saving again keeps the cards as a new deck."""
    deck = decks.deck_save(owner=player, name="Gone", counts=ids(jedi)).deck
    decks.deck_delete(owner=player, deck_id=deck.pk)
    client.force_login(player)
    form = {"name": "Gone", "deck": deck.pk, "entry": entries(ids(jedi))}

    response = client.post(SAVE, form, HTTP_HX_REQUEST="true")

    page = response.content.decode()
    assert response.status_code == 200 and "deck-status--error" in page
    assert "That deck was deleted. Save Deck keeps these cards as a new deck." in page
    assert 'name="deck" value=""' in page
    assert not Deck.objects.exists()
    client.post(SAVE, {**form, "deck": ""}, HTTP_HX_REQUEST="true")
    assert Deck.objects.get(owner=player).name == "Gone"


@pytest.mark.parametrize("tool", ["deck_validate", "deck_statistics", "deck_export"])
def test_a_tool_on_a_deck_deleted_in_another_tab_says_so(client, player, jedi, tool):
    deck = decks.deck_save(owner=player, name="Gone", counts=ids(jedi)).deck
    decks.deck_delete(owner=player, deck_id=deck.pk)
    client.force_login(player)

    response = client.get(reverse(f"decks:{tool}"), {"deck": deck.pk, "entry": entries(ids(jedi))})

    assert response.status_code == 200
    assert "That deck was deleted." in response.content.decode()


def test_deleting_a_deck_deleted_in_another_tab_says_so(client, player, jedi):
    deck = decks.deck_save(owner=player, name="Gone", counts=ids(jedi)).deck
    client.force_login(player)
    client.post(reverse("decks:deck_delete", args=[deck.pk]))

    response = client.post(reverse("decks:deck_delete", args=[deck.pk]), follow=True)

    assert response.redirect_chain == [(BUILDER, 302)]
    assert "That deck was deleted." in response.content.decode()


def test_validate_shows_checks_and_crosses_with_explanations(client, player, jedi):
    client.force_login(player)
    card = next(card for card, copies in jedi.items() if copies == 3)
    counts = {pk: copies for pk, copies in ids(jedi).items() if pk != card.pk}
    response = client.get(reverse("decks:deck_validate"), {"entry": entries(counts)})
    page = response.content.decode()
    assert response.status_code == 200
    assert page.count("mark--fail") >= 2  # Standard (size) and Limited
    assert "The deck has 50 cards" not in page
    assert ">Your deck must have at least 50 cards<" in page
    assert "Limited decks are built in the Limited Deck Builder" in page
    assert [v.play_format.slug for v in response.context["validations"]] == [
        "standard",
        "limited",
    ]


def test_statistics_draw_a_pie_and_bars_with_percentages(client, player, jedi):
    client.force_login(player)
    response = client.get(reverse("decks:deck_statistics"), {"entry": entries(ids(jedi))})
    page = response.content.decode()
    assert response.status_code == 200
    assert response.context["statistics"].total == 53
    assert '<svg class="pie"' in page and '<svg class="bars"' in page
    assert "%" in page


def test_export_downloads_a_plain_text_list(client, player, jedi):
    client.force_login(player)
    response = client.get(
        reverse("decks:deck_export"),
        {"entry": entries(ids(jedi)), "name": "Temple Guard", "download": "1"},
    )
    assert response["Content-Type"].startswith("text/plain")
    assert 'filename="Temple Guard.txt"' in response["Content-Disposition"]
    text = response.content.decode()
    assert text.startswith("# Temple Guard\n\nAvatar\n1 ")
    assert "\nQuests\n" in text and "\nDeck\n" in text


def test_import_view_replaces_the_deck_and_lists_line_problems(client, player, jedi):
    client.force_login(player)
    avatar = next(card for card in jedi if card.card_type == "avatar")
    response = client.post(
        reverse("decks:deck_import"), {"text": f"1 {avatar.title}\n3 Nonsense\n"}
    )
    page = response.content.decode()
    assert f'value="{avatar.pk}x1"' in page
    assert 'hx-swap-oob="true"' in page
    assert "Line 2 \u201c3 Nonsense\u201d: no card has this title." in page


def test_import_view_names_the_deck_after_the_header(client, player, jedi):
    client.force_login(player)
    avatar = next(card for card in jedi if card.card_type == "avatar")

    named = client.post(reverse("decks:deck_import"), {"text": f"# Dune Raiders\n1 {avatar.title}"})
    unnamed = client.post(reverse("decks:deck_import"), {"text": f"1 {avatar.title}"})

    assert 'id="deck-name"' in named.content.decode()
    assert 'value="Dune Raiders"' in named.content.decode()
    assert 'id="deck-name"' not in unnamed.content.decode()


def test_limited_builder_shows_the_pool_and_a_countdown(client, player, jedi, pool):
    client.force_login(player)
    response = client.get(reverse("decks:limited_builder", args=[pool.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Limited Deck Builder" in page and 'class="countdown"' in page
    assert {card.pk for card in response.context["page"]} == {card.pk for card in jedi}
    assert "<summary>Open Deck</summary>" not in page


def test_limited_save_after_the_deadline_is_refused_in_the_page(client, player, jedi, pool):
    pool.deadline = timezone.now() - datetime.timedelta(minutes=1)
    pool.save()
    client.force_login(player)
    response = client.post(
        SAVE,
        {"name": "Late", "pool": pool.pk, "entry": entries(ids(jedi))},
        HTTP_HX_REQUEST="true",
    )
    assert "your deck was not saved" in response.content.decode()
    assert not Deck.objects.exists()


def test_an_invalid_limited_save_opens_the_validator(client, player, jedi, pool):
    client.force_login(player)
    avatar = next(card for card in jedi if card.card_type == "avatar")
    response = client.post(
        SAVE,
        {"name": "Sealed", "pool": pool.pk, "entry": [f"{avatar.pk}x1"]},
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    assert response["HX-Trigger-After-Swap"] == "open-tool"
    assert 'id="tool-content" hx-swap-oob="innerHTML"' in page
    assert "mark--fail" in page


def test_another_players_pool_does_not_open(client, player, pool):
    client.force_login(UserFactory())
    assert client.get(reverse("decks:limited_builder", args=[pool.pk])).status_code == 404


# The admin --------------------------------------------------------------------------------


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_staff_add_a_format_with_banned_titles_and_typos_are_refused(staff_client, jedi):
    title = next(iter(jedi)).title
    form = {
        "name": "Classic",
        "slug": "classic",
        "kind": "constructed",
        "description": "No banned cards, please.",
        "position": "3",
        "restricted_titles": "[]",
    }
    url = reverse("admin:decks_playformat_add")
    refused = staff_client.post(url, {**form, "banned_titles": '["Not A Card"]'})
    assert "No card has the title &#x27;Not A Card&#x27;." in refused.content.decode()

    staff_client.post(url, {**form, "banned_titles": f'["{title}"]'})
    assert PlayFormat.objects.get(slug="classic").banned_titles == [title]


def test_staff_make_a_limited_pool_of_card_ids(staff_client, player, jedi):
    card = next(iter(jedi))
    form = {
        "owner": player.pk,
        "name": "Sealed by hand",
        "deadline_0": "2030-01-01",
        "deadline_1": "12:00:00",
    }
    url = reverse("admin:decks_limitedpool_add")
    refused = staff_client.post(url, {**form, "card_counts": '{"999999": 1, "x": 0}'})
    assert "not &#x27;x&#x27;: 0" in refused.content.decode()

    staff_client.post(url, {**form, "card_counts": f'{{"{card.pk}": 2}}'})
    assert LimitedPool.objects.get(name="Sealed by hand").card_counts == {str(card.pk): 2}


def test_a_limited_pool_with_unicode_digits_or_absurd_copies_gets_a_message(
    staff_client, player, jedi
):
    card = next(iter(jedi))
    form = {"owner": player.pk, "name": "Tampered", "deadline_0": "2030-01-01"}
    form["deadline_1"] = "12:00:00"
    url = reverse("admin:decks_limitedpool_add")
    counts = f'{{"\u00b2": 1, "\u2460": 1, "{card.pk}": {2**40}}}'

    refused = staff_client.post(url, {**form, "card_counts": counts})

    assert refused.status_code == 200
    page = refused.content.decode()
    assert "a number of copies from 1 to 999" in page
    assert f"&#x27;{card.pk}&#x27;: {2**40}" in page
    assert not LimitedPool.objects.filter(name="Tampered").exists()


@pytest.mark.parametrize(
    "card_id, copies, message",
    [
        ("\u00b2", "1", "That card is not one you can use in this deck."),
        ("99999999999999999999", "1", "That card is not one you can use in this deck."),
        (None, "\u00b2", "The number of copies must be a whole number from 1 to 99."),
        (None, "\u2460", "The number of copies must be a whole number from 1 to 99."),
        (None, "2147483648", "The number of copies must be a whole number from 1 to 99."),
    ],
)
def test_adding_with_unreadable_numbers_gets_a_message(
    client, player, jedi, card_id, copies, message
):
    give(player, jedi)
    client.force_login(player)
    card = next(iter(jedi))

    response = client.post(CHANGE, {"card": card_id or card.pk, "copies": copies, "op": "add"})

    assert response.status_code == 200
    assert message in response.content.decode()


def test_staff_see_decks_with_their_cards(staff_client, player, jedi):
    deck = decks.deck_save(owner=player, name="Temple Guard", counts=ids(jedi)).deck
    assert (
        "Temple Guard" in staff_client.get(reverse("admin:decks_deck_changelist")).content.decode()
    )
    change = staff_client.get(reverse("admin:decks_deck_change", args=[deck.pk]))
    assert change.status_code == 200


def test_open_deck_lists_the_players_decks_and_open_pools(client, player, jedi, pool):
    decks.deck_save(owner=player, name="Temple Guard", counts=ids(jedi))
    client.force_login(player)
    page = client.get(reverse("decks:deck_open_menu")).content.decode()
    assert "Temple Guard" in page and "53 cards" not in page and "58 cards" in page
    assert "Sealed Sunday" in page
    assert reverse("decks:limited_builder", args=[pool.pk]) in page


def test_the_limited_builder_validates_against_limited_formats_only(client, player, jedi, pool):
    client.force_login(player)
    response = client.get(
        reverse("decks:deck_validate"), {"entry": entries(ids(jedi)), "pool": pool.pk}
    )
    assert [v.play_format.slug for v in response.context["validations"]] == ["limited"]
    assert response.context["validations"][0].valid


def test_unsaved_changes_stay_marked_when_the_view_changes(client, player, jedi):
    client.force_login(player)
    card = next(iter(jedi))
    changed = client.post(CHANGE, {"card": card.pk, "op": "add"}).content.decode()
    assert 'data-dirty="true"' in changed
    table = client.get(
        reverse("decks:deck_container"),
        {"entry": f"{card.pk}x1", "dirty": "1", "deck_view": "table", "deck_sort": "title"},
    )
    assert 'data-dirty="true"' in table.content.decode()
    assert table.context["deck_view"] == "table"


@pytest.mark.parametrize("card_counts", [{}, [], {"x": 1, "5": "two"}, {"\u00b2": 1}])
def test_a_malformed_or_empty_pool_shows_an_empty_builder(client, player, card_counts):
    pool = LimitedPoolFactory(owner=player, card_counts=card_counts)
    client.force_login(player)
    response = client.get(reverse("decks:limited_builder", args=[pool.pk]))
    assert response.status_code == 200
    assert "This card pool is empty." in response.content.decode()


@pytest.mark.parametrize("view", ["graphic", "table"])
def test_the_builders_addresses_built_from_prefixes_are_the_routes_own(client, player, view):
    """The Deck Builder's cards build their faces' addresses from a prefix instead of
    reversing them once per card (collection/decks/templatetags/deck_builder.py): in the
    collection container, the deck container and the deck list they are the addresses
    ``reverse`` gives."""
    card = next(iter(ids(starter("jedi"))))
    card = Card.objects.select_related("card_set").get(pk=card)
    deck = decks.deck_save(owner=player, name="Prefixes", counts={card.pk: 1}).deck
    client.force_login(player)
    face = reverse("cards:card_face", args=[card.card_set.number, card.number])

    page = client.get(reverse("decks:deck_edit", args=[deck.pk]), {"view": view})
    container = client.get(
        reverse("decks:deck_container"),
        {"entry": f"{card.pk}x1", "deck_view": view},
        headers={"HX-Request": "true"},
    )

    for html in (page.content.decode(), container.content.decode()):
        # The deck container's line and the deck list's (and on the page the card's tile).
        assert html.count(f'data-face="{face}?size=large"') >= 2
        assert f'hx-post="{CHANGE}"' in html
    assert f'src="{face}?size=small"' in page.content.decode()
