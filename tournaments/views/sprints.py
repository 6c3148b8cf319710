"""The Sprint Leaderboard (rulebook, "Sprint Tournaments")."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path

from tournaments.sprint_selectors import coming_sprint, sprint_leaderboard


@login_required
def leaderboard(request):
    return render(
        request,
        "tournaments/sprint_leaderboard.html",
        {"board": sprint_leaderboard(), "coming": coming_sprint()},
    )


urlpatterns = [
    path("tournaments/sprint/", leaderboard, name="sprint_leaderboard"),
]
