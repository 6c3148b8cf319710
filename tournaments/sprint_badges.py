"""What tournaments add to a player's name in the lobbies (tcgsite/lobbies/registry.py,
``register_name_badges``): their Sprint Winner Medals, one per colour with the count inside
when there are several (rulebook, "Sprint Tournaments": "a three-time gold winner will have a
gold Medal with the number 3 inside"), and the green of a player entered in a tournament
(rulebook, "Verifying You Are in the Tournament": "If your name is green, then you are entered
into a tournament correctly").

A name's badges change when its player joins or leaves a queue, is left out of a tournament
starting, drops or is knocked out, or their tournament ends: the services that make those
changes call ``names_refresh_after_commit``, so the green follows at once.
"""

from collections.abc import Collection
from functools import partial

from django.db import transaction
from django.db.models import Count
from django.utils.html import format_html, format_html_join

from tcgsite.lobbies.registry import NameBadge, register_name_badges
from tcgsite.lobbies.services.presence import user_rows_refresh
from tournaments.models import (
    MedalColor,
    Participant,
    QueueEntry,
    SprintMedal,
)
from tournaments.selectors import RUNNING

ENTERED_CLASS = "player-name--entered"
# Disc, rim and figure colours of each medal.
MEDAL_PAINT = {
    MedalColor.GOLD: ("#f4c542", "#9a7410", "#5a4200"),
    MedalColor.SILVER: ("#dfe4ea", "#7d8793", "#2f3640"),
    MedalColor.BRONZE: ("#d4894a", "#7a4a1f", "#3b220c"),
}
STAR = "M10 9.2l1.6 3.3 3.6.5-2.6 2.5.6 3.6-3.2-1.7-3.2 1.7.6-3.6-2.6-2.5 3.6-.5z"


def medal_title(color: str, count: int) -> str:
    label = MedalColor(color).label
    if count == 1:
        return f"{label} Sprint Winner Medal"
    return f"{count} {label} Sprint Winner Medals"


def medal_icon(color: str, count: int) -> str:
    """One medal drawn in SVG: a ribbon and a disc, with ``count`` inside when more than one
    (a star otherwise); its title names it for screen readers and on hover."""
    disc, rim, figure = MEDAL_PAINT[MedalColor(color)]
    if count > 1:
        inside = format_html(
            '<text x="10" y="17.6" text-anchor="middle" font-size="{}" font-weight="700" '
            'font-family="system-ui, sans-serif" fill="{}">{}</text>',
            9 if count < 10 else 7,
            figure,
            count,
        )
    else:
        inside = format_html('<path d="{}" fill="{}"/>', STAR, figure)
    title = medal_title(color, count)
    return format_html(
        '<span class="sprint-medal sprint-medal--{color}" role="img" aria-label="{title}" '
        'title="{title}"><svg viewBox="0 0 20 24" width="15" height="18" aria-hidden="true" '
        'focusable="false">'
        '<path d="M4 0h5l2.6 7H6.6z" fill="#c0392b"/><path d="M11 0h5l-2.6 7H8.4z" '
        'fill="#2c64c9"/>'
        '<circle cx="10" cy="14.5" r="8" fill="{disc}" stroke="{rim}" stroke-width="1.6"/>'
        '<circle cx="10" cy="14.5" r="5.6" fill="none" stroke="{rim}" stroke-opacity=".45" '
        'stroke-width=".8"/>{inside}</svg></span>',
        color=color,
        title=title,
        disc=disc,
        rim=rim,
        inside=inside,
    )


def medal_icons(counts: dict[str, int]) -> str:
    """A player's medals, gold first."""
    return format_html_join(
        "",
        "{}",
        ((medal_icon(color, counts[color]),) for color in MedalColor.values if color in counts),
    )


def name_badges(user_ids: Collection[int]) -> dict[int, NameBadge]:
    """The lobbies' badges of these players, in three queries however many they are."""
    ids = list(user_ids)
    medals: dict[int, dict[str, int]] = {}
    for player_id, color, count in (
        SprintMedal.objects.filter(player_id__in=ids)
        .values_list("player_id", "color")
        .annotate(count=Count("pk"))
        .order_by()
    ):
        medals.setdefault(player_id, {})[color] = count
    entered = set(
        QueueEntry.objects.filter(player_id__in=ids).values_list("player_id", flat=True)
    ) | set(
        Participant.objects.filter(
            player_id__in=ids,
            tournament__status__in=RUNNING,
            dropped=None,
            eliminated_round=None,
        ).values_list("player_id", flat=True)
    )
    badges = {}
    for player_id in medals.keys() | entered:
        html = medal_icons(medals.get(player_id, {}))
        if player_id in entered:
            html = format_html(
                '{}<span class="visually-hidden">, entered in a tournament</span>', html
            )
        badges[player_id] = NameBadge(
            html=html, classes=(ENTERED_CLASS,) if player_id in entered else ()
        )
    return badges


def names_refresh_after_commit(player_ids) -> None:
    """Once the change commits, the lobbies show these players' names anew (a player entered,
    left, dropped, knocked out, or done with a tournament)."""
    # robust: a row not sent again must never undo or fail the change that prompted it.
    transaction.on_commit(partial(_refresh, frozenset(player_ids)), robust=True)


def _refresh(player_ids: frozenset[int]) -> None:
    user_rows_refresh(user_ids=player_ids)


def connect_sprint_badges() -> None:
    register_name_badges("tournaments", name_badges)
