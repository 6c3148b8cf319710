"""Words for what the engine lists: each legal action as the button a player clicks."""

from collections import Counter
from collections.abc import Mapping, Sequence

from game.engine.events import ATTRIBUTE_NAMES

FIXED_LABELS = {
    "keep": "Keep this hand",
    "redraw": "Redraw (your avatar takes 1 damage)",
    "done": "End Main Phase",
    "pass": "Pass",
    "accept": "Use it",
    "decline": "Don't use it",
}


def action_label(
    action: dict,
    titles: list[str],
    *,
    names: Sequence[str] = (),
    avatars: Mapping[int, str] | None = None,
) -> str:
    """The button text of ``action``; ``titles`` are the card titles by card id, ``names``
    the players' by seat and ``avatars`` the players' by their avatar's card id (a team
    game's actions name a player: MULTIPLAYER GAMES, "Commanders")."""
    kind = action["kind"]
    if kind in FIXED_LABELS:
        return FIXED_LABELS[kind]
    card = titles[action["card"]] if "card" in action else ""
    quest = titles[action["quest"]] if action.get("quest") is not None else ""
    if kind == "attempt_quest":
        return f"Attempt {quest}"
    if kind == "raid" and action.get("avatar") is not None:
        target = (avatars or {}).get(action["avatar"], titles[action["avatar"]])
        return f"Raid {quest}, attacking {target}"
    if kind == "raid":
        return f"Raid {quest}"
    if kind == "play":
        return f"Play {card} at {quest}" if quest else f"Play {card}"
    if kind == "apply_ability":
        return f"Apply {card}"
    if kind == "discard":
        return f"Discard {card}"
    if kind == "exert":
        return f"Exert {card} for {ATTRIBUTE_NAMES.get(action['attribute'], action['attribute'])}"
    if kind == "play_tactic":
        return f"Play {card}"
    if kind == "assign_damage":
        return f"Damage {card}"
    if kind == "activate":
        return f"Use {card} (action {action['action'] + 1})"
    if kind == "choose":
        return f"Choose {card}"
    if kind == "commander" and action["seat"] < len(names):
        return f"{names[action['seat']]} commands the defense"
    return kind.replace("_", " ").capitalize()


def exert_all_label(attribute: str, count: int) -> str:
    """The button that exerts every card the combat action may exert, one after the other."""
    return f"Exert all for {ATTRIBUTE_NAMES.get(attribute, attribute)} ({count})"


def damage_batch_label(title: str, points: int) -> str:
    """The button that assigns the ``points`` of damage left to one combatant, as many as it
    can take."""
    return f"Damage {title} with up to {points}"


ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def told_apart(label: str, places: Sequence[tuple[Sequence[str], int]]) -> list[str]:
    """The labels of buttons that would all read ``label``, one for each copy of a card in
    play: each names what sets its copy apart. ``places`` holds, for each copy, the words for
    where and how it stands (whose it is, its quest or zone, ready or exerted, its damage), and
    its place in its row from the left; a label adds the words that differ among the copies,
    and where copies still read alike, their place from the left."""
    varying = [
        index
        for index in range(len(places[0][0]))
        if len({words[index] for words, _ in places}) > 1
    ]
    differences = [tuple(words[index] for index in varying) for words, _ in places]
    alike = Counter(differences)
    told = []
    for difference, (_, left) in zip(differences, places, strict=True):
        parts = list(difference)
        if alike[difference] > 1:
            rank = 1 + sum(
                1
                for other, (_, at) in zip(differences, places, strict=True)
                if other == difference and at < left
            )
            parts.append(f"{rank}{ORDINAL_SUFFIXES.get(rank, 'th')} from the left")
        told.append(f"{label} ({', '.join(parts)})")
    return told
