"""Help's content: the rules sections and the glossary, as data validated when they load.

``sections.json`` lists the rules sections in reading order (slug, title, summary); each one's
text is the template ``help/sections/<slug>.html``. ``glossary.json`` holds one entry per
glossary term: the term, its definition in our own words, the rules section that explains it
and the terms to see also. Every keyword of the rules vocabulary and every term the card faces
highlight must have an entry (``collection.cards.glossary``), so a card's highlighted word never
links to nothing. A file that breaks a rule raises ``HelpContentError`` naming the file, the
entry and the field.
"""

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.template.loader import get_template

from collection.cards.glossary import GLOSSARY, glossary_slug

CONTENT_DIR = Path(__file__).resolve().parent
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class HelpContentError(ValueError):
    pass


@dataclass(frozen=True)
class Section:
    slug: str
    title: str
    summary: str

    @property
    def template_name(self) -> str:
        return f"help/sections/{self.slug}.html"


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    definition: str
    section: str
    see: tuple[str, ...]

    @property
    def slug(self) -> str:
        return glossary_slug(self.term)


@dataclass(frozen=True)
class HelpContent:
    sections: tuple[Section, ...]
    glossary: tuple[GlossaryEntry, ...]

    def section(self, slug: str) -> Section | None:
        return next((section for section in self.sections if section.slug == slug), None)

    def entry(self, slug: str) -> GlossaryEntry | None:
        return next((entry for entry in self.glossary if entry.slug == slug), None)


@lru_cache(maxsize=1)
def help_content() -> HelpContent:
    return content_from(
        sections=_read(CONTENT_DIR / "sections.json"),
        glossary=_read(CONTENT_DIR / "glossary.json"),
    )


def content_from(*, sections: object, glossary: object) -> HelpContent:
    """The content these two parsed files hold, checked: raises ``HelpContentError``."""
    checked_sections = _sections(sections)
    section_slugs = {section.slug for section in checked_sections}
    entries = _glossary(glossary, section_slugs)
    return HelpContent(sections=checked_sections, glossary=entries)


def _read(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise HelpContentError(f"{path.name}: not JSON: {error}") from error


def _text(where: str, item: dict, field: str) -> str:
    value = item.get(field)
    if not isinstance(value, str) or not value.strip():
        raise HelpContentError(f"{where}: field '{field}' must be non-empty text, not {value!r}")
    return value.strip()


def _sections(data: object) -> tuple[Section, ...]:
    if not isinstance(data, list) or not data:
        raise HelpContentError("sections.json: must be a non-empty list of sections")
    sections, seen = [], set()
    for position, item in enumerate(data, 1):
        where = f"sections.json, section {position}"
        if not isinstance(item, dict):
            raise HelpContentError(f"{where}: must be an object")
        slug = _text(where, item, "slug")
        where = f"sections.json, section '{slug}'"
        if not SLUG_RE.match(slug):
            raise HelpContentError(f"{where}: field 'slug' must be lowercase words joined by -")
        if slug in seen:
            raise HelpContentError(f"{where}: field 'slug' is used twice")
        seen.add(slug)
        section = Section(
            slug=slug, title=_text(where, item, "title"), summary=_text(where, item, "summary")
        )
        try:
            get_template(section.template_name)
        except Exception as error:  # TemplateDoesNotExist or TemplateSyntaxError
            raise HelpContentError(f"{where}: its text {section.template_name}: {error}") from error
        sections.append(section)
    return tuple(sections)


def _glossary(data: object, section_slugs: set[str]) -> tuple[GlossaryEntry, ...]:
    if not isinstance(data, list):
        raise HelpContentError("glossary.json: must be a list of entries")
    entries: dict[str, GlossaryEntry] = {}
    for position, item in enumerate(data, 1):
        where = f"glossary.json, entry {position}"
        if not isinstance(item, dict):
            raise HelpContentError(f"{where}: must be an object")
        term = _text(where, item, "term")
        where = f"glossary.json, entry '{term}'"
        section = _text(where, item, "section")
        if section not in section_slugs:
            raise HelpContentError(f"{where}: field 'section' names no Help section: {section!r}")
        see = item.get("see", [])
        if not isinstance(see, list) or not all(isinstance(name, str) for name in see):
            raise HelpContentError(f"{where}: field 'see' must be a list of terms")
        entry = GlossaryEntry(
            term=term, definition=_text(where, item, "definition"), section=section, see=tuple(see)
        )
        if entry.slug in entries:
            raise HelpContentError(f"{where}: field 'term' is defined twice")
        entries[entry.slug] = entry
    for entry in entries.values():
        unknown = [name for name in entry.see if glossary_slug(name) not in entries]
        if unknown:
            raise HelpContentError(
                f"glossary.json, entry '{entry.term}': field 'see' names no entry: {unknown}"
            )
    missing = sorted(name for name in GLOSSARY if glossary_slug(name) not in entries)
    if missing:
        raise HelpContentError(
            f"glossary.json: no entry for the highlighted terms {missing}: every keyword and "
            "term a card face highlights needs one"
        )
    return tuple(sorted(entries.values(), key=lambda entry: entry.term.lower()))
