"""What the page benchmarks share: the reads of every signed-in page's frame, for the pages'
data floors, and the timing of a page beside its floor.

A page's data floor is what the page reads through its selectors, dumped to JSON (issue 37).
Every signed-in page reads the same frame first: its session, the player with their
Preferences (the avatar in the header), the credits in the header and the Tournament Timer,
through the same calls the site makes (``session_user``, ``header_credits``,
``tournament_timer``). Imported by the benchmarks after ``django.setup()``.
"""

import time
from collections.abc import Callable
from importlib import import_module

from django.conf import settings
from django.test import Client

from collection import selectors as collection_selectors
from tcgsite.accounts.session_user import session_user
from tournaments import selectors as tournament_selectors


class HttpsClient(Client):
    """A test client whose requests come over HTTPS, as in production mode, which redirects
    plain HTTP (the embedded default serves both)."""

    def request(self, **request):
        return super().request(**{**request, "wsgi.url_scheme": "https", "SERVER_PORT": "443"})


def https_client() -> Client:
    return HttpsClient()


def page_frame_floor(session_key: str, *, page: bool = True) -> dict:
    """The frame of a request made with the session ``session_key``, as data: the signed-in
    player, and for a whole ``page`` the header's avatar and credits and the Tournament Timer
    (a fragment has no header)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    player = session_user(session["_auth_user_id"])
    frame: dict = {"player": [player.pk, player.username]}
    if page:
        timer = tournament_selectors.tournament_timer(player=player)
        frame.update(
            avatar=player.preferences.avatar_choice,
            credits=collection_selectors.header_credits(player=player),
            timer=timer and [timer.tournament_id, timer.label, str(timer.ends)],
        )
    return frame


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(
    request: Callable, floor: Callable | None = None, *, rounds: int, warmup: int = 20
) -> tuple[list[float], list[float]]:
    """Samples of ``request`` (and of ``floor``, if any) in milliseconds, the two taken in turns
    so that both meet the machine at the same speed: a shared machine's load comes and goes."""
    for _ in range(warmup):
        request()
        if floor:
            floor()
    samples, floor_samples = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        response = request()
        samples.append((time.perf_counter() - start) * 1000)
        assert getattr(response, "status_code", 200) == 200, response.status_code
        if floor:
            start = time.perf_counter()
            floor()
            floor_samples.append((time.perf_counter() - start) * 1000)
    return samples, floor_samples
