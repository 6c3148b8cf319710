"""Create Avatar: the answers' table, the service that saves the card, and the pages."""

from itertools import product

import pytest
from django.urls import reverse

from collection.cards.cardrules import validate_card
from collection.cards.filters import CardFilters
from collection.cards.models import PLAYER_AVATAR_SET_NUMBER, Card
from collection.decks.avatars import (
    BUILDS,
    CAREERS,
    GENDERS,
    HOMEWORLDS,
    SPECIES,
    STYLES,
    avatar_card_fields,
    avatar_name_clean,
    read_choices,
)
from collection.decks.services.avatar_creation import MAX_MADE_AVATARS, AvatarError, avatar_create
from collection.models import CardOwnership, ItemEntry, LedgerReason
from collection.selectors import collection_cards
from tests.factories import CardFactory, UserFactory

CHOICES = {
    "species": "twilek",
    "gender": "female",
    "career": "rebel_scout",
    "style": "relentless",
    "homeworld": "corellia",
}
CREATE = reverse("decks:avatar_create")
PREVIEW = reverse("decks:avatar_preview")


def as_set_file_card(fields: dict) -> dict:
    """A made avatar in the shape of a set file's card, as validate_card reads it."""
    return {
        "number": 1,
        "rarity": fields["rarity"],
        "title": fields["title"],
        "type": fields["card_type"],
        "archetype": fields["archetype"],
        "traits": fields["traits"],
        "restriction": fields["restriction"],
        "cost": None,
        "attack": fields["attack"],
        "defense": fields["defense"],
        "damage_bonus": fields["damage_bonus"],
        "health": fields["health"],
        "level": None,
        "text": fields["game_text"],
        "lore": fields["lore"],
        "artist": "A player",
        "rules": fields["rules"],
    }


# The answer table --------------------------------------------------------------------------


def every_answer():
    for species, career, style in product(SPECIES, CAREERS, STYLES):
        yield {**CHOICES, "species": species, "career": career, "style": style}


def test_every_answer_makes_an_avatar_that_keeps_the_card_rules():
    for choices in every_answer():
        fields = avatar_card_fields(choices, name="Kira Vos")
        assert validate_card(as_set_file_card(fields)) == [], choices


def test_every_avatar_is_as_strong_as_the_sets_common_avatars():
    """The set's avatars: health 16-24, attack and defense 1-3, damage bonus 0-2; the
    starter avatars spend attack + defense + damage bonus + health / 2 = 15."""
    for choices in every_answer():
        fields = avatar_card_fields(choices)
        assert 16 <= fields["health"] <= 24
        assert 1 <= fields["attack"] <= 3 and 1 <= fields["defense"] <= 3
        assert 0 <= fields["damage_bonus"] <= 2
        budget = fields["attack"] + fields["defense"] + fields["damage_bonus"]
        assert budget + fields["health"] / 2 == 15


def test_each_answer_changes_the_card():
    """ "On the left you can watch your card change with each one." """
    card = avatar_card_fields(CHOICES, name="Kira Vos")
    assert card["title"] == "Kira Vos"
    assert card["traits"] == ["Twi'lek", "Rebel Scout"]
    assert card["archetype"] == "rebel"
    assert card["game_text"] == "Evasion."
    assert card["rules"] == {"keywords": [{"keyword": "evasion"}]}
    assert (card["attack"], card["defense"]) == (3, 1)
    assert (card["damage_bonus"], card["health"]) == BUILDS["adaptable"]
    assert card["lore"] == "Raised in the shipyards of Corellia, she swore to see the Empire fall."
    assert card["rarity"] == "F" and card["card_type"] == "avatar"

    for key, table in [
        ("species", SPECIES),
        ("gender", GENDERS),
        ("career", CAREERS),
        ("style", STYLES),
        ("homeworld", HOMEWORLDS),
    ]:
        faces = {str(avatar_card_fields({**CHOICES, key: answer})) for answer in table}
        assert len(faces) == len(table), key


def test_a_half_made_avatar_can_be_previewed():
    card = avatar_card_fields({"species": "wookiee"})
    assert card["title"] == "New Avatar"
    assert card["archetype"] == ""
    assert (card["damage_bonus"], card["health"]) == (0, 22)


def test_read_choices_stops_at_the_first_missing_or_unknown_answer():
    assert read_choices({"species": "human", "career": "sith_marauder"}).choices == {
        "species": "human"
    }
    reading = read_choices({"species": "human", "gender": "droid", "career": "sith_marauder"})
    assert reading.choices == {"species": "human"}
    assert reading.error_key == "gender"
    assert "not one of the choices for gender" in reading.error
    assert read_choices(CHOICES).complete


@pytest.mark.parametrize(
    ("raw", "name"),
    [("Kira Vos", "Kira Vos"), ("  Ki-Adi   O\u2019Rourke ", "Ki-Adi O'Rourke"), ("Zoë", "Zoë")],
)
def test_good_names_are_tidied(raw, name):
    assert avatar_name_clean(raw) == (name, None)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("", "Give your avatar a name."),
        ("Al", "3 to 40 characters"),
        ("A" * 41, "3 to 40 characters"),
        ("R2-D2", "letters"),
        ("Kira_Vos", "letters"),
        ("-Kira", "letters"),
        ("Kira <b>", "letters"),
    ],
)
def test_bad_names_get_a_clear_message(raw, problem):
    _name, message = avatar_name_clean(raw)
    assert problem in message


# The service --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_made_avatar_is_a_card_in_set_zero_owned_once_with_a_ledger_row():
    player = UserFactory()
    card = avatar_create(owner=player, choices=CHOICES, name="Kira Vos")

    card.refresh_from_db()
    assert card.card_set.number == PLAYER_AVATAR_SET_NUMBER
    assert (card.card_set.code, card.card_set.name) == ("PMA", "Player-made Avatars")
    assert card.number == 1 and card.rarity == "F" and card.creator == player
    assert card.artist == player.username
    assert card.keyword_names == ["evasion"]
    assert CardOwnership.objects.get(owner=player, card=card).quantity == 1
    entry = ItemEntry.objects.get(owner=player, card=card)
    assert (entry.delta, entry.reason) == (1, LedgerReason.AVATAR_CREATED)
    assert "Create Avatar" in entry.note


@pytest.mark.django_db
def test_made_avatars_are_numbered_on_and_count_as_the_players_cards():
    first, second = UserFactory(), UserFactory()
    avatar_create(owner=first, choices=CHOICES, name="Kira Vos")
    card = avatar_create(owner=second, choices=CHOICES, name="Kira Vos")

    assert card.number == 2
    mine = collection_cards(owner=second, filters=CardFilters(), only_owned=True)
    assert [each.title for each in mine] == ["Kira Vos"]
    assert list(mine)[0].owned == 1


@pytest.mark.django_db
def test_a_player_makes_at_most_ten_avatars():
    player = UserFactory()
    names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India"]
    for name in [*names, "Juliett"][:MAX_MADE_AVATARS]:
        avatar_create(owner=player, choices=CHOICES, name=name)
    with pytest.raises(AvatarError, match="You have made 10 avatars"):
        avatar_create(owner=player, choices=CHOICES, name="Kilo")
    assert Card.objects.filter(creator=player).count() == MAX_MADE_AVATARS


@pytest.mark.django_db
def test_names_clash_neither_with_your_avatars_nor_with_the_catalog():
    player = UserFactory()
    CardFactory(title="Dorn Kaleth")
    avatar_create(owner=player, choices=CHOICES, name="Kira Vos")
    with pytest.raises(AvatarError, match="already made an avatar named kira vos"):
        avatar_create(owner=player, choices=CHOICES, name="kira vos")
    with pytest.raises(AvatarError, match="title of a card in the catalog"):
        avatar_create(owner=player, choices=CHOICES, name="Dorn Kaleth")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("choices", "message"),
    [
        ({**CHOICES, "career": "droid_mechanic"}, "not one of the choices for career"),
        ({"species": "human", "gender": "male"}, "career is not chosen yet"),
    ],
)
def test_incomplete_or_tampered_answers_make_nothing(choices, message):
    player = UserFactory()
    with pytest.raises(AvatarError, match=message):
        avatar_create(owner=player, choices=choices, name="Kira Vos")
    assert not Card.objects.filter(creator=player).exists()
    assert not ItemEntry.objects.filter(owner=player).exists()


# The pages ----------------------------------------------------------------------------------


@pytest.fixture
def player_client(client, db):
    player = UserFactory()
    client.force_login(player)
    client.player = player
    return client


def test_create_avatar_needs_a_logged_in_player(client, db):
    response = client.get(CREATE)
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_the_first_step_asks_for_the_species_beside_the_preview(player_client):
    response = player_client.get(CREATE)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Select your species." in html
    assert html.count('type="radio" name="species"') == len(SPECIES)
    assert "<svg" in html and "New Avatar" in html


def test_next_goes_on_and_back_keeps_the_answers(player_client):
    response = player_client.post(CREATE, {"step": "0", "species": "wookiee", "go": "next"})
    html = response.content.decode()
    assert "Select your gender." in html
    assert '<input type="hidden" name="species" value="wookiee">' in html
    assert "Wookiee" in html  # on the preview

    response = player_client.post(
        CREATE, {"step": "1", "species": "wookiee", "gender": "male", "go": "back"}
    )
    html = response.content.decode()
    assert "Select your species." in html
    assert 'value="wookiee" checked' in html
    assert '<input type="hidden" name="gender" value="male">' in html


def test_next_without_an_answer_says_what_to_choose(player_client):
    response = player_client.post(CREATE, {"step": "0", "go": "next"})
    assert response.status_code == 200
    assert "Choose your species to go on." in response.content.decode()


def test_skipped_or_tampered_steps_lead_back_to_the_first_bad_answer(player_client):
    response = player_client.post(CREATE, {"step": "4", "species": "human", "go": "next"})
    html = response.content.decode()
    assert "Select your gender." in html
    assert "Choose your gender to go on." in html

    response = player_client.post(
        CREATE, {"step": "1", "species": "human", "gender": "<script>", "go": "next"}
    )
    html = response.content.decode()
    assert "Select your gender." in html
    assert "not one of the choices for gender" in html
    assert "<script>" not in html

    response = player_client.post(CREATE, {"step": "x" * 5000, "go": "next"})
    assert response.status_code == 200


@pytest.mark.parametrize("go", ["next", "onward", "\u00b2", "x" * 1000])
def test_an_unexpected_go_on_the_last_step_stays_there_with_a_message(player_client, go):
    response = player_client.post(CREATE, {**CHOICES, "step": "5", "name": "Kira Vos", "go": go})

    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="name"' in html and "Kira Vos" in html
    assert not Card.objects.filter(creator=player_client.player).exists()
    if go != "next":
        assert "Choose \u2039 Back, Next \u203a or Create avatar to go on." in html


def test_the_preview_shows_the_answers_so_far(player_client):
    response = player_client.get(
        PREVIEW, {"species": "zabrak", "gender": "male", "career": "sith_marauder", "name": "Vex"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Sith Marauder" in html and "Vex" in html and "Striketrough" in html


def test_naming_the_avatar_saves_it_and_shows_it_among_mine(player_client):
    response = player_client.post(
        CREATE, {**CHOICES, "step": "5", "name": "Kira Vos", "go": "create"}
    )
    card = Card.objects.get(creator=player_client.player)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('decks:avatar_list')}#avatar-{card.pk}"

    page = player_client.get(response["Location"])
    html = page.content.decode()
    assert "Kira Vos is now a card in your collection" in html
    assert f'id="avatar-{card.pk}"' in html


def test_htmx_create_redirects_the_whole_page(player_client):
    response = player_client.post(
        CREATE, {**CHOICES, "step": "5", "name": "Kira Vos", "go": "create"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("decks:avatar_list"))


def test_a_bad_name_stays_on_the_name_step_with_the_reason(player_client):
    response = player_client.post(CREATE, {**CHOICES, "step": "5", "name": "R2", "go": "create"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Name your avatar." in html
    assert "3 to 40 characters" in html
    assert not Card.objects.filter(creator=player_client.player).exists()


def test_a_player_at_the_cap_is_told_before_answering(player_client):
    for name in ["Alpha", "Bravo", "Charlie", "Delta", "Echo"] * 2:
        CardFactory(creator=player_client.player, card_type="avatar", title=name)
    response = player_client.get(CREATE, follow=True)
    html = response.content.decode()
    assert response.redirect_chain == [(reverse("decks:avatar_list"), 302)]
    assert "You have made 10 avatars, the most a player may make." in html
    assert "Create Avatar</a>" not in html
