"""HTML the tournament services send over sockets, and the Tournaments Lobby's panel,
rendered from templates."""

from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tcgsite.accounts.models import User
from tcgsite.lobbies.places import Lobby
from tournaments import selectors
from tournaments.models import Decision, TournamentStructure


def notice_toast(text: str) -> str:
    return render_to_string("tournaments/toast.html", {"text": text})


def lobby_url() -> str:
    return reverse("lobbies:lobby", args=[Lobby.TOURNAMENTS])


def round_call_toast(tournament, match_id: int) -> str:
    """The call to a round's match: static/js/tournaments.js takes a page elsewhere to the
    Tournaments Lobby, and the lobby's page to the match."""
    return render_to_string(
        "tournaments/_round_call_toast.html",
        {
            "tournament": tournament,
            "link": reverse("game:match_page", args=[match_id]),
            "lobby": lobby_url(),
        },
    )


def bye_text(*, in_bracket: bool) -> str:
    """A player with no opponent this round: the bye counts as a win (rulebook, "Scoring"),
    or, in an elimination bracket, takes them to the next round."""
    return "you go through without playing" if in_bracket else "you have a bye, counted as a win"


def result_text(*, won: bool, decision: str) -> str:
    """How a player's match of the round was decided, told to them."""
    if decision == Decision.DROPPED:
        return "your opponent dropped: you win the match"
    if decision == Decision.TIME:
        return "the round's time ran out: " + ("you win the match" if won else "you lose the match")
    return "you won your match" if won else "you lost your match"


def between_rounds_toast(tournament, result: str) -> str:
    """Back to the Tournaments Lobby until the next round (rulebook, "Between Rounds"): the
    Tournament Timer runs there, and the next round's call takes the player to their match."""
    ends = tournament.round_ends
    return render_to_string(
        "tournaments/_between_rounds_toast.html",
        {
            "text": f"Tournament {tournament.pk}, round {tournament.round}: {result}.",
            "ends": f"{ends:%H:%M} UTC" if ends else "",
            "lobby": lobby_url(),
        },
    )


def knocked_out_toast(tournament, round_number: int) -> str:
    return notice_toast(
        f"Tournament {tournament.pk}, round {round_number}: you lost, and are out of the "
        "bracket. Your final place, and what it earns, come when the tournament concludes; "
        "you may enter another event now."
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
