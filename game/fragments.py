"""The HTML the Casual Lobby's socket and a match's socket send, swapped in by htmx's
websocket extension (each fragment names its target, ``hx-swap-oob``)."""

import re
from collections.abc import Iterator
from functools import lru_cache
from html import escape

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


def game_line(parts: list[tuple[str, bool]], faces: dict[str, list]) -> SafeString:
    """A game message of the Chat Log, as the engine words it ("* You draw ...") in its parts
    (``engine.render_parts``): each card name is a button that magnifies the card, drawn
    from its face (``faces``, by title) or, without one, named (static/js/match.js)."""
    # Joined as strings: a first look renders every line of the game, and Django's
    # format_html took fifteen times as long.
    words = "".join(
        _log_card(text, _face_key(faces.get(text))) if card else escape(text)
        for text, card in parts
    )
    return mark_safe(f'<li class="log-line log-line--game">{words}</li>')  # noqa: S308 - escaped


def _face_key(face: list | None) -> tuple | None:
    return None if face is None else tuple(face)


@lru_cache(maxsize=4096)
def _log_card(title: str, face: tuple | None) -> str:
    zoom = f' data-zoom="{escape(_face_url(face))}?size=large"' if face else ""
    return (
        f'<button type="button" class="log-card"{zoom} aria-haspopup="dialog">'
        f"{escape(title)}</button>"
    )


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
        _indicators_of(card),
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
    indicators: tuple = (),
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
        "</figcaption>{}</figure>",
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
        _indicators(*indicators) if indicators else "",
    )


# The playmat's indicators on a card (rulebook, THE GAME SCREEN; EXERT AND READY; glossary,
# "link", "sentry", "target"): each an icon of our own, drawn inline (24-unit SVG paths), with
# its words for the tooltip and for screen readers.
ICONS = {
    "attack": "M4 20 L15 9 M14 4 L20 4 L20 10 M12 6 L18 12 M4 16 L8 20",
    "defense": "M12 3 L20 6 V12 C20 17 16 20 12 21 C8 20 4 17 4 12 V6 Z",
    "damage_bonus": "M12 2 L14 9 L21 9 L15 13 L17 21 L12 16 L7 21 L9 13 L3 9 L10 9 Z",
    "cost": "M12 3 A9 9 0 1 0 12.01 3 Z M12 7 V17 M9 9.5 H14 A2 2 0 0 1 14 13.5 H10 "
    "A2 2 0 0 0 10 17",
    "effect": "M13 2 L5 14 H11 L10 22 L19 9 H13 Z",
    "entangled": "M6 6 C14 6 10 18 18 18 M6 18 C14 18 10 6 18 6",
    "target": "M12 3 V7 M12 17 V21 M3 12 H7 M17 12 H21 M12 6 A6 6 0 1 0 12.01 6 Z",
    "link": "M10 14 L14 10 M8.5 11.5 L6 14 A3 3 0 0 0 10 18 L12.5 15.5 M15.5 12.5 L18 10 "
    "A3 3 0 0 0 14 6 L11.5 8.5",
    "sentry": "M2 12 C6 5 18 5 22 12 C18 19 6 19 2 12 Z M12 9 A3 3 0 1 0 12.01 9 Z",
    # The Phase Meter's (TURN SEQUENCE): two cards drawn, a flag, a turning arrow, a clock.
    "phase_draw": "M4 6 H12 V20 H4 Z M9 3 H17 V17 M14 8 L20 8 M17 5 L20 8 L17 11",
    "phase_quest": "M6 21 V3 M6 4 H18 L15 8 L18 12 H6",
    "phase_ready": "M20 12 A8 8 0 1 1 17.7 6.3 M20 3 V7 H16",
    "phase_main": "M12 3 A9 9 0 1 0 12.01 3 Z M12 7 V12 L16 14",
}
# Why a card was exerted, as its exert symbol says (state.EXERT_REASONS).
EXERT_WORDS = {
    "attack": "Exerted to attack",
    "defense": "Exerted to defend",
    "damage_bonus": "Exerted for its damage bonus",
    "cost": "Exerted to pay a cost",
    "effect": "Exerted by an effect",
    "entangled": "Played exerted (Entanglement)",
}
MARK_WORDS = {
    "targeted": "Targeted by {}",
    "targeting": "Targets {}",
    "linked": "Linked to {}",
}


def icon(name: str) -> SafeString:
    """One of ``ICONS``, decorative: its words are beside it."""
    return format_html(
        '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">'
        '<path d="{}"/></svg>',
        ICONS[name],
    )


def _indicators_of(card: dict) -> tuple:
    """What ``_indicators`` draws of a card, hashable for the drawings kept; empty when none."""
    found = (
        card.get("exerted_for") or "" if card.get("exerted") else "",
        tuple(card.get("keywords_gained") or ()),
        tuple(card.get("keywords_lost") or ()),
        tuple(card.get("marks") or ()),
        bool(card.get("choosable")),
    )
    return found if any(found) else ()


def _indicators(
    exerted_for: str,
    gained: tuple[str, ...],
    lost: tuple[str, ...],
    marks: tuple[tuple[str, int, str], ...],
    choosable: bool,
) -> SafeString:
    """A card's exert symbol, target and link icons and, below them, the keywords it gained or
    lost from effects, each said in words to screen readers. A card marked with another names
    it (``data-marked-with``): pointing at one lights the other (glossary, "target": "you can
    mouse over that card or the card that targets it to see a link icon appear on the other
    card"; static/js/match.js)."""
    symbols = []
    if exerted_for:
        kind = f"exert mat-mark--exert--{exerted_for}"
        symbols.append((kind, exerted_for, EXERT_WORDS[exerted_for]))
    if choosable:
        symbols.append(("choosable", "target", "Can be chosen now"))
    for how, _, title in marks:
        shown = "target" if how == "targeted" else "link"
        symbols.append((how, shown, MARK_WORDS[how].format(title)))
    marked_with = " ".join(str(other) for _, other, _ in marks)
    keywords = [("gained", "+", name, f"Gained {name}") for name in gained]
    keywords += [("lost", "\u2212", name, f"Lost {name}") for name in lost]
    return format_html(
        '<span class="mat-indicators"{}>{}{}</span>',
        format_html(' data-marked-with="{}"', marked_with) if marked_with else "",
        format_html_join(
            "",
            '<span class="mat-mark mat-mark--{0}" title="{2}">{1}<span class="visually-hidden">{2}'
            "</span></span>",
            ((kind, icon(shown), words) for kind, shown, words in symbols),
        ),
        format_html(
            '<span class="mat-keywords">{}</span>',
            format_html_join(
                "",
                '<span class="mat-keyword mat-keyword--{0}" title="{3}"><span aria-hidden="true">'
                '{1}{2}</span><span class="visually-hidden">{3}</span></span>',
                keywords,
            ),
        )
        if keywords
        else "",
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
