"""HTML the tournament services send over sockets, rendered from templates."""

from django.template.loader import render_to_string
from django.urls import reverse


def notice_toast(text: str) -> str:
    return render_to_string("tournaments/toast.html", {"text": text})


def round_call_toast(tournament, match_id: int) -> str:
    return render_to_string(
        "tournaments/toast.html",
        {
            "text": f"Tournament {tournament.pk}, round {tournament.round}: your match is ready.",
            "link": reverse("game:match_page", args=[match_id]),
            "link_text": "Go to your match",
        },
    )


def conclusion_toast(tournament, participant) -> str:
    return render_to_string(
        "tournaments/toast.html",
        {
            "text": f"Tournament {tournament.pk} is over: you finished {participant.final_rank} of "
            f"{tournament.participants.count()}"
            + (f", and win {participant.packs} packs." if participant.packs else "."),
        },
    )


def lobby_lists() -> str:
    from tournaments.selectors import lobby_lists as lists

    return render_to_string("tournaments/lobby_lists.html", {"lists": lists()})
