"""The HTML the Casual Lobby's socket and a match's socket send, swapped in by htmx's
websocket extension (each fragment names its target, ``hx-swap-oob``)."""

import re
from collections.abc import Iterator
from functools import lru_cache

from django.template import engines
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

from collection.cards.faces import FACE_SIZES
from game.encounters import ENCOUNTER_FACE
from game.models import Match, MatchChatKind, MatchChatLine, MatchStructure

MEDALLIONS_ID = "medallion-list"


def medallion(match: Match, *, added: bool = False) -> str:
    """A Match Medallion (rulebook, Casual Lobby, "Joining a Match"): added at the end of the
    list, or swapped in for the one shown."""
    if not hasattr(match, "seat_count"):
        match.seat_count = match.seats.count()
    html = medallions([match], oob=not added)
    if added:
        return format_html('<ul id="{}" hx-swap-oob="beforeend">{}</ul>', MEDALLIONS_ID, html)
    return html


# What the medallions read of every match, worked out once (the structures' labels).
STRUCTURE_LABELS = dict(MatchStructure.choices)


def medallions(matches: list[Match], *, oob: bool = False) -> SafeString:
    """The medallions of ``matches`` (each with its ``seat_count``), drawn by one Jinja2
    template (templates/jinja2/game/_medallions.html): a lobby's medallions through Django's
    template language, an include and two reversed addresses each, cost several times what
    their data did. Their addresses are built from a prefix (checked against ``reverse`` by
    the lobby's tests)."""
    html = get_template("game/_medallions.html", using="jinja2").render(
        {
            "matches": matches,
            "oob": oob,
            "structure_labels": STRUCTURE_LABELS,
            "match_prefix": reverse("game:match_join", args=[1]).removesuffix("1/join/"),
        }
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew


RUNNING_ID = "running-list"


def running_medallions(
    matches: list[Match], viewer_id: int | None, *, oob: bool = False
) -> SafeString:
    """The medallions of matches in progress (``game.selectors.running_matches``: each with its
    seats, ``observer_count`` and ``game_number``) as ``viewer_id`` sees them: Observe Match,
    or for a match they play in, Back to the match (None: a viewer who plays none of them)."""
    html = get_template("game/_running_medallions.html", using="jinja2").render(
        {
            "matches": [(match, _sides(match)) for match in matches],
            "viewer_id": viewer_id,
            "oob": oob,
            "structure_labels": STRUCTURE_LABELS,
            "match_prefix": reverse("game:match_page", args=[1]).removesuffix("1/"),
        }
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew


def running_medallion(match: Match, viewer_id: int | None, *, added: bool = False) -> str:
    """A medallion of a match in progress: added at the end of the list, or swapped in for the
    one shown (its observers changed)."""
    html = running_medallions([match], viewer_id, oob=not added)
    if added:
        return format_html('<ul id="{}" hx-swap-oob="beforeend">{}</ul>', RUNNING_ID, html)
    return html


def running_medallion_removed(match_id: int) -> str:
    return format_html('<li id="running-{}" hx-swap-oob="delete"></li>', match_id)


def _sides(match: Match) -> str:
    """Who plays whom: "Carol vs Bob", "Carol & Dora vs Bob & Erin", a Raid's heroes against
    its boss."""
    teams: dict[int, list[str]] = {}
    for seat in match.seats.all():
        teams.setdefault(match.team_of(seat.seat), []).append(seat.name)
    return " vs ".join(" & ".join(names) for _, names in sorted(teams.items()))


def medallion_removed(match_id: int) -> str:
    return format_html('<li id="medallion-{}" hx-swap-oob="delete"></li>', match_id)


def game_line(text: str) -> str:
    """A game message of the Chat Log, as the engine words it ("* You draw ...")."""
    return format_html('<li class="log-line log-line--game">{}</li>', text)


def chat_line(line: MatchChatLine, *, viewer_id: int | None = None) -> str:
    """A line of player chat as ``viewer_id`` sees it: "Paladon: Hi", "Carol (to Bob): Hi",
    and a whisper in the rulebook's two forms."""
    sender = line.sender.username
    if line.kind == MatchChatKind.NOTICE:
        return format_html(
            '<li class="log-line log-line--game log-line--notice">* {}</li>', line.text
        )
    if line.kind == MatchChatKind.SAY_TO:
        body = format_html("<strong>{} (to {}):</strong> {}", sender, line.recipient, line.text)
    elif line.kind == MatchChatKind.WHISPER and viewer_id == line.sender_id:
        body = format_html("You whisper to {}, {}", line.recipient, line.text)
    elif line.kind == MatchChatKind.WHISPER:
        # A whisper received plays its sound once (static/js/sounds.js), by its key.
        body = format_html(
            '<span data-sound-cue="whisper" data-sound-key="match-whisper-{}">{} whispers to'
            " you, {}</span>",
            line.pk,
            sender,
            line.text,
        )
    else:
        body = format_html("<strong>{}:</strong> {}", sender, line.text)
    return format_html(
        '<li class="log-line log-line--chat log-line--{}" data-sender="{}">{}</li>',
        line.kind,
        line.sender_id,
        body,
    )


def appended(line: str) -> str:
    """A line (HTML made by this module: it may have crossed the channel layer as a plain
    string) added at the end of the Chat Log."""
    return format_html('<ol id="match-log" hx-swap-oob="beforeend">{}</ol>', mark_safe(line))  # noqa: S308


def notice_line(text: str, *, error: bool = False) -> str:
    """A line for one player alone: a command's answer, or why a line was refused."""
    kind = "error" if error else "notice"
    return appended(format_html('<li class="log-line log-line--{}">{}</li>', kind, text))


def challenge_toast(match: Match) -> str:
    """What the challenged player is told, on whatever page they are."""
    return render_to_string("game/_challenge_toast.html", {"match": match})


def resumed_toast(match: Match, player) -> str:
    return render_to_string("game/_resumed_toast.html", {"match": match, "player": player})


def match_screen(screen) -> SafeString:
    """A match's screen as its viewer sees it (``game.selectors.MatchScreen``): the Match
    Launch screen, then the playmat."""
    return mark_safe(_screen_html(screen))  # noqa: S308 - Jinja's autoescaped output


def match_screen_update(
    screen, *, replace_log: bool, clear_error: bool, shown: dict[str, str] | None = None
) -> tuple[str, dict[str, str]]:
    """What a match's socket sends its page after a change, and the screen's regions as sent:
    the regions of the screen (the playmat's info panels, Phase Meter, Prompt, menu, overlays,
    rows, quests and hand) that differ from those ``shown`` last, or, when nothing was shown
    yet or the screen's parts changed (the launch screen became the playmat, a hand appeared),
    the whole screen; then the Chat Log's new lines (``screen.log``; all of them, in place of
    the log shown, with ``replace_log``), and, with ``clear_error``, the refusal shown
    cleared."""
    html = _screen_html(screen)
    regions = dict(_regions(html))
    if regions and shown is not None and shown.keys() == regions.keys():
        parts = [_swapped(region) for name, region in regions.items() if region != shown[name]]
    else:
        parts = [SCREEN_SWAPPED, html, "</div>\n"]
    parts.append(LOG_REPLACED if replace_log else LOG_APPENDED)
    parts += map(conditional_escape, screen.log)
    parts.append("</ol>\n")
    if clear_error:
        parts.append(ERROR_CLEARED)
    return "".join(parts), regions


# A region of the screen: one element with an id, between these marks
# (templates/jinja2/game/_playmat.html). Cut out with str methods: a regular expression
# scanning the 30 KB screen for the marks took most of a socket's time after its render.
REGION_START, REGION_END = "<!--region-->", "<!--/region-->"
REGION_ID = re.compile(r'\sid="([\w-]+)"')


def _regions(html: str) -> Iterator[tuple[str, str]]:
    for chunk in html.split(REGION_START)[1:]:
        region = chunk.partition(REGION_END)[0]
        found = REGION_ID.search(region, 0, region.find(">"))
        if found is not None:
            yield found.group(1), region


def _swapped(region: str) -> str:
    """The region, marked to take the place of the page's element of its id (and between its
    marks, which the page ignores, as a reader of the frames may not)."""
    tag_end = region.index("<") + 1
    tag_end += len(re.match(r"[\w-]+", region[tag_end:]).group(0))
    return f'<!--region-->{region[:tag_end]} hx-swap-oob="true"{region[tag_end:]}<!--/region-->\n'


SCREEN_SWAPPED = '<div id="match-screen" hx-swap-oob="true">'
LOG_REPLACED = '<ol id="match-log" class="match-log" aria-live="polite" hx-swap-oob="true">'
LOG_APPENDED = '<ol id="match-log" hx-swap-oob="beforeend">'
ERROR_CLEARED = (
    '<p id="match-error" class="match-error" role="alert" hidden hx-swap-oob="true"></p>'
)


def _screen_html(screen) -> str:
    # The screen's template is rendered itself, and wrapped here: through Jinja's includes,
    # each of the playmat's ~500 pieces of output passed through one generator per level.
    name = "game/_launch.html" if screen.launching else "game/_playmat.html"
    return _jinja_template(name).render({"screen": screen})


def _jinja_template(name: str):
    return engines["jinja2"].get_template(name)


def mat_card(card: dict, *, interactive: bool) -> SafeString:
    """One card on the playmat, drawn from its SVG face at the playmat's card size
    (Preferences). Exerted, it lies sideways and shaded; damage, shield and level tokens sit on
    it. Right-click or a long press magnifies it; while its player decides (``interactive``), a
    card with an action takes a double-click, Enter or (from the hand, hinted) a drag
    (static/js/match.js)."""
    face = card.get("face")
    return _mat_card(
        card["id"],
        card["title"],
        card["type"],
        bool(card.get("exerted")),
        card.get("damage") or 0,
        card.get("shield") or 0,
        card.get("tokens") or 0,
        card.get("attack"),
        card.get("defense"),
        None if face is None else tuple(face),
        interactive and bool(card.get("actionable")),
        interactive and bool(card.get("playable")),
        bool(card.get("combatant")),
    )


# A card looks the same every time its fields are the same, and most cards of a playmat are
# unchanged from one action to the next: the drawings are kept, a few thousand at most.
@lru_cache(maxsize=4096)
def _mat_card(
    card_id: int,
    title: str,
    kind: str,
    exerted: bool,
    damage: int,
    shield: int,
    tokens: int,
    attack: int | None,
    defense: int | None,
    face: tuple | None,
    actionable: bool,
    playable: bool,
    combatant: bool,
) -> SafeString:
    states = {"exerted": exerted, "actionable": actionable, "playable": playable}
    classes = [f"mat-card mat-card--{kind}"]
    classes += [f"mat-card--{state}" for state, on in states.items() if on]
    if combatant:
        classes.append("mat-card--combatant")
    tokens_text = f"{tokens} level token{'' if tokens == 1 else 's'}"
    title_text = "".join(
        [
            title,
            ", exerted" if exerted else "",
            f", {damage} damage" if damage else "",
            f", shield {shield}" if shield else "",
            f", {tokens_text}" if tokens else "",
            f"; attack {attack}, defense {defense}" if kind == "unit" else "",
            ". You can play it now" if playable else ". It has an action now" if actionable else "",
        ]
    )
    zoom = format_html(' data-zoom="{}?size=large"', _face_url(face)) if face else ""
    handles = mark_safe(  # noqa: S308 - constant text
        (' tabindex="0" role="button"' if actionable else "")
        + (' draggable="true"' if playable else "")
    )
    if face:
        picture = format_html(
            '<img src="{}?size=small" alt="{}" width="{}" height="{}" draggable="false">',
            _face_url(face),
            title,
            FACE_SIZES["small"].width,
            FACE_SIZES["small"].height,
        )
    else:
        picture = format_html(
            '<span class="mat-card__text"><strong>{}</strong> <small>{}</small></span>',
            title,
            capfirst(kind),
        )
    badges = [
        ("damage", f"{damage} damage", damage) if damage else None,
        ("shield", f"Shield {shield}", shield) if shield else None,
        ("tokens", tokens_text, tokens) if tokens else None,
        ("stats", f"Attack {attack}, defense {defense}", f"{attack}/{defense}")
        if kind == "unit"
        else None,
    ]
    return format_html(
        '<figure class="{}" data-card="{}" data-exerted="{}" data-damage="{}"{} title="{}"{}>'
        '<div class="mat-card__face">{}</div><figcaption class="mat-card__badges">{}'
        "</figcaption></figure>",
        " ".join(classes),
        card_id,
        1 if exerted else 0,
        damage,
        zoom,
        title_text,
        handles,
        picture,
        format_html_join(
            "",
            '<span class="badge badge--{}" title="{}">{}</span>',
            (badge for badge in badges if badge is not None),
        ),
    )


def tactic_shown(tactic: dict) -> SafeString:
    """A tactic just played, oversized over the playmat (rulebook, "Tactics": "You'll see an
    oversized version of any tactic that's played appear on the screen. Then that tactic is
    discarded."). It lets every click through and fades by itself; a click or Escape puts it
    away sooner (static/js/match.js)."""
    face = tactic["face"]
    if face:
        width, height = FACE_SIZES["large"].width, FACE_SIZES["large"].height
        picture = format_html(
            '<img src="{}?size=large" alt="{}" width="{}" height="{}" draggable="false">',
            _face_url(tuple(face)),
            tactic["title"],
            width,
            height,
        )
    else:
        picture = format_html('<strong class="tactic-shown__text">{}</strong>', tactic["title"])
    return format_html(
        '<figure class="tactic-shown" data-tactic="{}" role="status">{}'
        "<figcaption>{} plays the tactic {}.</figcaption></figure>",
        tactic["id"],
        picture,
        tactic["player"],
        tactic["title"],
    )


# A face address in a match's faces for a player-made avatar: ("match", match number, the
# avatar's number in set 0), drawn by the match's own address (game.selectors.match_faces).
MATCH_FACE = "match"


@lru_cache(maxsize=1024)
def _face_url(face: tuple) -> str:
    """The address of a face: a catalog card's, (set number, number), a heroic encounter's
    own card's, ("encounter", slug, index) (game.selectors.encounter_faces), or a player-made
    avatar's in a match, ("match", match number, number)."""
    if face[0] == ENCOUNTER_FACE:
        return reverse("game:encounter_card_face", args=face[1:])
    if face[0] == MATCH_FACE:
        return reverse("game:match_card_face", args=face[1:])
    return reverse("cards:card_face", args=face)
