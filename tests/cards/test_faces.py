"""Card faces: standalone SVG drawn from card data alone."""

import re
import xml.etree.ElementTree as ET

import pytest

from collection.cards.faces import (
    FACE_SIZES,
    TEXT_LEFT,
    TEXT_PADDING,
    TEXT_RIGHT,
    card_face_svg,
    game_text_html,
    layout_text_box,
    text_width,
)
from collection.cards.glossary import GLOSSARY
from collection.cards.models import Archetype, Card, CardSet, CardType

SVG = "{http://www.w3.org/2000/svg}"
SIZES = list(FACE_SIZES)

LONG_GAME_TEXT = (
    "Ambush. Durable. Operative.\n"
    "{main} Exert this unit and pay 1 power \u2192 Deal 1 damage to target unit for each Tusken "
    "you control at this quest. Then, if that unit was destroyed, this unit permanently gets "
    "+1 attack and +1 defense and you may ready it.\n"
    "{attack} Remove Intel from a card you control \u2192 This unit gets +3 attack this combat "
    "and can't be targeted by tactics.\n"
    "Whenever this unit joins a combat, link it to target opposing unit; while linked, that "
    "unit can't withdraw."
)
LONG_LORE = (
    "The sands of Tatooine hide many dangers, and the Tuskens know every dune, every canyon "
    "and every cave where a careless traveler might rest."
)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - parses the renderer's own output


def titles(root: ET.Element) -> list[str]:
    return ["".join(title.itertext()) for title in root.iter(f"{SVG}title")]


def visible_text(root: ET.Element) -> str:
    """Text a viewer sees: every <text>, without the hover-only <title> children."""
    parts = []
    for text in root.iter(f"{SVG}text"):
        parts.append(text.text or "")
        for child in text:
            if child.tag == f"{SVG}tspan":
                parts.append(child.text or "")
                parts.extend(grandchild.tail or "" for grandchild in child)
            parts.append(child.tail or "")
        parts.append("\n")
    return "".join(parts)


def make_card(**fields) -> Card:
    defaults = {
        "card_set": CardSet(number=1, code="CotF", name="Champions of the Force"),
        "number": 12,
        "rarity": "R",
        "title": "Rebel Heavy Trooper",
        "card_type": CardType.UNIT,
        "archetype": Archetype.REBEL,
        "traits": ["Human", "Soldier"],
        "cost": 3,
        "attack": 2,
        "defense": 5,
        "damage_bonus": 1,
        "health": 4,
        "game_text": "Shield 2.",
        "lore": "Hardened by a hundred skirmishes.",
        "artist": "Ryan Sook",
    }
    return Card(**{**defaults, **fields})


ONE_OF_EACH_TYPE = {
    CardType.AVATAR: {"cost": None, "health": 25},
    CardType.QUEST: {
        "cost": None,
        "attack": None,
        "defense": None,
        "damage_bonus": None,
        "health": None,
        "level": 4,
    },
    CardType.UNIT: {},
    CardType.ABILITY: {"attack": None, "damage_bonus": None, "health": None, "level": 2},
    CardType.ITEM: {"defense": None, "health": None, "restriction": "Hand"},
    CardType.TACTIC: {"attack": None, "defense": None, "damage_bonus": None, "health": None},
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("archetype", [choice.value for choice in Archetype])
@pytest.mark.parametrize("card_type", list(ONE_OF_EACH_TYPE))
def test_every_card_type_archetype_and_size_renders_a_standalone_svg(card_type, archetype, size):
    card = make_card(card_type=card_type, archetype=archetype, **ONE_OF_EACH_TYPE[card_type])

    root = parse(card_face_svg(card, size=size))

    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 250 350"
    assert (int(root.get("width")), int(root.get("height"))) == (
        FACE_SIZES[size].width,
        FACE_SIZES[size].height,
    )
    assert "Rebel Heavy Trooper" in visible_text(root)


@pytest.mark.parametrize(
    ("size", "pixels"), [("small", (180, 252)), ("medium", (250, 350)), ("large", (340, 476))]
)
def test_sizes_are_the_preferences_small_medium_and_large(size, pixels):
    root = parse(card_face_svg(make_card(), size=size))

    assert (int(root.get("width")), int(root.get("height"))) == pixels


def test_unknown_size_is_refused():
    with pytest.raises(ValueError, match="huge"):
        card_face_svg(make_card(), size="huge")


@pytest.mark.parametrize("size", SIZES)
def test_unit_shows_title_cost_type_line_attributes_collector_info_and_artist(size):
    card = make_card(restriction="Leader")

    root = parse(card_face_svg(card, size=size))
    shown = visible_text(root)

    assert "Rebel Heavy Trooper" in shown
    assert "Unit \u2022 Rebel \u2022 Human \u2022 Soldier \u2014 Restriction: Leader" in shown
    for label, value in (("ATK", "2"), ("DEF", "5"), ("DMG", "1")):
        assert label in shown
        assert re.search(rf">{value}</text>", card_face_svg(card, size=size))
    assert {"Cost 3", "Attack 2", "Defense 5", "Damage bonus 1", "Health 4"} <= set(titles(root))
    assert "1R12" in shown
    assert "Illus. Ryan Sook" in shown


def test_avatars_and_quests_have_no_cost_circle_but_quests_show_their_level():
    avatar = parse(card_face_svg(make_card(card_type=CardType.AVATAR, cost=None)))
    quest = parse(
        card_face_svg(make_card(card_type=CardType.QUEST, **ONE_OF_EACH_TYPE[CardType.QUEST]))
    )

    assert not any(title.startswith("Cost") for title in titles(avatar))
    assert not any(title.startswith("Cost") for title in titles(quest))
    assert "Level 4" in titles(quest)
    assert not any(title.startswith(("Attack", "Health")) for title in titles(quest))


def test_abilities_show_level_next_to_defense():
    ability = make_card(card_type=CardType.ABILITY, **ONE_OF_EACH_TYPE[CardType.ABILITY])

    shown_titles = titles(parse(card_face_svg(ability)))

    assert {"Cost 3", "Defense 5", "Level 2"} <= set(shown_titles)
    assert "LVL" in visible_text(parse(card_face_svg(ability)))


def test_starship_items_show_health_with_the_heart():
    starship = make_card(card_type=CardType.ITEM, restriction="starship", health=8, attack=None)

    assert "Health 8" in titles(parse(card_face_svg(starship)))


def highlighted_spans(root: ET.Element) -> dict[str, str]:
    """Highlighted text mapped to the meaning in its <title>."""
    return {
        (span.find(f"{SVG}title").tail or ""): "".join(span.find(f"{SVG}title").itertext())
        for span in root.iter(f"{SVG}tspan")
        if span.find(f"{SVG}title") is not None
    }


def test_keywords_and_terms_are_highlighted_with_their_glossary_meaning():
    card = make_card(
        game_text=(
            "Shield 2. Smuggle: Credit Chip.\n"
            "This unit gets +1 attack FOR EACH Jedi here and permanently gets +1 defense."
        )
    )

    spans = highlighted_spans(parse(card_face_svg(card)))

    assert GLOSSARY["shield"] in spans["Shield 2"]
    assert GLOSSARY["smuggle"] in spans["Smuggle"]
    assert GLOSSARY["for each"] in spans["FOR EACH"]
    assert GLOSSARY["permanently"] in spans["permanently"]
    highlighted = re.findall(r'<tspan fill="(#[0-9a-f]+)" font-weight="bold">', card_face_svg(card))
    assert len(highlighted) == 4
    assert len(set(highlighted)) == 1


def test_only_whole_words_are_highlighted():
    card = make_card(game_text="Shielded, non-unique and readied units raid again.")

    spans = highlighted_spans(parse(card_face_svg(card)))

    assert list(spans) == ["raid"]


@pytest.mark.parametrize("size", SIZES)
def test_timing_tokens_become_icons_and_arrows_stay(size):
    card = make_card(
        game_text="{main} Exert \u2192 Draw a card.\n{attack} Gain 1.\n{defend} Gain 2."
    )

    svg = card_face_svg(card, size=size)
    root = parse(svg)

    assert "{" not in visible_text(root)
    assert "\u2192" in visible_text(root)
    icon_titles = [
        title
        for title in titles(root)
        if title.startswith(("Main Phase:", "Attacking:", "Defending:"))
    ]
    assert [title.split(":")[0] for title in icon_titles] == [
        "Main Phase",
        "Attacking",
        "Defending",
    ]


@pytest.mark.parametrize("size", SIZES)
def test_long_game_text_moves_the_lore_behind_the_datapad(size):
    card = make_card(game_text=LONG_GAME_TEXT, lore=LONG_LORE)

    root = parse(card_face_svg(card, size=size))

    assert "The sands of Tatooine" not in visible_text(root)
    assert f"Lore: {LONG_LORE}" in titles(root)


def test_short_game_text_shows_the_lore_in_italics_without_a_datapad():
    root = parse(card_face_svg(make_card()))

    lore = [text for text in root.iter(f"{SVG}text") if "Hardened" in (text.text or "")]
    assert [text.get("font-style") for text in lore] == ["italic"]
    assert not any(title.startswith("Lore:") for title in titles(root))


def test_small_size_drops_the_lore_before_the_larger_sizes_do():
    card = make_card(
        game_text=(
            "{main} Exert this avatar \u2192 Ready target ability you control.\n"
            "Whenever your avatar is attacked, you may search your deck for a Jedi ability."
        ),
        lore="A young Twi'lek who fled the Empire's purge and found her way to the Force.",
    )

    lore_on_face = {
        size: "fled the Empire" in visible_text(parse(card_face_svg(card, size=size)))
        for size in SIZES
    }

    assert lore_on_face == {"small": False, "medium": True, "large": True}


@pytest.mark.parametrize("size", SIZES)
def test_wrapped_lines_fit_the_text_box(size):
    layout = layout_text_box(LONG_GAME_TEXT, "", FACE_SIZES[size])
    box_width = TEXT_RIGHT - TEXT_LEFT - 2 * TEXT_PADDING
    space = text_width(" ", layout.body_font)

    for line in layout.body:
        width = sum(
            text_width(piece.text, layout.body_font, bold=bool(piece.meaning))
            if not piece.icon
            else layout.body_font * 1.15
            for word in line.words
            for piece in word
        ) + space * (len(line.words) - 1)
        assert width <= box_width + text_width("\u2026 ", layout.body_font)


def test_small_size_puts_fewer_words_on_a_line():
    def longest_line(size):
        layout = layout_text_box(LONG_GAME_TEXT, "", FACE_SIZES[size])
        return max(len(line.words) for line in layout.body)

    assert longest_line("small") < longest_line("medium") <= longest_line("large")


def test_long_titles_shrink_to_fit():
    def title_font(title):
        root = parse(card_face_svg(make_card(title=title)))
        text = next(text for text in root.iter(f"{SVG}text") if text.text == title)
        return float(text.get("font-size"))

    assert title_font("Tusken Raider Sniper of the Jundland Wastes") < title_font("Jawa")


def test_hostile_text_is_escaped():
    card = make_card(
        title="<script>alert('x')</script>",
        traits=["<b>bold</b>"],
        restriction='"><svg onload=alert(1)>',
        game_text="Deal 1 damage. <img src=x onerror=alert(1)> & more",
        lore="</text><script>alert(2)</script>" + " lore" * 80,
        artist='Evil "Artist" <x>',
    )

    svg = card_face_svg(card)
    root = parse(svg)

    assert "<script" not in svg
    assert "<img" not in svg
    assert "<b>" not in svg
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in svg
    assert not any(element.tag.endswith(("script", "img", "b")) for element in root.iter())
    shown = visible_text(root)
    assert "<script>alert('x')</script>" in shown
    assert "<img src=x onerror=alert(1)>" in shown
    assert 'Illus. Evil "Artist" <x>' in shown


def test_characters_xml_forbids_are_dropped():
    svg = card_face_svg(make_card(title="Bad\x00Title\x1b"))

    assert "BadTitle" in visible_text(parse(svg))


def test_same_card_gives_the_same_svg():
    assert card_face_svg(make_card(game_text=LONG_GAME_TEXT)) == card_face_svg(
        make_card(game_text=LONG_GAME_TEXT)
    )


def test_game_text_html_highlights_terms_and_escapes():
    html = game_text_html("{main} Exert <b>this</b> → Shield 2 for each unit.")

    assert html.startswith("<p>") and html.endswith("</p>")
    assert 'class="timing timing--main"' in html
    assert "&lt;b&gt;this&lt;/b&gt;" in html
    assert (
        f'<a class="term" href="/help/glossary/shield/" title="{GLOSSARY["shield"]}">Shield 2</a>'
        in html
    )
    assert '<a class="term" href="/help/glossary/for-each/"' in html.split("Shield 2")[1]
