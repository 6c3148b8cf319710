"""What the database and the services hold true of saved decks, whichever request writes:
deck names are unique per player ignoring case, and a Limited pool's deck keeps the pool's
rules (rulebook, LIMITED DECK BUILDER: the deck is built from the pool, until time runs out)."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse
from django.utils import timezone

from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, DeckCard
from collection.decks.services import decks
from tests.decks.test_decks import entries, give, ids, starter
from tests.decks.test_wizard import give_starter_deck, starter_choices
from tests.factories import DeckFactory, LimitedPoolFactory, UserFactory

SAVE = reverse("decks:deck_save")
CHANGE = reverse("decks:deck_change")
IMPORT = reverse("decks:deck_import")
WIZARD = reverse("decks:deck_wizard")


# Deck names, unique per player ignoring case ---------------------------------------------


@pytest.mark.django_db
def test_the_database_refuses_a_second_deck_name_differing_only_in_case():
    owner = UserFactory()
    DeckFactory(owner=owner, name="Temple Guard")

    with pytest.raises(IntegrityError), transaction.atomic():
        Deck.objects.create(owner=owner, name="TEMPLE guard")

    Deck.objects.create(owner=UserFactory(), name="temple guard")  # another player's is fine
    assert Deck.objects.filter(owner=owner).count() == 1


@pytest.mark.django_db
def test_a_taken_name_is_refused_ignoring_case_with_the_name_taken_message(catalog):
    owner = UserFactory()
    jedi = starter("jedi")
    give(owner, jedi)
    Deck.objects.create(owner=owner, name="Temple Guard")

    with pytest.raises(deck_selectors.DeckNameTaken) as taken:
        decks.deck_save(owner=owner, name="temple GUARD", counts=ids(jedi))

    assert str(taken.value) == (
        "You already have a deck called \u201ctemple GUARD\u201d; choose another name."
    )
    assert Deck.objects.filter(owner=owner).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_decks_sharing_a_name_ignoring_case():
    # Only this migration is taken back and run again: taking the decks app back to 0001 with
    # the executor would take back every migration of the apps that depend on it, and make
    # them again (half a minute).
    loader = MigrationLoader(connection)
    migration = loader.get_migration("decks", "0002_deck_names_unique_ignoring_case")
    before = loader.project_state(("decks", "0001_initial"))
    with connection.schema_editor(atomic=migration.atomic) as editor:
        migration.unapply(before, editor)
    OldDeck = before.apps.get_model("decks", "Deck")
    owner, other = UserFactory(), UserFactory()
    first = OldDeck.objects.create(owner_id=owner.pk, name="Raiders")
    second = OldDeck.objects.create(owner_id=owner.pk, name="RAIDERS")
    third = OldDeck.objects.create(owner_id=owner.pk, name="raiders")
    taken = OldDeck.objects.create(owner_id=owner.pk, name="Raiders (2)")
    long_name = "L" * 60
    long_first = OldDeck.objects.create(owner_id=owner.pk, name=long_name)
    long_second = OldDeck.objects.create(owner_id=owner.pk, name=long_name.lower())
    theirs = OldDeck.objects.create(owner_id=other.pk, name="raiders")

    with connection.schema_editor(atomic=migration.atomic) as editor:
        migration.apply(before, editor)

    names = dict(Deck.objects.values_list("pk", "name"))
    assert names[first.pk] == "Raiders"
    assert names[taken.pk] == "Raiders (2)"
    assert {names[second.pk], names[third.pk]} == {"RAIDERS (3)", "raiders (4)"}
    assert names[long_first.pk] == long_name
    assert names[long_second.pk] == "l" * 56 + " (2)"
    assert names[theirs.pk] == "raiders"


# A Limited pool's deck keeps the pool's rules, whichever request reaches it --------------


@pytest.fixture
def jedi(catalog):
    return starter("jedi")


@pytest.fixture
def builder(client, jedi):
    """A player owning the Jedi starter deck, with a Limited pool of the same cards and
    the deck they saved from it."""
    player = UserFactory()
    give(player, jedi)
    client.force_login(player)
    pool = LimitedPoolFactory(owner=player, name="Sealed Sunday", cards=jedi)
    deck = decks.deck_save(owner=player, name="Sealed", counts=ids(jedi), pool=pool).deck
    client.player, client.pool, client.deck = player, pool, deck
    return client


def close_pool(pool):
    pool.deadline = timezone.now() - datetime.timedelta(minutes=1)
    pool.save(update_fields=["deadline"])


def outside_card(jedi):
    """A unit the Jedi pool lacks (the player is given it, so the normal builder would
    take it)."""
    return next(card for card in starter("rebel") if card.card_type == "unit" and card not in jedi)


def deck_lines(deck) -> dict[int, int]:
    return dict(DeckCard.objects.filter(deck=deck).values_list("card_id", "quantity"))


def test_saving_a_pool_deck_without_the_pool_still_keeps_to_the_pools_cards(builder, jedi):
    stranger = outside_card(jedi)
    give(builder.player, {stranger: 1})
    before = deck_lines(builder.deck)

    with pytest.raises(deck_selectors.DeckError, match="no card #"):
        decks.deck_save(
            owner=builder.player,
            name="Sealed",
            counts={**ids(jedi), stranger.pk: 1},
            deck_id=builder.deck.pk,
        )
    response = builder.post(
        SAVE,
        {
            "name": "Sealed",
            "deck": builder.deck.pk,
            "entry": entries({**ids(jedi), stranger.pk: 1}),
        },
    )

    assert "no card #" in response.content.decode()
    assert deck_lines(builder.deck) == before


def test_a_pool_deck_cannot_be_renamed_or_changed_after_the_deadline(builder, jedi):
    close_pool(builder.pool)

    with pytest.raises(deck_selectors.DeckError, match="Deck building for Sealed Sunday ended"):
        decks.deck_save(
            owner=builder.player, name="Renamed", counts=ids(jedi), deck_id=builder.deck.pk
        )
    response = builder.post(
        SAVE, {"name": "Renamed", "deck": builder.deck.pk, "entry": entries(ids(jedi))}
    )

    assert "Deck building for Sealed Sunday ended" in response.content.decode()
    assert Deck.objects.get(pk=builder.deck.pk).name == "Sealed"


def test_a_pool_deck_renames_before_the_deadline_through_the_pools_rules(builder, jedi):
    response = builder.post(
        SAVE, {"name": "Sunday Best", "deck": builder.deck.pk, "entry": entries(ids(jedi))}
    )

    assert response.url == reverse("decks:limited_builder", args=[builder.pool.pk])
    builder.pool.refresh_from_db()
    assert builder.pool.deck.name == "Sunday Best"
    assert deck_lines(builder.deck) == ids(jedi)


def test_an_invalid_pool_deck_is_not_saved_through_the_normal_builder(builder, jedi):
    avatar = next(card for card in jedi if card.card_type == "avatar")

    with pytest.raises(deck_selectors.DeckInvalid):
        decks.deck_save(
            owner=builder.player, name="Sealed", counts={avatar.pk: 1}, deck_id=builder.deck.pk
        )

    assert deck_lines(builder.deck) == ids(jedi)


def test_a_pool_deck_cannot_be_deleted_after_the_deadline(builder):
    close_pool(builder.pool)

    with pytest.raises(deck_selectors.DeckError, match="your deck was not deleted"):
        decks.deck_delete(owner=builder.player, deck_id=builder.deck.pk)
    builder.post(reverse("decks:deck_delete", args=[builder.deck.pk]))

    assert Deck.objects.filter(pk=builder.deck.pk).exists()
    builder.pool.refresh_from_db()
    assert builder.pool.deck_id == builder.deck.pk


def test_a_pool_deck_may_be_deleted_while_the_pool_is_open(builder):
    assert decks.deck_delete(owner=builder.player, deck_id=builder.deck.pk) == "Sealed"
    builder.pool.refresh_from_db()
    assert builder.pool.deck is None


def test_changing_a_pool_deck_offers_only_the_pools_cards(builder, jedi):
    stranger = outside_card(jedi)
    give(builder.player, {stranger: 1})

    response = builder.post(
        CHANGE,
        {"deck": builder.deck.pk, "entry": entries(ids(jedi)), "card": stranger.pk, "op": "add"},
    )

    html = response.content.decode()
    assert "That card is not one you can use in this deck." in html
    assert f'name="pool" value="{builder.pool.pk}"' in html


def test_importing_into_a_pool_deck_takes_only_the_pools_cards(builder, jedi):
    stranger = outside_card(jedi)
    give(builder.player, {stranger: 1})

    response = builder.post(
        IMPORT,
        {"deck": builder.deck.pk, "entry": entries(ids(jedi)), "text": f"1 {stranger.title}"},
    )

    html = response.content.decode()
    assert stranger.title in html
    assert f"{stranger.pk}x1" not in html


def test_the_wizard_cannot_take_a_pool_decks_name(builder, jedi):
    give_starter_deck(builder.player, "jedi")
    form = {**starter_choices("jedi"), "name": "SEALED", "step": "5", "go": "save"}

    html = builder.post(WIZARD, form).content.decode()

    assert "You already have a deck called \u201cSEALED\u201d" in html
    assert Deck.objects.filter(owner=builder.player).count() == 1
    assert deck_lines(builder.deck) == ids(jedi)
