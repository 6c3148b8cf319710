"""Every URL and form of the site answers tampered input without a 500.

The URLs come from the resolver, the parameter names from the views' sources and from the
forms the pages render; each bad value below is sent in all of them at once, by GET and by
POST, as a visitor, a player and a staff member.
"""

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.admin import site as admin_site
from django.db import transaction
from django.forms import formsets
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.exceptions import NoReverseMatch
from django.urls.resolvers import RegexPattern

from collection.cards.models import Card
from tcgsite.accounts.avatars import PLAYER_AVATAR_CHOICES
from tcgsite.accounts.models import TipScreen, User
from tests.factories import CardOwnershipFactory, DeckFactory, LimitedPoolFactory, UserFactory

BAD_VALUES = (
    "\u00b2",  # superscript two: str.isdigit() says yes, int() says no
    "\u2460",  # circled one, the same
    "\u0661",  # Arabic-Indic one: int() reads it, the site should not
    "-1",
    "99999999999999999999",
    "2147483648",  # one more than PostgreSQL's integer column holds
    "abc",
    "",
    "\x00",  # PostgreSQL refuses NUL characters in text
    # Longer than any text column holds (checked below), yet short enough that a form holding
    # it in every parameter stays under DATA_UPLOAD_MAX_MEMORY_SIZE: 10,000 characters made
    # each POST 4 MB, which Django refused with a 400 before any view read it.
    "x" * 1_000,
)
# Django's own admin pages that read none of the site's parameters; POST to delete deletes.
ADMIN_PAGES_NOT_SENT_PARAMETERS = ("/history/", "/delete/", "/logout/", "/password/")
THIRD_PARTY_ADMIN = ("/admin/auth/", "/admin/django_celery_beat/")
# Django's formset cap in this test (see below), instead of 1,000.
FORMS_AT_MOST = 3
FORM_ENCODED = "application/x-www-form-urlencoded"
SOURCE_FOLDERS = ("tcgsite", "collection", "game")
# request.GET.get("name"), params.getlist("name"), data.get("name"), request.POST["name"] ...
READ_PARAMETER = re.compile(
    r"\b(?:GET|POST|params|data|query)\s*(?:\.\s*(?:get|getlist)\s*\(\s*|\[\s*)(?:f?)\"([\w-]+)\""
)


def parameters_the_views_read() -> set[str]:
    names: set[str] = set()
    for folder in SOURCE_FOLDERS:
        for source in (Path(settings.BASE_DIR) / folder).rglob("*.py"):
            if "migrations" not in source.parts and "engine" not in source.parts:
                names.update(READ_PARAMETER.findall(source.read_text()))
    return names


class FormFieldNames(HTMLParser):
    def __init__(self):
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag, attrs):
        if tag in ("input", "select", "textarea", "button"):
            name = dict(attrs).get("name")
            if name and "__prefix__" not in name:
                self.names.add(name)


def url_patterns(resolver=None, prefix="", namespace=""):
    """(route name with namespace, pattern) for every named URL of the site."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = ":".join(part for part in (namespace, entry.namespace) if part)
            yield from url_patterns(entry, prefix, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield (f"{namespace}:{entry.name}" if namespace else entry.name), entry.pattern


def path_arguments(pattern) -> list[str]:
    if isinstance(pattern, RegexPattern):
        return list(pattern.regex.groupindex)
    return list(pattern.converters)


def urls_to_try(samples: dict[str, list[str]]) -> tuple[list[str], list[str]]:
    """Each URL with real arguments, and apart the URLs with one argument at a time made bad."""
    real_urls: list[str] = []
    bad_urls: list[str] = []
    for name, pattern in url_patterns():
        arguments = path_arguments(pattern)
        real = {argument: samples.get(argument, ["1"])[0] for argument in arguments}
        variants = [
            {**real, argument: value}
            for argument in arguments
            for value in [*samples.get(argument, ["1"])[1:], *BAD_VALUES[:3], "\x00", "0"]
        ]
        for kwargs, urls in [(real, real_urls), *((variant, bad_urls) for variant in variants)]:
            try:
                url = reverse(name, kwargs=kwargs)
            except NoReverseMatch:
                continue
            if url not in real_urls + bad_urls:
                urls.append(url)
    # What changes the session or deletes goes last, so it doesn't hide the rest.
    return sorted(real_urls, key=lambda url: "logout" in url or "delete" in url), bad_urls


def world() -> tuple[User, User, dict[str, list[str]]]:
    """A player with cards, a deck and a Limited pool, a staff member, and values for each
    argument of the URLs: real ones first, then bad ones."""
    player = UserFactory(username="bad-inputs-player")
    staff = UserFactory(username="bad-inputs-staff", is_staff=True, is_superuser=True)
    cards = list(Card.objects.printed().select_related("card_set")[:3])
    for card in cards:
        CardOwnershipFactory(owner=player, card=card, quantity=4)
    deck = DeckFactory(owner=player, cards={cards[0]: 2})
    pool = LimitedPoolFactory(owner=player, cards={cards[1]: 2})
    card = cards[0]
    samples = {
        "set_number": [str(card.card_set.number)],
        "number": [str(card.number)],
        "card_id": [str(card.pk), "2147483648", "99999999999999999999"],
        "deck_id": [str(deck.pk), "2147483648", "99999999999999999999"],
        "pool_id": [str(pool.pk), "2147483648", "99999999999999999999"],
        "username": [player.username],
        "screen": [TipScreen.MAIN.value],
        "page": ["account", "avatar", "interface"],
        "choice": [PLAYER_AVATAR_CHOICES[0][0]],
        "object_id": [str(player.pk), "99999999999999999999"],
        "app_label": [model._meta.app_label for model in admin_site._registry],
        "content_type_id": ["1"],
    }
    return player, staff, samples


@pytest.fixture(scope="module")
def parameter_names(django_db_setup, django_db_blocker) -> set[str]:
    """Every parameter name the site reads: from the views' sources, and from the forms that
    every page renders to the player and to staff. The names depend on the pages, not on whose
    rows they show: read once per test process, in a world rolled back afterwards, instead of
    rendering every page again for each role."""
    names = parameters_the_views_read()
    with django_db_blocker.unblock(), transaction.atomic():
        player, staff, samples = world()
        urls, _ = urls_to_try(samples)
        admin_prefix = reverse("admin:index")
        for user in (player, staff):
            client = Client()
            client.force_login(user)
            for url in urls:
                if url.startswith(admin_prefix) != user.is_staff or url.startswith(
                    THIRD_PARTY_ADMIN
                ):
                    continue
                response = client.get(url, secure=True)
                if response.get("Content-Type", "").startswith("text/html"):
                    parser = FormFieldNames()
                    parser.feed(response.content.decode())
                    names |= parser.names
        transaction.set_rollback(True)
    return names - {"csrfmiddlewaretoken"}


@pytest.mark.slow
@pytest.mark.django_db
# One test a role (staff's, the longest, one a method), so that two test processes can share
# them; each reads every parameter name (parameter_names).
@pytest.mark.parametrize(
    ("role", "methods"),
    [
        ("visitor", ("get", "post")),
        ("player", ("get", "post")),
        ("staff", ("get",)),
        ("staff", ("post",)),
    ],
    ids=["visitor", "player", "staff-get", "staff-post"],
)
def test_bad_values_in_every_parameter_of_every_url_give_no_server_error(
    catalog, parameter_names, monkeypatch, role, methods
):
    """Given a visitor, a player with cards, a deck and a Limited pool, and a staff member,
    when one of them sends Unicode digits, huge or negative numbers, words, NUL characters or
    1,000 characters in every parameter the site reads, to every URL (the visitor and the
    player to the site's, staff to the admin's), by GET and by POST, then no answer is a server
    error."""
    player, staff, samples = world()
    urls, urls_with_bad_arguments = urls_to_try(samples)
    admin_prefix = reverse("admin:index")
    names = parameter_names
    assert {"set", "q", "entry", "seed", "drawn", "discard", "card", "copies"} <= names

    # A visitor and a player on the site's pages, staff in the admin (its own pages and those of
    # the site's apps: the third-party ones read none of the site's parameters).
    site = [url for url in urls if not url.startswith(admin_prefix)]
    admin = [url for url in urls if url.startswith(admin_prefix)]
    bad_site = [url for url in urls_with_bad_arguments if not url.startswith(admin_prefix)]
    bad_admin = [url for url in urls_with_bad_arguments if url.startswith(admin_prefix)]
    our_admin = [
        url
        for url in admin
        if not any(page in url for page in ADMIN_PAGES_NOT_SENT_PARAMETERS)
        and not url.startswith(THIRD_PARTY_ADMIN)
    ]
    # Every parameter at once, 1,000 characters each at most: encoded once, not per request.
    every_parameter = [(value, urlencode(dict.fromkeys(names, value))) for value in BAD_VALUES]
    # Each reaches the views: Django answers a form too big or with too many fields with a 400
    # before any view reads it. The long value is longer than any column holds.
    assert (
        max(len(encoded) for _, encoded in every_parameter) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    )
    assert len(names) < settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    longest_column = max(
        field.max_length or 0 for model in apps.get_models() for field in model._meta.fields
    )
    assert len(BAD_VALUES[-1]) > longest_column
    # A huge TOTAL_FORMS makes each of the admin's inline and list formsets build as many forms
    # as Django's cap allows (twice DEFAULT_MAX_NUM: 2,000, then rendered again with their
    # errors), which took most of the test's time. A cap of a few forms still takes every
    # tampered count through it and into the forms, and the forms past the first are alike.
    monkeypatch.setattr(formsets, "DEFAULT_MAX_NUM", FORMS_AT_MOST)
    plan = {
        "visitor": (None, site, bad_site),
        "player": (player, site, bad_site),
        "staff": (staff, our_admin, bad_admin),
    }
    user, role_urls, bad_urls = plan[role]
    failures = []
    client = Client()
    if user is not None:
        client.force_login(user)
    for method in methods:
        for url in bad_urls:
            failures += send(client, user, method, url, "", role)
        for url in role_urls:
            for value, encoded in every_parameter:
                failures += send(client, user, method, url, encoded, role, value)
    assert failures == []


def send(client, user, method, url, encoded, role, value="") -> list[str]:
    """The request, its parameters ``encoded`` as a browser's form sends them, as a failure,
    if it is one; each runs in a savepoint so one database error can't hide the next."""
    try:
        with transaction.atomic():
            # Over HTTPS, so that production mode's redirect to it can't answer instead.
            if method == "get":
                response = client.get(f"{url}?{encoded}" if encoded else url, secure=True)
            else:
                response = client.post(url, encoded, content_type=FORM_ENCODED, secure=True)
            status = response.status_code
    except Exception as error:  # noqa: BLE001 - any exception here is the 500 this test finds
        status = f"{type(error).__name__}: {str(error)[:200]}"
    if user is not None and ("logout" in url or "delete" in url):
        client.force_login(user)
    if isinstance(status, int) and status < 500:
        return []
    return [f"{role} {method.upper()} {url[:80]} {value[:12]!r}: {status}"]
