"""Player portraits: the picture a player chooses in Preferences → Avatar.

Drawn as small round SVGs from shapes alone, like the card faces; this picture represents the
player and has nothing to do with the avatar cards of a deck (rulebook, PREFERENCES, Avatar).
"""

from html import escape


def _esc(text: str) -> str:
    return escape(str(text), quote=True)


PLAYER_AVATAR_CHOICES = (
    ("smuggler", "Smuggler"),
    ("bounty_hunter", "Bounty Hunter"),
    ("wookiee", "Wookiee"),
    ("jedi_knight", "Jedi Knight"),
    ("sith_lord", "Sith Lord"),
    ("rebel_pilot", "Rebel Pilot"),
    ("stormtrooper", "Stormtrooper"),
    ("imperial_officer", "Imperial Officer"),
    ("twilek", "Twi'lek"),
    ("astromech", "Astromech Droid"),
    ("jawa", "Jawa"),
    ("rodian", "Rodian"),
)


def _shoulders(colour: str) -> str:
    """Shoulders whose lower edge follows the portrait's circle, so nothing needs clipping."""
    return (
        f'<path d="M14,56 C15,45 23,40 32,40 C41,40 49,45 50,56 A30,30 0 0 1 14,56 Z" '
        f'fill="{colour}"/>'
    )


_SKIN = "#e0ac7e"

PORTRAITS = {
    "smuggler": (
        "#2d6a8e",
        _shoulders("#f2efe6")
        + '<path d="M18,50 C20,44 24,41 28,41 L30,62 L22,60 Z M46,50 C44,44 40,41 36,41 '
        'L34,62 L42,60 Z" fill="#1d1d1d"/>'
        f'<circle cx="32" cy="27" r="11" fill="{_SKIN}"/>'
        '<path d="M21,26 C20,16 27,13 33,14 C40,14 44,19 43,26 C40,21 34,20 28,22 Z" '
        'fill="#5a3a1e"/>',
    ),
    "bounty_hunter": (
        "#7a2e1f",
        _shoulders("#4c5a48")
        + '<path d="M20,30 C20,17 25,13 32,13 C39,13 44,17 44,30 L44,38 L20,38 Z" '
        'fill="#5f7a5a"/>'
        '<path d="M23,23 H41 V27 H34 V37 H30 V27 H23 Z" fill="#111"/>'
        '<path d="M44,22 L48,12" stroke="#bbb" stroke-width="1.5"/>',
    ),
    "wookiee": (
        "#3f6b3a",
        _shoulders("#6b4426") + '<path d="M18,56 L46,40" stroke="#3a2a1a" stroke-width="4"/>'
        '<path d="M19,30 C17,16 24,10 32,10 C40,10 47,16 45,30 C45,38 40,42 32,42 '
        'C24,42 19,38 19,30 Z" fill="#7a4e2b"/>'
        '<path d="M24,27 C26,23 38,23 40,27 L38,36 C34,39 30,39 26,36 Z" fill="#a9774a"/>'
        '<circle cx="28" cy="27" r="1.6" fill="#111"/><circle cx="36" cy="27" r="1.6" '
        'fill="#111"/><path d="M30,33 H34" stroke="#3a2a1a" stroke-width="1.5"/>',
    ),
    "jedi_knight": (
        "#2b5d9b",
        _shoulders("#7a5a3a")
        + '<path d="M19,34 C18,18 24,11 32,11 C40,11 46,18 45,34 L40,42 H24 Z" '
        'fill="#5e4329"/>'
        f'<circle cx="32" cy="29" r="9.5" fill="{_SKIN}"/>'
        '<path d="M50,20 V50" stroke="#8fd3ff" stroke-width="3" stroke-linecap="round"/>',
    ),
    "sith_lord": (
        "#8e1b1b",
        _shoulders("#141414")
        + '<path d="M18,36 C17,18 24,10 32,10 C40,10 47,18 46,36 L40,44 H24 Z" '
        'fill="#1c1c1c"/>'
        '<ellipse cx="32" cy="30" rx="8.5" ry="10" fill="#3a3a3a"/>'
        '<circle cx="29" cy="29" r="1.6" fill="#ff3b30"/><circle cx="35" cy="29" r="1.6" '
        'fill="#ff3b30"/>',
    ),
    "rebel_pilot": (
        "#34495e",
        _shoulders("#e67e22") + '<path d="M28,40 H36 V56 H28 Z" fill="#ecf0f1"/>'
        f'<circle cx="32" cy="28" r="10" fill="{_SKIN}"/>'
        '<path d="M19,30 C18,17 24,12 32,12 C40,12 46,17 45,30 L41,30 C41,22 37,20 32,20 '
        'C27,20 23,22 23,30 Z" fill="#f4f4f4"/>'
        '<path d="M24,21 H40" stroke="#c0392b" stroke-width="2.5"/>',
    ),
    "stormtrooper": (
        "#4a5560",
        _shoulders("#e9ecef")
        + '<path d="M20,30 C20,16 25,12 32,12 C39,12 44,16 44,30 L41,40 H23 Z" '
        'fill="#f8f9fa"/>'
        '<path d="M23,25 L30,24 L29,30 L24,29 Z M41,25 L34,24 L35,30 L40,29 Z" fill="#111"/>'
        '<path d="M27,36 H37 L35,39 H29 Z" fill="#555"/>',
    ),
    "imperial_officer": (
        "#1f2a36",
        _shoulders("#6b7a6b") + '<rect x="20" y="47" width="6" height="3" fill="#c0392b"/>'
        '<rect x="20" y="51" width="6" height="2" fill="#2e86de"/>'
        f'<circle cx="32" cy="29" r="10" fill="{_SKIN}"/>'
        '<path d="M19,22 C20,14 26,12 32,12 C38,12 44,14 45,22 Z" fill="#5b6b5b"/>'
        '<path d="M18,22 H46 V25 H18 Z" fill="#2b2b2b"/>',
    ),
    "twilek": (
        "#6c3483",
        _shoulders("#d4ac0d")
        + '<path d="M26,30 C20,38 18,48 21,56 L25,56 C23,48 26,40 30,34 Z M38,30 C44,38 46,48 '
        '43,56 L39,56 C41,48 38,40 34,34 Z" fill="#3a8fb7"/>'
        '<ellipse cx="32" cy="26" rx="10" ry="12" fill="#4aa3d0"/>'
        '<circle cx="28.5" cy="26" r="1.5" fill="#111"/><circle cx="35.5" cy="26" r="1.5" '
        'fill="#111"/>',
    ),
    "astromech": (
        "#16a085",
        '<path d="M18,57 V32 H46 V57 A30,30 0 0 1 18,57 Z" fill="#ecf0f1"/>'
        '<path d="M18,32 C18,20 24,14 32,14 C40,14 46,20 46,32 Z" fill="#bdc3c7"/>'
        '<circle cx="32" cy="24" r="4" fill="#1b2631"/><circle cx="32" cy="24" r="1.5" '
        'fill="#e74c3c"/>'
        '<rect x="24" y="38" width="16" height="5" fill="#2e86de"/>'
        '<rect x="24" y="46" width="7" height="5" fill="#2e86de"/>',
    ),
    "jawa": (
        "#c49a4a",
        _shoulders("#6e4b2a") + '<path d="M32,8 L46,40 H18 Z" fill="#7d5532"/>'
        '<ellipse cx="32" cy="31" rx="8" ry="7" fill="#1a1208"/>'
        '<circle cx="29" cy="30" r="1.8" fill="#ffd60a"/><circle cx="35" cy="30" r="1.8" '
        'fill="#ffd60a"/>',
    ),
    "rodian": (
        "#b9770e",
        _shoulders("#34495e")
        + '<path d="M26,16 L22,8 M38,16 L42,8" stroke="#2e7d32" stroke-width="2"/>'
        '<path d="M21,26 C21,16 26,12 32,12 C38,12 43,16 43,26 C43,33 37,38 34,42 L30,42 '
        'C27,38 21,33 21,26 Z" fill="#43a047"/>'
        '<ellipse cx="26.5" cy="25" rx="3.8" ry="4.8" fill="#0b0b0b"/>'
        '<ellipse cx="37.5" cy="25" rx="3.8" ry="4.8" fill="#0b0b0b"/>'
        '<path d="M31,37 L32,41 L33,37" fill="#2e7d32"/>',
    ),
}

_PLAYER_AVATAR_LABELS = dict(PLAYER_AVATAR_CHOICES)


def player_avatar_svg(choice: str, *, size: int = 64) -> str:
    """A round portrait for a player's profile, one of PLAYER_AVATAR_CHOICES."""
    if choice not in PORTRAITS:
        raise ValueError(f"Unknown player avatar {choice!r}.")
    background, drawing = PORTRAITS[choice]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="{int(size)}" '
        f'height="{int(size)}" class="player-avatar" role="img" '
        f'aria-label="{_esc(_PLAYER_AVATAR_LABELS[choice])}">'
        f'<circle cx="32" cy="32" r="31" fill="{background}"/>'
        '<circle cx="32" cy="22" r="22" fill="#fff" opacity="0.08"/>'
        f"{drawing}"
        '<circle cx="32" cy="32" r="30.5" fill="none" stroke="#fff" stroke-opacity="0.55" '
        'stroke-width="2"/></svg>'
    )
