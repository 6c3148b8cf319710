"""What the playmat tells its own player beyond the cards: the sounds a moment calls for
(static/js/sounds.js plays each once, by its key) and the Player Tips of the game screen
(rulebook, PREFERENCES, Hide Player Tips: "Excessive Attack", "Quest Filled"), read from the
game's view as that player sees it."""

from tcgsite.accounts.models import TipScreen

ATTACKING, DEFENDING = 0, 1


def playmat_cues(view: dict, seat: int | None, *, game_number: int, over: bool) -> dict:
    """``{"sounds": [{"name", "key"}], "tips": [TipScreen]}`` for ``seat``; an observer
    (None) hears nothing and gets no tip. A sound's key names its moment, so a redraw of the
    same moment plays it no second time."""
    if seat is None:
        return {"sounds": [], "tips": []}
    sounds = []
    if over or view["winner"] is not None:
        sounds.append({"name": "game_end", "key": f"end-{game_number}"})
    elif view["active"] == seat:
        sounds.append({"name": "your_turn", "key": f"turn-{game_number}-{view['turn']}"})
    combat = view["combat"]
    if combat and combat["kind"] == "raid" and _defends(view, combat, seat) and not over:
        raids = next(
            quest["raids"] for quest in view["quests"] if quest["card"]["id"] == combat["quest"]
        )
        sounds.append(
            {
                "name": "raid",
                "key": f"raid-{game_number}-{view['turn']}-{combat['quest']}-{raids}",
            }
        )
    tips = []
    if not over and _attack_beyond_defense(combat, seat):
        tips.append(TipScreen.EXCESSIVE_ATTACK)
    if not over and _quest_filled(view, seat):
        tips.append(TipScreen.QUEST_FILLED)
    return {"sounds": sounds, "tips": tips}


def _defends(view: dict, combat: dict, seat: int) -> bool:
    """Whether ``seat`` is on the combat's defending side: its commander, or (a team game)
    the commander's teammate."""
    commander = combat["sides"][DEFENDING]["seat"]
    if commander == seat:
        return True
    return any(seat in side and commander in side for side in view.get("sides", ()))


def _attack_beyond_defense(combat: dict | None, seat: int) -> bool:
    """``seat`` commands the attack, and its total already beats the defense: more attack
    deals no more damage (COMBAT, "Determine the Winner", "Exert a Card for Damage Bonus")."""
    if combat is None or combat["sides"][ATTACKING]["seat"] != seat:
        return False
    return combat["sides"][ATTACKING]["total"] > combat["sides"][DEFENDING]["total"]


def _quest_filled(view: dict, seat: int) -> bool:
    """A quest holds enough of ``seat``'s level tokens to complete it, yet stands: tokens
    moved there complete it only when the player next quests there (QUEST PHASE)."""
    return any(
        quest["tokens"][seat] >= quest["card"]["level"] > 0
        for quest in view["quests"]
        if len(quest["tokens"]) > seat
    )


# The game screen's Player Tips, shown while their moment lasts (``playmat_cues``).
GAME_SCREEN_TIPS = {
    TipScreen.EXCESSIVE_ATTACK: (
        "Your attack already beats the defense. Exerting more cards for attack adds no"
        " damage: the winner deals 1 damage, plus the damage bonus of one card exerted once"
        " the combat is won.",
        "Keep your other cards ready instead: a ready unit can still defend, raid or quest.",
    ),
    TipScreen.QUEST_FILLED: (
        "A quest holds enough of your level tokens to complete it, yet it stands: tokens"
        " moved there by an effect complete a quest only when you next attempt it.",
        "Attempt it in your Quest Phase (you need a ready ability with a level to attempt a"
        " quest), and it is completed then.",
    ),
}


def game_screen_tips(hidden: list[str]) -> list[dict]:
    """The game screen's tips that a player has not hidden, for the match page."""
    return [
        {"screen": screen, "tips": tips}
        for screen, tips in GAME_SCREEN_TIPS.items()
        if screen not in hidden
    ]
