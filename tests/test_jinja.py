"""The Jinja2 environment of the live match screen (tcgsite/jinja.py)."""

import jinja2
from django.template import engines
from django.urls import set_script_prefix
from django.utils.text import capfirst

from tcgsite.jinja import environment


def render(source: str, **context) -> str:
    return engines["jinja2"].from_string(source).render(context)


def test_a_dotted_name_reads_a_dicts_key_before_its_attributes():
    player = {"items": ["Blaster"], "name": "Carol"}
    shown = render("{{ player.items|join(',') }} {{ player.name }}", player=player)
    assert shown == "Blaster Carol"
    assert render("{{ player.missing }}", player=player) == ""
    assert render("{{ note.upper() }}", note="hi") == "HI"


def test_an_address_follows_the_script_prefix_of_its_request():
    assert render("{{ url('game:match_page', 7) }}") == "/matches/7/"
    set_script_prefix("/tcg/")
    try:
        assert render("{{ url('game:match_page', 7) }}") == "/tcg/matches/7/"
    finally:
        set_script_prefix("/")
    assert render("{{ url('game:match_page', 8) }}") == "/matches/8/"


def test_the_settings_add_filters_by_dotted_path():
    """A filter named in the settings (OPTIONS "filters") is imported and called from the
    template, as the playmat draws its cards (``game.fragments.mat_card``)."""
    env = environment(filters={"first_upper": "django.utils.text.capfirst"})

    assert env.from_string("{{ name|first_upper }}").render(name="paladon") == "Paladon"
    assert env.filters["first_upper"] is capfirst


def test_a_missing_value_renders_empty_even_in_debug():
    env = environment(undefined=jinja2.DebugUndefined)

    assert env.from_string("{{ player.missing }}").render(player={}) == ""
