import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Every wait is for a state, which a passing test reaches long before these: on a busy machine
# (three test processes, each with its browser and servers, on two cores) a page can take
# several seconds to draw what a socket brought.
EXPECT_TIMEOUT_MS = 15_000
ACTION_TIMEOUT_MS = 20_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


# One browser per module, not per session: while Playwright's sync API lives, its event loop
# runs in the main thread, and the asyncio tests of later modules (consumers) could not run
# their own.
@pytest.fixture(scope="module")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's event loop makes Django see the test's own ORM calls, plain synchronous
    # code, as made from async code.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """The site served over HTTP and websockets (tests/asgi_live_server.py), started once the
    test database exists: a server started first (when a browser test is the session's first
    database test) reads the wrong one. pytest-django makes the tests that use it
    transactional, as with its own live server."""
    from tests.asgi_live_server import AsgiLiveServer

    with django_db_blocker.unblock():
        server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _live_server_settles(request):
    """After the test's pages have closed and before the database is emptied (this fixture
    is torn down between the two), let the live server finish what the closed sockets
    started."""
    yield
    if "live_server" in request.fixturenames:
        with request.getfixturevalue("django_db_blocker").unblock():
            request.getfixturevalue("live_server").wait_idle()


@pytest.fixture
def page(browser, live_server, settings):
    # The live test server serves static files from the finders, by their plain names; in
    # production mode the manifest storage would link hashed names that only exist after
    # collectstatic, in the directory that WhiteNoise (not the test server) serves.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot(page):
    ARTIFACTS.mkdir(exist_ok=True)

    def take(name: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return take


def confirm(page, yes: str) -> None:
    """Answer the site's confirmation window (hx-confirm; templates/base.html) with ``yes``,
    the name of its button that goes ahead, or "Cancel"."""
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=yes, exact=True).click()
    expect(dialog).to_be_hidden()
