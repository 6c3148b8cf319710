"""Play → Tutorials (rulebook, "Tutorials"): the map, a tutorial's start, and its dialogs."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from game import selectors
from game.match_views import playmat_button
from game.services.matches import MatchError
from game.services.tutorials import tutorial_dialog_read, tutorial_start
from tcgsite.inputs import whole_number_or_none


@login_required
def tutorials_page(request):
    """The map of the tutorials, each marked when the player has won it."""
    places = selectors.tutorials_map(player=request.user)
    completed = sum(place.completed for place in places)
    next_place = next((place for place in places if not place.completed), None)
    return render(
        request,
        "game/tutorials.html",
        {"places": places, "completed": completed, "next_place": next_place},
    )


@login_required
@require_POST
def tutorial_start_view(request):
    """A tutorial's Play button (the map, or the end of another tutorial): it begins at once."""
    try:
        match = tutorial_start(player=request.user, slug=request.POST.get("tutorial", "")[:40])
    except MatchError as failure:
        if request.htmx:
            return HttpResponse(
                failure.message, status=409, content_type="text/plain; charset=utf-8"
            )
        messages.error(request, failure.message)
        return redirect("game:tutorials")
    url = reverse("game:match_page", args=[match.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def tutorial_dialog_read_view(request, match_id):
    """The dialog's Next button: the tutorial's next dialog comes through the socket."""
    dialog = whole_number_or_none(request.POST.get("dialog", ""), minimum=0, maximum=100)
    return playmat_button(
        request, tutorial_dialog_read, match_id=match_id, dialog=-1 if dialog is None else dialog
    )


@login_required
def tutorial_dialogs(request, match_id):
    """Review Dialogs: every dialog of the tutorial its player has read, in a window."""
    try:
        dialogs = selectors.tutorial_dialogs_read(match_id=match_id, viewer=request.user)
    except selectors.NotAllowedToWatch as refusal:
        return HttpResponse(refusal.message, status=404, content_type="text/plain; charset=utf-8")
    return render(request, "game/_tutorial_dialogs.html", {"dialogs": dialogs})
