"""HTML the tournament services send over sockets, and the Tournaments Lobby's panel,
rendered from templates."""

from django.template.loader import render_to_string
from django.urls import reverse

from tcgsite.accounts.models import User
from tournaments import selectors


def notice_toast(text: str) -> str:
    return render_to_string("tournaments/toast.html", {"text": text})


def round_call_toast(tournament, match_id: int) -> str:
    return render_to_string(
        "tournaments/_round_call_toast.html",
        {"tournament": tournament, "link": reverse("game:match_page", args=[match_id])},
    )


def bye_toast(tournament, *, in_bracket: bool) -> str:
    """A player with no opponent this round: the bye counts as a win (rulebook, "Scoring"),
    or, in an elimination bracket, takes them to the next round."""
    what = "you go through without playing" if in_bracket else "your bye counts as a win"
    return render_to_string(
        "tournaments/toast.html",
        {
            "text": f"Tournament {tournament.pk}, round {tournament.round}: {what}. "
            "Wait for the next round's call.",
        },
    )


def conclusion_toast(tournament, participant, field: int) -> str:
    """The conclusion told to one of the ``field`` players."""
    return render_to_string(
        "tournaments/toast.html",
        {
            "text": f"Tournament {tournament.pk} is over: you finished {participant.final_rank} of "
            f"{field}" + (f", and win {participant.packs} packs." if participant.packs else "."),
            "link": reverse("tournaments:standings", args=[tournament.pk]),
            "link_text": "Final standings",
        },
    )


def lobby_lists() -> str:
    """The two lists alone, for everyone in the lobby: swapped in by their id."""
    return render_to_string(
        "tournaments/lobby_lists.html", {"lists": selectors.lobby_lists(), "oob": True}
    )


def lobby_panel(viewer: User) -> str:
    """The Tournaments Lobby's panel as ``viewer`` sees it: the lists, the window Get Info
    and Join open in, and the box of the queue they wait in."""
    return render_to_string(
        "tournaments/_lobby_panel.html",
        {
            "lists": selectors.lobby_lists(),
            "waiting": selectors.queue_waiting(player=viewer),
            "user": viewer,
        },
    )
