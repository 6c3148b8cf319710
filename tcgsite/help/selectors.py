"""What Help's pages read: the contents, a section with its neighbours, the glossary, search."""

import re
from dataclasses import dataclass
from functools import lru_cache
from html import unescape

from django.template.loader import render_to_string

from collection.cards.glossary import GLOSSARY, glossary_slug
from tcgsite.help.content import GlossaryEntry, Section, help_content

SEARCH_MIN_LENGTH = 2
SEARCH_MAX_LENGTH = 80
SNIPPET_AROUND = 90
# A tag becomes a space, so the cells of a table and the items of a list stay apart as words.
_TAG_RE = re.compile(r"<[^>]*>")


@dataclass(frozen=True)
class SectionPage:
    section: Section
    previous: Section | None
    following: Section | None
    terms: tuple[GlossaryEntry, ...]  # the glossary entries this section explains


@dataclass(frozen=True)
class Hit:
    title: str
    url_name: str
    slug: str
    snippet: str
    is_term: bool


@dataclass(frozen=True)
class SearchResult:
    query: str
    hits: tuple[Hit, ...]
    refusal: str = ""


def help_sections() -> tuple[Section, ...]:
    return help_content().sections


def help_section_page(slug: str) -> SectionPage | None:
    sections = help_content().sections
    index = next((i for i, section in enumerate(sections) if section.slug == slug), None)
    if index is None:
        return None
    return SectionPage(
        section=sections[index],
        previous=sections[index - 1] if index else None,
        following=sections[index + 1] if index + 1 < len(sections) else None,
        terms=tuple(entry for entry in help_content().glossary if entry.section == slug),
    )


def glossary_entries() -> tuple[GlossaryEntry, ...]:
    return help_content().glossary


def glossary_entry_page(
    slug: str,
) -> tuple[GlossaryEntry, Section, tuple[GlossaryEntry, ...]] | None:
    """The entry, the section that explains it, and the entries it points to."""
    content = help_content()
    entry = content.entry(slug)
    if entry is None:
        return None
    see = tuple(content.entry(glossary_slug(name)) for name in entry.see)
    return entry, content.section(entry.section), tuple(filter(None, see))


def help_search(query: str) -> SearchResult:
    """Glossary terms whose name holds every word of the query first, then the sections and
    terms whose text holds them all, each with a snippet around the first word."""
    query = " ".join(query.split())
    if not query:
        return SearchResult(query="", hits=())
    if len(query) < SEARCH_MIN_LENGTH:
        return SearchResult(query, (), f"Type at least {SEARCH_MIN_LENGTH} letters to search.")
    if len(query) > SEARCH_MAX_LENGTH:
        return SearchResult(
            query[:SEARCH_MAX_LENGTH], (), f"Search for at most {SEARCH_MAX_LENGTH} characters."
        )
    words = query.lower().split()
    named, mentioned = [], []
    for entry in help_content().glossary:
        text = f"{entry.term} {entry.definition}".lower()
        if all(word in text for word in words):
            hit = Hit(entry.term, "help:term", entry.slug, _snippet(entry.definition, words), True)
            (named if all(word in entry.term.lower() for word in words) else mentioned).append(hit)
    sections = []
    for section, text in _section_texts():
        haystack = f"{section.title} {text}".lower()
        if all(word in haystack for word in words):
            hit = Hit(section.title, "help:section", section.slug, _snippet(text, words), False)
            sections.append((-sum(haystack.count(word) for word in words), hit))
    ranked = [hit for _mentions, hit in sorted(sections, key=lambda pair: pair[0])]
    return SearchResult(query, tuple(named + ranked + mentioned))


@lru_cache(maxsize=1)
def _section_texts() -> tuple[tuple[Section, str], ...]:
    """Each section's text without its markup: the templates do not change while a process
    runs, so they are rendered for searching once."""
    return tuple(
        (
            section,
            " ".join(unescape(_TAG_RE.sub(" ", render_to_string(section.template_name))).split()),
        )
        for section in help_content().sections
    )


def _snippet(text: str, words: list[str]) -> str:
    at = text.lower().find(words[0])
    if at < 0:
        return text[: 2 * SNIPPET_AROUND].rstrip() + ("…" if len(text) > 2 * SNIPPET_AROUND else "")
    start, end = max(0, at - SNIPPET_AROUND), min(len(text), at + SNIPPET_AROUND)
    start = text.rfind(" ", 0, start) + 1 if start else 0
    stop = text.find(" ", end)
    end = len(text) if stop < 0 else stop
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


_TERM_BOUNDARY = r"(?<![\w-]){}(?![\w-])"


# Besides the words the card faces highlight, the Prompt's names of the turn's phases lead to
# Help; everyday words such as "quest" or "card" would turn every prompt into a row of links.
PROMPT_TERMS = ("draw phase", "quest phase", "ready phase", "main phase")


@lru_cache(maxsize=1)
def _terms_pattern() -> re.Pattern:
    terms = sorted((*GLOSSARY, *PROMPT_TERMS), key=len, reverse=True)
    return re.compile(
        "|".join(_TERM_BOUNDARY.format(re.escape(term)) for term in terms), re.IGNORECASE
    )


def glossary_terms_in(text: str) -> list[tuple[str, str | None]]:
    """``text`` cut into runs, each with the slug of the glossary term it is, or None: the
    terms the card faces highlight and the phases' names, each at its first mention only, so
    a sentence stays readable."""
    runs: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    position = 0
    for match in _terms_pattern().finditer(text):
        slug = glossary_slug(match.group(0))
        if slug in seen:
            continue
        seen.add(slug)
        runs.append((text[position : match.start()], None))
        runs.append((match.group(0), slug))
        position = match.end()
    runs.append((text[position:], None))
    return [run for run in runs if run[0]]
