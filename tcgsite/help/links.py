"""Glossary terms in running text made into links to their Help entries (the Prompt's wording)."""

from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tcgsite.help.selectors import glossary_terms_in
from tcgsite.jinja import url


# The playmat renders the same few prompts over and over, many times a second.
@lru_cache(maxsize=1024)
def glossary_links(text: str) -> SafeString:
    """``text``, escaped, with each glossary term's first mention a link to its entry."""
    parts = []
    for run, slug in glossary_terms_in(str(text)):
        if slug is None:
            parts.append(escape(run))
        else:
            parts.append(
                f'<a class="term-link" href="{url("help:term", slug)}" target="_blank" '
                f'rel="help">{escape(run)}</a>'
            )
    return mark_safe("".join(parts))  # noqa: S308 - every run is escaped above
