"""Player portraits (rulebook, PREFERENCES, Avatar)."""

import xml.etree.ElementTree as ET

import pytest

from tcgsite.accounts.avatars import PLAYER_AVATAR_CHOICES, player_avatar_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - parses the renderer's own output


def test_player_avatar_choices_are_about_a_dozen_distinct_portraits():
    keys = [key for key, _label in PLAYER_AVATAR_CHOICES]

    assert 10 <= len(keys) <= 14
    assert len(set(keys)) == len(keys)
    assert {"smuggler", "bounty_hunter", "wookiee"} <= set(keys)
    assert len({player_avatar_svg(key) for key in keys}) == len(keys)


@pytest.mark.parametrize(("choice", "label"), PLAYER_AVATAR_CHOICES)
def test_each_player_avatar_renders_a_round_svg(choice, label):
    root = parse(player_avatar_svg(choice, size=48))

    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == ("48", "48")
    assert root.get("viewBox") == "0 0 64 64"
    assert root.get("aria-label") == label


def test_unknown_player_avatar_is_refused():
    with pytest.raises(ValueError, match="nobody"):
        player_avatar_svg("nobody")
