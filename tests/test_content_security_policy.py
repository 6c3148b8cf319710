"""The Content-Security-Policy (tcgsite/security.py): scripts and styles from the site's own
files only. tests/browser/test_content_security_policy.py visits every page under it; this
checks the header and the templates, which are quicker to read than to render."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import UserFactory

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def directives(response) -> dict[str, str]:
    policy = response.headers["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "signed_in"),
    [("/no-such-page/", False), ("/no-such-page/", True), ("/preferences/nope/", True)],
)
def test_a_missing_page_with_debug_on_is_the_sites_own_without_inline_styles(
    client, settings, url, signed_in
):
    """The embedded default runs with DEBUG on: a missing address (unresolved, or a view's
    Http404) gets the site's "Nothing here" page, not Django's debug page, whose <style> the
    policy refuses."""
    settings.DEBUG = True
    if signed_in:
        client.force_login(UserFactory(username="Lost"))

    response = client.get(url)

    page = response.content.decode()
    assert response.status_code == 404
    assert "Nothing here" in page
    assert "<style" not in page and "style=" not in page and "DEBUG = True" not in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/", "/accounts/login/", "/admin/login/", "/no-such-page/", "/avatars/smuggler.svg"]
)
def test_every_response_carries_the_policy(client, url):
    policy = directives(client.get(url))

    assert policy == {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "connect-src": "'self' ws://testserver wss://testserver",
        "frame-ancestors": "'none'",
        "base-uri": "'self'",
        "form-action": "'self'",
        "object-src": "'none'",
    }


@pytest.mark.django_db
def test_staff_pages_of_the_admin_carry_the_policy(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = client.get(reverse("admin:index"))

    assert response.status_code == 200
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


# What the policy blocks, as written in a template. SVG presentation attributes (fill=,
# font-style=) are not style attributes.
INLINE = {
    "a style attribute": re.compile(r"""\sstyle\s*=""", re.IGNORECASE),
    "a <style> element": re.compile(r"<style[\s>]", re.IGNORECASE),
    "an inline event handler": re.compile(r"""\son[a-z]+\s*=\s*["']""", re.IGNORECASE),
    "hx-on": re.compile(r"\shx-on", re.IGNORECASE),
    # keydown[key=='Enter'] (an event name, then a filter), not from:input[name=q] (a selector)
    "an htmx trigger filter (needs eval)": re.compile(
        r"""hx-trigger\s*=\s*["'](?:[^"']*,\s*)?[\w-]+\[""", re.IGNORECASE
    ),
    "inline script code": re.compile(
        r"<script(?![^>]*\ssrc=)(?![^>]*type=.application/json)[^>]*>\s*\S", re.IGNORECASE
    ),
    "a javascript: address": re.compile(r"javascript:", re.IGNORECASE),
}


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES.rglob("*.html")), ids=lambda path: str(path.relative_to(TEMPLATES))
)
def test_templates_hold_nothing_the_policy_blocks(template):
    text = template.read_text()

    found = [what for what, pattern in INLINE.items() if pattern.search(text)]

    assert not found, f"{template.relative_to(TEMPLATES)} has {', '.join(found)}"
