"""Player Ratings (rulebook, "K": "the weight a tournament will have on your Player Rating"): the
leaderboard of rated players and each player's rating history."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import path

from tcgsite.accounts.selectors import player_by_name
from tournaments import selectors


@login_required
def rating_leaderboard(request):
    return render(
        request,
        "tournaments/ratings.html",
        {"board": selectors.rating_leaderboard(viewer=request.user, page=request.GET.get("page"))},
    )


@login_required
def rating_history(request, username):
    player = player_by_name(username=username)
    if player is None:
        raise Http404("There is no player of that name.")
    return render(
        request,
        "tournaments/ratings_history.html",
        {"history": selectors.rating_history(player=player, page=request.GET.get("page"))},
    )


urlpatterns = [
    path("ratings/", rating_leaderboard, name="ratings"),
    path("ratings/<str:username>/", rating_history, name="rating_history"),
]
