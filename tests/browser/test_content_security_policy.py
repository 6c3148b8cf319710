"""Every page of the site works under the Content-Security-Policy (tcgsite/security.py), in
headless Chromium, as a player and as staff.

The pages are found, not listed: the Navigator's links, every route of the URL resolver
(parameters filled from samples() below; a route with a parameter it does not know fails the test
until samples() learns it) and every admin route. The journeys then use the pages as a person
does, so that the fragments htmx swaps in (Deck Builder tools, Test Draw, the wizard's fill,
Create Avatar's preview, opening packs) are checked too. Any policy violation, console error,
uncaught script error or server error fails the test, naming the page.
"""

import io
import itertools
import re
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib import admin
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import URLResolver, get_resolver, reverse
from playwright.sync_api import expect

from collection.cards.models import Card
from collection.decks.models import Deck, DeckCard
from collection.decks.services.avatar_creation import avatar_create
from collection.models import CardOwnership, Opening, Product, ProductKind
from collection.services.store import product_grant
from collection.trades.models import TradeSession, TradeSessionStatus
from collection.trades.services.exchange import TradeItem
from collection.trades.services.posted import posted_trade_accept, posted_trade_create
from game.encounters import ENCOUNTERS
from game.services.matches import MatchSettings, match_create, match_join, match_ready
from guilds.services.guilds import guild_create
from tcgsite.accounts.forms import PREFERENCE_PAGES
from tcgsite.accounts.models import User
from tcgsite.help.selectors import help_sections
from tests.browser.settling import Settling
from tests.decks.test_avatar_creation import CHOICES
from tests.factories import LimitedPoolFactory, UserFactory
from tournaments.models import Tournament, TournamentQueue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Records what the policy blocks, in every document the page loads, before its own scripts.
WATCH_POLICY = """
window.__policyViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__policyViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline code"}` +
    ` (${event.sourceFile || "page"}:${event.lineNumber})`);
}, true);
"""


class Watcher:
    """What went wrong on the page since the last check: policy violations, console errors,
    uncaught script errors, server errors and missing files."""

    def __init__(self, page):
        self.page = page
        self.problems: list[str] = []
        self.settling = Settling(page)
        page.add_init_script(WATCH_POLICY)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        page.on("response", self._response)

    def _console(self, message):
        if message.type != "error" or message.text.startswith("Failed to load resource"):
            return  # a failed load is reported by _response, with its address
        if message.text == "htmx:sendAbort":
            # hx-sync="...:replace" aborts the request a newer one replaces, by design; htmx
            # reports it as an error after reporting the aborted request's end as one.
            if self.problems and self.problems[-1] == "console error: htmx:afterRequest":
                self.problems.pop()
            return
        self.problems.append(f"console error: {message.text}")

    def _response(self, response):
        status = response.status
        document = response.request.resource_type == "document"
        if status >= 500 or (status == 404 and not document):
            self.problems.append(f"{status} for {response.request.method} {response.url}")

    def check(self, where: str) -> None:
        # Taken out of the page, in one round trip.
        violations = self.page.evaluate("(window.__policyViolations || []).splice(0)")
        problems = [*self.problems, *(f"policy: {v}" for v in violations)]
        self.problems.clear()
        assert not problems, f"{where}:\n" + "\n".join(problems)

    def visit(self, url: str, settle=True) -> int:
        """Load ``url`` as a page; its status, once it has settled (tests/browser/settling.py:
        htmx's fragments and the sockets' state on the site's pages), or once loaded."""
        response = self.page.goto(url)
        if settle:
            self.settling.wait()
        self.check(url)
        return response.status


@pytest.fixture
def watched(page):
    return Watcher(page)


def log_in(page, live_server, user: User) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )


@pytest.fixture
def world(catalog):
    """The demo world (players with a saved starter deck and unopened boosters), a Limited
    pool and a staff member."""
    call_command("demo", stdout=io.StringIO())
    player = User.objects.get(username="Shochu")
    owned = CardOwnership.objects.filter(owner=player).select_related("card")[:30]
    pool = LimitedPoolFactory(owner=player, cards={line.card: 2 for line in owned})
    staff = UserFactory(username="Overseer", is_staff=True, is_superuser=True)
    # A match begun between two demo players: its page is the playmat, with its socket; the
    # player's deck has an avatar of their own making, drawn through the match's address.
    made = avatar_create(owner=player, choices=CHOICES, name="Kell Dorran")
    DeckCard.objects.filter(deck=player.decks.first(), card__card_type="avatar").update(card=made)
    opponent = User.objects.get(username="Paladon")
    match = match_create(host=player, deck=player.decks.first(), settings=MatchSettings())
    match_join(match_id=match.pk, player=opponent, deck=opponent.decks.first())
    for seated in (player, opponent):
        match_ready(match_id=match.pk, player=seated)
    # A guild the player leads, a posted trade they accepted (its delivery page) and a live
    # trade session of theirs (its Trade Screen).
    guild = guild_create(founder=player, name="Outer Rim Traders")
    trader = User.objects.get(username="Vicki")
    # The player pays with a booster given for it, so the journeys below find their holdings
    # as the demo made them.
    booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()
    product_grant(owner=player, product=booster, quantity=1)
    traders_card = CardOwnership.objects.filter(owner=trader).first().card_id
    posted = posted_trade_create(
        poster=trader,
        offer=[TradeItem(quantity=1, card_id=traders_card)],
        want=[TradeItem(quantity=1, product_id=booster.pk)],
    )
    posted_trade_accept(trade_id=posted.pk, taker=player)
    session = TradeSession.objects.create(
        initiator=player, partner=User.objects.get(username="Jason"), status=TradeSessionStatus.OPEN
    )
    return {
        "player": player,
        "pool": pool,
        "staff": staff,
        "match": match,
        "made_avatar": made,
        "guild": guild,
        "posted": posted,
        "session": session,
        "queue": TournamentQueue.objects.create(title="Daily"),
        "tournament": Tournament.objects.create(title="Weekly", seed=1),
    }


def samples(world) -> dict[str, list[str]]:
    """A value for each route parameter of the site: a route with a parameter missing here
    fails the test until one is added."""
    player, pool = world["player"], world["pool"]
    card = Card.objects.filter(creator__isnull=True).order_by("pk").first()
    return {
        "page": list(PREFERENCE_PAGES),
        "screen": ["main"],
        "username": [player.username],
        "choice": ["smuggler"],
        "set_number": [str(card.card_set.number)],
        "number": [str(card.number)],
        "card_id": [str(card.pk)],
        "deck_id": [str(Deck.objects.filter(owner=player).first().pk)],
        "pool_id": [str(pool.pk)],
        "product_id": [str(Product.objects.order_by("pk").first().pk)],
        "opening_id": [str(Opening.objects.filter(owned_product__owner=player).first().pk)],
        "lobby": ["casual", "trade", "tournaments"],
        "list_name": ["friends", "ignored"],
        "match_id": [str(world["match"].pk)],
        "avatar_number": [str(world["made_avatar"].number)],
        "guild_id": [str(world["guild"].pk)],
        "trade_id": [str(world["posted"].pk)],
        "session_id": [str(world["session"].pk)],
        "invitation_id": ["1"],
        "queue_id": [str(world["queue"].pk)],
        "tournament_id": [str(world["tournament"].pk)],
        "slug": [ENCOUNTERS[0].slug],
        "index": ["0"],
        "section": [section.slug for section in help_sections()],
        "term": ["sentry", "for-each"],
    }


def routes(patterns, prefix="", namespace="", model_admin=None) -> Iterator[tuple]:
    """(route as written, name to reverse, the model admin it belongs to or None) of every
    named route under ``patterns``."""
    admin_by_prefix = {
        f"admin/{model._meta.app_label}/{model._meta.model_name}/": model_admin
        for model, model_admin in admin.site._registry.items()
    }
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = prefix + str(pattern.pattern)
            yield from routes(
                pattern.url_patterns,
                inner,
                ":".join(filter(None, [namespace, pattern.namespace])),
                admin_by_prefix.get(inner, model_admin),
            )
        elif pattern.name:
            name = ":".join(filter(None, [namespace, pattern.name]))
            yield prefix + str(pattern.pattern), name, model_admin


def addresses(route: str, name: str, values: dict[str, list[str]]) -> list[str]:
    """The addresses of one route, one per sample of each parameter."""
    parameters = re.findall(r"<(?:\w+:)?(\w+)>", route)
    missing = [parameter for parameter in parameters if parameter not in values]
    assert not missing, (
        f"/{route}: no sample value for <{'>, <'.join(missing)}>: add one in {__file__}"
    )
    return [
        reverse(name, kwargs=dict(zip(parameters, chosen, strict=True)))
        for chosen in itertools.product(*(values[parameter] for parameter in parameters))
    ]


def visit_everything_reachable(watched, urls: list[str], settle=True) -> list[str]:
    """Visit each address that answers a plain visit (not with the 405 of a POST-only
    address); the addresses visited."""
    pages = []
    for url in urls:
        # Chromium does not show an empty 405 as a page, nor a download: ask first.
        answer = watched.page.request.get(url)
        if answer.status == 405 or "attachment" in answer.headers.get("content-disposition", ""):
            continue
        status = watched.visit(url, settle)
        # 409: a refusal explained on a page of its own (the Join Match window of the
        # sample match, full since both its players sat down), which runs under the policy too.
        assert status < 400 or status == 409, f"{url} answered {status}"
        pages.append(url)
    return pages


@pytest.mark.slow
def test_every_page_a_player_reaches_runs_under_the_policy(page, live_server, world, watched):
    log_in(page, live_server, world["player"])
    watched.visit("/")
    navigator = page.locator(".navigator a[href]").evaluate_all("links => links.map(a => a.href)")
    assert len(navigator) >= 5

    values = samples(world)
    site = [
        url
        for route, name, _ in routes(get_resolver().url_patterns)
        if not name.startswith("admin:")
        for url in addresses(route, name, values)
    ]
    pages = visit_everything_reachable(watched, [*navigator, *site])

    assert "/decks/" in pages and f"/decks/limited/{world['pool'].pk}/" in pages


def test_the_pages_before_logging_in_run_under_the_policy(page, live_server, watched):
    """With their error messages: a refused sign-up, failed logins up to the throttle's."""
    UserFactory(username="Leia")
    for url in ("/", "/no-such-page/", "/accounts/signup/"):
        watched.visit(url)
    page.get_by_label("Username").fill("leia")
    page.get_by_label("Password", exact=True).fill("a-long-enough-password")
    page.get_by_label("Password confirmation").fill("a-long-enough-password")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("A user with that username already exists.")).to_be_visible()
    watched.check("refused sign-up")
    watched.visit("/accounts/login/")
    for _ in range(5):
        page.get_by_label("Username").fill("Leia")
        page.get_by_label("Password").fill("wrong-password")
        page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Too many failed logins")).to_be_visible()
    watched.check("failed logins")


@pytest.mark.slow
def test_the_player_journeys_run_under_the_policy(page, live_server, world, watched, screenshot):
    player = world["player"]
    log_in(page, live_server, player)

    # Card Browser: a numeric filter added with Enter, a toggle filter, Table View.
    watched.visit(reverse("cards:card_list"))
    page.get_by_label("Attribute").select_option("cost")
    page.get_by_label("Operator").select_option(">=")
    page.get_by_label("Value").fill("3")
    page.get_by_label("Value").press("Enter")
    expect(page.locator(".chip")).to_contain_text("cost >= 3")
    expect(page.get_by_label("Value")).to_have_value("")
    # A person sees the results change before going on: each step waits for its request
    # (under heavy load, overlapping requests have made htmx report an out-of-band target it
    # missed, which is a matter for the Card Browser, not for this policy).
    watched.settling.wait()
    page.locator("summary", has_text="Card Type").click()
    page.locator("input[name=type][value=unit]").check()
    page.keyboard.press("Escape")
    watched.settling.wait()
    page.get_by_role("link", name="Table View").click()
    expect(page.locator(".card-table")).to_be_visible()
    watched.check("Card Browser")

    # Collection: open every product with Open All, see the reveal (its flip is static JS).
    watched.visit(reverse("collection:binder"))
    screenshot("csp-collection-all")
    page.get_by_role("button", name="Open All").click()
    page.keyboard.press("Escape")
    expect(page.get_by_text("New!").first).to_be_visible()
    watched.check("Collection: open packs")

    # Deck Builder: Open Deck, add with a double-click and with Enter, remove with Delete,
    # every tool.
    watched.visit(reverse("decks:deck_builder"))
    page.locator(".toolbar summary", has_text="Open Deck").click()
    page.locator(".deck-menu").get_by_role("link", name="Rebel Starter Deck").click()
    expect(page.get_by_label("Deck name")).to_have_value("Rebel Starter Deck")
    watched.check("Deck Builder: Open Deck")
    page.locator("#deck-container .deck-card__face").first.press("Delete")
    expect(page.locator("#deck-status")).to_contain_text("Removed 1 copy")
    # Each change is answered before the next step: the second add's status reads like the
    # first's, and a filter sent before its answer arrives would race it.
    tile = page.locator("#collection-results .tile:not(.tile--used) .tile__face").first
    with page.expect_response(lambda response: reverse("decks:deck_change") in response.url):
        tile.press("Enter")
    expect(page.locator("#deck-status")).to_contain_text("Added 1 copy")
    tile = page.locator("#collection-results .tile:not(.tile--used) .tile__face").first
    with page.expect_response(lambda response: reverse("decks:deck_change") in response.url):
        tile.dblclick()
    expect(page.locator("#deck-status")).to_contain_text("Added 1 copy")
    watched.settling.wait()
    page.get_by_label("Value").fill("2")
    page.get_by_label("Value").press("Enter")
    expect(page.locator("#builder-filters .chip, .builder-filters .chip").first).to_be_visible()
    watched.settling.wait()
    watched.check("Deck Builder: changing the deck")
    for tool in ("Validate", "Statistics", "Test Draw", "Export", "Import"):
        page.locator(".toolbar summary", has_text="Tools").click()
        page.get_by_role("button", name=tool, exact=True).click()
        dialog = page.locator("#tool-dialog")
        expect(dialog.locator(".tool__title")).to_have_text(tool)
        if tool == "Statistics":
            expect(dialog.locator(".swatch").first).to_be_visible()
            screenshot("csp-deck-statistics")
            page.set_viewport_size({"width": 390, "height": 844})
            screenshot("csp-deck-statistics-phone")
            page.set_viewport_size({"width": 1280, "height": 900})
        if tool == "Test Draw":
            expect(dialog.locator(".hand__card")).to_have_count(6)
            dialog.get_by_role("button", name="Draw", exact=True).click()
            expect(dialog.locator(".hand__card")).to_have_count(7)
        watched.check(f"Deck Builder: {tool}")
        dialog.get_by_role("button", name="Close").click()

    # The Deckbuilding Wizard, up to its fill with the cost curve.
    watched.visit(reverse("decks:deck_wizard"))
    page.get_by_role("radio", name=re.compile(r"^Rebel\b")).check()  # Shochu's starter deck
    for step in (2, 3, 4):
        page.get_by_role("button", name="Next").click()
        expect(page.get_by_text(f"Step {step} of 5")).to_be_visible()
        watched.check(f"Deckbuilding Wizard, step {step}")
    expect(page.locator("#wizard-fill .curve__fill").first).to_be_attached()
    screenshot("csp-wizard-fill")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot("csp-wizard-fill-phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    # Create Avatar, with its live preview.
    watched.visit(reverse("decks:avatar_create"))
    preview = page.locator("#avatar-preview")
    # Each step's form is swapped in by htmx, whose live preview listens once it has settled.
    for answer in ("Zabrak", "Male", "Marauder", "Relentless", "Dathomir"):
        choice = page.get_by_role("radio", name=re.compile(rf"^{answer}\b"))
        expect(choice).to_be_visible()
        expect(page.locator(".htmx-settling")).to_have_count(0)
        choice.check()
        expect(preview).to_contain_text(answer if answer != "Male" else "Zabrak")
        page.get_by_role("button", name="Next").click()
    expect(page.get_by_label("Name", exact=True)).to_be_visible()
    expect(page.locator(".htmx-settling")).to_have_count(0)
    page.get_by_label("Name", exact=True).fill("Vex Tharn")
    expect(preview).to_contain_text("Vex Tharn")
    page.get_by_role("button", name="Create avatar").click()
    expect(page.get_by_role("heading", name="My Avatars")).to_be_visible()
    watched.check("Create Avatar")
    assert Card.objects.filter(creator=player, title="Vex Tharn").exists()


# Admin routes that are no page of their own: a JSON answer to the select widgets' searches,
# and "view on site", which leaves the admin for a page the player's test visits.
NOT_ADMIN_PAGES = {"admin:autocomplete", "admin:view_on_site"}


def offered(model_admin, name: str, request, first) -> bool:
    """Whether the admin offers staff this view of this model (a read-only ledger has no
    add, change or delete), so that its absence is no failure."""
    if name.endswith("_add"):
        return model_admin.has_add_permission(request)
    if name.endswith("_delete"):
        return first is not None and model_admin.has_delete_permission(request, first)
    if name.endswith(("_change", "_history")):
        return first is not None and model_admin.has_view_or_change_permission(request, first)
    return model_admin.has_view_or_change_permission(request)


@pytest.mark.slow
def test_every_admin_page_staff_reach_runs_under_the_policy(page, live_server, world, watched):
    """The admin pages the README names (store grant, pools, the Openings audit) among them."""
    staff = world["staff"]
    log_in(page, live_server, staff)
    request = RequestFactory().get("/admin/")
    request.user = staff
    app_labels = sorted({model._meta.app_label for model in admin.site._registry})
    urls = []
    for route, name, model_admin in routes(admin.site.urls[0], "admin/", "admin"):
        if name in NOT_ADMIN_PAGES:
            continue
        values = {"app_label": app_labels}
        if model_admin is not None:
            first = model_admin.model._default_manager.order_by("pk").first()
            if not offered(model_admin, name, request, first):
                continue
            if first is not None:
                values["object_id"] = values["id"] = [str(first.pk)]
        urls.extend(addresses(route, name, values))

    # The admin loads no fragments and opens no sockets: its pages are checked once loaded.
    pages = visit_everything_reachable(watched, urls, settle=False)

    for expected in (
        reverse("admin:collection_wallet_grant"),
        reverse("admin:decks_limitedpool_changelist"),
        reverse("admin:collection_opening_changelist"),
    ):
        assert expected in pages
