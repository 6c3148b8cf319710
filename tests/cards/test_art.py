"""Card art: every card gets a picture of its own, drawn from its data (collection.cards.art)."""

import colorsys
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest
from django.urls import reverse

from collection.cards.art import art_subject
from collection.cards.faces import FACE_SIZES, card_face_svg
from collection.cards.models import Archetype, Card, CardType
from collection.decks.avatars import avatar_card_fields
from tests.cards.test_faces import make_card

SVG = "{http://www.w3.org/2000/svg}"
FACE_SIZE_LIMIT = 12_000  # bytes: the catalog's largest face stays well under this


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - parses the renderer's own output


def art_of(face: str) -> ET.Element:
    (art,) = [group for group in parse(face).iter(f"{SVG}g") if group.get("class") == "card-art"]
    return art


def subject_of(card: Card) -> str:
    return art_of(card_face_svg(card)).get("data-subject")


def catalog_cards() -> list[Card]:
    return list(Card.objects.printed().select_related("card_set"))


def test_the_same_card_always_gets_the_same_art():
    first = card_face_svg(make_card(title="Dunewater Scout"))
    again = card_face_svg(make_card(title="Dunewater Scout"))

    assert first == again


def test_cards_alike_but_for_their_identity_get_different_art():
    scout = art_of(card_face_svg(make_card(number=12)))
    other = art_of(card_face_svg(make_card(number=13)))

    assert scout.get("data-subject") == other.get("data-subject") == "figure-human"
    assert ET.tostring(scout) != ET.tostring(other)


@pytest.mark.parametrize(
    ("fields", "subject"),
    [
        ({"traits": ["Wookiee", "Soldier"]}, "figure-wookiee"),
        ({"traits": ["Twi'lek", "Entertainer"]}, "figure-twilek"),
        ({"traits": ["Rodian", "Bounty Hunter"]}, "figure-rodian"),
        ({"traits": ["Trandoshan", "Slaver"]}, "figure-trandoshan"),
        ({"traits": ["Zabrak", "Marauder"]}, "figure-zabrak"),
        ({"traits": ["Human", "Stormtrooper"]}, "figure-stormtrooper"),
        ({"traits": ["Droid", "Astromech"]}, "droid-astromech"),
        ({"traits": ["Droid", "Protocol"]}, "droid-protocol"),
        ({"traits": ["Creature", "Bantha"]}, "creature-bantha"),
        (
            {"card_type": CardType.ITEM, "traits": ["Starship", "Freighter"]},
            "starship-freighter",
        ),
        ({"card_type": CardType.ITEM, "traits": ["Vehicle", "Swoop"]}, "vehicle-swoop"),
        ({"card_type": CardType.ITEM, "traits": ["Vehicle", "Speeder"]}, "vehicle-speeder"),
        (
            {"card_type": CardType.ITEM, "traits": ["Weapon", "Lightsaber"]},
            "item-lightsaber",
        ),
        (
            {"card_type": CardType.ITEM, "title": "Alliance Carbine", "traits": ["Weapon"]},
            "item-blaster-rifle",
        ),
        ({"card_type": CardType.ITEM, "traits": ["Armor", "Robes"]}, "item-robes"),
        ({"card_type": CardType.ABILITY, "traits": ["Force Power"]}, "emblem-force"),
        ({"card_type": CardType.TACTIC, "traits": ["Defense"]}, "emblem-shield"),
        (
            {"card_type": CardType.QUEST, "title": "Escape the Kessel Mines", "traits": ["Quest"]},
            "quest-mine",
        ),
    ],
)
def test_the_subject_is_drawn_from_type_and_traits(fields, subject):
    assert subject_of(make_card(**{"title": "Nameless", **fields})) == subject


def test_a_made_avatar_shows_the_species_its_player_chose():
    """Rulebook, Create Avatar: "Select your species." The preview shows that species."""
    choices = {"species": "wookiee", "gender": "female", "career": "rebel_scout"}
    card = make_card(**avatar_card_fields(choices, name="Tarrka"), cost=None)

    assert subject_of(card) == "figure-wookiee"


def test_an_avatar_without_a_species_yet_is_a_hooded_stranger():
    card = make_card(**avatar_card_fields({}, name=""), cost=None)

    assert subject_of(card) == "figure-stranger"


@pytest.mark.django_db
def test_no_two_catalog_cards_share_their_art(catalog):
    arts = [ET.tostring(art_of(card_face_svg(card))) for card in catalog_cards()]

    assert len(arts) > 200
    assert len(set(arts)) == len(arts)


@pytest.mark.django_db
def test_cards_of_one_type_and_archetype_differ_in_subject_scene_or_colours(catalog):
    """Beyond differing markup, two cards of a group never share subject, scene and sky."""
    looks = defaultdict(list)
    for card in catalog_cards():
        art = art_of(card_face_svg(card))
        sky = next(
            element.get("id")
            for element in art.iter(f"{SVG}linearGradient")
            if element.get("id").startswith("art-sky-")
        )
        looks[(card.card_type, card.archetype)].append(
            (art.get("data-subject"), art.get("data-scene"), sky)
        )

    for group, group_looks in looks.items():
        assert len(set(group_looks)) == len(group_looks), group


@pytest.mark.django_db
def test_catalog_faces_are_plain_svg_shapes_and_small(catalog):
    """No style attributes or elements, no scripts, no references outside the face itself."""
    for card in catalog_cards():
        for size in FACE_SIZES:
            face = card_face_svg(card, size=size)
            root = parse(face)
            assert len(face.encode()) < FACE_SIZE_LIMIT, card.title
            for element in root.iter():
                tag = element.tag.removeprefix(SVG)
                assert tag not in ("style", "script", "image", "foreignObject", "use"), tag
                assert "style" not in element.attrib
                assert not any(name.startswith("on") for name in element.attrib)
                assert not any(name.endswith("href") for name in element.attrib)
                for value in element.attrib.values():
                    assert re.fullmatch(r"url\(#[\w-]+\)", value) or "url(" not in value


@pytest.mark.django_db
def test_inlined_faces_never_define_one_id_two_ways(catalog):
    """Pages inline many faces; an id may repeat only with the very same definition."""
    definitions = defaultdict(set)
    for card in catalog_cards():
        for element in parse(card_face_svg(card, size="small")).iter():
            if element.get("id"):
                definitions[element.get("id")].add(ET.tostring(element))

    assert definitions
    assert all(len(found) == 1 for found in definitions.values())


@pytest.mark.parametrize("number", range(1, 9))
def test_art_keeps_the_archetype_colour_family(number):
    """The same card as Sith and as Jedi: a red sky against a blue one, so the side shows."""

    def sky_hue(archetype: str) -> float:
        art = art_of(card_face_svg(make_card(number=number, archetype=archetype)))
        stop = next(art.iter(f"{SVG}stop")).get("stop-color")
        red, green, blue = (int(stop[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hls(red, green, blue)[0] * 360

    assert sky_hue(Archetype.SITH) > 340 or sky_hue(Archetype.SITH) < 10
    assert 180 < sky_hue(Archetype.JEDI) < 230


def test_a_quest_or_power_the_art_does_not_name_still_gets_a_picture():
    """Quests without a named destination and powers without a named emblem still get one."""
    quest = make_card(card_type=CardType.QUEST, title="A Quiet Errand", traits=["Quest"])
    ability = make_card(card_type=CardType.ABILITY, title="Something", traits=["Mystery"])

    assert art_subject(quest).kind == "quest" and art_subject(quest).name
    assert art_subject(ability).kind == "emblem" and art_subject(ability).name


@pytest.mark.django_db
def test_the_face_url_and_the_card_page_show_the_cards_own_art(client, catalog):
    """The Card Browser, binder, Deck Builder and Test Draw show faces from the face URL."""
    wookiee = Card.objects.printed().get(title="Wookiee Freedom Fighter")
    set_number, number = wookiee.card_set.number, wookiee.number

    face = client.get(reverse("cards:card_face", args=[set_number, number]), {"size": "small"})
    page = client.get(reverse("cards:card_detail", args=[set_number, number]))

    assert b'data-subject="figure-wookiee"' in face.content
    assert b'data-subject="figure-wookiee"' in page.content
