"""A server restart during confirmation never moves anything twice or loses anything (the
rulebook's "Trade Screen": both click Accept in the confirmation dialog, then the players swap
cards). A real daphne serves both players' Trade Screens; Carol confirms through it, it is
killed with SIGKILL, and another is started: both pages reconnect to the offer as it stood
(Carol's confirmation kept), Bob confirms there, both see the delivery, and Carol's
confirmation sent again after the restart moves nothing."""

import asyncio
import re
import signal
import urllib.parse
import urllib.request

import pytest
from django.conf import settings

from collection.models import LedgerOperation, LedgerReason
from collection.trades.models import TradeSessionSwap
from tests.lobbies.test_two_processes import Socket, free_port, session_cookie, start_daphne
from tests.trades.live_helpers import assert_ledger_matches_holdings, copies, holdings
from tests.trades.test_live_concurrency import accepted_trade  # noqa: F401

pytestmark = [
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="a second process shares the session through PostgreSQL: production mode",
    ),
    pytest.mark.django_db(transaction=True),
]


async def trade_screen(port: int, cookie: str, session) -> Socket:
    import websockets

    connection = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/trade/{session.pk}/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=20,
    )
    return Socket(connection)


def confirm(port: int, cookie: str, session, version: int) -> int:
    """Click Accept in the confirmation dialog, as the page's htmx does: the page first, for
    its CSRF token, then the POST; the answer's status."""
    page_url = f"http://127.0.0.1:{port}/trades/live/{session.pk}/"
    with urllib.request.urlopen(  # noqa: S310
        urllib.request.Request(page_url, headers={"Cookie": cookie}), timeout=30
    ) as page:
        cookies_set = "; ".join(page.headers.get_all("Set-Cookie") or [])
        csrf = re.search(r"csrftoken=([^;]+)", cookies_set).group(1)
        token = re.search(r'"X-CSRFToken": "([^"]+)"', page.read().decode()).group(1)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/trades/live/{session.pk}/confirm/",
        data=urllib.parse.urlencode({"offer_version": version}).encode(),
        headers={
            "Cookie": f"{cookie}; csrftoken={csrf}",
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Origin": f"http://127.0.0.1:{port}",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
        return answer.status


def test_a_process_killed_between_the_two_confirmations_swaps_once(accepted_trade):  # noqa: F811
    carol, bob, card, other, session, version = accepted_trade
    cookies = {carol: session_cookie(carol), bob: session_cookie(bob)}
    before = holdings(carol, bob)
    first_port = free_port()
    first = start_daphne(first_port)
    second = None
    try:

        async def before_the_kill() -> None:
            bobs_page = await trade_screen(first_port, cookies[bob], session)
            await bobs_page.until('id="trade-offer"', timeout=20)
            assert await asyncio.to_thread(confirm, first_port, cookies[carol], session, version)
            await bobs_page.until("Carol confirmed", timeout=20)
            first.send_signal(signal.SIGKILL)

        asyncio.run(before_the_kill())
        first.wait(timeout=10)
        assert not TradeSessionSwap.objects.exists()

        second_port = free_port()
        second = start_daphne(second_port)

        async def after_the_restart() -> None:
            pages = {
                player: await trade_screen(second_port, cookies[player], session)
                for player in (carol, bob)
            }
            assert "Carol confirmed" in await pages[bob].until('id="trade-offer"', timeout=20)
            await asyncio.to_thread(confirm, second_port, cookies[bob], session, version)
            for page in pages.values():
                await page.until('id="trade-delivery"', timeout=20)
            # Carol's confirmation again, as a page that missed the answer would send it.
            await asyncio.to_thread(confirm, second_port, cookies[carol], session, version)

        asyncio.run(after_the_restart())
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(timeout=10)

    assert TradeSessionSwap.objects.filter(session=session).count() == 1
    assert LedgerOperation.objects.filter(reason=LedgerReason.TRADE).count() == 1
    assert (copies(carol, card), copies(bob, card)) == (1, 1)
    assert (copies(carol, other), copies(bob, other)) == (0, 1)
    assert holdings(carol, bob) == before
    assert_ledger_matches_holdings(carol, bob)
