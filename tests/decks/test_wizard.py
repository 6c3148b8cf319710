"""The Deckbuilding Wizard's pages and the service that saves its deck."""

from collections import Counter

import pytest
from django.urls import reverse

from collection.cards.cardrules import MAX_COPIES, MIN_DECK_SIZE, QUEST_LEVELS
from collection.cards.models import Card
from collection.decks.deckwizard import WizardChoices, WizardError
from collection.decks.models import Deck
from collection.decks.selectors import wizard_cards
from collection.decks.services.avatar_creation import avatar_create
from collection.decks.services.wizard import deck_from_wizard
from collection.models import CardOwnership, Product, ProductKind
from game.engine.vocabulary import DECK_TYPES
from tests.factories import CardOwnershipFactory, DeckFactory, UserFactory

pytestmark = pytest.mark.django_db

WIZARD = reverse("decks:deck_wizard")
FILL = reverse("decks:deck_wizard_fill")
MIX = {"mix_unit": "45", "mix_ability": "32", "mix_item": "10", "mix_tactic": "13", "size": "50"}


def give_starter_deck(player, archetype: str) -> None:
    """The player owns exactly the cards of the set's starter deck of ``archetype``."""
    starter = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype=archetype)
    for line in starter.starter_cards.all():
        ownership, _ = CardOwnership.objects.get_or_create(owner=player, card_id=line.card_id)
        ownership.quantity += line.quantity
        ownership.save()


def starter_choices(archetype: str) -> dict:
    """The form values of steps 1 to 4 naming the starter deck's avatar and quests."""
    starter = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype=archetype)
    cards = [line.card for line in starter.starter_cards.select_related("card")]
    avatar = next(card for card in cards if card.card_type == "avatar")
    quests = {card.level: card for card in cards if card.card_type == "quest"}
    return {
        "archetype": archetype,
        "avatar": str(avatar.pk),
        **{f"quest_{level}": str(quest.pk) for level, quest in quests.items()},
        **MIX,
    }


def assert_keeps_the_deck_building_rules(deck: Deck) -> None:
    """Rulebook, DECK BUILDING, and the collection: never more copies than owned."""
    entries = list(deck.entries.select_related("card"))
    avatars = [entry for entry in entries if entry.card.card_type == "avatar"]
    quests = [entry for entry in entries if entry.card.card_type == "quest"]
    others = [entry for entry in entries if entry.card.card_type in DECK_TYPES]
    assert len(avatars) == 1 and avatars[0].quantity == 1
    assert sorted(entry.card.level for entry in quests) == list(QUEST_LEVELS)
    assert all(entry.quantity == 1 for entry in quests)
    assert len(avatars) + len(quests) + len(others) == len(entries)
    assert sum(entry.quantity for entry in others) >= MIN_DECK_SIZE
    per_title = Counter()
    for entry in others:
        per_title[entry.card.title] += entry.quantity
    assert max(per_title.values()) <= MAX_COPIES
    archetype = avatars[0].card.archetype
    assert {entry.card.archetype for entry in quests + others} <= {archetype, ""}
    owned = dict(CardOwnership.objects.filter(owner=deck.owner).values_list("card_id", "quantity"))
    assert all(entry.quantity <= owned.get(entry.card_id, 0) for entry in entries)


@pytest.fixture
def player_client(client, catalog):
    player = UserFactory()
    client.force_login(player)
    client.player = player
    return client


# The service --------------------------------------------------------------------------------


@pytest.mark.parametrize("archetype", ["jedi", "rebel", "imperial", "sith"])
def test_a_starter_deck_owner_gets_a_legal_deck(catalog, archetype):
    player = UserFactory()
    give_starter_deck(player, archetype)
    form = starter_choices(archetype)
    choices = WizardChoices(
        archetype=archetype,
        avatar_id=int(form["avatar"]),
        quest_ids={level: int(form[f"quest_{level}"]) for level in QUEST_LEVELS},
    )
    deck = deck_from_wizard(owner=player, choices=choices, name="My first deck")

    assert deck.owner == player and deck.name == "My first deck"
    assert_keeps_the_deck_building_rules(deck)


def test_a_made_avatar_leads_a_wizard_deck(catalog):
    player = UserFactory()
    give_starter_deck(player, "rebel")
    made = avatar_create(
        owner=player,
        choices={
            "species": "human",
            "gender": "male",
            "career": "rebel_officer",
            "style": "steady",
            "homeworld": "talus",
        },
        name="Jory Vane",
    )
    form = starter_choices("rebel")
    choices = WizardChoices(
        archetype="rebel",
        avatar_id=made.pk,
        quest_ids={level: int(form[f"quest_{level}"]) for level in QUEST_LEVELS},
    )
    deck = deck_from_wizard(owner=player, choices=choices, name="Officer's deck")

    assert deck.entries.filter(card=made, quantity=1).exists()
    assert_keeps_the_deck_building_rules(deck)


def test_the_service_refuses_an_avatar_the_player_does_not_own(catalog):
    player = UserFactory()
    give_starter_deck(player, "sith")
    form = starter_choices("sith")
    not_owned = Card.objects.filter(card_type="avatar", archetype="sith").exclude(
        pk=form["avatar"]
    )[0]
    choices = WizardChoices(
        archetype="sith",
        avatar_id=not_owned.pk,
        quest_ids={level: int(form[f"quest_{level}"]) for level in QUEST_LEVELS},
    )
    with pytest.raises(WizardError, match="Choose an avatar from your collection") as raised:
        deck_from_wizard(owner=player, choices=choices, name="Not mine")
    assert raised.value.step == 2
    assert not Deck.objects.filter(owner=player).exists()


def test_the_deck_is_filled_from_the_collection_as_it_is_when_saved(catalog):
    """A form made before the player lost cards can't save cards they no longer own."""
    player = UserFactory()
    give_starter_deck(player, "imperial")
    give_starter_deck(player, "imperial")
    form = starter_choices("imperial")
    choices = WizardChoices(
        archetype="imperial",
        avatar_id=int(form["avatar"]),
        quest_ids={level: int(form[f"quest_{level}"]) for level in QUEST_LEVELS},
    )
    CardOwnership.objects.filter(owner=player, card__card_type="unit").update(quantity=1)

    deck = deck_from_wizard(owner=player, choices=choices, name="After the trade")
    assert_keeps_the_deck_building_rules(deck)
    assert set(deck.entries.filter(card__card_type="unit").values_list("quantity", flat=True)) == {
        1
    }


def test_another_players_made_avatar_is_never_offered(catalog):
    maker, other = UserFactory(), UserFactory()
    made = avatar_create(
        owner=maker,
        choices={
            "species": "rodian",
            "gender": "female",
            "career": "jedi_sentinel",
            "style": "watchful",
            "homeworld": "naboo",
        },
        name="Tala Wren",
    )
    CardOwnershipFactory(owner=other, card=made)
    assert made.pk not in {card.id for card in wizard_cards(owner=other)}


def test_deck_names_are_unique_per_player(catalog):
    player = UserFactory()
    give_starter_deck(player, "jedi")
    DeckFactory(owner=player, name="Light")
    form = starter_choices("jedi")
    choices = WizardChoices(
        archetype="jedi",
        avatar_id=int(form["avatar"]),
        quest_ids={level: int(form[f"quest_{level}"]) for level in QUEST_LEVELS},
    )
    with pytest.raises(WizardError, match="already have a deck called \u201clight\u201d"):
        deck_from_wizard(owner=player, choices=choices, name="  light ")
    with pytest.raises(WizardError, match="Give your deck a name"):
        deck_from_wizard(owner=player, choices=choices, name="   ")
    assert Deck.objects.filter(owner=player).count() == 1


# The pages ----------------------------------------------------------------------------------


def test_the_wizard_needs_a_logged_in_player(client, db):
    response = client.get(WIZARD)
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_an_empty_collection_is_told_what_is_missing(player_client):
    html = player_client.get(WIZARD).content.decode()
    assert "Missing: no Jedi avatar; no Jedi or generic quest of level 2, 4, 5, 6." in html
    assert "can't make a legal deck of any archetype yet" in html
    assert 'value="next" class="button button--primary" disabled' in html


def test_only_buildable_archetypes_are_offered(player_client):
    give_starter_deck(player_client.player, "rebel")
    html = player_client.get(WIZARD).content.decode()
    assert 'name="archetype" value="rebel" checked>' in html
    assert 'name="archetype" value="jedi" disabled>' in html
    # The Rebel starter's level 6 quest is generic: it would serve a Jedi avatar too.
    assert "Missing: no Jedi avatar; no Jedi or generic quest of level 2, 4, 5." in html


def test_the_wizard_walks_from_archetype_to_the_builder(player_client):
    player = player_client.player
    give_starter_deck(player, "rebel")
    form = starter_choices("rebel")

    html = player_client.post(
        WIZARD, {"step": "1", "archetype": "rebel", "go": "next"}
    ).content.decode()
    assert "Choose your Rebel avatar." in html
    assert f'name="avatar" value="{form["avatar"]}" checked' in html

    html = player_client.post(
        WIZARD, {"step": "2", "archetype": "rebel", "avatar": form["avatar"], "go": "next"}
    ).content.decode()
    assert "Choose one quest of each level." in html
    for level in QUEST_LEVELS:
        # The starter's quests are the archetype's own, so the wizard suggests them.
        assert f'name="quest_{level}" value="{form[f"quest_{level}"]}" checked' in html

    steps_1_to_3 = {key: value for key, value in form.items() if key not in MIX}
    html = player_client.post(WIZARD, {**steps_1_to_3, "step": "3", "go": "next"}).content.decode()
    assert "How should the deck be made up?" in html
    assert 'name="mix_unit" value="45"' in html
    assert "Deck: 50 of 50 cards" in html

    html = player_client.post(WIZARD, {**form, "step": "4", "go": "next"}).content.decode()
    assert "Name your deck." in html

    response = player_client.post(
        WIZARD, {**form, "step": "5", "name": "Dunewater Raiders", "go": "save"}
    )
    deck = Deck.objects.get(owner=player)
    assert response.status_code == 302
    assert response["Location"] == reverse("decks:deck_edit", args=[deck.pk])
    assert deck.name == "Dunewater Raiders"
    assert_keeps_the_deck_building_rules(deck)


def test_back_keeps_later_answers_as_suggestions(player_client):
    give_starter_deck(player_client.player, "jedi")
    form = starter_choices("jedi")
    html = player_client.post(
        WIZARD, {**form, "mix_unit": "55", "mix_ability": "22", "step": "4", "go": "back"}
    ).content.decode()
    assert "Choose one quest of each level." in html
    assert '<input type="hidden" name="mix_unit" value="55">' in html

    html = player_client.post(
        WIZARD, {**form, "mix_unit": "55", "mix_ability": "22", "step": "3", "go": "next"}
    ).content.decode()
    assert 'name="mix_unit" value="55"' in html


@pytest.mark.parametrize(
    ("changes", "step_text", "message"),
    [
        ({"archetype": "sith"}, "Which archetype", "A Sith deck can&#x27;t be built yet"),
        ({"avatar": "abc"}, "Choose your Jedi avatar.", "Choose an avatar from your collection."),
        ({"quest_6": "0"}, "Choose one quest of each level.", "Choose a level 6 quest"),
        ({"mix_tactic": "50"}, "How should the deck", "The shares add up to 137%"),
        ({"size": "5000"}, "How should the deck", "decks of 50 to 60 cards"),
    ],
)
def test_tampered_or_stale_answers_send_the_player_back_with_a_reason(
    player_client, changes, step_text, message
):
    give_starter_deck(player_client.player, "jedi")
    form = {**starter_choices("jedi"), **changes, "name": "Saber", "step": "5", "go": "save"}
    response = player_client.post(WIZARD, form)
    html = response.content.decode()
    assert response.status_code == 200
    assert step_text in html
    assert message in html
    assert not Deck.objects.filter(owner=player_client.player).exists()


def test_a_card_the_player_does_not_own_is_refused(player_client):
    give_starter_deck(player_client.player, "jedi")
    not_owned = Card.objects.filter(card_type="avatar", archetype="jedi").exclude(
        pk__in=CardOwnership.objects.filter(owner=player_client.player).values("card_id")
    )[0]
    form = {**starter_choices("jedi"), "avatar": str(not_owned.pk), "step": "2", "go": "next"}
    html = player_client.post(WIZARD, form).content.decode()
    assert "Choose an avatar from your collection." in html
    assert "Choose your Jedi avatar." in html


def test_a_short_collection_is_told_how_many_cards_are_missing(player_client):
    player = player_client.player
    give_starter_deck(player, "sith")
    tactics = CardOwnership.objects.filter(owner=player, card__card_type="tactic")
    removed = sum(tactics.values_list("quantity", flat=True))
    tactics.delete()
    form = {**starter_choices("sith"), "size": "60", "step": "4", "go": "next"}
    html = player_client.post(WIZARD, form).content.decode()
    usable = 53 - removed
    assert f"only {usable} Sith or generic cards" in html
    assert f"{60 - usable} more are missing" in html
    assert "How should the deck be made up?" in html


def test_the_fill_follows_the_shares_on_the_page(player_client):
    give_starter_deck(player_client.player, "imperial")
    form = {**starter_choices("imperial"), "mix_unit": "100", "mix_ability": "0"}
    form.update(mix_item="0", mix_tactic="0")
    html = player_client.get(FILL, form).content.decode()
    assert "Units" in html and "Abilities" not in html
    assert "more are missing" in html  # 23 units can't fill 50 places

    html = player_client.get(FILL, {**form, "mix_unit": "90"}).content.decode()
    assert "make them add up to 100%" in html


def test_a_taken_deck_name_is_refused_on_the_name_step(player_client):
    give_starter_deck(player_client.player, "rebel")
    DeckFactory(owner=player_client.player, name="Raiders")
    form = {**starter_choices("rebel"), "name": "Raiders", "step": "5", "go": "save"}
    html = player_client.post(WIZARD, form).content.decode()
    assert "Name your deck." in html
    assert "You already have a deck called \u201cRaiders\u201d" in html
