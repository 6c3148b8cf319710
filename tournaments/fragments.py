"""HTML the tournament services send over sockets, and the Tournaments Lobby's panel,
rendered from templates."""

from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tcgsite.accounts.models import User
from tournaments import selectors
from tournaments.models import TournamentStructure


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
    return lists_html(selectors.lobby_lists(), oob=True)


def lobby_panel(viewer: User) -> str:
    """The Tournaments Lobby's panel as ``viewer`` sees it: the lists, the window Get Info
    and Join open in, and the box of the queue they wait in."""
    return render_to_string(
        "tournaments/_lobby_panel.html",
        {
            "lists": lists_html(selectors.lobby_lists(), oob=False),
            "waiting": selectors.queue_waiting(player=viewer),
            "user": viewer,
        },
    )


# What the lists' rows read of every queue and tournament, worked out once: the structures'
# labels, and the addresses' prefixes (checked against ``reverse`` by the lobby's tests).
STRUCTURE_LABELS = dict(TournamentStructure.choices)


def queue_prefix() -> str:
    """The address of a queue's Get Info without its number ("/tournaments/queues/"); its Join
    is that address and "join/"."""
    return reverse("tournaments:queue_info", args=[1]).removesuffix("1/")


def tournament_prefix() -> str:
    """The address of a tournament's Get Info without its number and "info/"."""
    return reverse("tournaments:tournament_info", args=[1]).removesuffix("1/info/")


def lists_html(lists: dict, *, oob: bool) -> SafeString:
    """The two lists drawn by one Jinja2 template (templates/jinja2/tournaments/
    _lobby_lists.html): a few dozen rows through Django's template language, each reversing
    three addresses, cost several times what their data did."""
    html = get_template("tournaments/_lobby_lists.html", using="jinja2").render(
        {
            "lists": lists,
            "oob": oob,
            "structure_labels": STRUCTURE_LABELS,
            "queue_prefix": queue_prefix(),
            "tournament_prefix": tournament_prefix(),
        }
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew
