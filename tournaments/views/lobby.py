"""The Tournaments Lobby's windows and pages (rulebook, "Tournaments Lobby"): Get Info on a
queue or a started tournament, the standings page, Join with Select Deck, the box of the
queue a player waits in, the Tournament Timer and Drop from Tournament. The lists themselves
are the lobby's panel (``tournaments.fragments.lobby_panel``), kept live by its socket.

Leaving a queue. The rulebook takes a player out of the queue when they close its box or
leave the Tournaments Lobby. Here the box's Leave and close buttons leave at once, and so
does leaving the lobby's page on purpose (following a link, closing the tab, reloading it):
the page sends a leave as it goes (static/js/tournaments.js). A connection that merely drops
sends nothing, so it costs no place: the box comes back with the page, and a player still
away when their queue starts is treated like any absent tournament player (the ten-minute
rule of ``game.services.event_matches``).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tcgsite.inputs import object_id
from tournaments import selectors
from tournaments.services import queues, running
from tournaments.services.entry import EntryError


def _window(request, template: str, context: dict, *, status: int = 200):
    """A window of the lobby: a fragment for htmx, a page of its own otherwise."""
    if request.htmx:
        # htmx swaps only successful answers: a refusal is shown in the window, with a 200.
        return render(request, template, context)
    return render(
        request, "tournaments/dialog_page.html", {**context, "fragment": template}, status=status
    )


def _unavailable(request, title: str, message: str, *, status: int = 404):
    return _window(
        request,
        "tournaments/_unavailable.html",
        {"title": title, "message": message},
        status=status,
    )


def _queue_unavailable(request, title: str, queue_id: int):
    """The window of a queue the lobby listed a moment ago (409: it started, or was
    cancelled), or of no queue at all (404)."""
    message, known = selectors.queue_unavailable(queue_id=queue_id)
    return _unavailable(request, title, message, status=409 if known else 404)


def _back_to_lobby(request, *, error: str | None = None, success: str | None = None):
    if error:
        messages.error(request, error)
    if success:
        messages.success(request, success)
    return redirect("lobbies:lobby", "tournaments")


@login_required
@require_GET
def queue_info(request, queue_id):
    info = selectors.queue_info(queue_id=queue_id)
    if info is None:
        return _queue_unavailable(request, "Get Info", queue_id)
    return _window(request, "tournaments/_queue_info.html", info)


@login_required
@require_GET
def tournament_info(request, tournament_id):
    info = selectors.tournament_info(tournament_id=tournament_id)
    if info is None:
        return _unavailable(request, "Get Info", "There is no such tournament.")
    return _window(request, "tournaments/_tournament_info.html", {"info": info})


@login_required
@require_GET
def standings(request, tournament_id):
    info = selectors.tournament_info(tournament_id=tournament_id)
    if info is None:
        raise Http404("There is no such tournament.")
    return render(request, "tournaments/standings.html", {"info": info})


@login_required
@require_http_methods(["GET", "POST"])
def queue_join(request, queue_id):
    """GET: the Join window. POST: join with the deck chosen (Constructed); a refusal is
    shown in the window."""
    if request.method == "GET":
        choices = selectors.queue_join_choices(queue_id=queue_id, player=request.user)
        if choices is None:
            return _queue_unavailable(request, "Join", queue_id)
        return _window(request, "tournaments/_join.html", _first_valid_chosen(choices))
    deck = selectors.deck_chosen(deck_id=object_id(request.POST.get("deck")))
    try:
        queues.queue_join(queue_id=queue_id, player=request.user, deck=deck)
    except EntryError as refusal:
        if not request.htmx:
            return _back_to_lobby(request, error=refusal.message)
        choices = selectors.queue_join_choices(queue_id=queue_id, player=request.user)
        if choices is None:
            return _unavailable(request, "Join", refusal.message)
        chosen = deck.pk if deck is not None else None
        return render(
            request,
            "tournaments/_join.html",
            {**choices, "error": refusal.message, "chosen": chosen},
        )
    waiting = selectors.queue_waiting(player=request.user)
    if not request.htmx:
        return _back_to_lobby(request, success=_joined_text(waiting))
    return render(
        request, "tournaments/_joined.html", {"waiting": waiting, "text": _joined_text(waiting)}
    )


def _first_valid_chosen(choices: dict) -> dict:
    valid = [choice["deck"].pk for choice in choices["decks"] if choice["valid"]]
    return {**choices, "chosen": valid[0] if valid else None}


def _joined_text(waiting: dict | None) -> str:
    if waiting is None:
        return "The queue is full: your tournament begins."
    return f"You are waiting in queue {waiting['queue'].pk}, {waiting['queue'].title}."


@login_required
@require_POST
def queue_leave(request):
    try:
        queue = queues.queue_leave(player=request.user)
    except EntryError as refusal:
        error, success = refusal.message, None
    else:
        error, success = None, f"You left queue {queue.pk}, {queue.title}."
    if not request.htmx:
        return _back_to_lobby(request, error=error, success=success)
    return render(request, "tournaments/_queue_box.html", {"waiting": None})


@login_required
@require_GET
def timer(request):
    """The Tournament Timer again, after a tournament's notice reached the page."""
    return render(request, "tournaments/_timer.html")


@login_required
@require_POST
def drop(request):
    """Drop from Tournament, once its window has been confirmed."""
    try:
        participant = running.tournament_drop(player=request.user)
    except running.TournamentError as refusal:
        return _back_to_lobby(request, error=refusal.message)
    return _back_to_lobby(
        request,
        success=f"You dropped from tournament {participant.tournament_id}. "
        "You keep whatever your final place earns.",
    )


urlpatterns = [
    path("tournaments/queues/<int:queue_id>/", queue_info, name="queue_info"),
    path("tournaments/queues/<int:queue_id>/join/", queue_join, name="queue_join"),
    path("tournaments/queues/leave/", queue_leave, name="queue_leave"),
    path("tournaments/<int:tournament_id>/info/", tournament_info, name="tournament_info"),
    path("tournaments/<int:tournament_id>/", standings, name="standings"),
    path("tournaments/timer/", timer, name="timer"),
    path("tournaments/drop/", drop, name="drop"),
]
