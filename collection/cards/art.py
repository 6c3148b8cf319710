"""The art panel of a card face: a picture of its own for every card, drawn from its data.

What is drawn comes from the card's type and traits (a Wookiee, an astromech, a freighter, a
lightsaber, a Force power's emblem, a quest's destination); how it is drawn (the scene behind,
framing, pose, colours) comes from a hash of the card's identity, within its archetype's
colour family so the side stays recognisable. Pure and deterministic: the same card data
always gives the same markup. Only shapes with presentation attributes; the few ids (the clip
and the sky gradients) are named after their content, so faces inlined together never clash.
"""

import colorsys
import hashlib
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from collection.cards.models import Archetype, CardType

WIDTH, HEIGHT = 226, 124  # the art panel, in the face's viewBox units


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _hsl(hue: float, saturation: float, lightness: float) -> str:
    red, green, blue = colorsys.hls_to_rgb((hue % 360) / 360, lightness, saturation)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


# --- Palette ------------------------------------------------------------------------------------

# Each archetype's family: (hue in degrees, how far a card may wander from it, saturation).
HUE_FAMILIES = {
    Archetype.JEDI: (205, 22, 0.5),
    Archetype.REBEL: (22, 14, 0.6),
    Archetype.IMPERIAL: (215, 30, 0.18),
    Archetype.SITH: (356, 10, 0.62),
    Archetype.GENERIC: (115, 45, 0.28),
}


@dataclass(frozen=True)
class ArtPalette:
    sky_top: str
    sky_bottom: str
    far: str  # distant hills, skylines, walls
    ground: str
    cloth: str  # what figures wear and ships are painted
    cloth_dark: str
    shadow: str  # landmarks standing against the sky
    light: str  # suns, glows, lit windows
    blade: str  # lightsabers and energy


def _palette(archetype: str, rng: random.Random, *, night: bool) -> ArtPalette:
    base, spread, saturation = HUE_FAMILIES.get(archetype, HUE_FAMILIES[Archetype.GENERIC])
    hue = base + rng.uniform(-spread, spread)
    sat = min(0.9, saturation * rng.uniform(0.85, 1.2))
    top, bottom = (0.1, 0.3) if night else (rng.uniform(0.32, 0.45), rng.uniform(0.62, 0.78))
    cloth_hue = hue + rng.choice((0, 25, -25, 180))
    blades = {
        Archetype.JEDI: ("#6fd0ff", "#7dff8a", "#ffe066"),
        Archetype.SITH: ("#ff3b30",),
    }.get(archetype, ("#6fd0ff", "#7dff8a"))
    return ArtPalette(
        sky_top=_hsl(hue, sat, top),
        sky_bottom=_hsl(hue + 15, sat * 0.8, bottom),
        far=_hsl(hue - 8, sat * 0.55, (top + bottom) / 2 - 0.12),
        ground=_hsl(hue - 15, sat * 0.45, 0.16 if night else 0.24),
        cloth=_hsl(cloth_hue, min(0.8, sat + 0.1), rng.uniform(0.32, 0.5)),
        cloth_dark=_hsl(cloth_hue, sat * 0.7, 0.18),
        shadow=_hsl(hue, sat * 0.5, 0.09),
        light=_hsl(hue + 40, 0.85, 0.86),
        blade=rng.choice(blades),
    )


# --- Scenes (panel coordinates) -----------------------------------------------------------------


def _sky(palette: ArtPalette) -> str:
    gradient_id = f"art-sky-{palette.sky_top[1:]}{palette.sky_bottom[1:]}"
    return (
        f'<defs><linearGradient id="{gradient_id}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{palette.sky_top}"/>'
        f'<stop offset="1" stop-color="{palette.sky_bottom}"/></linearGradient></defs>'
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="url(#{gradient_id})"/>'
    )


def _stars(rng: random.Random, count: int, *, below: float = HEIGHT) -> str:
    return "".join(
        f'<circle cx="{_n(rng.uniform(2, WIDTH - 2))}" cy="{_n(rng.uniform(2, below))}" '
        f'r="{_n(rng.choice((0.5, 0.7, 1, 1.3)))}" fill="#fff" '
        f'opacity="{_n(rng.uniform(0.4, 0.95))}"/>'
        for _ in range(count)
    )


def _planet(rng: random.Random, palette: ArtPalette, *, x: float, y: float, r: float) -> str:
    hue = rng.uniform(0, 360)
    out = (
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{_hsl(hue, 0.45, 0.55)}"/>'
        # Bands across the globe, then the night side as a darker offset disc.
        f'<ellipse cx="{_n(x)}" cy="{_n(y - r * 0.3)}" rx="{_n(r * 0.92)}" ry="{_n(r * 0.12)}" '
        f'fill="{_hsl(hue + 30, 0.4, 0.68)}" opacity="0.6"/>'
        f'<ellipse cx="{_n(x)}" cy="{_n(y + r * 0.25)}" rx="{_n(r * 0.95)}" ry="{_n(r * 0.1)}" '
        f'fill="{_hsl(hue - 20, 0.4, 0.4)}" opacity="0.6"/>'
        f'<path d="M{_n(x)},{_n(y - r)} A{_n(r)},{_n(r)} 0 0 1 {_n(x)},{_n(y + r)} '
        f'A{_n(r * 0.55)},{_n(r)} 0 0 0 {_n(x)},{_n(y - r)} Z" fill="#000" opacity="0.45"/>'
    )
    if rng.random() < 0.4:
        out += (
            f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(r * 1.7)}" ry="{_n(r * 0.32)}" '
            f'fill="none" stroke="{palette.light}" stroke-width="{_n(max(1.5, r * 0.08))}" '
            f'opacity="0.7" transform="rotate({rng.randint(-25, 25)} {_n(x)} {_n(y)})"/>'
        )
    return out


def _scene_space(rng: random.Random, palette: ArtPalette) -> str:
    radius = rng.uniform(22, 58)
    x = rng.choice((rng.uniform(10, 60), rng.uniform(166, 216)))
    y = rng.uniform(20, HEIGHT - 10)
    moon_x = WIDTH - x + rng.uniform(-20, 20)
    return (
        _sky(palette)
        + f'<ellipse cx="{_n(rng.uniform(40, 186))}" cy="{_n(rng.uniform(30, 90))}" rx="90" '
        f'ry="26" fill="{palette.light}" opacity="0.08" '
        f'transform="rotate({rng.randint(-30, 30)} 113 62)"/>'
        + _stars(rng, 26)
        + _planet(rng, palette, x=x, y=y, r=radius)
        + f'<circle cx="{_n(moon_x)}" cy="{_n(rng.uniform(12, 40))}" '
        f'r="{_n(rng.uniform(3, 7))}" fill="{palette.light}" opacity="0.75"/>'
    )


def _ridge(rng: random.Random, *, base: float, height: float, fill: str, jagged: bool) -> str:
    points, x = [f"0,{HEIGHT}", f"0,{_n(base)}"], 0.0
    while x < WIDTH:
        x += rng.uniform(14, 32)
        if jagged:
            points.append(f"{_n(x - 7)},{_n(base - rng.uniform(0.3, 1) * height)}")
        points.append(f"{_n(x)},{_n(base - rng.uniform(0, 0.35) * height)}")
    points.append(f"{WIDTH},{HEIGHT}")
    return f'<polygon points="{" ".join(points)}" fill="{fill}"/>'


def _suns(rng: random.Random, palette: ArtPalette) -> str:
    x, y = rng.uniform(25, 200), rng.uniform(16, 42)
    out = (
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="20" fill="{palette.light}" opacity="0.25"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(rng.uniform(7, 12))}" fill="{palette.light}"/>'
    )
    if rng.random() < 0.35:  # twin suns, as over the Outer Rim's desert worlds
        out += (
            f'<circle cx="{_n(x + 24)}" cy="{_n(y + 8)}" r="6" fill="{palette.light}" '
            'opacity="0.9"/>'
        )
    return out


def _scene_horizon(rng: random.Random, palette: ArtPalette) -> str:
    return (
        _sky(palette)
        + _suns(rng, palette)
        + _ridge(rng, base=rng.uniform(78, 92), height=30, fill=palette.far, jagged=True)
        + _ridge(rng, base=rng.uniform(100, 108), height=10, fill=palette.ground, jagged=False)
    )


def _scene_forest(rng: random.Random, palette: ArtPalette) -> str:
    out = [_sky(palette), _suns(rng, palette)]
    for depth, (colour, opacity) in enumerate(((palette.far, 0.8), (palette.ground, 1))):
        x = rng.uniform(-10, 10)
        while x < WIDTH + 10:
            trunk = rng.uniform(4, 7) * (1 + depth * 0.6)
            top = rng.uniform(6, 40) + depth * 10
            middle = x + trunk / 2
            if rng.random() < 0.5:  # a conifer
                crown = (
                    f'<polygon points="{_n(middle)},{_n(top)} {_n(middle + trunk * 3)},'
                    f'{_n(top + 60)} {_n(middle - trunk * 3)},{_n(top + 60)}"/>'
                )
            else:  # a broad crown of three clumps
                crown = "".join(
                    f'<circle cx="{_n(middle + dx * trunk)}" cy="{_n(top + dy * trunk)}" '
                    f'r="{_n(trunk * 1.9)}"/>'
                    for dx, dy in ((-1.4, 1.2), (1.4, 1.2), (0, 0))
                )
            out.append(
                f'<g fill="{colour}" opacity="{opacity}">'
                f'<rect x="{_n(x)}" y="{_n(top + 8)}" width="{_n(trunk)}" '
                f'height="{_n(HEIGHT - top)}"/>{crown}</g>'
            )
            x += rng.uniform(26, 44) * (1 + depth * 0.4)
    out.append(f'<rect y="108" width="{WIDTH}" height="16" fill="{palette.ground}"/>')
    return "".join(out)


def _scene_city(rng: random.Random, palette: ArtPalette) -> str:
    out = [_sky(palette), _stars(rng, 10, below=40)]
    x = -4.0
    while x < WIDTH:
        width, height = rng.uniform(14, 30), rng.uniform(30, 80)
        top = HEIGHT - height
        out.append(
            f'<rect x="{_n(x)}" y="{_n(top)}" width="{_n(width)}" height="{_n(height)}" '
            f'fill="{palette.far}"/>'
        )
        for _ in range(rng.randint(1, 3)):
            out.append(
                f'<rect x="{_n(x + rng.uniform(2, width - 5))}" '
                f'y="{_n(top + rng.uniform(4, height - 8))}" width="3" height="2" '
                f'fill="{palette.light}"/>'
            )
        x += width + rng.uniform(0, 4)
    return "".join(out)


def _scene_interior(rng: random.Random, palette: ArtPalette) -> str:
    window_x = rng.uniform(40, 186)
    out = [
        _sky(palette),
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{palette.far}" opacity="0.7"/>',
        f'<rect y="96" width="{WIDTH}" height="28" fill="{palette.ground}"/>',
        # A round viewport onto the stars, and the wall's panel seams.
        f'<circle cx="{_n(window_x)}" cy="44" r="30" fill="{palette.cloth_dark}" '
        f'stroke="{palette.sky_bottom}" stroke-width="4"/>',
        f'<circle cx="{_n(window_x - 8)}" cy="36" r="1" fill="#fff"/>'
        f'<circle cx="{_n(window_x + 12)}" cy="50" r="0.8" fill="#fff"/>'
        f'<circle cx="{_n(window_x + 2)}" cy="26" r="0.7" fill="#fff"/>',
    ]
    for x in range(rng.randint(10, 30), WIDTH, rng.randint(38, 56)):
        out.append(
            f'<path d="M{x},0 V96" stroke="{palette.sky_top}" stroke-width="3" opacity="0.6"/>'
        )
    out.append(
        f'<path d="M0,96 H{WIDTH}" stroke="{palette.light}" stroke-width="1" opacity="0.5"/>'
    )
    return "".join(out)


SCENES: dict[str, Callable[[random.Random, ArtPalette], str]] = {
    "space": _scene_space,
    "horizon": _scene_horizon,
    "forest": _scene_forest,
    "city": _scene_city,
    "interior": _scene_interior,
}


# --- Figures (origin at the bottom centre, the head at about y = -72) -----------------------------


@dataclass(frozen=True)
class Species:
    skins: tuple[str, ...]
    head: Callable[[str, random.Random], str]  # draws the head in the given skin colour
    hair: bool = False  # humans and near-humans get a hair style
    bulk: float = 1.0  # shoulder width


def _eyes(colour: str = "#1b1b1b", *, y: float = -70, gap: float = 5.5, r: float = 1.8) -> str:
    return (
        f'<circle cx="{-gap}" cy="{y}" r="{r}" fill="{colour}"/>'
        f'<circle cx="{gap}" cy="{y}" r="{r}" fill="{colour}"/>'
    )


def _plain_head(skin: str, _rng=None) -> str:
    return (
        f'<ellipse cy="-72" rx="14" ry="17" fill="{skin}"/>'
        + _eyes()
        + '<path d="M-4,-60 Q0,-58 4,-60" stroke="#5a3a2a" stroke-width="1.2" fill="none"/>'
    )


def _twilek_head(skin: str, _rng) -> str:
    return (
        f'<path d="M-9,-82 C-24,-70 -22,-40 -16,-20 C-10,-36 -8,-58 -3,-74 Z" fill="{skin}"/>'
        f'<path d="M9,-82 C22,-74 24,-50 20,-34 C15,-46 10,-62 3,-74 Z" fill="{skin}"/>'
        + _plain_head(skin)
    )


def _togruta_head(skin: str, _rng) -> str:
    stripe = '<path d="{}" fill="#f4f0ea"/>'
    return (
        '<path d="M-9,-84 C-20,-96 -18,-108 -8,-114 C-12,-104 -8,-94 -2,-86 Z" fill="#f4f0ea"/>'
        '<path d="M9,-84 C20,-96 18,-108 8,-114 C12,-104 8,-94 2,-86 Z" fill="#f4f0ea"/>'
        '<path d="M-12,-76 C-22,-62 -20,-44 -14,-34 C-10,-46 -10,-60 -6,-72 Z" fill="#f4f0ea"/>'
        '<path d="M12,-76 C22,-62 20,-44 14,-34 C10,-46 10,-60 6,-72 Z" fill="#f4f0ea"/>'
        + _plain_head(skin)
        + stripe.format("M-10,-82 L-4,-76 L-8,-72 Z")
        + stripe.format("M10,-82 L4,-76 L8,-72 Z")
    )


def _rodian_head(skin: str, _rng) -> str:
    return (
        f'<path d="M0,-92 C-18,-92 -18,-70 -8,-60 L-2,-54 H2 L8,-60 C18,-70 18,-92 0,-92 Z" '
        f'fill="{skin}"/>'
        '<ellipse cx="-8" cy="-76" rx="5.5" ry="7.5" fill="#0c0c14" transform="rotate(20 -8 -76)"/>'
        '<ellipse cx="8" cy="-76" rx="5.5" ry="7.5" fill="#0c0c14" transform="rotate(-20 8 -76)"/>'
        f'<path d="M0,-92 L-3,-100 M0,-92 L3,-100" stroke="{skin}" stroke-width="2"/>'
        '<path d="M-2,-60 H2" stroke="#20301c" stroke-width="1.5"/>'
    )


def _wookiee_head(skin: str, _rng) -> str:
    fur = (
        "M-20,-60 L-22,-72 L-18,-84 L-12,-92 L0,-95 L12,-92 L18,-84 L22,-72 L20,-60 L12,-50 H-12 Z"
    )
    return (
        f'<path d="{fur}" fill="{skin}"/>'
        '<ellipse cy="-64" rx="9" ry="7" fill="#c9a57a"/>'
        + _eyes("#1b1b1b", y=-76, gap=6)
        + '<path d="M-9,-80 H-3 M3,-80 H9" stroke="#3a2412" stroke-width="2"/>'
        '<ellipse cy="-66" rx="3" ry="2" fill="#2b1a10"/>'
    )


def _trandoshan_head(skin: str, _rng) -> str:
    return (
        f'<path d="M-13,-86 C-4,-92 4,-92 13,-86 L16,-66 C14,-56 6,-52 0,-52 C-6,-52 -14,-56 '
        f'-16,-66 Z" fill="{skin}"/>'
        '<circle cx="-6" cy="-74" r="2.4" fill="#ffb020"/><circle cx="6" cy="-74" r="2.4" '
        'fill="#ffb020"/>'
        '<path d="M-10,-60 H10" stroke="#1f2a12" stroke-width="1.5"/>'
        '<path d="M-6,-86 L-4,-82 M0,-88 V-84 M6,-86 L4,-82" stroke="#1f2a12" stroke-width="1.2"/>'
    )


def _zabrak_head(skin: str, rng) -> str:
    horns = "".join(
        f'<path d="M{x - 2.5},{y} L{x},{y - 6} L{x + 2.5},{y} Z" fill="#e8dcc0"/>'
        for x, y in ((-8, -85), (-3, -88), (3, -88), (8, -85), (0, -89))
    )
    tattoo = (
        '<path d="M-5,-78 V-64 M5,-78 V-64 M-10,-70 L-12,-64 M10,-70 L12,-64 M0,-84 V-74" '
        'stroke="#1b1b1b" stroke-width="1.6"/>'
        if rng.random() < 0.7
        else ""
    )
    return _plain_head(skin) + tattoo + horns


def _mirialan_head(skin: str, _rng) -> str:
    return (
        _plain_head(skin)
        + '<path d="M-6,-64 l2,-3 l2,3 l-2,3 Z M2,-64 l2,-3 l2,3 l-2,3 Z M-2,-58 l2,-3 l2,3 '
        'l-2,3 Z" fill="#202a40"/>'
    )


def _mon_calamari_head(skin: str, _rng) -> str:
    return (
        f'<path d="M0,-98 C-16,-98 -18,-70 -12,-56 H12 C18,-70 16,-98 0,-98 Z" fill="{skin}"/>'
        '<circle cx="-13" cy="-74" r="4.5" fill="#ffd36b"/><circle cx="13" cy="-74" r="4.5" '
        'fill="#ffd36b"/><circle cx="-14" cy="-74" r="2" fill="#1b1b1b"/>'
        '<circle cx="14" cy="-74" r="2" fill="#1b1b1b"/>'
    )


def _sullustan_head(skin: str, _rng) -> str:
    return (
        f'<ellipse cy="-72" rx="15" ry="16" fill="{skin}"/>'
        f'<path d="M-15,-68 C-22,-60 -14,-54 -8,-58 Z M15,-68 C22,-60 14,-54 8,-58 Z" '
        f'fill="{skin}"/>' + _eyes("#0c0c14", y=-74, gap=6.5, r=4) + '<ellipse cx="-13" '
        f'cy="-84" rx="3.5" ry="4.5" fill="{skin}"/><ellipse cx="13" cy="-84" rx="3.5" '
        f'ry="4.5" fill="{skin}"/>'
    )


def _bothan_head(skin: str, _rng) -> str:
    return (
        f'<path d="M-14,-82 L-20,-98 L-8,-88 Z M14,-82 L20,-98 L8,-88 Z" fill="{skin}"/>'
        + _plain_head(skin)
        + f'<path d="M-6,-58 L0,-48 L6,-58 Z" fill="{skin}"/>'
    )


def _ithorian_head(skin: str, _rng) -> str:
    return (
        f'<path d="M-6,-50 C-6,-66 -10,-78 -24,-84 C-28,-90 -20,-96 -10,-92 C-4,-96 4,-96 10,-92 '
        f'C20,-96 28,-90 24,-84 C10,-78 6,-66 6,-50 Z" fill="{skin}"/>'
        '<circle cx="-22" cy="-89" r="3" fill="#1b1b1b"/><circle cx="22" cy="-89" r="3" '
        'fill="#1b1b1b"/>'
    )


def _big_eyed_head(skin: str, _rng) -> str:
    """Duros and Bith: smooth, domed, with large dark eyes."""
    return (
        f'<path d="M0,-96 C-18,-96 -17,-70 -9,-58 H9 C17,-70 18,-96 0,-96 Z" fill="{skin}"/>'
        '<ellipse cx="-7" cy="-72" rx="4.5" ry="3.2" fill="#8c1020"/>'
        '<ellipse cx="7" cy="-72" rx="4.5" ry="3.2" fill="#8c1020"/>'
    )


def _tusked_head(skin: str, _rng) -> str:
    """Aqualish, Gamorreans and Nikto: heavy jaws and tusks."""
    return (
        f'<ellipse cy="-72" rx="16" ry="16" fill="{skin}"/>'
        + _eyes("#1b1b1b", y=-76, gap=6)
        + '<ellipse cy="-66" rx="6" ry="4" fill="#6a4a3a"/>'
        '<path d="M-7,-62 L-10,-54 L-5,-60 Z M7,-62 L10,-54 L5,-60 Z" fill="#f4ecd0"/>'
    )


def _weequay_head(skin: str, _rng) -> str:
    return (
        _plain_head(skin)
        + '<path d="M-10,-66 Q0,-62 10,-66 M-10,-80 Q0,-77 10,-80" stroke="#5a4030" '
        'stroke-width="1" fill="none"/>'
        '<path d="M-13,-78 C-18,-64 -16,-52 -14,-44" stroke="#2a2018" stroke-width="3" '
        'fill="none"/>'
    )


def _jawa_head(_skin: str, _rng) -> str:
    return (
        '<path d="M0,-96 L-17,-58 H17 Z" fill="#6b4a2a"/>'
        '<ellipse cy="-70" rx="9" ry="8" fill="#120c08"/>' + _eyes("#ffe45c", y=-71, gap=4, r=2.2)
    )


def _tusken_head(_skin: str, _rng) -> str:
    return (
        '<ellipse cy="-72" rx="15" ry="18" fill="#c9b48e"/>'
        '<path d="M-15,-78 H15 M-15,-66 H15" stroke="#8c7a58" stroke-width="2"/>'
        '<circle cx="-6" cy="-72" r="3.5" fill="#3a3a3a" stroke="#9a9a9a" stroke-width="1.2"/>'
        '<circle cx="6" cy="-72" r="3.5" fill="#3a3a3a" stroke="#9a9a9a" stroke-width="1.2"/>'
        '<rect x="-3" y="-64" width="6" height="7" fill="#6a6a6a"/>'
    )


def _ewok_head(skin: str, _rng) -> str:
    return (
        f'<circle cx="-12" cy="-84" r="5" fill="{skin}"/><circle cx="12" cy="-84" r="5" '
        f'fill="{skin}"/><circle cy="-72" r="15" fill="{skin}"/>'
        '<path d="M-15,-76 C-10,-92 10,-92 15,-76 L12,-80 C6,-86 -6,-86 -12,-80 Z" '
        'fill="#8a3a3a"/>'
        '<ellipse cy="-65" rx="6" ry="4" fill="#d8c0a0"/>' + _eyes("#0c0c0c", y=-73, gap=5, r=2.2)
    )


def _trooper_helmet(_skin: str, _rng) -> str:
    return (
        '<path d="M0,-92 C-16,-92 -17,-76 -16,-62 L-10,-56 H10 L16,-62 C17,-76 16,-92 0,-92 Z" '
        'fill="#eef0f2"/>'
        '<path d="M-11,-74 L-3,-72 L-4,-68 L-11,-70 Z M11,-74 L3,-72 L4,-68 L11,-70 Z" '
        'fill="#14161a"/>'
        '<path d="M-5,-62 L0,-58 L5,-62" stroke="#14161a" stroke-width="1.6" fill="none"/>'
        '<path d="M-16,-80 H16" stroke="#9aa4ae" stroke-width="1.2"/>'
    )


def _trooper_marks(role: str, rng: random.Random) -> str:
    """Troopers look alike by design; rank pauldrons and scout visors tell them apart."""
    marks = ""
    pauldron = rng.choice(("", "#e07a20", "#1a1a1a", "#b02020", "#2050a0", "#f0f0f0"))
    if pauldron:
        marks += (
            f'<path d="M-40,-18 C-40,-34 -30,-42 -16,-44 L-12,-30 C-24,-30 -32,-26 -34,-16 Z" '
            f'fill="{pauldron}" stroke="#14161a" stroke-width="0.8"/>'
        )
    if role == "scout trooper":
        marks += '<rect x="-15" y="-77" width="30" height="6" rx="2" fill="#14161a"/>'
    return marks


def _stranger_head(_skin: str, _rng) -> str:
    """A hooded face in shadow: a made avatar before its player picks a species."""
    return (
        '<path d="M-20,-50 C-24,-82 -12,-98 0,-98 C12,-98 24,-82 20,-50 Z" fill="#2a2a32"/>'
        '<ellipse cy="-70" rx="12" ry="15" fill="#0c0c10"/>' + _eyes("#9ad0ff", r=1.4)
    )


HUMAN_SKINS = ("#f1c9a5", "#d9a47a", "#b97e55", "#8a5a3b", "#5e3b26", "#f3d6c0")

SPECIES: dict[str, Species] = {
    "human": Species(HUMAN_SKINS, _plain_head, hair=True),
    "twi'lek": Species(("#5aa0d8", "#5fbf7a", "#c75a7a", "#9a6ad0"), _twilek_head),
    "togruta": Species(("#d8652e", "#c8402e"), _togruta_head),
    "rodian": Species(("#5f9a48", "#4f8a6a"), _rodian_head),
    "wookiee": Species(("#6b4424", "#8a5a32", "#4e3220"), _wookiee_head, bulk=1.3),
    "trandoshan": Species(("#6f7f3a", "#5b6b32"), _trandoshan_head, bulk=1.2),
    "zabrak": Species(("#d9a47a", "#e0c080", "#c0523a"), _zabrak_head),
    "dathomirian": Species(("#b8302a", "#e8e0d8"), _zabrak_head),
    "mirialan": Species(("#c8c06a", "#a8b860"), _mirialan_head, hair=True),
    "mon calamari": Species(("#d47a5a", "#c8684a"), _mon_calamari_head),
    "sullustan": Species(("#b8a8a0", "#a89890"), _sullustan_head),
    "bothan": Species(("#d8c8a8", "#b89a70"), _bothan_head),
    "ithorian": Species(("#8a7a5a", "#7a6a4a"), _ithorian_head, bulk=1.1),
    "duros": Species(("#4a8a8a", "#3a7a8a"), _big_eyed_head),
    "bith": Species(("#e0c8c0", "#d8d0c0"), _big_eyed_head),
    "aqualish": Species(("#5a4a3a", "#6a5a48"), _tusked_head),
    "gamorrean": Species(("#6a8a3a", "#7a9a4a"), _tusked_head, bulk=1.3),
    "nikto": Species(("#a85a3a", "#6a7a3a"), _tusked_head),
    "weequay": Species(("#a8845a", "#987450"), _weequay_head),
    "jawa": Species(("#6b4a2a",), _jawa_head, bulk=0.75),
    "tusken": Species(("#c9b48e",), _tusken_head),
    "ewok": Species(("#7a5434", "#a07850", "#4a3626"), _ewok_head, bulk=0.8),
    "stormtrooper": Species(("#eef0f2",), _trooper_helmet),
    "stranger": Species(("#0c0c10",), _stranger_head),
    "alien": Species(("#8aa0b8", "#b88aa0", "#a0b88a"), _big_eyed_head),
}

HAIR_STYLES = (
    "",  # shaved
    "M-15,-72 C-17,-92 17,-92 15,-72 C12,-82 -12,-82 -15,-72 Z",
    "M-15,-70 C-18,-94 18,-94 15,-70 L16,-50 L11,-50 C12,-70 10,-80 0,-82 C-10,-80 -12,-70 "
    "-11,-50 L-16,-50 Z",
    "M-15,-74 C-16,-90 16,-90 15,-74 C8,-84 -8,-84 -15,-74 Z M-5,-92 a5,5 0 1 0 10,0 a5,5 0 1 0 "
    "-10,0",
    "M-15,-70 C-18,-90 6,-96 15,-72 C6,-82 -6,-86 -15,-70 Z",
)
HAIR_COLOURS = ("#2a1a10", "#5a3a1e", "#a0702e", "#d8b060", "#8a8a8a", "#1a1a1a", "#8a2a1a")

# Words of a career that dress a figure in robes.
ROBED_WORDS = (
    "jedi", "sith", "padawan", "pilgrim", "healer", "scholar", "adept", "cultist", "zealot",
    "witch", "lord", "apprentice", "thrall", "sorcerer", "consular",
)  # fmt: skip
ARMED_WITH_SABRE = {
    "jedi knight", "jedi master", "padawan", "jedi guardian", "jedi sentinel", "fallen jedi",
    "sith lord", "marauder", "sith marauder", "sith apprentice", "sith assassin", "assassin",
}  # fmt: skip
ARMED_WITH_BLASTER = {
    "trooper", "soldier", "commando", "rebel commando", "scout", "bounty hunter", "mercenary",
    "smuggler", "pirate", "stormtrooper", "scout trooper", "pilot", "imperial pilot", "spy",
    "imperial spy", "raider", "hunter", "enforcer", "slaver", "guard",
}  # fmt: skip
UNROBED = ("stormtrooper", "jawa", "tusken", "ewok", "wookiee")
FURRED = ("wookiee", "ewok")  # they wear their fur and a bandolier, not clothes
CAPPED = {"officer", "imperial officer", "rebel officer"}


def _robe(palette: ArtPalette, bulk: float, hood: bool) -> str:
    width = 40 * bulk
    out = (
        f'<path d="M{_n(-width)},0 C{_n(-width)},-26 -30,-40 -14,-46 L0,-40 L14,-46 '
        f'C30,-40 {_n(width)},-26 {_n(width)},0 Z" fill="{palette.cloth}"/>'
        '<path d="M-14,-46 L6,0 H-6 L14,-46 L0,-34 Z" fill="#e8dcc0" opacity="0.85"/>'
        f'<rect x="{_n(-width * 0.9)}" y="-16" width="{_n(width * 1.8)}" height="5" '
        f'fill="{palette.cloth_dark}"/>'
    )
    if hood:
        out += (
            f'<path d="M-22,-46 C-26,-80 -14,-96 0,-96 C14,-96 26,-80 22,-46 Z" '
            f'fill="{palette.cloth_dark}"/>'
        )
    return out


def _fur_body(fur: str, bulk: float) -> str:
    width = 40 * bulk
    return (
        f'<path d="M{_n(-width)},0 L{_n(-width + 2)},-20 C-30,-40 -22,-46 -12,-48 L-8,-44 '
        f"L-4,-50 L0,-44 L4,-50 L8,-44 L12,-48 C22,-46 30,-40 {_n(width - 2)},-20 "
        f'L{_n(width)},0 Z" fill="{fur}"/>'
        f'<path d="M-26,-40 L22,0" stroke="#3a2a1a" stroke-width="6"/>'
        + "".join(
            f'<rect x="{x}" y="{y}" width="5" height="4" fill="#9aa0a8" '
            f'transform="rotate(40 {x} {y})"/>'
            for x, y in ((-18, -34), (-8, -25), (2, -17), (12, -8))
        )
    )


def _tunic(palette: ArtPalette, bulk: float, kind: str) -> str:
    width = 40 * bulk
    body = (
        f'<path d="M{_n(-width)},0 C{_n(-width)},-26 -30,-40 -12,-46 H12 C30,-40 {_n(width)},-26 '
        f'{_n(width)},0 Z" fill="{"#eef0f2" if kind == "armour" else palette.cloth}"/>'
    )
    if kind == "armour":
        return body + (
            '<path d="M-18,-36 H18 L14,-22 H-14 Z" fill="#c8ced4"/>'
            '<rect x="-20" y="-14" width="40" height="6" fill="#2a2e34"/>'
        )
    if kind == "uniform":
        return body + (
            '<rect x="8" y="-36" width="12" height="5" fill="#2a2e34"/>'
            '<rect x="10" y="-35" width="2" height="3" fill="#d04040"/>'
            '<rect x="14" y="-35" width="2" height="3" fill="#4060d0"/>'
            f'<rect x="-24" y="-12" width="48" height="5" fill="{palette.cloth_dark}"/>'
        )
    return body + (
        f'<path d="M-12,-46 L-4,-20 L0,-30 L4,-20 L12,-46 Z" fill="{palette.cloth_dark}"/>'
        f'<path d="M-22,-40 L18,-4" stroke="#3a2a1a" stroke-width="4"/>'
    )


def _prop(kind: str, palette: ArtPalette) -> str:
    if kind == "sabre":
        return (
            f'<path d="M24,-22 L58,-104" stroke="{palette.blade}" stroke-width="8" '
            'stroke-linecap="round" opacity="0.35"/>'
            f'<path d="M24,-22 L58,-104" stroke="{palette.blade}" stroke-width="3.5" '
            'stroke-linecap="round"/>'
            '<path d="M24,-22 L58,-104" stroke="#fff" stroke-width="1.2" stroke-linecap="round"/>'
            '<path d="M18,-8 L24,-22" stroke="#b0b4b8" stroke-width="4.5" stroke-linecap="round"/>'
            '<circle cx="20" cy="-13" r="4" fill="#d9a47a"/>'
        )
    if kind == "blaster":
        return (
            '<path d="M-30,-8 L30,-44 L33,-39 L-4,-16 L-6,-8 L-12,-6 L-12,-12 L-27,-3 Z" '
            'fill="#2a2c30"/>'
            '<path d="M6,-28 L22,-38" stroke="#6a6e74" stroke-width="2"/>'
            '<circle cx="-8" cy="-12" r="4" fill="#d9a47a"/>'
        )
    if kind == "staff":
        return '<path d="M26,0 L34,-110" stroke="#6a5030" stroke-width="3.5"/>'
    return ""


def _figure(species_key: str, role: str, archetype: str, rng: random.Random, pal: ArtPalette):
    species = SPECIES[species_key]
    skin = rng.choice(species.skins)
    robed = any(word in role for word in ROBED_WORDS) and species_key not in UNROBED
    hood = robed and (archetype == Archetype.SITH or rng.random() < 0.35)
    out = []
    if species_key in FURRED:
        out.append(_fur_body(skin, species.bulk))
    elif robed:
        out.append(_robe(pal, species.bulk, hood))
    elif species_key == "stormtrooper" or role in ("trooper", "soldier", "commando"):
        out.append(_tunic(pal, species.bulk, "armour" if species_key == "stormtrooper" else "vest"))
    elif role in CAPPED or archetype == Archetype.IMPERIAL:
        out.append(_tunic(pal, species.bulk, "uniform"))
    else:
        out.append(_tunic(pal, species.bulk, "vest"))
    if species_key not in ("stormtrooper", "jawa", "ithorian"):
        out.append(f'<rect x="-6" y="-56" width="12" height="12" fill="{skin}"/>')
    out.append(species.head(skin, rng))
    if species_key == "stormtrooper":
        out.append(_trooper_marks(role, rng))
    if species.hair and not hood:
        style = rng.choice(HAIR_STYLES)
        if style:
            out.append(f'<path d="{style}" fill="{rng.choice(HAIR_COLOURS)}"/>')
    if hood:
        out.append(
            f'<path d="M-22,-46 C-26,-80 -14,-98 0,-98 C14,-98 26,-80 22,-46 L16,-50 C18,-76 '
            f'12,-90 0,-90 C-12,-90 -18,-76 -16,-50 Z" fill="{pal.cloth_dark}"/>'
        )
    if role in CAPPED and archetype == Archetype.IMPERIAL and not hood:
        out.append(
            '<path d="M-16,-84 C-16,-96 16,-96 16,-84 L18,-82 H-18 Z" fill="#4a5248"/>'
            '<rect x="-17" y="-84" width="34" height="3" fill="#2a2e2a"/>'
        )
    if role in ARMED_WITH_SABRE:
        out.append(_prop("sabre", pal))
    elif role in ("raider", "witch", "herder"):
        out.append(_prop("staff", pal))
    elif role in ARMED_WITH_BLASTER or species_key == "stormtrooper":
        out.append(_prop("blaster", pal))
    return "".join(out)


# --- Droids and creatures -------------------------------------------------------------------------

DROIDS = {
    "astromech": (
        '<rect x="-18" y="-52" width="36" height="44" rx="4" fill="#e8ecf0"/>'
        '<path d="M-18,-52 A18,18 0 0 1 18,-52 Z" fill="{cloth}"/>'
        '<circle cx="-4" cy="-62" r="4" fill="#14161a"/><circle cx="-4" cy="-62" r="1.6" '
        'fill="#e04040"/>'
        '<rect x="-12" y="-44" width="24" height="6" fill="{cloth}"/>'
        '<rect x="-10" y="-32" width="8" height="14" fill="#9aa4ae"/>'
        '<path d="M-28,0 L-22,-48 H-18 V0 Z M28,0 L22,-48 H18 V0 Z" fill="#c8ced4"/>'
    ),
    "protocol": (
        '<path d="M-30,0 C-30,-24 -24,-40 -10,-44 H10 C24,-40 30,-24 30,0 Z" fill="{metal}"/>'
        '<path d="M-10,-30 H10 M-12,-22 H12" stroke="#6a5a30" stroke-width="2"/>'
        '<rect x="-4" y="-54" width="8" height="10" fill="#6a6a6a"/>'
        '<ellipse cy="-72" rx="13" ry="16" fill="{metal}"/>'
        '<circle cx="-5" cy="-73" r="3.5" fill="#ffde7a" stroke="#3a3a3a" stroke-width="1.2"/>'
        '<circle cx="5" cy="-73" r="3.5" fill="#ffde7a" stroke="#3a3a3a" stroke-width="1.2"/>'
        '<rect x="-4" y="-63" width="8" height="2" fill="#3a3a3a"/>'
    ),
    "probe": (
        '<path d="M-8,-50 L-26,-6 M-2,-50 L-8,0 M4,-50 L10,-4 M8,-50 L28,-10" stroke="#2a2c30" '
        'stroke-width="2.5"/>'
        '<circle cy="-70" r="20" fill="#2a2c30"/>'
        '<ellipse cy="-70" rx="20" ry="6" fill="#3e4248"/>'
        '<circle cx="-7" cy="-72" r="3" fill="#ff4a3a"/><circle cx="4" cy="-72" r="2" '
        'fill="#ff4a3a"/>'
        '<path d="M0,-90 V-112 M6,-88 L14,-108" stroke="#2a2c30" stroke-width="1.5"/>'
    ),
    "sentinel": (
        '<path d="M-44,0 V-30 L-34,-46 H34 L44,-30 V0 Z" fill="{metal}"/>'
        '<rect x="-50" y="-48" width="18" height="34" rx="4" fill="{cloth}"/>'
        '<rect x="32" y="-48" width="18" height="34" rx="4" fill="{cloth}"/>'
        '<path d="M-18,-48 V-86 H18 V-48 Z" fill="{metal}"/>'
        '<rect x="-14" y="-76" width="28" height="7" fill="#14161a"/>'
        '<rect x="-10" y="-74" width="20" height="3" fill="#ff5a3a"/>'
        '<path d="M-26,-34 H26 M-26,-22 H26" stroke="#2a2e34" stroke-width="2"/>'
    ),
    "medical": (
        '<path d="M-6,-12 V-66 M-6,-40 H-30 M-6,-54 H18" stroke="#8a949e" stroke-width="4"/>'
        '<rect x="-20" y="-80" width="28" height="18" rx="5" fill="#d8dde2"/>'
        '<circle cx="-12" cy="-71" r="3" fill="#14161a"/><circle cx="0" cy="-71" r="3" '
        'fill="#14161a"/>'
        '<rect x="-22" y="-12" width="32" height="12" rx="3" fill="#c8ced4"/>'
        '<path d="M-38,-44 L-30,-40 L-38,-36 M26,-58 L18,-54 L26,-50" stroke="#8a949e" '
        'stroke-width="2" fill="none"/>'
    ),
}


def _droid(kind: str, palette: ArtPalette, rng: random.Random) -> str:
    metal = rng.choice(("#d8b048", "#b8bec6", "#c87a3a", "#9aa0a8"))
    return DROIDS[kind].replace("{cloth}", palette.cloth).replace("{metal}", metal)


CREATURES = {
    # Body, head, legs and a feature each: bantha horns, a krayt's long neck, spines, fangs.
    "bantha": (
        '<ellipse cx="0" cy="-44" rx="46" ry="30" fill="{fur}"/>'
        '<path d="M-34,-24 V0 H-22 V-20 M18,-20 V0 H30 V-24" fill="{fur}"/>'
        '<ellipse cx="-46" cy="-56" rx="16" ry="18" fill="{fur}"/>'
        '<path d="M-52,-68 C-72,-72 -74,-50 -60,-46 C-66,-56 -62,-64 -50,-62 Z M-40,-68 '
        'C-26,-76 -22,-56 -32,-50 C-30,-58 -34,-62 -42,-62 Z" fill="#e8dcc0"/>'
        '<circle cx="-50" cy="-54" r="2" fill="#111"/>'
    ),
    "krayt dragon": (
        '<path d="M60,0 C40,-50 0,-40 -10,-30 C-20,-40 -24,-70 -36,-92 L-62,-98 L-70,-88 '
        'L-48,-84 C-36,-64 -44,-30 -30,0 Z" fill="{fur}"/>'
        '<path d="M-20,-32 L-14,-44 L-8,-34 L0,-46 L6,-36 L14,-46 L20,-36 L30,-44 L34,-32" '
        'fill="#e8dcc0"/>'
        '<circle cx="-58" cy="-92" r="2.5" fill="#ffd040"/>'
        '<path d="M-70,-88 L-66,-84 L-62,-88 L-58,-84" stroke="#fff" stroke-width="1.2" '
        'fill="none"/>'
    ),
    "hound": (
        '<path d="M-40,-40 C-20,-52 20,-50 36,-40 L44,-20 L40,0 H32 L30,-22 L-24,-24 L-28,0 '
        'H-36 L-38,-26 Z" fill="{fur}"/>'
        '<path d="M-34,-42 L-58,-56 L-72,-48 L-60,-38 L-40,-30 Z" fill="{fur}"/>'
        '<path d="M-50,-54 L-46,-68 L-40,-52 Z" fill="{fur}"/>'
        '<circle cx="-58" cy="-48" r="2.2" fill="#ff4a3a"/>'
        '<path d="M-70,-44 L-66,-40 L-62,-44" stroke="#fff" stroke-width="1.2" fill="none"/>'
        '<path d="M36,-40 C52,-52 58,-64 56,-74" stroke="{fur}" stroke-width="5" fill="none"/>'
    ),
    "thornback": (
        '<ellipse cx="0" cy="-34" rx="44" ry="24" fill="{fur}"/>'
        '<path d="M-30,-20 V0 H-20 V-16 M14,-16 V0 H24 V-20" fill="{fur}"/>'
        '<path d="M-40,-42 L-30,-70 L-22,-54 L-12,-78 L-4,-56 L8,-80 L14,-56 L26,-72 L30,-50 '
        'L42,-62 L40,-40 Z" fill="#e8dcc0"/>'
        '<ellipse cx="-48" cy="-30" rx="14" ry="11" fill="{fur}"/>'
        '<circle cx="-54" cy="-33" r="2" fill="#111"/>'
    ),
    "beast": (
        '<path d="M-50,0 C-56,-40 -40,-80 0,-86 C40,-80 56,-40 50,0 Z" fill="{fur}"/>'
        '<path d="M-30,-86 L-40,-110 L-18,-90 Z M30,-86 L40,-110 L18,-90 Z" fill="#e8dcc0"/>'
        '<circle cx="-14" cy="-60" r="5" fill="#ffe040"/><circle cx="14" cy="-60" r="5" '
        'fill="#ffe040"/>'
        '<path d="M-22,-36 L-16,-28 L-10,-36 L-4,-28 L2,-36 L8,-28 L14,-36 L20,-28" '
        'stroke="#fff" stroke-width="1.6" fill="none"/>'
    ),
}


def _creature(kind: str, rng: random.Random) -> str:
    fur = rng.choice(("#6b4a2a", "#8a6a4a", "#4a3a30", "#7a5a3a", "#5a4a40"))
    return CREATURES[kind].replace("{fur}", fur)


# --- Vehicles and items (origin at their centre) -------------------------------------------

STARSHIPS = {
    "freighter": (
        '<path d="M-38,-8 A40,30 0 1 1 38,-8 L62,-2 L62,8 L38,6 A40,30 0 0 1 -38,6 Z" '
        'fill="{hull}"/>'
        '<path d="M-30,-6 A32,22 0 0 1 30,-6" fill="none" stroke="{trim}" stroke-width="2"/>'
        '<rect x="34" y="-4" width="30" height="10" fill="{hull}" stroke="#3a3e44" '
        'stroke-width="1"/>'
        '<circle cx="0" cy="-8" r="9" fill="#3a3e44"/><circle cx="0" cy="-8" r="4" fill="{trim}"/>'
        '<rect x="-46" y="-2" width="8" height="8" fill="#9ad0ff"/>'
    ),
    "gunboat": (
        '<path d="M-62,6 L-50,-14 H40 L64,0 L40,14 H-50 Z" fill="{hull}"/>'
        '<rect x="-34" y="-24" width="40" height="10" fill="{trim}"/>'
        '<path d="M-10,-24 L30,-32 M0,-20 L40,-26" stroke="#3a3e44" stroke-width="3"/>'
        '<rect x="-66" y="-6" width="8" height="12" fill="#9ad0ff"/>'
        '<path d="M40,0 H56" stroke="#3a3e44" stroke-width="2"/>'
    ),
    "cutter": (
        '<path d="M68,0 L-50,-30 L-58,-10 V10 L-50,30 Z" fill="{hull}"/>'
        '<path d="M-40,0 L20,-6 V6 Z" fill="{trim}"/>'
        '<rect x="-70" y="-16" width="12" height="32" fill="#9ad0ff"/>'
        '<path d="M-44,-14 L-20,-30 L-10,-28 L-30,-10 Z" fill="#3a3e44"/>'
    ),
    "infiltrator": (
        '<path d="M70,0 L10,-10 L-30,-44 L-40,-40 L-22,-8 L-56,0 L-22,8 L-40,40 L-30,44 L10,10 Z" '
        'fill="{hull}"/>'
        '<path d="M60,0 L0,-4 L0,4 Z" fill="{trim}"/>'
        '<circle cx="-40" cy="0" r="6" fill="#ff5a3a"/>'
    ),
}
STARSHIP_ENGINES = {"freighter": -62, "gunboat": -66, "cutter": -70, "infiltrator": -56}

GROUND_VEHICLES = {
    "speeder": (
        '<path d="M-60,4 C-60,-10 -40,-14 -10,-14 L30,-10 C50,-8 62,-2 62,6 L50,12 H-54 Z" '
        'fill="{hull}"/>'
        '<path d="M-8,-14 C-4,-28 16,-28 22,-12 Z" fill="#9ad0ff" opacity="0.8"/>'
        '<rect x="-56" y="-24" width="16" height="12" rx="4" fill="#5a5e64"/>'
        '<rect x="-34" y="-24" width="16" height="12" rx="4" fill="#5a5e64"/>'
        '<path d="M-50,20 H50" stroke="#000" stroke-width="4" opacity="0.25"/>'
    ),
    "swoop": (
        '<path d="M-56,-4 L-30,-18 H20 L60,-6 L56,4 H-50 Z" fill="{hull}"/>'
        '<rect x="-62" y="-16" width="22" height="16" rx="5" fill="#5a5e64"/>'
        '<path d="M20,-18 L30,-30 H38" stroke="#3a3e44" stroke-width="3" fill="none"/>'
        '<path d="M-40,20 H44" stroke="#000" stroke-width="4" opacity="0.25"/>'
    ),
}

ITEMS = {
    "lightsaber": (
        '<path d="M-8,44 L38,-46" stroke="{blade}" stroke-width="10" stroke-linecap="round" '
        'opacity="0.35"/>'
        '<path d="M-8,44 L38,-46" stroke="{blade}" stroke-width="4.5" stroke-linecap="round"/>'
        '<path d="M-8,44 L38,-46" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/>'
        '<path d="M-24,74 L-8,44" stroke="#b8bcc2" stroke-width="7" stroke-linecap="round"/>'
        '<path d="M-19,65 L-16,59 M-14,55 L-12,51" stroke="#2a2c30" stroke-width="7"/>'
    ),
    "blaster pistol": (
        '<path d="M-40,-10 H30 L36,-6 V2 H-8 L-14,34 H-30 L-24,2 H-40 Z" fill="#2a2c30"/>'
        '<path d="M-36,-18 H0 V-10 H-36 Z" fill="#4a4e54"/>'
        '<path d="M-10,2 Q-12,16 0,16 V10 Q-4,10 -4,2" fill="#2a2c30"/>'
        '<rect x="30" y="-8" width="10" height="3" fill="{trim}"/>'
    ),
    "blaster rifle": (
        '<path d="M-70,-6 L-40,-10 H50 V-2 H20 L14,6 H-10 L-14,22 H-24 L-22,6 H-40 L-70,12 Z" '
        'fill="#2a2c30"/>'
        '<rect x="-30" y="-20" width="36" height="8" rx="3" fill="#4a4e54"/>'
        '<rect x="50" y="-9" width="22" height="5" fill="#4a4e54"/>'
        '<rect x="-64" y="-3" width="22" height="8" fill="{trim}"/>'
    ),
    "vibroblade": (
        '<path d="M-40,30 L40,-36 L46,-30 L-30,38 Z" fill="#d8dde2"/>'
        '<path d="M-36,32 L42,-33" stroke="{trim}" stroke-width="1.5"/>'
        '<path d="M-46,24 L-24,44" stroke="#3a3e44" stroke-width="6"/>'
        '<path d="M-40,36 L-56,52" stroke="#6a4a2a" stroke-width="8" stroke-linecap="round"/>'
    ),
    "vibro-axe": (
        '<path d="M-40,50 L30,-40" stroke="#6a4a2a" stroke-width="6" stroke-linecap="round"/>'
        '<path d="M14,-30 C20,-56 44,-60 52,-52 C40,-42 36,-24 30,-12 Z" fill="#d8dde2"/>'
        '<path d="M20,-28 C26,-46 40,-52 48,-50" stroke="{trim}" stroke-width="1.5" fill="none"/>'
    ),
    "plating": (
        '<path d="M-36,-46 L-14,-52 Q0,-44 14,-52 L36,-46 L44,-22 L32,-18 L30,30 Q0,44 -30,30 '
        'L-32,-18 L-44,-22 Z" fill="{hull}"/>'
        '<path d="M-20,-30 H20 L16,-6 H-16 Z M-18,4 H18 M-18,14 H18" fill="{trim}" '
        'stroke="{trim}" stroke-width="3"/>'
    ),
    "robes": (
        '<path d="M-20,-52 L20,-52 L30,-40 L46,44 H-46 L-30,-40 Z" fill="{hull}"/>'
        '<path d="M-20,-52 L0,-20 L20,-52" fill="none" stroke="{trim}" stroke-width="4"/>'
        '<path d="M-34,6 H34" stroke="{trim}" stroke-width="5"/>'
        '<path d="M-30,-40 L-50,20 M30,-40 L50,20" stroke="{hull}" stroke-width="10"/>'
    ),
    "holocron": (
        '<path d="M0,-46 L40,-22 V22 L0,46 L-40,22 V-22 Z" fill="{trim}"/>'
        '<path d="M0,-46 L40,-22 L0,2 L-40,-22 Z" fill="#fff" opacity="0.35"/>'
        '<path d="M0,2 V46" stroke="#fff" stroke-width="1.5" opacity="0.6"/>'
        '<path d="M-16,-6 L0,-16 L16,-6 L0,4 Z" fill="{blade}"/>'
    ),
    "crystal": (
        '<path d="M0,-52 L18,-20 L12,40 H-12 L-18,-20 Z" fill="{blade}" opacity="0.9"/>'
        '<path d="M0,-52 L6,-20 L2,40 H-4 L-8,-20 Z" fill="#fff" opacity="0.55"/>'
        '<path d="M-30,30 L-22,-4 L-16,36 Z M28,34 L22,0 L16,38 Z" fill="{blade}" opacity="0.7"/>'
    ),
    "datapad": (
        '<rect x="-36" y="-46" width="72" height="92" rx="8" fill="#3a3e44"/>'
        '<rect x="-28" y="-38" width="56" height="60" fill="{blade}" opacity="0.85"/>'
        '<path d="M-22,-28 H18 M-22,-18 H10 M-22,-8 H20 M-22,2 H4" stroke="#14161a" '
        'stroke-width="3"/>'
        '<circle cx="0" cy="34" r="6" fill="{trim}"/>'
    ),
    "medpac": (
        '<rect x="-44" y="-30" width="88" height="62" rx="10" fill="#eef0f2"/>'
        '<path d="M-8,-20 H8 V-6 H22 V10 H8 V24 H-8 V10 H-22 V-6 H-8 Z" fill="#d03030"/>'
        '<path d="M-20,-30 V-40 H20 V-30" stroke="#6a6e74" stroke-width="4" fill="none"/>'
    ),
    "crate": (
        '<rect x="-44" y="-34" width="88" height="68" fill="{hull}"/>'
        '<path d="M-44,-34 L44,34 M44,-34 L-44,34" stroke="{trim}" stroke-width="4"/>'
        '<rect x="-44" y="-34" width="88" height="68" fill="none" stroke="#2a2c30" '
        'stroke-width="4"/>'
    ),
    "detonator": (
        '<circle r="30" fill="#3a3e44"/><path d="M-30,0 H30" stroke="#6a6e74" stroke-width="4"/>'
        '<circle cx="-12" cy="-12" r="4" fill="#ff3a2a"/><circle cx="2" cy="-12" r="3" '
        'fill="#ffd040"/><rect x="-4" y="8" width="16" height="6" fill="{trim}"/>'
    ),
    "talisman": (
        '<path d="M-26,-50 Q0,-10 26,-50" stroke="#c8a040" stroke-width="2" fill="none"/>'
        '<path d="M0,-22 L22,8 L0,48 L-22,8 Z" fill="{hull}" stroke="#c8a040" stroke-width="3"/>'
        '<circle cx="0" cy="10" r="8" fill="{blade}"/>'
    ),
    "generator": (
        '<rect x="-26" y="-10" width="52" height="40" rx="6" fill="#5a5e64"/>'
        '<path d="M-44,10 A44,44 0 0 1 44,10" fill="none" stroke="{blade}" stroke-width="4" '
        'opacity="0.7"/>'
        '<path d="M-56,16 A56,56 0 0 1 56,16" fill="none" stroke="{blade}" stroke-width="2" '
        'opacity="0.45"/>'
        '<circle cx="0" cy="10" r="8" fill="{blade}"/>'
    ),
    "cuffs": (
        '<circle cx="-20" cy="0" r="20" fill="none" stroke="#9aa4ae" stroke-width="8"/>'
        '<circle cx="24" cy="0" r="20" fill="none" stroke="#9aa4ae" stroke-width="8"/>'
        '<rect x="-6" y="-5" width="12" height="10" fill="{trim}"/>'
    ),
    "papers": (
        '<path d="M-34,-44 H24 L38,-30 V44 H-34 Z" fill="#f2ead2"/>'
        '<path d="M-24,-28 H20 M-24,-16 H28 M-24,-4 H14 M-24,8 H28" stroke="#8a7a5a" '
        'stroke-width="3"/>'
        '<circle cx="14" cy="28" r="9" fill="{trim}"/>'
    ),
}


# --- Emblems for abilities and tactics (centred at the origin, about 100 units wide) -------------

EMBLEM_SHAPES = {
    "force": (
        '<circle r="18" fill="{light}"/>'
        '<ellipse rx="46" ry="14" fill="none" stroke="{light}" stroke-width="3" '
        'transform="rotate(-25)"/>'
        '<ellipse rx="46" ry="14" fill="none" stroke="{light}" stroke-width="3" '
        'transform="rotate(35)"/>'
    ),
    "lightning": (
        '<path d="M-6,-50 L-24,2 L-6,2 L-18,50 L22,-10 L2,-10 L16,-50 Z" fill="{light}"/>'
        '<path d="M-24,2 L-44,18 M22,-10 L44,-24" stroke="{light}" stroke-width="3"/>'
    ),
    "flask": (
        '<path d="M-8,-46 H8 V-18 L30,30 Q32,40 22,40 H-22 Q-32,40 -30,30 L-8,-18 Z" '
        'fill="{light}"/><path d="M-22,16 H22 L30,30 Q32,40 22,40 H-22 Q-32,40 -30,30 Z" '
        'fill="{blade}"/>'
    ),
    "banner": (
        '<path d="M-30,50 V-50" stroke="{light}" stroke-width="5"/>'
        '<path d="M-28,-48 H40 L28,-28 L40,-8 H-28 Z" fill="{light}"/>'
    ),
    "eye": (
        '<path d="M-50,0 Q0,-42 50,0 Q0,42 -50,0 Z" fill="{light}"/>'
        '<circle r="15" fill="{dark}"/><circle r="6" fill="{light}"/>'
    ),
    "target": (
        '<circle r="44" fill="none" stroke="{light}" stroke-width="6"/>'
        '<circle r="26" fill="none" stroke="{light}" stroke-width="6"/>'
        '<circle r="8" fill="{light}"/><path d="M36,-36 L6,-6" stroke="{light}" '
        'stroke-width="4"/>'
    ),
    "chevrons": (
        '<path d="M-40,34 L0,-6 L40,34 L28,46 L0,18 L-28,46 Z M-40,-6 L0,-46 L40,-6 L28,6 '
        'L0,-22 L-28,6 Z" fill="{light}"/>'
    ),
    "crates": (
        '<rect x="-44" y="0" width="40" height="36" fill="{light}"/>'
        '<rect x="4" y="0" width="40" height="36" fill="{light}" opacity="0.8"/>'
        '<rect x="-20" y="-40" width="40" height="36" fill="{light}" opacity="0.9"/>'
    ),
    "dice": (
        '<rect x="-44" y="-24" width="44" height="44" rx="8" fill="{light}" '
        'transform="rotate(-14 -22 -2)"/>'
        '<rect x="6" y="-10" width="40" height="40" rx="8" fill="{light}" opacity="0.85" '
        'transform="rotate(12 26 10)"/>'
        '<circle cx="-22" cy="-2" r="5" fill="{dark}"/><circle cx="18" cy="2" r="4" '
        'fill="{dark}"/><circle cx="34" cy="18" r="4" fill="{dark}"/>'
    ),
    "chart": (
        '<path d="M-40,20 L-14,-18 L12,4 L40,-34" stroke="{light}" stroke-width="2" '
        'fill="none"/>'
        '<circle cx="-40" cy="20" r="5" fill="{light}"/><circle cx="-14" cy="-18" r="6" '
        'fill="{light}"/><circle cx="12" cy="4" r="4" fill="{light}"/>'
        '<circle cx="40" cy="-34" r="7" fill="{light}"/>'
        '<circle r="50" fill="none" stroke="{light}" stroke-width="2" opacity="0.6"/>'
    ),
    "wanted": (
        '<rect x="-34" y="-46" width="68" height="92" fill="#f2ead2"/>'
        '<circle cy="-8" r="16" fill="{dark}"/><path d="M-24,24 C-24,8 24,8 24,24 Z" '
        'fill="{dark}"/><path d="M-24,-36 H24 M-20,36 H20" stroke="{dark}" stroke-width="5"/>'
    ),
    "coins": (
        '<ellipse cy="24" rx="34" ry="10" fill="{light}"/>'
        '<ellipse cy="12" rx="34" ry="10" fill="{light}" opacity="0.85"/>'
        '<ellipse cy="0" rx="34" ry="10" fill="{light}"/>'
        '<circle cx="10" cy="-30" r="18" fill="{light}"/><circle cx="10" cy="-30" r="9" '
        'fill="{dark}"/>'
    ),
    "cog": (
        '<circle r="30" fill="none" stroke="{light}" stroke-width="12"/>'
        + "".join(
            f'<rect x="-6" y="-46" width="12" height="14" fill="{{light}}" '
            f'transform="rotate({a})"/>'
            for a in range(0, 360, 45)
        )
    ),
    "shield": (
        '<path d="M0,-48 L40,-32 C40,10 24,36 0,50 C-24,36 -40,10 -40,-32 Z" fill="{light}"/>'
        '<path d="M0,-34 L26,-22 C26,6 16,24 0,34 Z" fill="{dark}" opacity="0.4"/>'
    ),
    "arrow": (
        '<path d="M-44,36 C-40,-10 -10,-30 24,-30 V-46 L50,-18 L24,10 V-6 C0,-6 -26,6 -44,36 Z" '
        'fill="{light}"/>'
    ),
    "burst": "".join(
        f'<path d="M-5,-50 L0,-16 L5,-50 Z" fill="{{light}}" transform="rotate({a})"/>'
        for a in range(0, 360, 30)
    )
    + '<circle r="16" fill="{light}"/>',
    "lock": (
        '<path d="M-20,-10 V-26 A20,20 0 0 1 20,-26 V-10" fill="none" stroke="{light}" '
        'stroke-width="8"/>'
        '<rect x="-32" y="-12" width="64" height="52" rx="6" fill="{light}"/>'
        '<circle cy="10" r="7" fill="{dark}"/><rect x="-3" y="10" width="6" height="16" '
        'fill="{dark}"/>'
    ),
    "cross": (
        '<circle r="46" fill="none" stroke="{light}" stroke-width="5"/>'
        '<path d="M-10,-32 H10 V-10 H32 V10 H10 V32 H-10 V10 H-32 V-10 H-10 Z" fill="{light}"/>'
    ),
    "ship": (
        '<path d="M-50,30 L40,-30" stroke="{light}" stroke-width="2" stroke-dasharray="6 5"/>'
        '<path d="M44,-34 L20,-28 L-2,-40 L-8,-34 L8,-22 L0,-12 L12,-14 L30,-4 L36,-10 L26,-22 Z" '
        'fill="{light}"/>'
    ),
}

EMBLEM_SHAPES.update(
    {
        "sabres": (
            '<path d="M-40,44 L34,-42 M40,44 L-34,-42" stroke="{blade}" stroke-width="9" '
            'stroke-linecap="round" opacity="0.4"/>'
            '<path d="M-40,44 L34,-42 M40,44 L-34,-42" stroke="{light}" stroke-width="5" '
            'stroke-linecap="round"/>'
            '<path d="M-48,52 L-36,38 M48,52 L36,38" stroke="#9aa0a8" stroke-width="7"/>'
        ),
        "hourglass": (
            '<path d="M-30,-48 H30 V-40 L6,0 L30,40 V48 H-30 V40 L-6,0 L-30,-40 Z" '
            'fill="{light}"/>'
            '<path d="M-16,-30 H16 L0,-6 Z M-20,40 L0,22 L20,40 Z" fill="{dark}"/>'
        ),
        "planet": (
            '<circle r="30" fill="{light}"/>'
            '<path d="M0,-30 A30,30 0 0 1 0,30 A16,30 0 0 0 0,-30 Z" fill="{dark}" '
            'opacity="0.5"/>'
            '<ellipse rx="52" ry="12" fill="none" stroke="{light}" stroke-width="4" '
            'transform="rotate(-18)"/>'
        ),
        "wave": "".join(
            f'<path d="M-8,{-r} A{r},{r} 0 0 1 -8,{r}" fill="none" stroke="{{light}}" '
            f'stroke-width="{w}" opacity="{o}" transform="translate(-30,0)"/>'
            for r, w, o in ((20, 7, 1), (38, 6, 0.8), (56, 5, 0.6), (74, 4, 0.4))
        )
        + '<circle cx="-40" r="10" fill="{light}"/>',
        "skull": (
            '<path d="M-30,-10 C-30,-56 30,-56 30,-10 C30,8 20,12 18,24 H-18 C-20,12 -30,8 '
            '-30,-10 Z" fill="{light}"/>'
            '<circle cx="-12" cy="-10" r="9" fill="{dark}"/><circle cx="12" cy="-10" r="9" '
            'fill="{dark}"/><path d="M-12,24 V40 M0,24 V40 M12,24 V40" stroke="{light}" '
            'stroke-width="7"/>'
        ),
        "heart": (
            '<path d="M0,40 C-30,18 -52,0 -46,-22 C-40,-44 -10,-44 0,-22 C10,-44 40,-44 46,-22 '
            'C52,0 30,18 0,40 Z" fill="{light}"/>'
            '<path d="M-30,-2 H-12 L-4,-18 L6,14 L14,-2 H30" stroke="{dark}" stroke-width="4" '
            'fill="none"/>'
        ),
        "bolts": "".join(
            f'<path d="M{x - 36},{y + 24} L{x + 36},{y - 24}" stroke="{{blade}}" '
            f'stroke-width="9" stroke-linecap="round" opacity="0.4"/>'
            f'<path d="M{x - 30},{y + 20} L{x + 30},{y - 20}" stroke="{{light}}" '
            'stroke-width="4" stroke-linecap="round"/>'
            for x, y in ((-18, -22), (14, 4), (-6, 30))
        ),
    }
)

# Words of a title that name a picture better than the card's trait does.
EMBLEM_BY_WORD = {
    "strike": "sabres",
    "valor": "sabres",
    "duel": "sabres",
    "stillness": "hourglass",
    "serenity": "hourglass",
    "calm": "hourglass",
    "patience": "hourglass",
    "fast": "hourglass",
    "destiny": "planet",
    "well-traveled": "planet",
    "chart": "chart",
    "wave": "wave",
    "breath": "wave",
    "repulsing": "wave",
    "ward": "shield",
    "resurrection": "skull",
    "cull": "skull",
    "deathless": "skull",
    "sacrifice": "skull",
    "termination": "skull",
    "bond": "heart",
    "mending": "heart",
    "vitality": "heart",
    "triage": "cross",
    "shot": "bolts",
    "volley": "bolts",
    "crossfire": "bolts",
    "barrage": "bolts",
    "firepower": "bolts",
    "firing": "bolts",
    "blaster": "bolts",
    "fear": "skull",
    "stare": "eye",
    "surveillance": "eye",
    "dragnet": "target",
    "whisper": "wave",
    "whispers": "wave",
    "reflexes": "arrow",
    "instinct": "arrow",
    "instincts": "arrow",
    "doors": "lock",
    "brawl": "burst",
    "ally": "banner",
    "lucky": "dice",
    "double": "dice",
    "orders": "banner",
    "speech": "banner",
    "command": "chevrons",
    "procedure": "crates",
    "analysis": "chart",
    "contacts": "eye",
    "network": "chart",
}

EMBLEM_BY_TRAIT = {
    "force power": "force",
    "dark side": "lightning",
    "sith alchemy": "flask",
    "leadership": "banner",
    "espionage": "eye",
    "training": "target",
    "tactics": "chevrons",
    "logistics": "crates",
    "smuggling": "crates",
    "fortune": "dice",
    "lore": "chart",
    "bounty": "wanted",
    "negotiation": "coins",
    "scavenging": "cog",
    "piloting": "ship",
    "offense": "burst",
    "defense": "shield",
    "maneuver": "arrow",
    "focus": "eye",
    "control": "lock",
    "medical": "cross",
}
EMBLEM_FALLBACKS = ("burst", "target", "chevrons", "force", "shield")


# --- Quest destinations (standing on the panel's floor, centred at x = 0) ---------------------

LANDMARKS = {
    "temple": (
        '<path d="M-60,0 V-14 H60 V0 Z M-50,-14 L0,-56 L50,-14 Z" fill="{dark}"/>'
        '<path d="M-40,-14 V-40 M-20,-14 V-48 M20,-14 V-48 M40,-14 V-40" stroke="{dark}" '
        'stroke-width="7"/>'
        '<rect x="-8" y="-30" width="16" height="16" fill="{light}"/>'
    ),
    "ruins": (
        '<path d="M-64,0 V-10 H64 V0 Z" fill="{dark}"/>'
        '<path d="M-50,-10 V-62 M-30,-10 V-44 M10,-10 V-70 M36,-10 V-30" stroke="{dark}" '
        'stroke-width="9"/>'
        '<path d="M-58,-62 H-20 L-24,-56 H-58 Z M2,-70 H30 L24,-64 H2 Z" fill="{dark}"/>'
    ),
    "tower": (
        '<path d="M-12,0 L-6,-84 H6 L12,0 Z" fill="{dark}"/>'
        '<ellipse cy="-84" rx="22" ry="7" fill="{dark}"/>'
        '<rect x="-3" y="-100" width="6" height="16" fill="{dark}"/>'
        '<circle cy="-102" r="3" fill="{light}"/>'
        '<path d="M-70,0 V-24 H-30 V0 Z M30,0 V-30 H70 V0 Z" fill="{dark}"/>'
    ),
    "shipyard": (
        '<path d="M-80,-20 H80 M-80,-60 H80" stroke="{dark}" stroke-width="5"/>'
        '<path d="M-70,0 V-90 M70,0 V-90" stroke="{dark}" stroke-width="8"/>'
        '<path d="M-40,-40 L40,-52 L48,-40 L40,-28 Z" fill="{light}" opacity="0.8"/>'
    ),
    "mine": (
        '<path d="M-90,0 L-30,-80 L0,-60 L40,-96 L100,0 Z" fill="{dark}"/>'
        '<path d="M-20,0 V-24 A16,16 0 0 1 12,-24 V0 Z" fill="#000"/>'
        '<path d="M-34,0 L-26,-10 H20 L28,0" stroke="{light}" stroke-width="2" fill="none"/>'
    ),
    "wreck": (
        '<path d="M-70,0 L-40,-30 L20,-36 L60,-20 L80,0 Z" fill="{dark}"/>'
        '<path d="M20,-36 L44,-70 L52,-66 L34,-30 Z" fill="{dark}"/>'
        '<path d="M-20,-34 C-30,-60 -10,-70 -16,-96" stroke="{light}" stroke-width="6" '
        'opacity="0.35" fill="none"/>'
    ),
    "vault": (
        '<rect x="-60" y="-60" width="120" height="60" fill="{dark}"/>'
        '<circle cy="-30" r="22" fill="{light}" opacity="0.8"/><circle cy="-30" r="14" '
        'fill="{dark}"/><path d="M0,-52 V-8 M-22,-30 H22" stroke="{dark}" stroke-width="3"/>'
    ),
    "camp": (
        '<path d="M-70,0 L-40,-44 L-10,0 Z M10,0 L44,-56 L78,0 Z" fill="{dark}"/>'
        '<path d="M-12,0 L0,-18 L12,0 Z" fill="{light}"/>'
        '<path d="M0,-18 C-6,-34 6,-44 0,-60" stroke="{light}" stroke-width="3" opacity="0.4" '
        'fill="none"/>'
    ),
}

LANDMARKS["beast"] = CREATURES["krayt dragon"].replace("{fur}", "{dark}")
LANDMARKS["swoop"] = (
    '<path d="M-90,-4 H90" stroke="{light}" stroke-width="2" stroke-dasharray="10 8"/>'
    f'<g transform="translate(-10,-34)">{GROUND_VEHICLES["swoop"].replace("{hull}", "{dark}")}</g>'
)

# A quest's title names where it goes; the first word found picks the landmark.
LANDMARK_WORDS = (
    ("shipyard", "shipyard"),
    ("blockade", "shipyard"),
    ("mines", "mine"),
    ("crash", "wreck"),
    ("vault", "vault"),
    ("holocron", "vault"),
    ("tomb", "ruins"),
    ("ruins", "ruins"),
    ("enclave", "temple"),
    ("coven", "temple"),
    ("garrison", "tower"),
    ("checkpoint", "tower"),
    ("law", "tower"),
    ("safehouse", "camp"),
    ("refugees", "camp"),
    ("cell", "camp"),
    ("uprising", "camp"),
    ("courier", "wreck"),
    ("beast", "beast"),
    ("swoop", "swoop"),
)


# --- Choosing what to draw --------------------------------------------------------------------


@dataclass(frozen=True)
class Subject:
    """What a card's art shows: ``kind`` (figure, droid, creature, starship, vehicle, item,
    emblem, quest) and the particular ``name`` within it (wookiee, freighter, lightsaber...)."""

    kind: str
    name: str

    @property
    def label(self) -> str:
        return f"{self.kind}-{self.name.replace(' ', '-').replace(chr(39), '')}"


DROID_ROLES = {"astromech": "astromech", "protocol": "protocol", "probe": "probe"}
CREATURE_ROLES = ("bantha", "krayt dragon", "hound", "thornback")
CROWD_WORDS = ("squad", "team", "fireteam", "twins", "haulers", "patrol", "caravan")


def _lower_traits(card) -> list[str]:
    return [str(trait).lower() for trait in card.traits or []]


def _being(traits: list[str]) -> Subject:
    if "droid" in traits:
        return Subject(
            "droid", next((DROID_ROLES[t] for t in traits if t in DROID_ROLES), "sentinel")
        )
    if "creature" in traits or "beast" in traits:
        return Subject("creature", next((t for t in traits if t in CREATURE_ROLES), "beast"))
    if "stormtrooper" in traits or "scout trooper" in traits:
        return Subject("figure", "stormtrooper")
    if "unknown species" in traits:
        return Subject("figure", "stranger")
    species = next((t for t in traits if t in SPECIES), "alien" if traits else "human")
    return Subject("figure", species)


def _item(card, traits: list[str]) -> Subject:
    title = card.title.lower()
    restriction = (card.restriction or "").lower()
    if "starship" in traits or restriction == "starship":
        return Subject("starship", next((t for t in traits if t in STARSHIPS), "freighter"))
    if "vehicle" in traits or restriction == "vehicle":
        return Subject("vehicle", "swoop" if "swoop" in traits else "speeder")
    if "droid" in traits:
        return Subject("droid", "medical" if "medical" in traits else "astromech")
    if "lightsaber" in traits:
        return Subject("item", "lightsaber")
    if "vibroblade" in traits:
        return Subject("item", "vibro-axe" if "axe" in title else "vibroblade")
    if "weapon" in traits or restriction == "weapon":
        long_arm = any(word in title for word in ("rifle", "carbine", "repeater"))
        return Subject("item", "blaster rifle" if long_arm else "blaster pistol")
    if "armor" in traits or "armour" in traits or restriction == "armor":
        return Subject("item", "robes" if "robes" in traits else "plating")
    by_word = (
        ("holocron", "holocron"),
        ("crystal", "crystal"),
        ("medical", "medpac"),
        ("explosive", "detonator"),
        ("talisman", "talisman"),
    )
    for trait, name in by_word:
        if trait in traits:
            return Subject("item", name)
    for word, name in (
        ("papers", "papers"),
        ("cuffs", "cuffs"),
        ("deflector", "generator"),
        ("radio", "datapad"),
    ):
        if word in title:
            return Subject("item", name)
    if "contraband" in traits:
        return Subject("item", "crate")
    return Subject("item", "datapad")


def art_subject(card) -> Subject:
    """What the card's art shows, from its type and traits."""
    traits = _lower_traits(card)
    if card.card_type in (CardType.AVATAR, CardType.UNIT):
        return _being(traits)
    if card.card_type == CardType.ITEM:
        return _item(card, traits)
    pick = _identity_hash(card)
    if card.card_type == CardType.QUEST:
        title = card.title.lower()
        named = (name for word, name in LANDMARK_WORDS if word in title)
        return Subject("quest", next(named, sorted(LANDMARKS)[pick % len(LANDMARKS)]))
    words = card.title.lower().replace("'s", "").split()
    named = itertools.chain(
        (EMBLEM_BY_WORD[word] for word in words if word in EMBLEM_BY_WORD),
        (EMBLEM_BY_TRAIT[trait] for trait in traits if trait in EMBLEM_BY_TRAIT),
    )
    return Subject("emblem", next(named, EMBLEM_FALLBACKS[pick % len(EMBLEM_FALLBACKS)]))


def _identity(card) -> str:
    card_set = getattr(card, "card_set", None)
    return f"{card_set.number if card_set else ''}|{card.number}|{card.title}|{card.card_type}"


def _identity_hash(card) -> int:
    digest = hashlib.blake2b(_identity(card).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _rng(card) -> random.Random:
    return random.Random(_identity_hash(card))  # noqa: S311 - art, not secrets


# Scenes each kind of subject may stand in; the card's hash picks one.
SCENE_CHOICES = {
    "figure": ("horizon", "forest", "city", "interior", "space"),
    "droid": ("interior", "city", "horizon"),
    "creature": ("horizon", "forest"),
    "starship": ("space",),
    "vehicle": ("horizon", "city"),
    "item": ("interior", "space", "horizon"),
    "emblem": ("space", "interior", "horizon"),
    "quest": ("horizon", "horizon", "forest"),
}


def _placed(body: str, *, x: float, y: float, scale: float, mirror: bool) -> str:
    flip = -scale if mirror else scale
    return f'<g transform="translate({_n(x)},{_n(y)}) scale({_n(flip)},{_n(scale)})">{body}</g>'


def _glow(x: float, y: float, palette: ArtPalette) -> str:
    return "".join(
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{r}" fill="{palette.light}" opacity="{o}"/>'
        for r, o in ((56, 0.1), (40, 0.12), (26, 0.14))
    )


def _subject_svg(card, subject: Subject, rng: random.Random, palette: ArtPalette) -> str:
    mirror = rng.random() < 0.5
    centre = rng.uniform(98, 128)
    if subject.kind == "figure":
        role = next(iter(_lower_traits(card)[1:2]), "")
        title = card.title.lower()
        out = []
        if any(word in title.split() for word in CROWD_WORDS):
            for offset, shade in ((-46, 0.78), (44, 0.85)):
                figure = _figure(subject.name, role, card.archetype, rng, palette)
                out.append(
                    f'<g opacity="{shade}">'
                    + _placed(figure, x=centre + offset, y=HEIGHT + 4, scale=0.82, mirror=mirror)
                    + "</g>"
                )
        # Framing: a half figure, or a close-up whose shoulders sink below the panel's edge.
        scale = rng.choice((1.0, 1.1, 1.28)) * (0.85 if subject.name == "jawa" else 1)
        figure = _figure(subject.name, role, card.archetype, rng, palette)
        sink = (scale - 1) * 45 if not out else 0
        out.append(_placed(figure, x=centre, y=HEIGHT + 2 + sink, scale=scale, mirror=mirror))
        return "".join(out)
    if subject.kind == "droid":
        return _placed(
            _droid(subject.name, palette, rng), x=centre, y=HEIGHT, scale=1, mirror=mirror
        )
    if subject.kind == "creature":
        scale = rng.uniform(0.95, 1.1)
        return _placed(
            _creature(subject.name, rng), x=centre, y=HEIGHT - 2, scale=scale, mirror=mirror
        )
    if subject.kind == "starship":
        body = STARSHIPS[subject.name].replace(
            "{hull}", rng.choice(("#c8ccd0", "#a8aeb4", "#8a9098"))
        )
        body = body.replace("{trim}", palette.cloth)
        engine = STARSHIP_ENGINES[subject.name]
        trail = (
            f'<path d="M{engine},0 H{engine - 90}" stroke="{palette.light}" stroke-width="9" '
            'opacity="0.3"/>'
            f'<circle cx="{engine}" cy="0" r="5" fill="#bfe8ff"/>'
        )
        angle = rng.randint(-18, 12)
        return (
            f'<g transform="translate({_n(centre)},{_n(rng.uniform(56, 70))}) rotate({angle}) '
            f'scale({"-1" if mirror else "1"},1)">{trail}{body}</g>'
        )
    if subject.kind == "vehicle":
        body = GROUND_VEHICLES[subject.name].replace("{hull}", palette.cloth)
        return _placed(body, x=centre, y=84, scale=1.45, mirror=mirror)
    if subject.kind == "item":
        body = (
            ITEMS[subject.name]
            .replace("{hull}", palette.cloth)
            .replace("{trim}", palette.light)
            .replace("{blade}", palette.blade)
        )
        tilt = rng.randint(-15, 15)
        return _glow(centre, 62, palette) + (
            f'<g transform="translate({_n(centre)},62) rotate({tilt}) '
            f'scale({"-0.95" if mirror else "0.95"},0.95)">{body}</g>'
        )
    if subject.kind == "emblem":
        body = EMBLEM_SHAPES[subject.name].replace("{light}", palette.light)
        body = body.replace("{dark}", palette.cloth_dark).replace("{blade}", palette.blade)
        x = rng.choice((centre, centre - 22, centre + 22))
        if rng.random() < 0.5:
            step = rng.choice((20, 30, 45))
            backdrop = "".join(
                f'<path d="M0,0 L{_n(130 * _cos(a))},{_n(130 * _sin(a))} '
                f'L{_n(130 * _cos(a + step / 3))},{_n(130 * _sin(a + step / 3))} Z" '
                f'fill="{palette.light}" opacity="0.12"/>'
                for a in range(rng.randint(0, step), 360, step)
            )
        else:
            backdrop = "".join(
                f'<circle r="{r}" fill="none" stroke="{palette.light}" stroke-width="2" '
                f'opacity="0.25"/>'
                for r in range(rng.randint(44, 54), 140, rng.randint(12, 22))
            )
        return (
            f'<g transform="translate({_n(x)},62)">{backdrop}</g>'
            + _glow(x, 62, palette)
            + _placed(body, x=x, y=62, scale=rng.uniform(0.78, 0.98), mirror=mirror)
        )
    body = (
        LANDMARKS[subject.name].replace("{dark}", palette.shadow).replace("{light}", palette.light)
    )
    return _placed(body, x=centre, y=HEIGHT - 6, scale=rng.uniform(1.1, 1.25), mirror=mirror)


def _cos(degrees: float) -> float:
    return math.cos(math.radians(degrees))


def _sin(degrees: float) -> float:
    return math.sin(math.radians(degrees))


def card_art_svg(card, *, x: float, y: float) -> str:
    """The card's art as an SVG group filling the art panel whose top left is (x, y)."""
    rng = _rng(card)
    subject = art_subject(card)
    scene = rng.choice(SCENE_CHOICES[subject.kind])
    palette = _palette(card.archetype, rng, night=scene == "space")
    return (
        f'<g class="card-art" data-subject="{subject.label}" data-scene="{scene}" '
        f'transform="translate({_n(x)},{_n(y)})" clip-path="url(#card-art-clip)">'
        f'<defs><clipPath id="card-art-clip"><rect width="{WIDTH}" height="{HEIGHT}"/></clipPath>'
        "</defs>" + SCENES[scene](rng, palette) + _subject_svg(card, subject, rng, palette) + "</g>"
    )
