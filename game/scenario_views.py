"""Play → Scenarios (rulebook, "Scenarios"): the map of the two chapters, and a scenario's
start with the deck the player brings."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from game import selectors
from game.services.matches import MatchError
from game.services.scenarios import scenario_start
from tcgsite.inputs import object_id, whole_number_or_none


@login_required
@require_http_methods(["GET", "POST"])
def scenarios_page(request):
    """The map of the scenarios, each won, open or locked; posting a scenario's Play button
    begins it at once with the chosen deck, or shows the map again with what is wrong."""
    error = chosen = None
    if request.method == "POST":
        chosen = whole_number_or_none(request.POST.get("scenario"), minimum=1, maximum=99)
        try:
            match = scenario_start(
                player=request.user,
                number=chosen,
                deck_id=object_id(request.POST.get("deck")),
            )
        except MatchError as failure:
            if request.htmx:
                # A button on the playmat's end screen (Next scenario, Try again).
                return HttpResponse(
                    failure.message, status=409, content_type="text/plain; charset=utf-8"
                )
            error = failure.message
        else:
            url = reverse("game:match_page", args=[match.pk])
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    chapters = selectors.scenarios_map(player=request.user)
    return render(
        request,
        "game/scenarios.html",
        {"chapters": chapters, "error": error, "chosen": chosen},
        status=400 if error else 200,
    )
