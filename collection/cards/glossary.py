"""The rulebook's glossary keywords and terms, as shown on card faces and in tooltips.

Pure data: the card faces, the card browser's keyword filter and the rules vocabulary
(``collection.cards.cardrules``) all read it. Definitions follow the rulebook's GLOSSARY.
"""

# Keywords a card can carry (a card's ``rules["keywords"]`` names come from here).
KEYWORDS: dict[str, str] = {
    "agility": (
        "Whenever an opposing unit is played to the quest of this unit, this unit is readied."
    ),
    "ambush": "You can play this unit as a combat action. It joins the combat.",
    "durable": "This unit can't leave play unless it has 0 health.",
    "elusive": "This unit can't be affected by other cards.",
    "entanglement": "This ability is played exerted, under an opponent's control.",
    "evasion": (
        "Whenever combat begins involving one or more of your combatants that have evasion, "
        "you get +1 total defense."
    ),
    "expertise": ("At the end of your turn, this unit permanently gets +1 attack and +1 defense."),
    "intel": (
        "Whenever you play another card that costs 4 or more, this card loses Intel and you "
        "gain 1 power. Some game text lets you remove Intel to pay costs."
    ),
    "invulnerable": "This unit or avatar can't take damage of any kind.",
    "operative": (
        "When your avatar begins combat against another avatar, if this unit is ready, "
        "it joins the combat."
    ),
    "pin": (
        "When this card becomes exerted, deal 1 damage to it, then remove pin from it. "
        "Whenever a player completes a quest, he removes pin from all his cards."
    ),
    "precise": (
        "Whenever your opponent is about to assign damage from combat involving this card, "
        "you assign that damage instead."
    ),
    "reinforcement": "This card costs -1 power to play on turn 8 or later.",
    "secondary": "When this card leaves play, remove it from the game.",
    "sentry": "Whenever your avatar is attacked, if this unit is ready, it joins the combat.",
    "shield": (
        "When this unit or avatar would be dealt a point of damage, it loses a point from "
        "its shield instead."
    ),
    "smuggle": (
        "When you apply this ability at a quest, a copy of the named card is created in your hand."
    ),
    "striketrough": (
        "Whenever combat begins involving one or more of your combatants that have "
        "striketrough, you get +1 total attack."
    ),
    "unique": (
        "You can't play another card that has the same title as this card while this one "
        "is on your playmat."
    ),
    "versatile": (
        "Whenever you place level tokens at this unit's quest, place an equal number of "
        "tokens on this unit."
    ),
}

# Other glossary terms that game text uses; highlighted on faces like keywords.
TERMS: dict[str, str] = {
    "for each": (
        "Counts only cards on the playmat; cards in a hand, discard pile or deck are not counted."
    ),
    "joins": (
        'A card that joins a combat doesn\'t trigger "begins attacking", "begins '
        'defending" or "combat begins involving" text.'
    ),
    "link": "An ongoing effect that lasts until either linked card leaves play.",
    "permanently": (
        "The change stays even if the card that caused it leaves play; it ends when the "
        "changed card itself leaves play."
    ),
    "search": "Look through your deck for a card, reveal it, then shuffle your deck.",
    "target": (
        "An ongoing effect between two cards that lasts until either leaves play; often pays "
        "off when the targeted card is destroyed."
    ),
    "withdraw": (
        "When all the combatants on one side withdraw, the combat ends with no winner and "
        "no damage."
    ),
    "exert": "Use a ready card; it becomes dimmed. Only a ready card can be exerted.",
    "ready": "Make an exerted card able to be exerted again.",
    "apply": (
        "Create level tokens equal to this ability's level at a quest, then destroy the ability."
    ),
    "raid": (
        "All your ready units at one quest attack the opposing units there, or the opposing "
        "avatar if there are none."
    ),
}

GLOSSARY: dict[str, str] = {**KEYWORDS, **TERMS}
