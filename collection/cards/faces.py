"""Card faces drawn as standalone SVG from data alone.

No external art or fonts: each card's art is drawn from shapes by collection.cards.art, and
text uses generic font stacks. SVG cannot wrap text, so game text is wrapped
here with estimated glyph widths. The output depends only on the card's data (deterministic),
and its few element ids are shared only by identical definitions, so many faces can share a page.
"""

import re
from dataclasses import dataclass
from html import escape

from collection.cards.art import card_art_svg
from collection.cards.glossary import GLOSSARY, TERMS, glossary_url
from collection.cards.models import Archetype, CardType
from game.engine.vocabulary import KEYWORDS

# Arial and Liberation Sans share Helvetica's metrics, which the width table below follows.
SANS_FONT = "Arial, 'Liberation Sans', Helvetica, sans-serif"

VIEW_WIDTH = 250
VIEW_HEIGHT = 350


@dataclass(frozen=True)
class FaceSize:
    width: int
    height: int
    body_font: float  # game text size in viewBox units, before shrinking long text
    min_body_font: float
    label_scale: float  # badges, type line and credits grow at small size to stay legible


FACE_SIZES: dict[str, FaceSize] = {
    "small": FaceSize(180, 252, body_font=12.5, min_body_font=10.5, label_scale=1.25),
    "medium": FaceSize(250, 350, body_font=10, min_body_font=8, label_scale=1.0),
    "large": FaceSize(340, 476, body_font=9, min_body_font=7.5, label_scale=0.95),
}


@dataclass(frozen=True)
class Palette:
    frame: str  # outer frame
    frame_edge: str  # bevel line inside the frame
    plate: str  # title and type-line plates
    accent: str  # trim and credits


PALETTES: dict[str, Palette] = {
    Archetype.JEDI: Palette("#1d4a73", "#6fa6d8", "#12324f", "#e6c66e"),
    Archetype.REBEL: Palette("#87371a", "#e08a4e", "#5a230f", "#f3d39c"),
    Archetype.IMPERIAL: Palette("#39424d", "#93a1b2", "#22282f", "#d3dbe4"),
    Archetype.SITH: Palette("#520b12", "#b32a36", "#2c0509", "#f08a7a"),
    Archetype.GENERIC: Palette("#4f4a3f", "#a39676", "#332f27", "#eadfc3"),
}

TEXT_BOX_FILL = "#f6f1e5"
TEXT_COLOUR = "#1b1b1b"
HIGHLIGHT_COLOUR = "#1655b5"  # the rulebook's highlighted terms are blue
LORE_COLOUR = "#5b4d39"

RARITY_COLOURS = {"R": "#d9b23c", "U": "#c3cad2", "C": "#3a3a3a", "F": "#3f9e5a", "P": "#9b59b6"}

COSTED_TYPES = {CardType.UNIT, CardType.ABILITY, CardType.ITEM, CardType.TACTIC}

# Layout of the 250x350 viewBox, shared by every size.
ART_LEFT, ART_TOP, ART_RIGHT, ART_BOTTOM = 12, 44, 238, 168
TEXT_LEFT, TEXT_TOP, TEXT_RIGHT, TEXT_BOTTOM = 12, 190, 238, 322
TEXT_PADDING = 7


# --- Text measurement -------------------------------------------------------------------------

# Advance widths in em of Helvetica (and so Arial / Liberation Sans), grouped by width.
_GLYPH_WIDTHS: dict[str, float] = {
    char: width
    for chars, width in (
        ("'|", 0.24),
        ("ijl", 0.222),
        ("ftI !,.:;/[]\\", 0.278),
        ("r-()`{}\u2019\u2018", 0.333),
        ('"*\u2022', 0.37),
        ("cksvxyzJ", 0.5),
        ("abdeghnopqu0123456789$#?_L\u2013", 0.556),
        ("+<=>~^", 0.584),
        ("FTZ", 0.611),
        ("ABEKPSVXY&", 0.667),
        ("CDHNRUw", 0.722),
        ("GOQ", 0.778),
        ("mM", 0.833),
        ("%", 0.889),
        ("W", 0.944),
        ("@\u2014\u2192\u2026", 1.0),
    )
    for char in chars
}
_UNKNOWN_GLYPH_WIDTH = 0.6
_BOLD_FACTOR = 1.07
# Fallback fonts (DejaVu Sans) run wider; a small margin keeps wrapped lines inside the box.
_SAFETY_FACTOR = 1.04


def text_width(text: str, font_size: float, *, bold: bool = False) -> float:
    """Estimated rendered width of ``text`` in the units of ``font_size``."""
    ems = sum(_GLYPH_WIDTHS.get(char, _UNKNOWN_GLYPH_WIDTH) for char in text)
    return ems * font_size * _SAFETY_FACTOR * (_BOLD_FACTOR if bold else 1.0)


def _fit_font(
    text: str, width: float, largest: float, smallest: float, *, bold: bool
) -> tuple[float, bool]:
    """The largest font size up to ``largest`` at which ``text`` fits ``width``.

    Returns (size, squeeze): squeeze is True when even ``smallest`` is too wide, and the caller
    then compresses the text with ``textLength``.
    """
    natural = text_width(text, largest, bold=bold)
    if natural <= width:
        return largest, False
    fitted = largest * width / natural
    if fitted >= smallest:
        return round(fitted, 2), False
    return smallest, True


# --- XML helpers --------------------------------------------------------------------------------

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _esc(text: str) -> str:
    """Escape user text for XML content and attributes, dropping characters XML forbids."""
    return escape(_XML_INVALID.sub("", str(text)), quote=True)


def _num(value: float) -> str:
    """Compact, deterministic number formatting for coordinates."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _text(x, y, content, *, size, fill, anchor="start", weight="", style="", extra="") -> str:
    attributes = f'x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" fill="{fill}"'
    if anchor != "start":
        attributes += f' text-anchor="{anchor}"'
    if weight:
        attributes += f' font-weight="{weight}"'
    if style:
        attributes += f' font-style="{style}"'
    return f"<text {attributes}{extra}>{content}</text>"


def _fitted_text(
    x, y, text, *, width, largest, smallest, fill, anchor="start", weight="", style=""
) -> str:
    size, squeeze = _fit_font(text, width, largest, smallest, bold=weight == "bold")
    extra = f' textLength="{_num(width)}" lengthAdjust="spacingAndGlyphs"' if squeeze else ""
    return _text(
        x,
        y,
        _esc(text),
        size=size,
        fill=fill,
        anchor=anchor,
        weight=weight,
        style=style,
        extra=extra,
    )


# --- Game text: tokens, wrapping and rendering --------------------------------------------------

TIMING_ICONS = {
    "main": "Main Phase: use this action only during your Main Phase.",
    "attack": "Attacking: use this action only when you are attacking in combat.",
    "defend": "Defending: use this action only when you are defending in combat.",
}


def _term_pattern(names) -> str:
    longest_first = sorted(names, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(word) for word in name.split()) for name in longest_first)


# Whole words only: a hyphen or letter next to a term makes it part of another word.
_TOKEN_RE = re.compile(
    r"\{(?P<icon>" + "|".join(TIMING_ICONS) + r")\}"
    r"|(?<![\w-])(?P<keyword>(?:" + _term_pattern(KEYWORDS) + r")(?:\s+\+?\d+)?)(?![\w-])"
    r"|(?<![\w-])(?P<term>" + _term_pattern(TERMS) + r")(?![\w-])",
    re.IGNORECASE,
)
_KEYWORD_PARAMETER_RE = re.compile(r"\s+\+?\d+$")


@dataclass(frozen=True)
class Piece:
    """A run of text in one style, or a timing icon."""

    text: str = ""
    meaning: str = ""  # the glossary meaning of a highlighted term
    icon: str = ""  # a TIMING_ICONS key


Word = tuple[Piece, ...]


def _glossary_entry(matched: str) -> tuple[str, str]:
    name = " ".join(_KEYWORD_PARAMETER_RE.sub("", matched).lower().split())
    return name, GLOSSARY[name]


def _game_text_paragraphs(game_text: str) -> list[list[Word]]:
    """Split game text into paragraphs of words; a word is a list of pieces without spaces
    between them (so "(Shield 2)" stays one word with three pieces)."""
    paragraphs = []
    for line in game_text.splitlines():
        stream: list[Piece | None] = []  # None marks a place where a line may break
        position = 0
        for match in _TOKEN_RE.finditer(line):
            stream.extend(_plain_pieces(line[position : match.start()]))
            if match["icon"]:
                stream.extend((None, Piece(icon=match["icon"].lower()), None))
            else:
                matched = match["keyword"] or match["term"]
                name, meaning = _glossary_entry(matched)
                shown = " ".join(matched.split())
                stream.append(Piece(shown, meaning=f"{name.title()}: {meaning}"))
            position = match.end()
        stream.extend(_plain_pieces(line[position:]))
        paragraphs.append(_group_words(stream))
    return paragraphs


def _plain_pieces(text: str) -> list[Piece | None]:
    return [None if part.isspace() else Piece(part) for part in re.split(r"(\s+)", text) if part]


def _group_words(stream: list[Piece | None]) -> list[Word]:
    words, current = [], []
    for piece in [*stream, None]:
        if piece is None:
            if current:
                words.append(tuple(current))
            current = []
        else:
            current.append(piece)
    return words


def _plain_paragraphs(text: str) -> list[list[Word]]:
    return [[(Piece(word),) for word in line.split()] for line in text.splitlines()]


def _piece_width(piece: Piece, font: float) -> float:
    if piece.icon:
        return font * 1.15
    return text_width(piece.text, font, bold=bool(piece.meaning))


def _word_width(word: Word, font: float) -> float:
    return sum(_piece_width(piece, font) for piece in word)


def _split_long_word(word: Word, font: float, width: float) -> list[Word]:
    """Break a single word wider than the box (a pasted URL, say) into box-wide chunks."""
    if _word_width(word, font) <= width or len(word) != 1 or word[0].icon:
        return [word]
    chunks, chunk = [], ""
    for char in word[0].text:
        if chunk and text_width(chunk + char, font, bold=bool(word[0].meaning)) > width:
            chunks.append((Piece(chunk, meaning=word[0].meaning),))
            chunk = ""
        chunk += char
    chunks.append((Piece(chunk, meaning=word[0].meaning),))
    return chunks


@dataclass(frozen=True)
class Line:
    words: tuple[Word, ...]
    ends_paragraph: bool


def _wrap(paragraphs: list[list[Word]], font: float, width: float) -> list[Line]:
    space = text_width(" ", font)
    lines = []
    for paragraph in paragraphs:
        line: list[Word] = []
        used = 0.0
        for whole_word in paragraph:
            for word in _split_long_word(whole_word, font, width):
                word_width = _word_width(word, font)
                if line and used + space + word_width > width:
                    lines.append(Line(tuple(line), ends_paragraph=False))
                    line, used = [], 0.0
                used = word_width if not line else used + space + word_width
                line.append(word)
        lines.append(Line(tuple(line), ends_paragraph=True))
    return lines


def _line_height(font: float) -> float:
    return font * 1.22


def _paragraph_gap(font: float) -> float:
    return font * 0.35


def _block_height(lines: list[Line], font: float) -> float:
    if not lines:
        return 0.0
    gaps = sum(1 for line in lines[:-1] if line.ends_paragraph)
    return len(lines) * _line_height(font) + gaps * _paragraph_gap(font)


def _timing_icon(kind: str, x: float, baseline: float, font: float) -> str:
    """A round badge the height of a capital letter, drawn in place of {main}/{attack}/{defend}."""
    radius = font * 0.5
    cx, cy = x + font * 0.05 + radius, baseline - font * 0.36
    scale = radius / 10
    glyphs = {
        # A lightning bolt: the main phase is when you act freely.
        "main": (
            "#b8860b",
            '<path d="M2,-8 L-5,1 L-0.5,1 L-2,8 L5,-1.5 L0.5,-1.5 Z" fill="#fff"/>',
        ),
        # A blade.
        "attack": (
            "#b3261e",
            '<path d="M5.5,-6.5 L6.5,-5.5 L-2,3 L-3,2 Z" fill="#fff"/>'
            '<path d="M-5,1 L-1,5 M-3.5,3.5 L-6,6" stroke="#fff" stroke-width="1.8" '
            'stroke-linecap="round"/>',
        ),
        # A shield.
        "defend": (
            "#1f5fa8",
            '<path d="M0,-7 L6,-4.5 C6,2 3.5,5.5 0,7.5 C-3.5,5.5 -6,2 -6,-4.5 Z" fill="#fff"/>',
        ),
    }
    colour, glyph = glyphs[kind]
    return (
        f'<g transform="translate({_num(cx)},{_num(cy)}) scale({_num(scale)})">'
        f"<title>{_esc(TIMING_ICONS[kind])}</title>"
        f'<circle r="10" fill="{colour}"/>{glyph}</g>'
    )


def _styled_run(pieces: list[Piece]) -> str:
    """Text pieces as tspans; highlighted terms are bold, blue and carry their meaning."""
    parts = []
    for piece in pieces:
        if piece.meaning:
            parts.append(
                f'<tspan fill="{HIGHLIGHT_COLOUR}" font-weight="bold">'
                f"<title>{_esc(piece.meaning)}</title>{_esc(piece.text)}</tspan>"
            )
        else:
            parts.append(_esc(piece.text))
    return "".join(parts)


def _render_line(line: Line, baseline: float, font: float, *, fill: str, style: str) -> str:
    """One wrapped line: text runs as <text> elements, broken around any timing icons."""
    out = []
    space = text_width(" ", font)
    x = run_x = TEXT_LEFT + TEXT_PADDING
    run: list[Piece] = []
    for index, word in enumerate(line.words):
        if index:
            if run:
                run.append(Piece(" "))
            x += space
        for piece in word:
            if piece.icon:
                if run:
                    out.append(
                        _text(run_x, baseline, _styled_run(run), size=font, fill=fill, style=style)
                    )
                    run = []
                out.append(_timing_icon(piece.icon, x, baseline, font))
            else:
                if not run:
                    run_x = x
                run.append(piece)
            x += _piece_width(piece, font)
    if run:
        out.append(_text(run_x, baseline, _styled_run(run), size=font, fill=fill, style=style))
    return "".join(out)


def _render_lines(lines: list[Line], top: float, font: float, *, fill: str, style: str = "") -> str:
    """SVG for wrapped lines whose block starts at ``top``."""
    out = []
    baseline = top + font * 0.92
    for line in lines:
        out.append(_render_line(line, baseline, font, fill=fill, style=style))
        baseline += _line_height(font) + (_paragraph_gap(font) if line.ends_paragraph else 0)
    return "".join(out)


@dataclass(frozen=True)
class TextLayout:
    body: list[Line]
    body_font: float
    lore: list[Line]  # empty when the lore moved behind the datapad glyph
    lore_font: float
    show_datapad: bool


def layout_text_box(game_text: str, lore: str, size: FaceSize) -> TextLayout:
    """Fit game text and lore into the text box, dropping lore first, then shrinking text.

    Lore only appears at the size's full body font; when it does not fit there, it moves behind
    the datapad glyph (the rulebook's lore button) and the game text alone may shrink.
    """
    width = TEXT_RIGHT - TEXT_LEFT - 2 * TEXT_PADDING
    height = TEXT_BOTTOM - TEXT_TOP - 2 * TEXT_PADDING
    paragraphs = _game_text_paragraphs(game_text) if game_text.strip() else []
    lore_paragraphs = _plain_paragraphs(lore) if lore.strip() else []

    font = size.body_font
    body = _wrap(paragraphs, font, width)
    if lore_paragraphs:
        lore_font = font * 0.92
        lore_lines = _wrap(lore_paragraphs, lore_font, width)
        separator = _lore_separator_gap(font) if body else 0.0
        if _block_height(body, font) + separator + _block_height(lore_lines, lore_font) <= height:
            return TextLayout(body, font, lore_lines, lore_font, show_datapad=False)
        height -= _datapad_height(size)

    while _block_height(body, font) > height and font > size.min_body_font:
        font = max(size.min_body_font, font - 0.5)
        body = _wrap(paragraphs, font, width)
    if _block_height(body, font) > height:
        while len(body) > 1 and _block_height(body, font) > height:
            body.pop()
        body[-1] = Line((*body[-1].words, (Piece("\u2026"),)), ends_paragraph=True)
    return TextLayout(body, font, [], font, show_datapad=bool(lore_paragraphs))


def _lore_separator_gap(font: float) -> float:
    return font * 0.9


def _text_box(card, size: FaceSize, palette: Palette) -> str:
    layout = layout_text_box(card.game_text or "", card.lore or "", size)
    out = [
        f'<rect x="{TEXT_LEFT}" y="{TEXT_TOP}" width="{TEXT_RIGHT - TEXT_LEFT}" '
        f'height="{TEXT_BOTTOM - TEXT_TOP}" rx="4" fill="{TEXT_BOX_FILL}" '
        f'stroke="{palette.accent}" stroke-width="1.5"/>'
    ]
    body_height = _block_height(layout.body, layout.body_font)
    separator = _lore_separator_gap(layout.body_font) if layout.body and layout.lore else 0.0
    content_height = body_height + separator + _block_height(layout.lore, layout.lore_font)
    top = TEXT_TOP + TEXT_PADDING
    if not layout.show_datapad:
        # Short text sits in the middle of the box rather than leaving its lower half empty.
        top += (TEXT_BOTTOM - TEXT_TOP - 2 * TEXT_PADDING - content_height) / 2
    out.append(_render_lines(layout.body, top, layout.body_font, fill=TEXT_COLOUR))
    if separator:
        rule_y = top + body_height + separator / 2
        out.append(
            f'<path d="M{TEXT_LEFT + 30},{_num(rule_y)} H{TEXT_RIGHT - 30}" '
            f'stroke="{palette.accent}" stroke-width="0.8"/>'
        )
    lore_top = top + body_height + separator
    out.append(
        _render_lines(layout.lore, lore_top, layout.lore_font, fill=LORE_COLOUR, style="italic")
    )
    if layout.show_datapad:
        out.append(_datapad_glyph(card.lore, size))
    return "".join(out)


def _datapad_scale(size: FaceSize) -> float:
    return 1.25 * size.label_scale


def _datapad_height(size: FaceSize) -> float:
    return 11 * _datapad_scale(size) + 3


def _datapad_glyph(lore: str, size: FaceSize) -> str:
    """The rulebook's lore button: a small datapad whose tooltip holds the lore."""
    scale = _datapad_scale(size)
    width, height = 15 * scale, 11 * scale
    x, y = TEXT_RIGHT - 4 - width, TEXT_BOTTOM - 3 - height
    return (
        f'<g transform="translate({_num(x)},{_num(y)}) scale({_num(scale)})">'
        f"<title>Lore: {_esc(lore)}</title>"
        '<rect width="15" height="11" rx="2" fill="#2f3b45"/>'
        '<rect x="2" y="2" width="9" height="7" rx="1" fill="#7fd3e6"/>'
        '<path d="M3.5,4 H9.5 M3.5,6 H8 M3.5,8 H9" stroke="#2f3b45" stroke-width="0.8"/>'
        '<circle cx="13" cy="5.5" r="1" fill="#7fd3e6"/></g>'
    )


# --- Art panel ---------------------------------------------------------------------------------


def _art_panel(card, palette: Palette) -> str:
    return card_art_svg(card, x=ART_LEFT, y=ART_TOP) + (
        f'<rect x="{ART_LEFT}" y="{ART_TOP}" width="{ART_RIGHT - ART_LEFT}" '
        f'height="{ART_BOTTOM - ART_TOP}" fill="none" stroke="{palette.accent}" '
        'stroke-width="1.5"/>'
    )


# --- Attributes ----------------------------------------------------------------------------------

ATTRIBUTE_BADGES = (
    ("attack", "ATK", "Attack", "#b3261e"),
    ("defense", "DEF", "Defense", "#1f5fa8"),
    ("damage_bonus", "DMG", "Damage bonus", "#c2691a"),
)


def _attribute_badges(card, scale: float) -> str:
    out = []
    width, height = 44 * scale, 19 * scale
    y = ART_TOP + 5
    for field, label, name, colour in ATTRIBUTE_BADGES:
        value = getattr(card, field)
        if value is None:
            continue
        x = ART_LEFT + 4
        out.append(
            f"<g><title>{name} {value}</title>"
            f'<rect x="{x}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" '
            f'rx="{_num(height / 2)}" fill="{colour}" stroke="#fff" stroke-width="1.2"/>'
            + _text(
                x + 7 * scale,
                y + height * 0.66,
                label,
                size=6.8 * scale,
                fill="#fff",
                weight="bold",
                extra=' letter-spacing="0.4"',
            )
            + _text(
                x + width - 6 * scale,
                y + height * 0.76,
                str(value),
                size=13.5 * scale,
                fill="#fff",
                anchor="end",
                weight="bold",
            )
            + "</g>"
        )
        y += height + 4 * scale
    return "".join(out)


def _health_heart(health: int, scale: float) -> str:
    cx, cy = ART_RIGHT - 22 * scale, ART_BOTTOM - 18 * scale
    return (
        f"<g><title>Health {health}</title>"
        f'<path transform="translate({_num(cx)},{_num(cy)}) scale({_num(1.75 * scale)})" '
        'd="M0,9 C-5,5.5 -11,1 -11,-4 C-11,-9 -6,-11 -3,-10 C-1.5,-9.5 0,-8 0,-6.5 '
        'C0,-8 1.5,-9.5 3,-10 C6,-11 11,-9 11,-4 C11,1 5,5.5 0,9 Z" '
        'fill="#c62828" stroke="#fff" stroke-width="0.75"/>'
        + _text(
            cx,
            cy + 5 * scale,
            str(health),
            size=15 * scale,
            fill="#fff",
            anchor="middle",
            weight="bold",
        )
        + "</g>"
    )


def _level_badge(level: int, scale: float) -> str:
    radius = 16 * scale
    cx, cy = ART_RIGHT - radius - 5, ART_TOP + radius + 5
    hexagon = " ".join(
        f"{_num(cx + radius * dx)},{_num(cy + radius * dy)}"
        for dx, dy in ((0, -1), (0.866, -0.5), (0.866, 0.5), (0, 1), (-0.866, 0.5), (-0.866, -0.5))
    )
    return (
        f"<g><title>Level {level}</title>"
        f'<polygon points="{hexagon}" fill="#5b3a99" stroke="#fff" stroke-width="1.2"/>'
        + _text(
            cx,
            cy - radius * 0.32,
            "LVL",
            size=5.8 * scale,
            fill="#e6dcff",
            anchor="middle",
            weight="bold",
            extra=' letter-spacing="0.4"',
        )
        + _text(
            cx,
            cy + radius * 0.62,
            str(level),
            size=14 * scale,
            fill="#fff",
            anchor="middle",
            weight="bold",
        )
        + "</g>"
    )


def _cost_circle(cost: int, palette: Palette) -> str:
    return (
        f"<g><title>Cost {cost}</title>"
        f'<circle cx="28" cy="27" r="17" fill="{palette.accent}"/>'
        '<circle cx="28" cy="27" r="14.5" fill="#16407a"/>'
        '<circle cx="26" cy="24" r="11" fill="#fff" opacity="0.12"/>'
        + _text(28, 33, str(cost), size=18, fill="#fff", anchor="middle", weight="bold")
        + "</g>"
    )


# --- The face ------------------------------------------------------------------------------------


def _type_line(card) -> str:
    if card.restriction:
        return f"{card.type_line} \u2014 Restriction: {card.restriction}"
    return card.type_line


def _title_plate(card, palette: Palette, has_cost: bool) -> str:
    left = 48 if has_cost else 16
    right = 234
    plate = (
        f'<rect x="10" y="10" width="230" height="30" rx="6" fill="{palette.plate}" '
        f'stroke="{palette.accent}" stroke-width="1.2"/>'
    )
    title = _fitted_text(
        (left + right) / 2,
        30.5,
        card.title,
        width=right - left,
        largest=15,
        smallest=10.5,
        fill="#fff",
        anchor="middle",
        weight="bold",
    )
    return plate + title


def _type_bar(card, palette: Palette, scale: float) -> str:
    height = 17 * scale
    top = (ART_BOTTOM + TEXT_TOP) / 2 - height / 2
    bar = (
        f'<rect x="{ART_LEFT}" y="{_num(top)}" width="{ART_RIGHT - ART_LEFT}" '
        f'height="{_num(height)}" rx="3" fill="{palette.plate}" stroke="{palette.accent}" '
        'stroke-width="0.8"/>'
    )
    label = _fitted_text(
        VIEW_WIDTH / 2,
        top + height * 0.7,
        _type_line(card),
        width=ART_RIGHT - ART_LEFT - 10,
        largest=8.5 * scale,
        smallest=6,
        fill="#fff",
        anchor="middle",
        weight="bold",
    )
    return bar + label


def _collector_strip(card, palette: Palette, scale: float) -> str:
    baseline = TEXT_BOTTOM + (VIEW_HEIGHT - TEXT_BOTTOM) / 2 + 3 * scale
    font = 7.5 * scale
    gem = RARITY_COLOURS.get(card.rarity, "#888")
    info = card.collector_info
    info_title = f"{card.card_set.name} \u2014 {card.get_rarity_display()}, card {card.number}"
    gem_x, gem_y, gem_r = 20, baseline - font * 0.35, 3.2 * scale
    out = [
        f"<g><title>{_esc(info_title)}</title>"
        f'<path d="M{_num(gem_x)},{_num(gem_y - gem_r)} L{_num(gem_x + gem_r)},{_num(gem_y)} '
        f'L{_num(gem_x)},{_num(gem_y + gem_r)} L{_num(gem_x - gem_r)},{_num(gem_y)} Z" '
        f'fill="{gem}" stroke="#fff" stroke-width="0.6"/>'
        + _text(
            gem_x + gem_r + 3, baseline, _esc(info), size=font, fill=palette.accent, weight="bold"
        )
        + "</g>"
    ]
    if card.artist:
        info_width = text_width(info, font, bold=True) + gem_r + 14
        out.append(
            _fitted_text(
                VIEW_WIDTH - 16,
                baseline,
                f"Illus. {card.artist}",
                width=VIEW_WIDTH - 32 - info_width,
                largest=font,
                smallest=5.5,
                fill=palette.accent,
                anchor="end",
                style="italic",
            )
        )
    return "".join(out)


def _frame(palette: Palette) -> str:
    return (
        f'<rect width="{VIEW_WIDTH}" height="{VIEW_HEIGHT}" rx="13" fill="{palette.frame}"/>'
        # A darker band along the bottom edge sets the collector line apart.
        f'<path d="M0,{TEXT_BOTTOM + 2} H{VIEW_WIDTH} V337 A13,13 0 0 1 237,{VIEW_HEIGHT} H13 '
        f'A13,13 0 0 1 0,337 Z" fill="#000" opacity="0.2"/>'
        f'<rect x="4" y="4" width="242" height="342" rx="10" fill="none" '
        f'stroke="{palette.frame_edge}" stroke-width="1.2" opacity="0.8"/>'
    )


def card_face_svg(card, *, size: str = "medium") -> str:
    """The face of ``card`` as a complete standalone SVG document.

    ``size`` is "small", "medium" or "large"; every size shares one viewBox, and smaller sizes
    use relatively larger text, fewer words a line, and give up the lore first.
    """
    try:
        face_size = FACE_SIZES[size]
    except KeyError:
        raise ValueError(
            f"Unknown card face size {size!r}; use one of {list(FACE_SIZES)}."
        ) from None
    palette = PALETTES[card.archetype or Archetype.GENERIC]
    scale = face_size.label_scale
    has_cost = card.card_type in COSTED_TYPES and card.cost is not None
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW_WIDTH} {VIEW_HEIGHT}" '
        f'width="{face_size.width}" height="{face_size.height}" '
        f'class="card-face card-face--{size}" role="img" aria-label="{_esc(card.title)}" '
        f'font-family="{SANS_FONT}">',
        _frame(palette),
        _title_plate(card, palette, has_cost),
        _art_panel(card, palette),
        _attribute_badges(card, scale),
    ]
    if has_cost:
        parts.append(_cost_circle(card.cost, palette))
    if card.level is not None:
        parts.append(_level_badge(card.level, scale))
    if card.health is not None:
        parts.append(_health_heart(card.health, scale))
    parts += [
        _type_bar(card, palette, scale),
        _text_box(card, face_size, palette),
        _collector_strip(card, palette, scale),
        "</svg>",
    ]
    return "".join(parts)


def game_text_html(game_text: str) -> str:
    """Game text as HTML for pages beside the face: the same highlighted terms (with their
    meaning on hover, each a link to its Help entry) and timing icons as on the card, one
    paragraph per line."""
    icons = {"main": "\u23f1 Main", "attack": "\u2694 Attack", "defend": "\u26e8 Defend"}
    paragraphs = []
    for line in game_text.splitlines():
        parts, position = [], 0
        for match in _TOKEN_RE.finditer(line):
            parts.append(_esc(line[position : match.start()]))
            if match["icon"]:
                kind = match["icon"].lower()
                parts.append(
                    f'<span class="timing timing--{kind}" title="{_esc(TIMING_ICONS[kind])}">'
                    f"{icons[kind]}</span>"
                )
            else:
                matched = match["keyword"] or match["term"]
                name, meaning = _glossary_entry(matched)
                parts.append(
                    f'<a class="term" href="{_esc(glossary_url(name))}" title="{_esc(meaning)}">'
                    f"{_esc(matched)}</a>"
                )
            position = match.end()
        parts.append(_esc(line[position:]))
        paragraphs.append(f"<p>{''.join(parts)}</p>")
    return "".join(paragraphs)
