"""Help (rulebook, Main Lobby, "Help" and Navigator): the rules in our own words, a glossary
with an address per term, search, and the links that lead there from cards and the Prompt."""

import copy
import json

import pytest
from django.urls import reverse

from collection.cards.glossary import GLOSSARY, TERMS, glossary_slug
from game.engine.vocabulary import KEYWORDS
from tcgsite.help.content import CONTENT_DIR, HelpContentError, content_from, help_content
from tcgsite.help.links import glossary_links
from tcgsite.help.selectors import help_search
from tcgsite.navigation import SECTIONS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def parsed(name: str):
    return json.loads((CONTENT_DIR / name).read_text(encoding="utf-8"))


def test_every_keyword_of_the_vocabulary_and_every_highlighted_term_has_a_help_entry():
    slugs = {entry.slug for entry in help_content().glossary}

    assert {glossary_slug(keyword) for keyword in KEYWORDS} <= slugs
    assert {glossary_slug(term) for term in TERMS} <= slugs


@pytest.mark.parametrize("missing", ["sentry", "for each"])
def test_a_glossary_without_an_entry_for_a_highlighted_word_is_refused(missing):
    glossary = [entry for entry in parsed("glossary.json") if entry["term"] != missing]

    with pytest.raises(HelpContentError, match=f"no entry for the highlighted terms.*{missing}"):
        content_from(sections=parsed("sections.json"), glossary=glossary)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("section", "fighting", "entry 'sentry': field 'section' names no Help section"),
        ("definition", " ", "entry 'sentry': field 'definition' must be non-empty text"),
        ("see", ["nothing at all"], "entry 'sentry': field 'see' names no entry"),
        ("see", "exert", "entry 'sentry': field 'see' must be a list of terms"),
    ],
)
def test_a_bad_glossary_field_is_refused_with_a_message_naming_it(field, value, message):
    glossary = copy.deepcopy(parsed("glossary.json"))
    next(entry for entry in glossary if entry["term"] == "sentry")[field] = value

    with pytest.raises(HelpContentError, match=message):
        content_from(sections=parsed("sections.json"), glossary=glossary)


def test_a_section_without_its_text_or_with_a_bad_slug_is_refused():
    sections = parsed("sections.json")

    with pytest.raises(HelpContentError, match="section 'combat-2'.*help/sections/combat-2.html"):
        content_from(
            sections=[*sections, {"slug": "combat-2", "title": "More", "summary": "More."}],
            glossary=parsed("glossary.json"),
        )
    with pytest.raises(HelpContentError, match="field 'slug' must be lowercase words"):
        content_from(
            sections=[*sections, {"slug": "Combat Two", "title": "More", "summary": "More."}],
            glossary=parsed("glossary.json"),
        )
    with pytest.raises(HelpContentError, match="section 'combat': field 'slug' is used twice"):
        content_from(sections=[*sections, sections[3]], glossary=parsed("glossary.json"))


def test_help_is_open_to_everyone_and_every_page_answers(client):
    pages = [reverse("help:home"), reverse("help:glossary"), reverse("help:search") + "?q=raid"]
    pages += [reverse("help:section", args=[section.slug]) for section in help_content().sections]
    pages += [reverse("help:term", args=[entry.slug]) for entry in help_content().glossary]

    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert answer.content.decode().count("<h1>") == 1, page


def test_an_unknown_section_or_term_is_a_404(client):
    assert client.get(reverse("help:section", args=["no-such-part"])).status_code == 404
    assert client.get(reverse("help:term", args=["no-such-word"])).status_code == 404


def test_a_term_page_says_what_it_means_where_it_is_explained_and_what_to_see(client):
    page = client.get(reverse("help:term", args=["sentry"])).content.decode()

    assert "When your avatar is attacked, this unit joins the combat if it is ready." in page
    assert f'href="{reverse("help:section", args=["combat"])}"' in page
    assert f'href="{reverse("help:term", args=["joins"])}"' in page


def test_a_section_lists_its_terms_and_leads_to_the_next_section(client):
    page = client.get(reverse("help:section", args=["combat"])).content.decode()

    assert "Compare the" in page and "A combat begins when" in page
    assert f'href="{reverse("help:term", args=["striketrough"])}"' in page
    assert f'rel="next" href="{reverse("help:section", args=["quests"])}"' in page


def test_search_puts_the_term_named_first_then_the_sections_that_mention_it_most():
    hits = help_search("Sentry").hits

    assert (hits[0].title, hits[0].is_term) == ("sentry", True)
    assert not help_search("sentry").refusal
    raid = help_search("raid")
    assert raid.hits[0].title == "raid"
    assert raid.hits[1].title == "Team games and raids"


def test_search_explains_a_query_too_short_too_long_or_found_nowhere(client):
    assert "at least 2 letters" in help_search("a").refusal
    assert "at most 80 characters" in help_search("x" * 81).refusal
    assert help_search("   ").hits == ()
    page = client.get(reverse("help:search"), {"q": "zzyzx"}).content.decode()
    assert "Nothing in Help mentions “zzyzx”" in page
    page = client.get(reverse("help:search"), {"q": "bye"}).content.decode()
    assert f'href="{reverse("help:term", args=["bye"])}"' in page
    assert 'value="bye"' in page


def test_the_prompt_links_the_highlighted_words_and_phase_names_once_each():
    html = str(glossary_links("Exert a unit <now>, then exert it again in your Main Phase."))

    assert html.count('href="/help/glossary/exert/"') == 1
    assert 'href="/help/glossary/main-phase/"' in html
    assert "&lt;now&gt;" in html
    assert "/help/glossary/unit/" not in html  # an everyday word stays plain


def test_a_card_page_links_its_keywords_to_help(client, catalog):
    from collection.cards.models import Card

    card = Card.objects.filter(game_text__icontains="Sentry").first()
    page = client.get(card.get_absolute_url()).content.decode()

    assert f'<a class="term" href="{reverse("help:term", args=["sentry"])}"' in page
    assert f'<dt><a href="{reverse("help:term", args=["sentry"])}">Sentry</a></dt>' in page
    assert GLOSSARY["sentry"] in page


def test_the_navigator_and_the_main_lobby_lead_to_help(client):
    assert ("Help", "help:home") in [
        (entry.label, entry.url_name) for section in SECTIONS for entry in section.entries
    ]
    client.force_login(UserFactory(username="Carol"))
    page = client.get(reverse("lobby")).content.decode()
    assert page.count(f'href="{reverse("help:home")}"') == 2  # the Navigator and the tile
